/**
 * Issue 13 in-process: health, readiness, ETag and 304, content coding with cached compressed
 * bytes, /metrics, and a live store swap (LiveStore.reload) on the two fixture stores.
 */
import { rm } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressions } from '../../src/http/answer.js';
import { buildServedApp } from '../../src/http/app.js';
import type { LiveStore } from '../../src/http/live-store.js';
import { storeBuildId } from '../../src/serve/generation/identity.js';
import { readStoreMeta } from '../../src/serve/store/serving.js';
import { ROTA } from '../serve/cases/fixture.js';
import { buildTwoStores, type TwoStores } from './stores.js';

let stores: TwoStores;
let app: FastifyInstance;
let live: LiveStore;

beforeAll(async () => {
  stores = await buildTwoStores();
  ({ app, live } = await buildServedApp({ storePath: stores.older }));
  await live.current!.complete;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await rm(stores.dir, { recursive: true, force: true });
});

const ROTA_CASES = `/cases?vaccine=${encodeURIComponent(ROTA)}`;

describe('health', () => {
  it('/healthz answers 200 {"ok":true}, never cached', async () => {
    const res = await app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/readyz gives the loaded store: reports_through, analyses and its build id', async () => {
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.ready).toBe(true);
    expect(body.reports_through).toBe('2000Q3');
    expect(body.analyses).toEqual(['all', 'serious']);
    expect(body.store_build).toBe(storeBuildId(await readStoreMeta(stores.older)));
    expect(body.store_build).toMatch(/^[0-9a-f]{12}$/);
    expect(body.build).toBe(res.headers['x-reports-build']);
  });

  it('without a store: /healthz 200, /readyz and the resources 503 with an Error object', async () => {
    const empty = await buildServedApp({ storePath: `${stores.dir}/missing.duckdb` });
    try {
      expect((await empty.app.inject('/healthz')).statusCode).toBe(200);
      for (const url of ['/readyz', '/signals?vaccine=X', '/cases?vaccine=X', '/vaccines', '/analyses']) {
        const res = await empty.app.inject(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json().error, url).toContain('missing.duckdb');
        expect(res.json().hypothesis, url).toMatch(/hypothesis/);
      }
    } finally {
      await empty.app.close();
    }
  });
});

