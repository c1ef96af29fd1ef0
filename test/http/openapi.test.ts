/**
 * /openapi.json (spec 4.1 "Other readable resources", 9): OpenAPI 3, info.version 1.0.0, every
 * parameter, enum, bound, response and header of /signals, the schemas of spec 2.1 to 2.5;
 * and a sample of real responses validated against its schemas with Ajv. Also the machine
 * index (/.well-known/api-catalog, RFC 9727) and the notes (/llms.txt).
 */
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { PAIR_FIELDS } from '../../src/serve/signals/pair.js';
import { FORMATS, SIGNALS_PARAMETERS } from '../../src/serve/signals/parameters.js';
import { buildServedApp } from '../../src/http/app.js';
import { fixtureApp, getJson } from './helpers.js';

let app: FastifyInstance;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  app = await fixtureApp();
  doc = (await getJson(app, '/openapi.json')).body;
});
afterAll(async () => { await app.close(); });

describe('spec 9: the interface description', () => {
  it('is OpenAPI 3 with info.version 1.0.0 and no version segment in paths', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths)).toContain('/signals');
    for (const path of Object.keys(doc.paths)) expect(path).not.toMatch(/\/v\d/);
  });

  it('spec 4.1: every parameter with its type, enum, bounds and default', () => {
    const params = doc.paths['/signals'].get.parameters;
    const byName = Object.fromEntries(params.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(SIGNALS_PARAMETERS.map((p) => p.name).sort());
    for (const p of params) expect(p.in).toBe('query');
    expect(byName.format.schema).toMatchObject({ enum: [...FORMATS], default: 'json' });
    expect(byName.sort.schema).toMatchObject({ enum: ['eb05', 'n', 'latest'], default: 'eb05' });
    expect(byName.order.schema).toMatchObject({ enum: ['desc', 'asc'], default: 'desc' });
    expect(byName.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 50 });
    expect(byName.offset.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(byName.min_eb05.schema).toMatchObject({ type: 'number', minimum: 0 });
    expect(byName.min_n.schema).toMatchObject({ type: 'number', minimum: 0 });
    expect(byName.drug.description).toMatch(/Alias of `vaccine`/);
  });

  it('documents each "not shown" choice', () => {
    const text = JSON.stringify(doc.paths['/signals'].get);
    for (const s of ['limit outside 1..500', 'offset < 0', 'min_n < 0', 'unknown sort/order', 'a parameter given twice', 'not shown']) expect(text).toContain(s);
  });

  it('spec 4.1: responses 200 (json, csv, text), 400 and 503 with the 200 headers', () => {
    const responses = doc.paths['/signals'].get.responses;
    expect(Object.keys(responses['200'].content).sort()).toEqual(['application/json', 'text/csv', 'text/plain']);
    expect(Object.keys(responses['200'].headers)).toEqual(expect.arrayContaining(['X-Total-Count', 'X-Limit', 'X-Offset', 'X-REPORTS-Through', 'X-REPORTS-Build', 'X-REPORTS-Hypothesis', 'Cache-Control']));
    expect(responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(responses['503']).toBeTruthy();
  });

  it('spec 2.1-2.5: the Pair, Profile, Series, Class and Error schemas', () => {
    const s = doc.components.schemas;
    expect(Object.keys(s.Pair.properties)).toEqual(PAIR_FIELDS);
    expect(s.Pair.required).toEqual(['vaccine', 'drug', 'vax_name', 'vax_type', 'event', 'n', 'emerging']);
    expect(s.Pair.properties.eb05.nullable).toBe(true);
    expect(s.Profile.properties.kind.enum).toEqual(['vaccine', 'event', 'pair']);
    expect(Object.keys(s.Series.properties)).toEqual(['vaccine', 'drug', 'vax_type', 'event', 'reports_through', 'hypothesis', 'n_pairs_matched', 'note', 'quarters']);
    expect(Object.keys(s.Quarter.properties)).toContain('ic025');
    expect(s.Quarter.required).not.toContain('ic025');
    expect(Object.keys(s.Class.properties)).toEqual(['vax_type', 'vaccines', 'event', 'reports_through', 'n_pairs', 'hypothesis', 'pairs']);
    expect(s.Error.required).toEqual(['error', 'hypothesis']);
  });
});

