/**
 * The lag and onset breakdowns of GET /cases on the fixture of test/serve/cases/fixture.ts with its
 * dates set here (VAX_DATE, ONSET_DATE, NUMDAYS), built by the real build and served by the real
 * app; and the day rules of src/domain/report-days.ts. Every value is worked by hand below.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysBetween, lagDaysOf, onsetDaysOf, quantileSorted } from '../../../src/domain/report-days.js';
import { lagInterval } from '../../../src/serve/cases/timing.js';
import { serveCaseFolder } from './fixture.js';

/*
 * The dates (the fixture's default: VAX_DATE 01/01/2000, ONSET_DATE 01/02/2000):
 * - 101 RECVDATE 2000-01-10, VAX 2000-01-05: lag 5 (0-7); NUMDAYS 0: onset 0.
 * - 102 RECVDATE 2000-02-20, VAX 2000-01-01: lag 31 + 19 = 50 (31-90); NUMDAYS blank, ONSET 2000-01-06: onset 5.
 * - 103 RECVDATE 2000-05-05, VAX 2000-06-01: negative lag, unknown; NUMDAYS 1: onset 1.
 * - 104 RECVDATE 2000-07-07, VAX blank: unknown lag.
 * - 105 RECVDATE 2000-08-08, VAX 2000-01-01: lag 220 (91-365); NUMDAYS 200: onset 200 (outside 0..60).
 * - 106 RECVDATE 2001-01-15, VAX 2000-01-01: lag 366 + 14 = 380 (366-730); NUMDAYS blank, ONSET 2000-01-01: onset 0.
 * - 107 RECVDATE 2001-03-03, VAX 1995-01-01: lag 365 * 6 + 2 (1996, 2000) + 31 + 28 + 2 = 2253 (>1825).
 * - 108 RECVDATE 2001-12-12, VAX 1999-12-12: lag 731 (731-1825).
 */
const CELLS: Record<number, Record<string, string>> = {
  101: { VAX_DATE: '01/05/2000' },
  102: { NUMDAYS: '', ONSET_DATE: '01/06/2000' },
  103: { VAX_DATE: '06/01/2000' },
  104: { VAX_DATE: '' },
  106: { NUMDAYS: '', ONSET_DATE: '01/01/2000' },
  107: { VAX_DATE: '01/01/1995' },
  108: { VAX_DATE: '12/12/1999' },
};

const dir = mkdtempSync(join(tmpdir(), 'cases-timing-'));
let app: FastifyInstance;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(url: string): Promise<any> {
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return JSON.parse(res.body);
}

beforeAll(async () => {
  app = await serveCaseFolder(dir, CELLS);
}, 120_000);
afterAll(async () => app?.close());

describe('the day rules', () => {
  it('days between ISO dates, lag and onset', () => {
    expect(daysBetween('2000-01-01', '2000-03-01')).toBe(60); // 31 + 29 (2000 is a leap year)
    expect(daysBetween('2000-01-01', null)).toBeNull();
    expect(lagDaysOf('2000-06-01', '2000-05-05')).toBeNull();
    expect(lagDaysOf('2000-01-01', '2000-01-01')).toBe(0);
    expect(onsetDaysOf(3, null, null)).toBe(3);
    expect(onsetDaysOf(2.5, '2000-01-01', '2000-01-04')).toBe(3);
    expect(onsetDaysOf(-1, '2000-01-04', '2000-01-01')).toBeNull();
    expect(onsetDaysOf(-1, '2000-01-01', '2000-01-04')).toBe(3);
    expect(onsetDaysOf(NaN, '2000-01-01', null)).toBeNull();
  });

  it('quantiles by linear interpolation (type 7) and the lag intervals\' bounds', () => {
    expect([0.25, 0.5, 0.75].map((p) => quantileSorted([1, 2, 3, 10], p))).toEqual([1.75, 2.5, 4.75]);
    expect(quantileSorted([7], 0.25)).toBe(7);
    expect(quantileSorted([], 0.5)).toBeNull();
    expect([0, 7, 8, 30, 31, 90, 91, 365, 366, 730, 731, 1825, 1826, null].map(lagInterval))
      .toEqual(['0-7', '0-7', '8-30', '8-30', '31-90', '31-90', '91-365', '91-365', '366-730', '366-730', '731-1825', '731-1825', '>1825', 'unknown']);
  });
});

