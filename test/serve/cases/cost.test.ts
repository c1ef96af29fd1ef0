/**
 * The cost model of a request (issue 35, "no request can freeze the server"), on the hand-made
 * fixture of test/serve/cases/fixture.ts with its narratives (built with --narratives by the real build,
 * served by the real app), plus narratives of made-up words (`za0`..`za1000`, `ya0`..`ya699`,
 * `yb0`..`yb699`, `yc0`..`yc699`) for the prefix caps:
 * - a text's repeated terms count once (`query.text`, ETag and reports as the text without repeats);
 * - a prefix over 1,000 words, or prefixes over 2,000 words together: 400 naming the limit;
 * - OR, AND, NOT, parentheses: 400 saying what is supported (issue 36);
 * - the text is searched once, also with a vaccine and an event, and another page, limit or format
 *   of the same query is rendered from the cached case series (no search);
 * - a deadline on every route: 503 with the Error object and Retry-After, the late answer dropped;
 *   the work behind a /cases request stops at its deadline (503 with Retry-After);
 * - a client that closes its connection aborts its request's signal (the work stops);
 * - every documented operation lists the 503 with Retry-After.
 */
import { mkdtempSync } from 'node:fs';
import { request as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../../src/serve/query/caveats.js';
import { errorBody } from '../../../src/serve/query/error-object.js';
import { Unavailable } from '../../../src/serve/query/unavailable.js';
import { buildApp, buildServedApp } from '../../../src/http/app.js';
import { DEADLINE_RETRY_AFTER_SECONDS, deadlineMessage } from '../../../src/http/deadline.js';
import type { LiveStore } from '../../../src/http/live-store.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { TEXT_USAGE } from '../../../src/serve/narratives/query.js';
import { searchStats } from '../../../src/serve/narratives/search-pool.js';
import { CASE_NARRATIVES, writeCaseFolder } from './fixture.js';

const words = (stem: string, n: number): string => Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');
const CELLS = {
  ...CASE_NARRATIVES,
  107: { ...CASE_NARRATIVES[107], LAB_DATA: words('za', 1001), HISTORY: words('ya', 700) },
  108: { ...CASE_NARRATIVES[108], LAB_DATA: words('yb', 700), HISTORY: words('yc', 700) },
};

const dir = mkdtempSync(join(tmpdir(), 'cases-cost-'));
const store = join(dir, 'cost.duckdb');
let app: FastifyInstance;
let live: LiveStore;

async function get(url: string, on = app): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const res = await on.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers };
}
async function ids(url: string): Promise<number[]> {
  const { status, body } = await get(url);
  if (status !== 200) throw new Error(`${url}: ${status} ${JSON.stringify(body)}`);
  return (body.reports as Array<{ vaers_id: number }>).map((r) => r.vaers_id);
}

async function ready(on: FastifyInstance): Promise<void> {
  while ((await on.inject({ method: 'GET', url: '/readyz' })).statusCode !== 200) await new Promise((done) => setTimeout(done, 50));
}

