/**
 * GET /cases and /analyses/NAME/cases (the case series) on the hand-counted fixture of
 * test/serve/cases/fixture.ts, built by the real build (report tables in the store) and served by the
 * real app. Every count below is worked from the eight reports of the fixture.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { LiveStore } from '../../../src/http/live-store.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { HYPOTHESIS } from '../../../src/serve/query/caveats.js';
import { DTAP, HEPB, ROTA, writeCaseFolder } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'cases-test-'));
let app: FastifyInstance;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(url: string): Promise<{ status: number; body: any; headers: Record<string, unknown>; text: string }> {
  const res = await app.inject({ method: 'GET', url });
  const json = (res.headers['content-type'] ?? '').toString().startsWith('application/json');
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : null, headers: res.headers, text: res.body };
}

beforeAll(async () => {
  const vaers = await writeCaseFolder(join(dir, 'vaers'));
  const store = join(dir, 'cases.parquet');
  await buildStore({ vaers, out: store, analyses: 'all,serious', workers: 1 });
  app = await buildApp({ storePath: store });
}, 120_000);
afterAll(async () => app?.close());

describe('GET /cases on the hand-counted fixture', () => {
  it('vaccine type x event: the four RotaShield reports with Intussusception, with every breakdown counted by hand', async () => {
    const { status, body, headers } = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception');
    expect(status).toBe(200);
    expect(body.n_reports).toBe(4);
    expect(headers['x-total-count']).toBe('4');
    expect(headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    expect(headers['cache-control']).toBe('public, max-age=60');
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(body.vaccines).toEqual([ROTA]);
    expect(body.events).toEqual(['Intussusception']);
    expect(body.hypothesis).toBe(HYPOTHESIS);
    expect(body.note).toMatch(/not a rate/);
    expect(body.reports.map((r: { vaers_id: number }) => r.vaers_id)).toEqual([106, 103, 102, 101]);
    const b = body.breakdowns;
    expect(b.sex).toEqual({ F: 1, M: 2, U: 1 });
    expect(b.age_group['<6 months']).toBe(3);
    expect(b.age_group['6-11 months']).toBe(1);
    expect(Object.values(b.age_group).reduce((s: number, n) => s + (n as number), 0)).toBe(4);
    expect(b.onset_interval).toMatchObject({ 0: 1, 1: 1, '4-7': 1, unknown: 1, 2: 0 });
    expect(b.serious).toEqual({ serious: 3, not_serious: 1 });
    expect(b.outcomes).toMatchObject({ died: 1, l_threat: 1, hospital: 1, er_visit: 0, disable: 0 });
    expect(b.dose).toEqual({ 1: 2, 2: 1, unknown: 1 });
    expect(b.received_year).toEqual({ 2000: 3, 2001: 1 });
    expect(b.state).toEqual({ top: [{ name: 'CA', reports: 3 }, { name: 'NY', reports: 1 }], other: 0 });
    expect(b.manufacturer).toEqual({ top: [{ name: 'WYETH', reports: 4 }], other: 0 });
    expect(b.co_vaccines).toEqual({ top: [{ name: DTAP, reports: 2 }, { name: HEPB, reports: 1 }], other: 0 });
    expect(b.co_events.top.map((e: { name: string }) => e.name)).toEqual(['Death', 'Fever', 'Vomiting']);
  });

  it('a report in the listing carries its fields, vaccines and events', async () => {
    const { body } = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&limit=1&offset=1');
    expect(body.returned).toBe(1);
    expect(body.reports[0]).toMatchObject({
      vaers_id: 103, received: '2000-05-05', quarter: '2000Q2', age_yrs: 0.2, age_source: 'AGE_YRS', age_group: '<6 months', sex: 'M', state: 'CA',
      onset_days: 1, serious: true, died: true, hospital: false, birth_defect: null, events: ['Intussusception', 'Death'],
    });
    expect(body.reports[0].vaccines.map((v: { name: string; dose: string }) => `${v.name}:${v.dose}`)).toEqual([`${ROTA}:1`, `${HEPB}:1`]);
  });

  it('one filter alone, q, from/to, and unknown names', async () => {
    expect((await get('/cases?event=intussusception')).body.n_reports).toBe(5);
    expect((await get('/cases?vaccine=rv')).body.n_reports).toBe(5); // the VAX_TYPE code
    const q = (await get('/cases?q=rota')).body;
    expect(q.n_reports).toBe(5);
    expect(q.vaccines).toEqual([ROTA]);
    expect((await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&from=2000Q2')).body.n_reports).toBe(2);
    expect((await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&to=2000Q1')).body.n_reports).toBe(2);
    const none = await get('/cases?vaccine=NO+SUCH+VACCINE');
    expect(none.status).toBe(200);
    expect(none.body.n_reports).toBe(0);
    // Event-only: every vaccine is "other", so co_vaccines lists them.
    expect((await get('/cases?event=Fever')).body.breakdowns.co_vaccines.top.map((v: { name: string }) => v.name)).toEqual([DTAP, ROTA]);
  });

  it('format=csv is the line listing of the page (RFC 4180, CRLF)', async () => {
    const { status, text, headers } = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&format=csv&limit=3');
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/csv/);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.vaers_id)).toEqual(['106', '103', '102']);
    expect(rows.map((r) => [r.age_yrs, r.age_source])).toEqual([['0.5', 'AGE_YRS'], ['0.2', 'AGE_YRS'], ['0.4', 'AGE_YRS']]);
    expect(rows[1].vaccines).toBe(`${ROTA} (RV; WYETH; A1; 1; IM; LA) | ${HEPB} (HEP; MERCK; H1; 1; IM; LA)`);
  });

  it('/analyses/serious/cases keeps the serious reports only; an unknown analysis is a 404 naming the others', async () => {
    const serious = await get('/analyses/serious/cases?vaccine=ROTAVIRUS');
    expect(serious.body.n_reports).toBe(3);
    expect(serious.headers['x-reports-analysis']).toBe('serious');
    expect(serious.body.analysis).toBe('serious');
    expect((await get('/analyses/all/cases?vaccine=ROTAVIRUS')).body.n_reports).toBe(5);
    const unknown = await get('/analyses/nope/cases?vaccine=ROTAVIRUS');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ allowed: ['all', 'serious'], hypothesis: HYPOTHESIS });
  });

  it.each([
    ['', /at least one of vaccine/],
    ['?vaccine=zz', /too short/],
    ['?vaccine=A&drug=B', /must be identical/],
    ['?vaccine=ROTAVIRUS&from=2000-1', /quarter YYYYQn/],
    ['?vaccine=ROTAVIRUS&from=2001Q1&to=2000Q1', /is after to/],
    ['?vaccine=ROTAVIRUS&from=1999Q4', /^from "1999Q4" is outside the reports of this store: 2000Q1 to 2001Q4$/],
    ['?vaccine=ROTAVIRUS&to=9999Q4', /^to "9999Q4" is outside the reports of this store: 2000Q1 to 2001Q4$/],
    ['?vaccine=ROTAVIRUS&from=0000Q1&to=2000Q2', /^from "0000Q1" is outside/],
    ['?vaccine=ROTAVIRUS&from=2000Q1&to=2002Q1', /^to "2002Q1" is outside/],
    ['?vaccine=ROTAVIRUS&limit=0', /limit must be an integer from 1 to 500/],
    ['?vaccine=ROTAVIRUS&offset=-1', /offset must be an integer at least 0/],
    ['?vaccine=ROTAVIRUS&format=pdf', /unknown format/],
    ['?vaccine=ROTAVIRUS&sort=n', /unknown parameter/],
    ['?vaccine=ROTAVIRUS&vaccine=HEP', /more than once/],
  ])('GET /cases%s is a 400 Error object with the caveat', async (query, message) => {
    const { status, body } = await get(`/cases${query}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
    expect(body.hypothesis).toBe(HYPOTHESIS);
  });

  it('is documented in /openapi.json', async () => {
    const { body } = await get('/openapi.json');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/cases', '/analyses/{analysis}/cases']));
  });
});

describe('an analysis of the store whose rule the program does not know', () => {
  let other: FastifyInstance;
  let store: string;
  beforeAll(async () => {
    // A store as another version might write it: `serious` renamed to a name this program has no rule for.
    store = join(dir, 'other-version.duckdb');
    await buildStore({ vaers: join(dir, 'vaers'), out: store, analyses: 'all,serious', workers: 1 });
    const instance = await DuckDBInstance.create(store);
    const connection = await instance.connect();
    await connection.run(`UPDATE quarterly SET analysis = 'teenagers' WHERE analysis = 'serious';
      UPDATE windows SET analysis = 'teenagers' WHERE analysis = 'serious';
      UPDATE meta SET value = replace(value, '"name":"serious"', '"name":"teenagers"') WHERE key = 'analyses'`);
    connection.closeSync();
    instance.closeSync();
    other = await buildApp({ storePath: store });
  }, 120_000);
  afterAll(async () => other?.close());

  it('/analyses/NAME/cases is a 404 Error object naming it (never the reports unrestricted); its /signals is served; the load logs it', async () => {
    const res = await other.inject('/analyses/teenagers/cases?vaccine=ROTAVIRUS');
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-reports-analysis']).toBe('teenagers');
    expect(JSON.parse(res.body)).toEqual({
      error: 'analysis "teenagers" of this store has a subset rule this program does not know (a store built by another version?): its case series cannot be served',
      allowed: ['all'], hypothesis: HYPOTHESIS,
    });
    expect((await other.inject('/analyses/teenagers/signals?vaccine=ROTAVIRUS')).statusCode).toBe(200);
    expect(JSON.parse((await other.inject('/analyses/all/cases?vaccine=ROTAVIRUS')).body).n_reports).toBe(5);
    const warnings: string[] = [];
    const live = await LiveStore.open(store, { info: () => undefined, warn: (m) => warnings.push(m) });
    await live.close();
    expect(warnings).toEqual([`store ${store}: analysis "teenagers" of this store has a subset rule this program does not know (a store built by another version?): its case series cannot be served: /analyses/teenagers/cases will answer 404 (its /signals is served)`]);
  });
});