describe('GET /cases: lag and onset breakdowns on the fixture', () => {
  it('RotaShield x Intussusception (101, 102, 103, 106): lag intervals and quartiles; onset per day; no other vaccine within 0..60 days, so no KS test', async () => {
    const b = (await get('/cases?vaccine=ROTAVIRUS&event=Intussusception')).breakdowns;
    expect(b.lag_interval).toEqual({ '0-7': 1, '8-30': 0, '31-90': 1, '91-365': 0, '366-730': 1, '731-1825': 0, '>1825': 0, unknown: 1 });
    // Known lags 5, 50, 380: median 50, q1 5 + 0.5 * 45, q3 50 + 0.5 * 330; one over 365 of three.
    expect(b.lag).toEqual({ n: 3, median_days: 50, q1_days: 27.5, q3_days: 215, share_over_365: 1 / 3 });
    const c = b.onset_comparison;
    expect(c.max_days).toBe(60);
    expect(c.pair.n).toBe(4);
    expect(c.pair.median_days).toBe(0.5); // 0, 0, 1, 5
    expect(c.pair.days).toHaveLength(61);
    expect(c.pair.days.slice(0, 6)).toEqual([2, 1, 0, 0, 0, 1]);
    expect(c.pair.days.slice(6).every((n: number) => n === 0)).toBe(true);
    // The other Intussusception report (105, hepatitis B alone) has its onset at day 200.
    expect(c.other_vaccines).toMatchObject({ n: 0, median_days: null });
    expect(c.ks).toBeNull();
  });

  it('DTaP x Intussusception: onsets 0, 0 against 5, 1 (105 outside the window): D = 1, exact p = 2 / C(4, 2) = 1/3', async () => {
    const c = (await get('/cases?vaccine=DTAP&event=Intussusception')).breakdowns.onset_comparison;
    expect(c.pair).toMatchObject({ n: 2, median_days: 0 });
    expect(c.other_vaccines).toMatchObject({ n: 2, median_days: 3 });
    expect(c.other_vaccines.days.slice(0, 6)).toEqual([0, 1, 0, 0, 0, 1]);
    expect(c.ks.d).toBe(1);
    expect(c.ks.p).toBeCloseTo(1 / 3, 14);
    expect(c.ks.method).toBe('exact');
  });

  it('the quarters restrict both groups; one name alone or q has no onset comparison; every report\'s lag counts once', async () => {
    const c = (await get('/cases?vaccine=DTAP&event=Intussusception&to=2000Q1')).breakdowns.onset_comparison;
    // 2000Q1: pair 101 (0); others 102 (5).
    expect([c.pair.n, c.other_vaccines.n]).toEqual([1, 1]);
    expect(c.ks).toMatchObject({ d: 1, p: 1 });
    expect((await get('/cases?event=Intussusception')).breakdowns.onset_comparison).toBeNull();
    expect((await get('/cases?q=rota')).breakdowns.onset_comparison).toBeNull();
    // Hepatitis B (103, 105, 108): lags unknown, 220, 731: median 475.5, q1 220 + 0.25 * 511, q3 220 + 0.75 * 511.
    const hep = (await get('/cases?vaccine=HEP')).breakdowns;
    expect(hep.lag_interval).toEqual({ '0-7': 0, '8-30': 0, '31-90': 0, '91-365': 1, '366-730': 0, '731-1825': 1, '>1825': 0, unknown: 1 });
    expect(hep.lag).toEqual({ n: 2, median_days: 475.5, q1_days: 347.75, q3_days: 603.25, share_over_365: 0.5 });
    // Fever (106, 107): lags 380 and 2253.
    expect((await get('/cases?event=Fever')).breakdowns.lag_interval).toMatchObject({ '366-730': 1, '>1825': 1, unknown: 0 });
  });

  it('the line listing carries each report\'s lag (JSON and CSV), and the report view shows it', async () => {
    const body = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception');
    expect(body.reports.map((r: { vaers_id: number; lag_days: number | null }) => [r.vaers_id, r.lag_days])).toEqual([[106, 380], [103, null], [102, 50], [101, 5]]);
    const csv = (await app.inject('/cases?vaccine=ROTAVIRUS&event=Intussusception&format=csv')).body;
    expect((parse(csv, { columns: true }) as Array<Record<string, string>>).map((r) => r.lag_days)).toEqual(['380', '', '50', '5']);
    expect((await get('/reports/107?format=json')).lag_days).toBe(2253);
    const html = (await app.inject({ method: 'GET', url: '/reports/107?format=html' })).body;
    expect(html).toContain('<dd>2253</dd>');
  });
});