beforeAll(async () => {
  const vaers = await writeCaseFolder(join(dir, 'vaers'), CELLS);
  await buildStore({ vaers, out: store, analyses: 'all', workers: 1, narratives: true });
  ({ app, live } = await buildServedApp({ storePath: store }));
  await ready(app);
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe('/cases text: normalised, capped, operators refused', () => {
  it('counts a repeated term once: the same reports, query.text and ETag as without the repeats', async () => {
    const once = await get('/cases?text=intussuscep*');
    const repeated = await get(`/cases?text=${encodeURIComponent(Array(13).fill('intussuscep*').join(' ') + ' INTUSSUSCEP*')}`);
    expect(repeated.status).toBe(200);
    expect(await ids('/cases?text=intussuscep*+intussuscep*+intussuscep*')).toEqual([106, 102, 101]);
    expect((repeated.body.query as { text: string }).text).toBe('intussuscep*');
    expect(repeated.headers.etag).toBe(once.headers.etag);
  });

  it('answers 400 naming the limit for a prefix over 1000 words, or prefixes over 2000 words together', async () => {
    expect(await get('/cases?text=za*+fever')).toEqual({
      status: 400, headers: expect.anything(),
      body: { error: 'text prefix za* matches 1001 distinct words of the narratives, over the limit of 1000 words per prefix: give it more letters', hypothesis: HYPOTHESIS, usage: TEXT_USAGE },
    });
    const all = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&text=ya*+yb*+yc*');
    expect(all.status).toBe(400);
    expect(all.body.error).toBe('text prefixes match 2100 distinct words of the narratives in all, over the limit of 2000 words per text: give them more letters, or fewer prefixes');
    // Within the limits: za1* is za1, za10..za19, za100..za199, za1000 (112 words), ya* yb* 1,400.
    expect(await ids('/cases?text=za1*')).toEqual([107]);
    expect(await ids('/cases?text=ya*+yb*')).toEqual([]);
    expect(await ids('/cases?text=ya1*+-yb*')).toEqual([107]);
  });

  it('answers 400 for OR, AND, NOT and parentheses, saying what is supported (issue 36)', async () => {
    const or = await get('/cases?text=surgery+OR+surgical');
    expect(or.status).toBe(400);
    expect(or.body).toEqual({
      error: 'text does not support OR: every term is required (an implicit AND), and there is no OR or grouping; search one alternative at a time, or use a prefix (surg* finds surgery and surgical), and -word for NOT',
      hypothesis: HYPOTHESIS, usage: TEXT_USAGE,
    });
    expect((await get('/cases?text=%28surgery+enema%29')).body.error).toMatch(/^text does not support parentheses: /);
    expect((await get('/cases?vaccine=ROTAVIRUS&text=surgery+AND+target')).body.error).toMatch(/^text does not support AND: /);
    expect(await ids('/cases?text=surgery+target')).toEqual([101]);
  });
});

describe('/cases: the search done once, pages from the cached case series', () => {
  it('searches once with a vaccine and an event, and not again for another offset, limit or format', async () => {
    const before = searchStats.found;
    const first = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&text=intussuscep*&limit=1');
    expect(first.status).toBe(200);
    expect(first.body.n_reports).toBe(3);
    expect(searchStats.found).toBe(before + 1);
    expect(await ids('/cases?vaccine=ROTAVIRUS&event=Intussusception&text=intussuscep*&limit=1&offset=1')).toEqual([102]);
    expect(await ids('/cases?vaccine=ROTAVIRUS&event=Intussusception&text=intussuscep*&offset=2')).toEqual([101]);
    const csv = await app.inject({ method: 'GET', url: '/cases?vaccine=ROTAVIRUS&event=Intussusception&text=intussuscep*&format=csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter((line) => line !== '').length).toBe(4);
    expect(searchStats.found).toBe(before + 1);
  });

  it('stops the work at its deadline: a 503 with Retry-After from the route', async () => {
    const cases = (await live.current!.cases)!;
    await expect(cases.answer('text=attorney+-surgery', null, { deadline: Date.now() - 1 })).rejects.toMatchObject({ why: 'deadline' });
    const reason = new Unavailable('cancelled', 'gone');
    await expect(cases.answer('text=attorney+-enema', null, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('a deadline on every route', () => {
  it('answers 503 with the Error object and Retry-After when a route outlives its deadline; /healthz still answers', async () => {
    const short = await buildApp({ storePath: store, deadlineMs: 30 });
    let late: unknown = null;
    short.get('/test-slow', async (_request, reply) => {
      await new Promise((done) => setTimeout(done, 300));
      late = reply.sent;
      return reply;
    });
    try {
      await ready(short);
      const res = await short.inject({ method: 'GET', url: '/test-slow' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(DEADLINE_RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual(errorBody(deadlineMessage(30)));
      expect(deadlineMessage(30)).toBe('the request was not answered within its deadline of 30 ms and was stopped (the server is busy, or the query is costly: narrow it); retry after a few seconds');
      await new Promise((done) => setTimeout(done, 400));
      expect(late).toBe(true);
      expect((await short.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('aborts the work of a request whose client closes the connection', async () => {
    const served = await buildApp({ storePath: store });
    let reason: unknown = null;
    let started!: () => void;
    const running = new Promise<void>((done) => (started = done));
    served.get('/test-wait', async (request, reply) => {
      started();
      reason = await new Promise((done) => request.stop.addEventListener('abort', () => done(request.stop.reason), { once: true }));
      return reply.send('never read');
    });
    try {
      await served.listen({ port: 0, host: '127.0.0.1' });
      const { port } = served.server.address() as { port: number };
      const client = httpGet({ host: '127.0.0.1', port, path: '/test-wait' });
      client.on('error', () => {});
      client.end();
      await running;
      client.destroy();
      while (reason === null) await new Promise((done) => setTimeout(done, 10));
      expect(reason).toBeInstanceOf(Unavailable);
      expect(reason).toMatchObject({ why: 'cancelled', message: 'the client closed the connection before its answer' });
    } finally {
      await served.close();
    }
  });

  it('documents the 503 with Retry-After on every operation', async () => {
    const doc = (await get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; description: string }> }>> };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(10);
    for (const { path, method, op } of operations) {
      expect(op.responses['503'], `${method} ${path}`).toBeDefined();
      expect(op.responses['503'].headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
      expect(op.responses['503'].description, `${method} ${path}`).toContain('deadline');
    }
  });
});