describe('ETag and 304', () => {
  const urls = [`/signals?vaccine=${encodeURIComponent(ROTA)}`, ROTA_CASES, '/analyses', '/vaccines', `/analyses/serious/cases?vaccine=${encodeURIComponent(ROTA)}`];

  it('every 200 of /signals, /cases, /analyses, /vaccines carries a weak ETag and Vary: Accept-Encoding', async () => {
    for (const url of urls) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers.etag, url).toMatch(/^W\/"[0-9a-f]{20}"$/);
      expect(res.headers.vary, url).toBe('Accept-Encoding');
    }
  });

  it('a matching If-None-Match gives 304 with no body and the same ETag; another tag gives 200', async () => {
    for (const url of urls) {
      const first = await app.inject(url);
      const etag = first.headers.etag as string;
      const again = await app.inject({ url, headers: { 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      expect(again.headers.etag, url).toBe(etag);
      expect(again.headers['cache-control'], url).toBe('public, max-age=60');
      expect((await app.inject({ url, headers: { 'if-none-match': `"x", ${etag.slice(2)}` } })).statusCode, url).toBe(304);
      expect((await app.inject({ url, headers: { 'if-none-match': '*' } })).statusCode, url).toBe(304);
      expect((await app.inject({ url, headers: { 'if-none-match': 'W/"0000"' } })).statusCode, url).toBe(200);
    }
  });

  it('the ETag follows the normalised query: equal for equivalent URLs, different for different answers', async () => {
    const tag = async (url: string) => (await app.inject(url)).headers.etag;
    expect(await tag('/signals?vaccine=ROTAVIRUS&limit=5&order=desc')).toBe(await tag('/signals?order=desc&limit=5&vaccine=ROTAVIRUS'));
    expect(await tag('/signals?vaccine=ROTAVIRUS&limit=5')).not.toBe(await tag('/signals?vaccine=ROTAVIRUS&limit=6'));
    expect(await tag('/signals?vaccine=ROTAVIRUS')).not.toBe(await tag('/analyses/serious/signals?vaccine=ROTAVIRUS'));
    expect(await tag(ROTA_CASES)).not.toBe(await tag(`/analyses/serious/cases?vaccine=${encodeURIComponent(ROTA)}`));
  });

  it('a second replica serving the same store gives the same ETags', async () => {
    const replica = await buildServedApp({ storePath: stores.older });
    try {
      for (const url of urls) expect((await replica.app.inject(url)).headers.etag, url).toBe((await app.inject(url)).headers.etag);
    } finally {
      await replica.app.close();
    }
  });

  it('errors carry no ETag', async () => {
    const res = await app.inject('/signals?vaccine=ROTAVIRUS&format=nope');
    expect(res.statusCode).toBe(400);
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('compression', () => {
  const big = `${ROTA_CASES}&limit=50`;

  it('brotli or gzip as accepted, the bytes decoding to the identity body', async () => {
    const plain = await app.inject(big);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await app.inject({ url: big, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    const br = await app.inject({ url: big, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const refused = await app.inject({ url: big, headers: { 'accept-encoding': 'br;q=0, gzip;q=0.5' } });
    expect(refused.headers['content-encoding']).toBe('gzip');
    const identity = await app.inject({ url: big, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('a cached answer is compressed once per coding, then its compressed bytes are reused', async () => {
    const url = `/cases?event=Intussusception&limit=40`;
    const before = compressions.gzip;
    const first = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const second = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(compressions.gzip - before).toBe(1);
  });

  it('bodies under 1 KB are sent as they are', async () => {
    const res = await app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    const small = await app.inject({ url: '/signals?vaccine=NOSUCHVACCINE&limit=1', headers: { 'accept-encoding': 'gzip' } });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('other routes are compressed too (@fastify/compress): /openapi.json, /llms.txt', async () => {
    for (const url of ['/openapi.json', '/llms.txt']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(res.rawPayload).length, url).toBeGreaterThan(1024);
    }
  });
});

describe('/metrics', () => {
  it('counts requests by route pattern and status, cache hits and misses, and names the store', async () => {
    await app.inject('/analyses/serious/signals?vaccine=ROTAVIRUS&limit=3');
    await app.inject('/analyses/serious/signals?vaccine=ROTAVIRUS&limit=3');
    await app.inject('/no/such/path');
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0.0.4/);
    const text = res.body;
    const value = (pattern: RegExp): number => Number(text.match(pattern)?.[1] ?? NaN);
    expect(value(/^http_requests_total\{method="GET",route="\/analyses\/:analysis\/signals",status="200"\} (\d+)$/m)).toBeGreaterThanOrEqual(2);
    expect(value(/^http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/analyses\/:analysis\/signals",status="200"\} \d+$/m);
    expect(value(/^reporting_signals_answer_cache_hits_total\{resource="signals"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^reporting_signals_answer_cache_misses_total\{resource="signals"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    const storeBuild = (await app.inject('/readyz')).json().store_build;
    expect(text).toContain(`reporting_signals_store_info{store_build="${storeBuild}"`);
    expect(text).toMatch(/reporting_signals_store_info\{[^}]*reports_through="2000Q3",analyses="all,serious"[^}]*\} 1/);
    expect(value(/^reporting_signals_store_load_seconds ([\d.e-]+)$/m)).toBeGreaterThan(0);
    expect(value(/^reporting_signals_store_loaded (\d)$/m)).toBe(1);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
  });
});

describe('/vaccines', () => {
  it('lists every vaccine of the fixture with hand-counted reports and quarters, and agrees with /signals', async () => {
    const res = await app.inject('/vaccines');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.analysis).toBe('all');
    expect(body.reports_through).toBe('2000Q3');
    expect(body.vaccines.map((v: { vaccine: string }) => v.vaccine)).toEqual(['DTAP (TRIPEDIA)', 'HEP B (ENGERIX-B)', 'ROTAVIRUS (ROTASHIELD)']);
    // 2000 only: ROTA in 101 (2000Q1), 102 (Q1), 103 (Q2), 104 (Q3); HEP B in 103 (Q2), 105 (Q3); DTAP in 101 (Q1).
    const rota = body.vaccines.find((v: { vaccine: string }) => v.vaccine === ROTA);
    expect(rota).toMatchObject({ vax_type: 'ROTAVIRUS', vax_type_codes: ['RV'], reports: 4, first_quarter: '2000Q1', latest_quarter: '2000Q3' });
    const hepb = body.vaccines.find((v: { vaccine: string }) => v.vaccine === 'HEP B (ENGERIX-B)');
    expect(hepb).toMatchObject({ vax_type_codes: ['HEP'], reports: 2, first_quarter: '2000Q2', latest_quarter: '2000Q3' });
    for (const v of body.vaccines) {
      const signals = await app.inject(`/signals?vaccine=${encodeURIComponent(v.vaccine)}&limit=500`);
      expect(v.flagged_pairs, v.vaccine).toBe(Number(signals.headers['x-total-count']));
      const cases = await app.inject(`/cases?vaccine=${encodeURIComponent(v.vaccine)}&limit=1`);
      expect(v.reports, v.vaccine).toBe(cases.json().n_reports);
    }
  });

  it('/analyses/NAME/vaccines counts the pairs of that analysis; an unknown NAME is a 404 with the names', async () => {
    const res = await app.inject('/analyses/serious/vaccines');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-reports-analysis']).toBe('serious');
    expect(res.headers.etag).not.toBe((await app.inject('/vaccines')).headers.etag);
    const body = res.json();
    expect(body.analysis).toBe('serious');
    const all = (await app.inject('/vaccines')).json();
    expect(body.vaccines.map((v: { vaccine: string; reports: number }) => [v.vaccine, v.reports])).toEqual(all.vaccines.map((v: { vaccine: string; reports: number }) => [v.vaccine, v.reports]));
    for (const v of body.vaccines) {
      const signals = await app.inject(`/analyses/serious/signals?vaccine=${encodeURIComponent(v.vaccine)}&limit=500`);
      expect(v.flagged_pairs, v.vaccine).toBe(JSON.parse(signals.body).filter((p: { vaccine: string }) => p.vaccine === v.vaccine).length);
    }
    const unknown = await app.inject('/analyses/nope/vaccines');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().allowed).toEqual(['all', 'serious']);
  });

  it('takes no parameters: 400 with an Error object', async () => {
    const res = await app.inject('/vaccines?vaccine=x');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.stringContaining('no parameters'), allowed: [] });
  });
});

describe('live store swap (in process)', () => {
  it('reload loads the new store beside the old one and swaps: headers, answers and ETags change', async () => {
    const url = `/signals?vaccine=${encodeURIComponent(ROTA)}`;
    const before = await app.inject(url);
    const beforeCases = await app.inject(ROTA_CASES);
    expect(before.headers['x-reports-through']).toBe('2000Q3');
    const oldGeneration = live.current!;
    const result = await live.reload(stores.newer);
    expect(result.ok).toBe(true);
    const after = await app.inject(url);
    expect(after.headers['x-reports-through']).toBe('2001Q4');
    expect(after.headers['x-reports-build']).not.toBe(before.headers['x-reports-build']);
    expect(after.headers['x-reports-build']).toMatch(/^api-[0-9a-f]{12} src-\S+$/);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const afterCases = await app.inject(ROTA_CASES);
    expect(beforeCases.json().n_reports).toBe(4);
    expect(afterCases.json().n_reports).toBe(5);
    // A tag of the old store no longer matches.
    expect((await app.inject({ url: ROTA_CASES, headers: { 'if-none-match': beforeCases.headers.etag as string } })).statusCode).toBe(200);
    expect((await app.inject('/readyz')).json().reports_through).toBe('2001Q4');
    expect(live.current).not.toBe(oldGeneration);
  });

  it('a store that fails to load is reported and the current one stays', async () => {
    const current = live.current;
    const result = await live.reload(`${stores.dir}/nope.duckdb`);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain('nope.duckdb');
    expect(live.current).toBe(current);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    const metrics = (await app.inject('/metrics')).body;
    expect(metrics).toMatch(/^reporting_signals_store_loads_total\{result="failed"\} [1-9]/m);
  });

  it('a request in flight finishes on the store it started on', async () => {
    const held = live.current!.acquire();
    const swapped = await live.reload(stores.older);
    expect(swapped.ok).toBe(true);
    // The retired generation is still usable while a request holds it.
    const service = await held.analyses.service('all')!;
    expect(service.answer(`vaccine=${encodeURIComponent(ROTA)}`).status).toBe(200);
    expect(held.meta.reports_through).toBe('2001Q4');
    held.release();
    expect((await app.inject('/readyz')).json().reports_through).toBe('2000Q3');
  });

  it('a reload asked for during a load runs once more after it; further asks share that one', async () => {
    const before = live.loads.ok;
    const first = live.reload(stores.newer);
    const second = live.reload(stores.newer);
    const third = live.reload(stores.newer);
    expect(third).toBe(second);
    const [a, b] = await Promise.all([first, second]);
    expect(a.ok && b.ok).toBe(true);
    expect(live.loads.ok - before).toBe(2);
    expect(a.ok && b.ok && a.generation !== b.generation).toBe(true);
    expect((await app.inject('/readyz')).json().reports_through).toBe('2001Q4');
  });
});

describe('the new answers match their /openapi.json schemas (Ajv)', () => {
  it('/vaccines, /readyz, /healthz 200 and /readyz, /vaccines errors', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
    const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    const empty = await buildServedApp({ storePath: `${stores.dir}/missing.duckdb` });
    try {
      const cases: Array<[FastifyInstance, string, string]> = [
        [app, '/vaccines', '200'], [app, '/vaccines?x=1', '400'], [app, '/readyz', '200'], [app, '/healthz', '200'], [app, '/analyses', '200'],
        [empty.app, '/readyz', '503'], [empty.app, '/vaccines', '503'],
      ];
      for (const [server, url, status] of cases) {
        const res = await server.inject(url);
        expect(String(res.statusCode), url).toBe(status);
        const path = url.split('?')[0];
        const validate = ajv.compile({ $ref: pointer('paths', path, 'get', 'responses', status, 'content', 'application/json', 'schema') });
        expect(validate(res.json()), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    } finally {
      await empty.app.close();
    }
  });
});
