/**
 * Omega and masking of the real default store against counts made here from the raw VAERS files of
 * data/vaers by the independent oracle test/helpers/raw-vaers.ts (gunzip, Windows-1252, csv-parse;
 * no project code under src/): MMR II + VARIVAX x Febrile convulsion in the window ending 2006Q4,
 * its counts exact and its Omega (the formula written out here, the quantiles from @stdlib) to
 * 1e-12 relative; VARIVAX x Febrile convulsion's top masker, its masking ratio recomputed by
 * deleting the masker's reports and recounting. Then every bad input of the three routes is a 400
 * Error object. Skips with a message without the default store.
 */
import type { FastifyInstance } from 'fastify';
import gammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { HYPOTHESIS } from '../../../src/serve/query/caveats.js';
import { hasDefaultStore } from '../../helpers/default-store.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { loadRawReports, quarterOf, windowQuarters, type RawReport } from '../../helpers/raw-vaers.js';

const present = hasDefaultStore('interactions real-data test');
const MMR = 'MEASLES + MUMPS + RUBELLA (MMR II)';
const VARIVAX = 'VARICELLA (VARIVAX)';
const FC = 'Febrile convulsion';

const rel = (x: number, y: number): number => (x === y ? 0 : Math.abs(x - y) / Math.abs(y));

/** The window's reports (quarters 2006Q1..2006Q4) from the raw 2005-2006 files. */
async function windowReports(): Promise<RawReport[]> {
  const { reports } = await loadRawReports(`${REPO_ROOT}/data/vaers`, [2005, 2006]);
  const quarters = new Set(windowQuarters('2006Q4'));
  return reports.filter((r) => quarters.has(quarterOf(r.recvdate!)));
}

/** PRR of (vaccine, event) over `reports`, recounted. */
function prrOf(reports: RawReport[], vaccine: string, event: string): { a: number; nVaccine: number; nEvent: number; N: number; prr: number } {
  const a = reports.filter((r) => r.vaccines.includes(vaccine) && r.events.includes(event)).length;
  const nVaccine = reports.filter((r) => r.vaccines.includes(vaccine)).length;
  const nEvent = reports.filter((r) => r.events.includes(event)).length;
  const N = reports.length;
  return { a, nVaccine, nEvent, N, prr: (a / nVaccine) / ((nEvent - a) / (N - nVaccine)) };
}

