/**
 * GET /signals errors (spec 7, 2.5) and the "not shown" choices (spec 7, 8: our 400s naming
 * the allowed values). Every error is an Error object with `hypothesis`, CORS included.
 * Every /signals test runs at both places the contract is served (SIGNALS_PATHS: /signals and /analyses/NAME/signals).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { buildApp } from '../../src/http/app.js';
import { fixtureApp, getJson, SIGNALS_PATHS } from './helpers.js';

describe.each(SIGNALS_PATHS)('GET $path', ({ path, analyses, analysis }) => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp({ analyses }); });
  afterAll(async () => { await app.close(); });

  async function expect400(url: string, pattern: RegExp): Promise<Record<string, unknown>> {
    const { status, body, res } = await getJson(app, url);
    expect(status, url).toBe(400);
    expect(body.error, url).toMatch(pattern);
    expect(body.hypothesis).toBe(HYPOTHESIS);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-reports-analysis'], url).toBe(analysis);
    expect(Object.keys(body).every((k) => ['error', 'hypothesis', 'allowed', 'usage'].includes(k))).toBe(true);
    return body;
  }

  describe('spec 7 errors', () => {
    it('none of vaccine, drug, event, q: 400', async () => {
      await expect400(path, /at least one of vaccine/);
      await expect400(`${path}?format=csv&limit=5`, /at least one of vaccine/);
      await expect400(`${path}?vaccine=&event=`, /at least one of vaccine/); // empty counts as absent
    });

    it('vaccine and drug both given and different: 400', async () => {
      await expect400(`${path}?vaccine=COVID19&drug=HPV9`, /must be identical/);
    });

    it('a query shorter than 3 characters that is neither an exact name nor an abbreviation: 400 "too short"', async () => {
      await expect400(`${path}?event=My`, /too short/);
      await expect400(`${path}?q=zz`, /too short/);
      await expect400(`${path}?vaccine=XY`, /too short/);
      await expect400(`${path}?vaccine=COVID19&event=ab`, /too short/);
      expect((await getJson(app, `${path}?vaccine=TD`)).status).toBe(200); // an abbreviation
      expect((await getJson(app, `${path}?q=td`)).status).toBe(200);
    });

    it('unknown format, including label and pdf: 400 with allowed (the format list)', async () => {
      for (const f of ['label', 'pdf', 'xml', 'JSON']) {
        const body = await expect400(`${path}?vaccine=COVID19&format=${f}`, /unknown format/);
        expect(body.allowed).toEqual(['json', 'csv', 'series', 'profile', 'brief', 'class']);
      }
    });

    it('sort=trend: 400', async () => {
      await expect400(`${path}?vaccine=COVID19&sort=trend`, /trend/);
    });

    it('min_eb05 or min_n not a number: 400; min_eb05 below 0: 400', async () => {
      for (const v of ['abc', 'NaN', 'Infinity', '1e', '0x10', '1,5']) {
        await expect400(`${path}?vaccine=COVID19&min_eb05=${v}`, /min_eb05 must be a number/);
        await expect400(`${path}?vaccine=COVID19&min_n=${v}`, /min_n must be a number/);
      }
      await expect400(`${path}?vaccine=COVID19&min_eb05=-0.1`, /min_eb05 must be at least 0/);
      expect((await getJson(app, `${path}?vaccine=COVID19&min_eb05=1.5e0`)).status).toBe(200);
    });
  });

  describe('spec 7/8 "not shown": our 400 answers, each naming the allowed values', () => {
    it('limit outside 1..500 or not an integer', async () => {
      for (const v of ['0', '501', '-1', '2.5', 'ten', '1e2', ' 5x']) await expect400(`${path}?vaccine=COVID19&limit=${v}`, /limit must be an integer from 1 to 500/);
      expect((await getJson(app, `${path}?vaccine=COVID19&limit=500`)).status).toBe(200);
      expect((await getJson(app, `${path}?vaccine=COVID19&limit=1`)).status).toBe(200);
    });

    it('numeric parameters, one rule: trimmed, optional leading sign (+5 = %2B5 = 5), -0 is 0', async () => {
      const header = async (url: string, name: string) => {
        const { status, res } = await getJson(app, url);
        expect(status, url).toBe(200);
        return res.headers[name];
      };
      expect(await header(`${path}?vaccine=HPV9&offset=-0`, 'x-offset')).toBe('0');
      expect(await header(`${path}?vaccine=HPV9&offset=%2B0`, 'x-offset')).toBe('0');
      for (const v of ['5', '+5', '%2B5', '%205%20', '%20%2B5', '05']) expect(await header(`${path}?vaccine=HPV9&limit=${v}`, 'x-limit'), v).toBe('5');
      expect(await header(`${path}?vaccine=HPV9&offset=%2B2`, 'x-offset')).toBe('2');
      expect(await header(`${path}?vaccine=COVID19&min_n=%2B85`, 'x-total-count')).toBe('2');
      expect(await header(`${path}?vaccine=COVID19&min_eb05=-0`, 'x-total-count')).toBe('2');
      expect(await header(`${path}?vaccine=COVID19&min_n=-0`, 'x-total-count')).toBe('3');
      expect((await app.inject(`${path}?vaccine=HPV9&offset=-0&limit=%2B2`)).body).toBe((await app.inject(`${path}?vaccine=HPV9&limit=2`)).body);
      for (const v of ['%2B-5', '-0', '%2B%2B1', '5%2B']) await expect400(`${path}?vaccine=COVID19&limit=${v}`, /limit must be an integer from 1 to 500/);
      for (const v of ['%2B%2B1', '--1', '1-']) await expect400(`${path}?vaccine=COVID19&min_n=${v}`, /min_n must be a number/);
    });

    it('offset below 0 or not an integer', async () => {
      for (const v of ['-1', '1.5', 'x', '99999999999999999999']) await expect400(`${path}?vaccine=COVID19&offset=${v}`, /offset must be an integer at least 0/);
    });

    it('min_n below 0', async () => {
      await expect400(`${path}?vaccine=COVID19&min_n=-1`, /min_n must be at least 0/);
    });

    it('unknown sort or order lists the allowed values', async () => {
      expect((await expect400(`${path}?vaccine=COVID19&sort=ebgm`, /unknown sort/)).allowed).toEqual(['eb05', 'n', 'latest']);
      expect((await expect400(`${path}?vaccine=COVID19&order=up`, /unknown order/)).allowed).toEqual(['desc', 'asc']);
    });

    it('a parameter given more than once', async () => {
      await expect400(`${path}?vaccine=COVID19&vaccine=COVID19`, /more than once/);
      await expect400(`${path}?vaccine=COVID19&limit=5&limit=6`, /more than once/);
      await expect400(`${path}?vaccine=COVID19&q=&q=`, /more than once/);
    });

    it('an unknown parameter (background=no_covid is not provided) lists the parameters', async () => {
      const body = await expect400(`${path}?vaccine=COVID19&background=no_covid`, /no_covid/);
      expect(body.allowed).toContain('min_eb05');
      await expect400(`${path}?vaccine=COVID19&limt=5`, /unknown parameter/);
    });

    it('format=series needs vaccine and event, or q: 400 with usage', async () => {
      for (const url of [`${path}?vaccine=COVID19&format=series`, `${path}?event=Myocarditis&format=series`, `${path}?vaccine=COVID19&q=x&format=series`]) {
        const body = await expect400(url, /format=series needs/);
        expect(body.usage).toMatch(/vaccine/);
      }
    });

    it('format=class needs vaccine or q: 400 with usage', async () => {
      expect((await expect400(`${path}?event=Myocarditis&format=class`, /format=class needs/)).usage).toBeTruthy();
    });
  });

  describe('other answers', () => {
    it('spec 5: CORS preflight from any origin', async () => {
      const res = await app.inject({ method: 'OPTIONS', url: path, headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
      expect(res.statusCode).toBeLessThan(300);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('a missing store: the server starts and /signals answers 503 with an Error object saying so', async () => {
      const bare = await buildApp({ storePath: '/nonexistent/store.duckdb' });
      const { status, body, res } = await getJson(bare, `${path}?vaccine=COVID19`);
      expect(status).toBe(503);
      expect(body.error).toMatch(/store is missing/);
      expect(body.hypothesis).toBe(HYPOTHESIS);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect((await bare.inject('/healthz')).statusCode).toBe(200);
      await bare.close();
    });
  });
});

describe('other answers: unknown routes', () => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp(); });
  afterAll(async () => { await app.close(); });

  it('unknown routes: 404 with an Error object and CORS', async () => {
    const { status, body, res } = await getJson(app, '/nope?x=1');
    expect(status).toBe(404);
    expect(body).toEqual({ error: expect.stringMatching(/no such resource/), hypothesis: HYPOTHESIS });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect((await app.inject({ method: 'POST', url: '/signals' })).statusCode).toBe(405); // read-only: see transport.test.ts
  });
});