describe('spec 4.1: real responses match the /openapi.json schemas (Ajv)', () => {
  const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  let ajv: Ajv;
  beforeAll(() => {
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
  });

  it('json, series, profile, class bodies and the 200 headers', async () => {
    const validate = ajv.compile({ $ref: pointer('paths', '/signals', 'get', 'responses', '200', 'content', 'application/json', 'schema') });
    const headers = doc.paths['/signals'].get.responses['200'].headers;
    const urls = [
      '/signals?vaccine=COVID19', '/signals?q=zoster&limit=1&offset=1', '/signals?event=syncope&sort=n&order=asc',
      '/signals?vaccine=COVID19&event=Myocarditis&format=series', '/signals?vaccine=NOSUCH&event=xyz&format=series',
      '/signals?vaccine=HPV9&format=profile', '/signals?q=moderna&format=class', '/signals?vaccine=td&format=class&event=pain',
    ];
    for (const url of urls) {
      const { status, body, res } = await getJson(app, url);
      expect(status).toBe(200);
      expect(validate(body), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      for (const [name, spec] of Object.entries(headers) as Array<[string, { schema: Record<string, unknown> }]>) {
        const raw = res.headers[name.toLowerCase()];
        expect(raw, `${url} header ${name}`).toBeDefined();
        const value = spec.schema.type === 'integer' ? Number(raw) : raw;
        expect(ajv.validate(spec.schema, value), `${url} header ${name}=${raw}`).toBe(true);
      }
    }
  });

  it('400 bodies are Error objects', async () => {
    const validate = ajv.compile({ $ref: pointer('paths', '/signals', 'get', 'responses', '400', 'content', 'application/json', 'schema') });
    for (const url of ['/signals', '/signals?vaccine=x&format=pdf', '/signals?vaccine=COVID19&sort=trend', '/signals?q=a', '/signals?vaccine=COVID19&limit=0']) {
      const { status, body } = await getJson(app, url);
      expect(status).toBe(400);
      expect(validate(body), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('/readyz: the 503 while the default store is built validates against its schema (Error object plus building, phase, percent, builder) and has Retry-After', async () => {
    const { app: pending, live } = await buildServedApp({ storePath: null });
    try {
      live.preparing = { state: 'waiting', phase: 'fit stratified', percent: 40, pid: 4242, since: Date.now() };
      const { status, body, res } = await getJson(pending, '/readyz');
      expect(status).toBe(503);
      expect(body).toMatchObject({ building: true, phase: 'fit stratified', percent: 40, builder: 'process 4242', hypothesis: HYPOTHESIS });
      expect(res.headers['retry-after']).toBe('10');
      const responses = doc.paths['/readyz'].get.responses['503'];
      const validate = ajv.compile({ $ref: pointer('paths', '/readyz', 'get', 'responses', '503', 'content', 'application/json', 'schema') });
      expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
      expect(validate({ ...body, percent: null })).toBe(true);
      expect(validate({ ...body, stage: 'x' })).toBe(false);
      expect(responses.headers['Retry-After'].schema.type).toBe('integer');
    } finally {
      await pending.close();
    }
  });

  it('a Pair with an extra field would fail (the schema is strict)', () => {
    const validate = ajv.compile({ $ref: pointer('components', 'schemas', 'Pair') });
    const pair = Object.fromEntries(PAIR_FIELDS.map((f) => [f, null]));
    Object.assign(pair, { vaccine: 'V', drug: 'V', vax_name: 'V', vax_type: 'V', event: 'E', n: 1, emerging: false, peak_in_covid_era: false, n_methods_max: 2, quarters_flagged: 1, first_quarter: '2020Q1', latest_quarter: '2020Q1' });
    expect(validate(pair)).toBe(true);
    expect(validate({ ...pair, ebgm: 2 })).toBe(false);
  });
});

describe('spec 4.1: machine index and plain-text notes on the same host', () => {
  it('/.well-known/api-catalog is an RFC 9727 linkset pointing at /openapi.json and /llms.txt', async () => {
    const res = await app.inject({ url: '/.well-known/api-catalog', headers: { host: 'api.example.org' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/linkset\+json; profile="https:\/\/www.rfc-editor.org\/info\/rfc9727"/);
    const body = JSON.parse(res.body);
    // Relative links (no PUBLIC_BASE_URL): the Host header is never reflected (issue 35).
    expect(body.linkset[0]).toMatchObject({
      anchor: '/signals',
      'service-desc': [{ href: '/openapi.json' }],
      'service-doc': [{ href: '/llms.txt' }],
    });
    // One entry per API, derived from the routes that declare themselves (route config `catalog`).
    expect(body.linkset.map((e: { anchor: string }) => e.anchor.replace('http://api.example.org', ''))).toEqual(
      ['/signals', '/analyses', '/vaccines', '/cases', '/reports/{vaers_id}', '/triage', '/interactions', '/masking', '/pipeline']);
    const hostile = JSON.parse((await app.inject({ url: '/.well-known/api-catalog', headers: { host: 'evil"/><x' } })).body);
    expect(hostile.linkset[0].anchor).toBe('/signals');
  });

  it('/llms.txt is plain text with the parameters, formats, errors, headers and not-shown choices', async () => {
    const res = await app.inject('/llms.txt');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain(HYPOTHESIS);
    for (const p of SIGNALS_PARAMETERS) expect(res.body).toContain(`| ${p.name} |`);
    for (const s of ['X-REPORTS-Build', 'Cache-Control: public, max-age=60', 'sort=trend', 'too short', 'label and pdf', 'not shown', '1.0.0']) expect(res.body).toContain(s);
  });

  it('spec 9: X-REPORTS-Build is api-<12 hex> src-<revision> ("dev" without a VERSION file)', async () => {
    const res = await app.inject('/healthz');
    expect(res.headers['x-reports-build']).toMatch(/^api-[0-9a-f]{12} src-/);
  });
});