describe.skipIf(!present)('Omega and masking of the real default store', () => {
  let app: FastifyInstance;
  let window: RawReport[];
  beforeAll(async () => {
    [app, window] = await Promise.all([defaultApp(), windowReports()]);
  }, 300_000);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (url: string): Promise<{ status: number; body: any }> => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('MMR II + VARIVAX x Febrile convulsion, 2006Q4: counts exact, Omega equal to 1e-12 relative', async () => {
    const has = (r: RawReport, v: string): boolean => r.vaccines.includes(v);
    const e = (r: RawReport): boolean => r.events.includes(FC);
    const count = (f: (r: RawReport) => boolean): number => window.filter(f).length;
    const c = {
      n111: count((r) => has(r, MMR) && has(r, VARIVAX) && e(r)), n11: count((r) => has(r, MMR) && has(r, VARIVAX)),
      n1_1: count((r) => has(r, MMR) && e(r)), n_11: count((r) => has(r, VARIVAX) && e(r)),
      n1: count((r) => has(r, MMR)), n_1: count((r) => has(r, VARIVAX)), n__1: count(e), N: window.length,
    };
    // The cells, the odds and Omega written out (Noren et al. 2008).
    const odds = (k: number, n: number): number => (k / n) / (1 - k / n);
    const o10 = odds(c.n1_1 - c.n111, c.n1 - c.n11), o01 = odds(c.n_11 - c.n111, c.n_1 - c.n11);
    const o00 = odds(c.n__1 - c.n1_1 - c.n_11 + c.n111, c.N - c.n1 - c.n_1 + c.n11);
    const g11 = 1 - 1 / (Math.max(o00, o10) + Math.max(o00, o01) - o00 + 1);
    const e111 = g11 * c.n11;
    const { status, body } = await get(`/interactions/series?vaccine1=${encodeURIComponent(VARIVAX)}&vaccine2=${encodeURIComponent(MMR)}&event=${encodeURIComponent(FC)}`);
    expect(status).toBe(200);
    expect([body.vaccine1, body.vaccine2]).toEqual([MMR, VARIVAX]);
    const served = body.series.find((s: { quarter: string }) => s.quarter === '2006Q4');
    expect(served).toMatchObject({ stored: true, ...c });
    expect(rel(served.g11, g11)).toBeLessThan(1e-12);
    expect(rel(served.e111, e111)).toBeLessThan(1e-12);
    expect(rel(served.omega, Math.log2((c.n111 + 0.5) / (e111 + 0.5)))).toBeLessThan(1e-12);
    expect(rel(served.omega025, Math.log2(gammaQuantile(0.025, c.n111 + 0.5, e111 + 0.5)))).toBeLessThan(1e-12);
    expect(rel(served.omega975, Math.log2(gammaQuantile(0.975, c.n111 + 0.5, e111 + 0.5)))).toBeLessThan(1e-12);
    expect(served.signal).toBe(served.omega025 > 0);
    expect(body.caveat).toMatch(/not a biological interaction/);
    expect(body.hypothesis).toBe(HYPOTHESIS);
  }, 120_000);

  it('GET /interactions: 2006Q4 signals ranked by Omega025 (the cautioned after the rest), each with Omega025 > 0 and its counts', async () => {
    const { status, body } = await get('/interactions?quarter=2006Q4&limit=500');
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(10);
    const list = body.interactions as Array<{ omega025: number; n111: number; n11: number; cautions: unknown[] }>;
    for (let i = 0; i < list.length; i++) {
      expect(list[i].omega025).toBeGreaterThan(0);
      expect(list[i].n11).toBeGreaterThanOrEqual(body.min_co_reports);
      const samePart = i > 0 && (list[i].cautions.length > 0) === (list[i - 1].cautions.length > 0);
      if (samePart) expect(list[i].omega025).toBeLessThanOrEqual(list[i - 1].omega025);
    }
    const filtered = await get(`/interactions?quarter=2006Q4&vaccine=${encodeURIComponent(MMR)}`);
    expect(filtered.body.interactions.every((r: { vaccine1: string; vaccine2: string }) => r.vaccine1 === MMR || r.vaccine2 === MMR)).toBe(true);
  }, 60_000);

  it('GET /masking: VARIVAX x Febrile convulsion, 2006Q4: the top masker\'s ratio equals deletion and recount', async () => {
    const { status, body } = await get(`/masking?vaccine=${encodeURIComponent(VARIVAX)}&event=${encodeURIComponent(FC)}&quarter=2006Q4&limit=5`);
    expect(status).toBe(200);
    const all = prrOf(window, VARIVAX, FC);
    expect(body).toMatchObject({ n: all.a, n_vaccine: all.nVaccine, n_event: all.nEvent, N: all.N });
    expect(rel(body.prr, all.prr)).toBeLessThan(1e-12);
    const top = body.maskers[0];
    const kept = window.filter((r) => !r.vaccines.includes(top.vaccine));
    const without = prrOf(kept, VARIVAX, FC);
    expect(rel(top.masking_ratio, without.prr / all.prr)).toBeLessThan(1e-12);
    expect(body.unmasked).toMatchObject({ without: top.vaccine, n: without.a, n_vaccine: without.nVaccine, n_event: without.nEvent, N: without.N });
    expect(rel(body.unmasked.prr, without.prr)).toBeLessThan(1e-12);
    // Every listed masker by deletion too, and the ranking.
    for (const m of body.maskers as Array<{ vaccine: string; masking_ratio: number }>) {
      expect(rel(m.masking_ratio, prrOf(window.filter((r) => !r.vaccines.includes(m.vaccine)), VARIVAX, FC).prr / all.prr)).toBeLessThan(1e-12);
    }
    // The pair's EB05 and PRR on every report are the stored ones of /signals (same prior, crude E; the pair is served there).
    const signals = await get(`/signals?vaccine=${encodeURIComponent(VARIVAX)}&event=${encodeURIComponent(FC)}&format=series`);
    expect(signals.status).toBe(200);
    const stored = signals.body.quarters.find((q: { quarter: string }) => q.quarter === '2006Q4');
    expect(rel(body.eb05, stored.eb05)).toBeLessThan(1e-12);
    expect(rel(body.prr, stored.prr)).toBeLessThan(1e-12);
    const chosen = await get(`/masking?vaccine=${encodeURIComponent(VARIVAX)}&event=${encodeURIComponent(FC)}&quarter=2006Q4&without=${encodeURIComponent(MMR)}`);
    const noMmr = prrOf(window.filter((r) => !r.vaccines.includes(MMR)), VARIVAX, FC);
    expect(chosen.body.unmasked).toMatchObject({ without: MMR, n: noMmr.a, N: noMmr.N });
  }, 120_000);

  it('answers every bad input with a 400 Error object', async () => {
    const v = encodeURIComponent(VARIVAX), e = encodeURIComponent(FC);
    const bad = [
      '/interactions?bogus=1', '/interactions?quarter=2006Q5', '/interactions?quarter=9999Q4', '/interactions?limit=0', '/interactions?limit=501',
      '/interactions?offset=-1', '/interactions?vaccine=NOT+A+VACCINE', '/interactions?event=Not+an+event', '/interactions?quarter=2006Q4&quarter=2006Q3',
      '/interactions/series', `/interactions/series?vaccine1=${v}&event=${e}`, `/interactions/series?vaccine1=${v}&vaccine2=${v}&event=${e}`,
      `/interactions/series?vaccine1=${v}&vaccine2=NOPE&event=${e}`, `/interactions/series?vaccine1=${v}&vaccine2=${encodeURIComponent(MMR)}&event=nope&x=1`,
      '/masking', `/masking?vaccine=${v}`, `/masking?event=${e}`, `/masking?vaccine=${v}&event=${e}&quarter=1800Q1`, `/masking?vaccine=${v}&event=${e}&limit=abc`,
      `/masking?vaccine=${v}&event=${e}&without=${v}`, `/masking?vaccine=${v}&event=${e}&without=NOPE`, `/masking?vaccine=NOPE&event=${e}`,
    ];
    for (const url of bad) {
      const { status, body } = await get(url);
      expect([url, status]).toEqual([url, 400]);
      expect(typeof body.error).toBe('string');
      expect(typeof body.hypothesis).toBe('string');
    }
  }, 60_000);
});
