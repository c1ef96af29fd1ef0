/**
 * The analyses resource (`GET /analyses`, `/analyses/NAME/signals`) over the three-analysis fixture store
 * (test/serve/signals/fixture.ts: `all`, the default, and `stratified` with the same rows; `serious`
 * with the first series of FIXTURE_SERIES only): GET /analyses, GET /analyses/NAME/signals with
 * X-REPORTS-Analysis, the 404 of an unknown name, a one-analysis store, and /openapi.json.
 * The /signals contract itself at /analyses/NAME/signals: the spec tests (SIGNALS_PATHS).
 */
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALS_PARAMETERS } from '../../src/serve/signals/parameters.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { fixtureAnalyses, MODERNA, PFIZER } from '../serve/signals/fixture.js';
import { fixtureApp, getJson, keys } from './helpers.js';

const NAMES = ['all', 'stratified', 'serious'];
const LISTED_FIELDS = ['name', 'title', 'description', 'subset', 'stratified_by', 'strata', 'default', 'reports', 'pairs', 'windows', 'reports_through', 'fits_at_bound', 'signals'];

describe('a store with three analyses', () => {
  let app: FastifyInstance;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  beforeAll(async () => {
    app = await fixtureApp({ analyses: true });
    doc = (await getJson(app, '/openapi.json')).body;
  });
  afterAll(async () => { await app.close(); });

  describe('GET /analyses/NAME: the analysis with its fitted windows, fits on a bound named', () => {
    it('200 JSON: the /analyses entry, `fits` in quarter order with at_bound as names, the caveat; valid against its OpenAPI schema', async () => {
      const { status, body, res } = await getJson(app, '/analyses/serious');
      expect(status).toBe(200);
      expect(res.headers['x-reports-analysis']).toBe('serious');
      const { fits, hypothesis, ...entry } = body;
      expect(entry).toEqual({ ...fixtureAnalyses()[2], signals: '/analyses/serious/signals' });
      expect(hypothesis).toBe(HYPOTHESIS);
      expect(fits.map((w: { quarter: string; at_bound: string[] }) => [w.quarter, w.at_bound])).toEqual([['2023Q3', []], ['2023Q4', ['alpha1', 'beta2']]]);
      expect(fits[1]).toEqual({ quarter: '2023Q4', alpha1: 1e-5, beta1: 0.5, alpha2: 2, beta2: 20, p: 0.25, neg_log_lik: 123.5, converged: true, at_bound: ['alpha1', 'beta2'], n_pairs: 40, n_reports: 300 });
      const schema = doc.paths['/analyses/{analysis}'].get.responses['200'].content['application/json'].schema;
      const ajv = new Ajv({ strict: false });
      expect(ajv.validate(schema, body), JSON.stringify(ajv.errors)).toBe(true);
      expect((await getJson(app, '/analyses/all')).body.fits).toEqual([]);
    });

    it('an unknown analysis is a 404 Error object naming the others', async () => {
      const { status, body } = await getJson(app, '/analyses/nope');
      expect(status).toBe(404);
      expect(body.allowed).toEqual(NAMES);
    });
  });

  describe('GET /analyses', () => {
    it('200 JSON: the default, every analysis in order (the default first) with its signals path, and the caveat', async () => {
      const { status, body, res } = await getJson(app, '/analyses');
      expect(status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(body).sort()).toEqual(['analyses', 'default', 'hypothesis', 'linkage']);
      // the fixture store is written without a linkage (StoreMeta.linkage absent): null, not left out
      // (test/ingest/linkage/duplicates-served.test.ts serves a built store's figures)
      expect(body.linkage).toBeNull();
      expect(body.default).toBe('all');
      expect(body.hypothesis).toBe(HYPOTHESIS);
      expect(body.analyses.map((a: { name: string }) => a.name)).toEqual(NAMES);
      for (const a of body.analyses) {
        for (const field of LISTED_FIELDS) expect(a, `${a.name}.${field}`).toHaveProperty(field);
        expect(a.signals).toBe(`/analyses/${a.name}/signals`);
        expect(a.default).toBe(a.name === 'all');
      }
      expect(body.analyses).toEqual(fixtureAnalyses().map((a) => ({ ...a, signals: `/analyses/${a.name}/signals` })));
      const [all, stratified, serious] = body.analyses;
      expect([all.stratified_by, all.subset, all.reports, all.pairs, all.windows, all.reports_through, all.fits_at_bound]).toEqual([[], null, 1000, 13, 20, '2023Q4', 0]);
      expect([stratified.stratified_by.length, stratified.strata, all.strata]).toEqual([3, 'sex,age6,year', null]);
      expect([serious.subset, serious.pairs]).toEqual(['fixture: the first series only', 1]);
    });

    it('headers: Cache-Control public, max-age=60, X-REPORTS-Hypothesis, X-REPORTS-Build, CORS *', async () => {
      const res = await app.inject({ url: '/analyses', headers: { origin: 'https://example.org' } });
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
      expect(res.headers['x-reports-build']).toMatch(/^api-[0-9a-f]{12} src-/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('the body matches the /openapi.json schema of /analyses (Ajv)', async () => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema(doc, 'openapi.json');
      const validate = ajv.compile({ $ref: 'openapi.json#/paths/~1analyses/get/responses/200/content/application~1json/schema' });
      const { body } = await getJson(app, '/analyses');
      expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    });
  });

  describe('GET /analyses/NAME/signals', () => {
    it('serious holds the first series only: one pair, X-Total-Count 1, X-REPORTS-Analysis serious', async () => {
      const { status, body, res } = await getJson(app, '/analyses/serious/signals?q=myocarditis');
      expect(status).toBe(200);
      expect(keys(body)).toEqual([`${PFIZER}|Myocarditis`]);
      expect(res.headers['x-total-count']).toBe('1');
      expect(res.headers['x-reports-analysis']).toBe('serious');
      expect((await getJson(app, '/analyses/serious/signals?vaccine=COVID19')).body).toHaveLength(1);
      const none = await getJson(app, '/analyses/serious/signals?q=zos');
      expect([none.status, none.body, none.res.headers['x-total-count']]).toEqual([200, [], '0']);
    });

    it('all and /signals answer every matching pair; /signals says X-REPORTS-Analysis all', async () => {
      const all = await getJson(app, '/analyses/all/signals?q=myocarditis');
      expect(keys(all.body)).toEqual([`${PFIZER}|Myocarditis`, `${MODERNA}|Myocarditis`]);
      expect([all.res.headers['x-total-count'], all.res.headers['x-reports-analysis']]).toEqual(['2', 'all']);
      const bare = await getJson(app, '/signals?q=myocarditis');
      expect(bare.res.body).toBe(all.res.body);
      expect([bare.res.headers['x-total-count'], bare.res.headers['x-reports-analysis']]).toEqual(['2', 'all']);
      // the pair serious shares with all is computed from the same rows
      const serious = await getJson(app, '/analyses/serious/signals?q=myocarditis');
      expect(serious.body[0]).toEqual(all.body[0]);
    });

    it('stratified holds the rows of all here: the same answers, named stratified', async () => {
      for (const query of ['q=covid19', 'vaccine=HPV9&format=csv', 'q=zoster&format=series', 'vaccine=td&format=brief']) {
        const a = await app.inject(`/signals?${query}`);
        const s = await app.inject(`/analyses/stratified/signals?${query}`);
        expect([s.statusCode, s.body], query).toEqual([200, a.body]);
        expect(s.headers['x-reports-analysis']).toBe('stratified');
        expect(s.headers['x-total-count']).toBe(a.headers['x-total-count']);
      }
    });

    it('the query is parsed by the same parser: 400 answers are identical on every path', async () => {
      for (const query of ['format=pdf', '', 'vaccine=COVID19&limit=0', 'q=a']) {
        const expected = (await app.inject(`/signals?${query}`)).body;
        for (const name of NAMES) {
          const res = await app.inject(`/analyses/${name}/signals?${query}`);
          expect([res.statusCode, res.body], `${name} ${query}`).toEqual([400, expected]);
          expect(res.headers['x-reports-analysis']).toBe(name);
        }
      }
    });

    it('an unknown name: 404 Error object with allowed (the store\'s names) and the caveat, before the query is read', async () => {
      for (const url of ['/analyses/nope/signals?q=zos', '/analyses/nope/signals?format=pdf', '/analyses/ALL/signals?q=zos']) {
        const { status, body, res } = await getJson(app, url);
        expect(status, url).toBe(404);
        expect(body).toEqual({ error: expect.stringMatching(/no analysis named/), hypothesis: HYPOTHESIS, allowed: NAMES });
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
      }
      expect((await getJson(app, '/analyses/nope/signals?q=zos')).body.error).toMatch(/"nope"/);
    });

    it('read-only like /signals: other methods than GET and HEAD are 405 on /analyses and /analyses/NAME/signals', async () => {
      for (const url of ['/analyses', '/analyses/serious/signals', '/analyses/serious/signals?q=myocarditis']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          const res = await app.inject({ method, url });
          expect(res.statusCode, `${method} ${url}`).toBe(405);
          expect(res.headers.allow).toBe('GET, HEAD');
          expect(JSON.parse(res.body).hypothesis).toBe(HYPOTHESIS);
        }
      }
      expect((await app.inject({ method: 'HEAD', url: '/analyses/serious/signals?q=myocarditis' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'HEAD', url: '/analyses' })).statusCode).toBe(200);
    });
  });

  describe('/openapi.json', () => {
    it('documents /analyses and /analyses/{analysis}/signals with the store\'s names as the enum', () => {
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/signals', '/analyses', '/analyses/{analysis}/signals']));
      expect(doc.paths['/analyses'].get.responses['200']).toBeTruthy();
      const op = doc.paths['/analyses/{analysis}/signals'].get;
      const analysis = op.parameters.find((p: { name: string }) => p.name === 'analysis');
      expect(analysis).toMatchObject({ in: 'path', required: true, schema: { type: 'string', enum: NAMES } });
      const query = op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort();
      expect(query).toEqual(SIGNALS_PARAMETERS.map((p) => p.name).sort());
      expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '400', '404', '431', '503']);
      expect(op.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      expect(Object.keys(op.responses['200'].headers)).toContain('X-REPORTS-Analysis');
      expect(op.responses['200'].headers).toEqual(doc.paths['/signals'].get.responses['200'].headers);
    });
  });
});

