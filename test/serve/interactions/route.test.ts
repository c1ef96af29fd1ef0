/**
 * GET /interactions, /interactions/series and /masking over a store built by the real build from a
 * small VAERS folder written here (test/ingest/mining/fixtures.ts), without the shared data: two
 * vaccines given together report a seizure more often than either alone; a third vaccine's many
 * seizure reports mask the first's. The expected counts, Omega and masking ratio are computed here
 * from the fixture list by plain counting and the formulas written out. Then every bad input is a
 * 400 Error object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import gammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { buildApp } from '../../../src/http/app.js';
import { EVENTS, writeVaersFolder, type FixtureReport } from '../../ingest/mining/fixtures.js';

const A = 'ALPHA (A)', B = 'BETA (B)', M = 'MASKER (M)', C = 'GAMMA (C)';
const SEIZURE = 'Seizure';

/** The fixture: every report in 2001 (the window ending 2001Q4 holds them all). */
function fixture(): FixtureReport[] {
  const reports: FixtureReport[] = [];
  let id = 5000;
  const add = (count: number, vaccines: string[], seizures: number): void => {
    for (let k = 0; k < count; k++) {
      const other = EVENTS[(id + k) % EVENTS.length];
      const date = `${String(1 + (id % 12)).padStart(2, '0')}/${String(1 + (id % 28)).padStart(2, '0')}/2001`;
      reports.push({ id: id++, recvdate: date, vaccines: vaccines.map((v) => [v, 'XX'] as [string, string]), events: k < seizures ? [SEIZURE, other] : [other] });
    }
  };
  add(100, [A], 6);
  add(100, [B], 5);
  add(30, [A, B], 14);
  add(40, [A, M], 4);
  add(150, [M], 60);
  add(400, [C], 8);
  return reports;
}

const rel = (x: number, y: number): number => (x === y ? 0 : Math.abs(x - y) / Math.abs(y));

describe('the interactions routes over a built fixture store', () => {
  const reports = fixture();
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-interactions-'));
    await writeVaersFolder(join(dir, 'vaers'), reports);
    await buildStore({ vaers: join(dir, 'vaers'), out: join(dir, 'store.duckdb'), workers: 1 });
    app = await buildApp({ storePath: join(dir, 'store.duckdb') });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (url: string): Promise<{ status: number; body: any }> => {
    const res = await app.inject({ url });
    return { status: res.statusCode, body: res.json() };
  };
  const count = (f: (r: FixtureReport) => boolean): number => reports.filter(f).length;
  const has = (r: FixtureReport, v: string): boolean => r.vaccines.some(([name]) => name === v);
  const hasE = (r: FixtureReport): boolean => r.events.includes(SEIZURE);

  it('serves ALPHA + BETA x Seizure as a signal with the counts and Omega of the fixture', async () => {
    const c = {
      n111: count((r) => has(r, A) && has(r, B) && hasE(r)), n11: count((r) => has(r, A) && has(r, B)), n1_1: count((r) => has(r, A) && hasE(r)),
      n_11: count((r) => has(r, B) && hasE(r)), n1: count((r) => has(r, A)), n_1: count((r) => has(r, B)), n__1: count(hasE), N: reports.length,
    };
    expect(c).toEqual({ n111: 14, n11: 30, n1_1: 24, n_11: 19, n1: 170, n_1: 130, n__1: 97, N: 820 });
    // V1 only: 140 reports, 10 seizures; V2 only: 100, 5; neither: 550, 68.
    const o10 = 10 / 130, o01 = 5 / 95, o00 = 68 / 482;
    const g11 = 1 - 1 / (Math.max(o00, o10) + Math.max(o00, o01) - o00 + 1);
    const e111 = 30 * g11;
    const { status, body } = await get('/interactions?quarter=2001Q4');
    expect(status).toBe(200);
    expect(body.interactions).toHaveLength(1);
    const row = body.interactions[0];
    expect(row).toMatchObject({ vaccine1: A, vaccine2: B, event: SEIZURE, ...c });
    expect(rel(row.g11, g11)).toBeLessThan(1e-14);
    expect(rel(row.omega, Math.log2(14.5 / (e111 + 0.5)))).toBeLessThan(1e-14);
    expect(rel(row.omega025, Math.log2(gammaQuantile(0.025, 14.5, e111 + 0.5)))).toBeLessThan(1e-14);
    expect(row.omega025).toBeGreaterThan(0);
    // No caution: a clinical term, every product of one VAX_TYPE (no third type), no duplicates, and
    // no age given (one age group: Omega within age groups is Omega itself)
    expect(row.cautions).toEqual([]);
    expect(rel(row.omega_age.e111, e111)).toBeLessThan(1e-14);
    expect(rel(row.omega_age.omega025, row.omega025)).toBeLessThan(1e-14);
    expect(body).toMatchObject({ analysis: 'all', quarter: '2001Q4', total: 1, min_co_reports: 10, min_triple_reports: 3 });
    const series = await get(`/interactions/series?vaccine1=${encodeURIComponent(B)}&vaccine2=${encodeURIComponent(A)}&event=${SEIZURE}`);
    expect(series.body.series.find((s: { quarter: string }) => s.quarter === '2001Q4')).toMatchObject({ stored: true, signal: true, omega: row.omega });
  });

  it('finds MASKER as the top masker of ALPHA x Seizure, its ratio equal to deletion and recount', async () => {
    const prr = (list: FixtureReport[]): number => {
      const a = list.filter((r) => has(r, A) && hasE(r)).length, nv = list.filter((r) => has(r, A)).length, ne = list.filter(hasE).length;
      return (a / nv) / ((ne - a) / (list.length - nv));
    };
    const without = reports.filter((r) => !has(r, M));
    const { status, body } = await get(`/masking?vaccine=${encodeURIComponent(A)}&event=${SEIZURE}&quarter=2001Q4`);
    expect(status).toBe(200);
    expect(rel(body.prr, prr(reports))).toBeLessThan(1e-14);
    expect(body.maskers[0]).toMatchObject({ vaccine: M, reports: 190, with_vaccine: 40, with_event: 64, with_pair: 4 });
    expect(rel(body.maskers[0].masking_ratio, prr(without) / prr(reports))).toBeLessThan(1e-14);
    expect(body.unmasked).toMatchObject({ without: M, n: 20, n_vaccine: 130, n_event: 33, N: 630 });
    expect(rel(body.unmasked.prr, prr(without))).toBeLessThan(1e-14);
  });

  it('answers every bad input with a 400 Error object', async () => {
    const a = encodeURIComponent(A);
    for (const url of [
      '/interactions?nope=1', '/interactions?quarter=2001Q9', '/interactions?quarter=2003Q1', '/interactions?limit=0', '/interactions?offset=-3',
      '/interactions?vaccine=NOPE', '/interactions?event=Nope', '/interactions/series?vaccine1=x', `/interactions/series?vaccine1=${a}&vaccine2=${a}&event=${SEIZURE}`,
      `/interactions/series?vaccine1=${a}&vaccine2=NOPE&event=${SEIZURE}`, '/masking', `/masking?vaccine=${a}`, `/masking?vaccine=${a}&event=${SEIZURE}&quarter=1999Q1`,
      `/masking?vaccine=${a}&event=${SEIZURE}&limit=9999`, `/masking?vaccine=${a}&event=${SEIZURE}&without=${a}`, `/masking?vaccine=${a}&event=${SEIZURE}&without=NOPE`,
    ]) {
      const { status, body } = await get(url);
      expect([url, status]).toEqual([url, 400]);
      expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['error', 'hypothesis']));
    }
  });
});