describe('a store with one analysis (no analysis metadata)', () => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp(); });
  afterAll(async () => { await app.close(); });

  it('GET /analyses lists one analysis, all, the default', async () => {
    const { status, body } = await getJson(app, '/analyses');
    expect(status).toBe(200);
    expect(body.default).toBe('all');
    expect(body.hypothesis).toBe(HYPOTHESIS);
    expect(body.analyses).toHaveLength(1);
    expect(body.analyses[0]).toMatchObject({ name: 'all', default: true, subset: null, stratified_by: [], reports_through: '2023Q4', signals: '/analyses/all/signals' });
    for (const field of LISTED_FIELDS) expect(body.analyses[0]).toHaveProperty(field);
  });

  it('/analyses/all/signals answers as /signals; another name is a 404 naming all', async () => {
    const a = await app.inject('/analyses/all/signals?q=covid19');
    const b = await app.inject('/signals?q=covid19');
    expect([a.statusCode, a.body]).toEqual([200, b.body]);
    expect([a.headers['x-reports-analysis'], b.headers['x-reports-analysis']]).toEqual(['all', 'all']);
    const { status, body } = await getJson(app, '/analyses/stratified/signals?q=covid19');
    expect([status, body.allowed]).toEqual([404, ['all']]);
  });

  it('/openapi.json: the analysis enum is [all]', async () => {
    const doc = (await getJson(app, '/openapi.json')).body;
    const analysis = doc.paths['/analyses/{analysis}/signals'].get.parameters.find((p: { name: string }) => p.name === 'analysis');
    expect(analysis.schema.enum).toEqual(['all']);
  });
});
