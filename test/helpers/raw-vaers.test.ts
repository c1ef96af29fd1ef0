/**
 * Sanity facts of the raw-VAERS oracle (test/helpers/raw-vaers.ts) on the real 1998-1999 files.
 * The asserted counts and expected values were cross-checked with a separate Python (csv + gzip)
 * computation over the same files; they agree to the last printed digit.
 * The data folder is `../shared/data/vaers` beside the work tree (as other real-data tests locate it);
 * RAW_VAERS_FOLDER overrides it (e.g. when running from a git worktree elsewhere).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ageGroup, caseCounts, isSerious, loadRawReports, pairStatistics, parseRecvdate, quarterOf, windowQuarters,
  type RawLoad,
} from './raw-vaers.js';
import { SHARED_DATA } from './paths.js';

const folder = process.env.RAW_VAERS_FOLDER ?? path.resolve(SHARED_DATA, 'vaers');
const modern = path.resolve(folder, '..', 'vaers-modern-layout');
const present = existsSync(path.join(folder, '1998VAERSDATA.csv.gz')) && existsSync(path.join(folder, '1999VAERSDATA.csv.gz'));
if (!present) console.warn(`test/helpers/raw-vaers: ${folder} is absent; raw-VAERS oracle tests skipped`);

/** Relative closeness to about 12 significant digits. */
function expectClose(actual: number | null, expected: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
}

const sig = (x: number | null): string => (x === null ? 'null' : x.toPrecision(12));

describe('raw-VAERS oracle helpers', () => {
  it('quarterOf and windowQuarters', () => {
    expect(quarterOf({ year: 1999, month: 9, day: 30 })).toBe('1999Q3');
    expect(quarterOf({ year: 1999, month: 10, day: 1 })).toBe('1999Q4');
    expect(quarterOf({ year: 1998, month: 1, day: 1 })).toBe('1998Q1');
    expect(windowQuarters('1999Q3')).toEqual(['1998Q4', '1999Q1', '1999Q2', '1999Q3']);
    expect(windowQuarters('2000Q1')).toEqual(['1999Q2', '1999Q3', '1999Q4', '2000Q1']);
    expect(windowQuarters('1999Q4')).toEqual(['1999Q1', '1999Q2', '1999Q3', '1999Q4']);
  });

  it('parseRecvdate accepts only real MM/DD/YYYY dates', () => {
    expect(parseRecvdate('02/29/2000')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseRecvdate('02/29/1999')).toBeNull();
    expect(parseRecvdate('13/01/1999')).toBeNull();
    expect(parseRecvdate('1999-01-04')).toBeNull();
    expect(parseRecvdate('')).toBeNull();
  });

  it('ageGroup follows the CDC WONDER VAERS groups (closed on the left)', () => {
    const cases: [number | null, string][] = [
      [0, '<6 months'], [0.49, '<6 months'], [0.5, '6-11 months'], [0.99, '6-11 months'], [1, '1-2 years'],
      [2.99, '1-2 years'], [3, '3-5 years'], [6, '6-17 years'], [17.9, '6-17 years'], [18, '18-29 years'],
      [30, '30-39 years'], [40, '40-49 years'], [50, '50-59 years'], [60, '60-64 years'], [64.9, '60-64 years'],
      [65, '65-79 years'], [79.99, '65-79 years'], [80, '80+ years'], [105, '80+ years'], [null, 'Unknown'],
    ];
    for (const [age, group] of cases) expect(ageGroup(age), String(age)).toBe(group);
  });
});

describe.skipIf(!present)('raw-VAERS oracle on the real 1998-1999 files', () => {
  let load: RawLoad;
  let loadMs = 0;
  beforeAll(async () => {
    const t0 = performance.now();
    load = await loadRawReports(folder, [1998, 1999]);
    loadMs = performance.now() - t0;
    console.log(`raw-vaers: loaded 1998-1999 in ${loadMs.toFixed(0)} ms: ${load.dataRows} DATA rows, ${load.reports.length} kept`);
    console.log('raw-vaers: drops', JSON.stringify(load.drops), load.dropExamples);
  });

  it('keeps every DATA row but the one report that names no event (SOURCES.md: 9,978 + 12,249 ids)', () => {
    expect(load.dataRows).toBe(9_978 + 12_249);
    expect(load.drops).toEqual({ badId: 0, duplicateId: 0, badRecvdate: 0, noVaccine: 0, noEvent: 1, orphanVaxRows: 0, orphanSymptomRows: 0 });
    expect(load.dropExamples).toEqual(['1999VAERSDATA.csv.gz: VAERS_ID 132112 names no event']);
    expect(load.reports).toHaveLength(22_226);
    const first = load.reports.find((r) => r.id === 117862);
    expect(first).toMatchObject({
      recvdate: { year: 1999, month: 1, day: 4 }, ageYrs: 80.2, sex: 'F', hospital: true, erVisit: false, state: 'OH',
      numdays: 3, vaccines: ['INFLUENZA (SEASONAL) (FLUZONE)'], vaxTypes: ['FLU3'],
      events: ['Guillain-Barre syndrome', 'Myasthenic syndrome', 'Paralysis'],
    });
  });

  // Cross-checked with Python over the same files (n, n_vaccine, n_event, crude E, stratified E).
  const pairs: { vaccine: string; event: string; n: number; nv: number; ne: number; E: number; Es: number }[] = [
    { vaccine: 'ROTAVIRUS (ROTASHIELD)', event: 'Intussusception', n: 101, nv: 509, ne: 104, E: 4.369459347915807, Es: 35.52355303916492 },
    { vaccine: 'ROTAVIRUS (ROTASHIELD)', event: 'Gastrointestinal haemorrhage', n: 88, nv: 509, ne: 99, E: 4.159389186958316, Es: 31.31847742128604 },
    { vaccine: 'ANTHRAX (NO BRAND NAME)', event: 'Tinnitus', n: 18, nv: 396, ne: 36, E: 1.176723070573669, Es: 5.25219816763084 },
    { vaccine: 'POLIO VIRUS, INACT. (POLIOVAX)', event: 'Screaming', n: 85, nv: 857, ne: 150, E: 10.610813041683864, Es: 71.46700112127566 },
    { vaccine: 'MEASLES + MUMPS + RUBELLA (MMR II)', event: 'Pyrexia', n: 490, nv: 1632, ne: 2592, E: 349.16582748658686, Es: 400.5556736647274 },
  ];

  it('window 1999Q3 (1998Q4..1999Q3): N and five pairs, crude and stratified E', () => {
    for (const p of pairs) {
      const s = pairStatistics(load.reports, '1999Q3', p.vaccine, p.event);
      console.log(`raw-vaers 1999Q3 ${p.vaccine} x ${p.event}: n ${s.n}, n_vaccine ${s.n_vaccine}, n_event ${s.n_event}, `
        + `N ${s.N}, E ${sig(s.E)}, E_strat ${sig(s.E_strat)}, strata ${s.strata}`);
      expect(s.N).toBe(12_115);
      expect([s.n, s.n_vaccine, s.n_event]).toEqual([p.n, p.nv, p.ne]);
      expectClose(s.E, p.E);
      expectClose(s.E_strat, p.Es);
    }
  });

  it('the serious subset (ER visit alone is not serious), Rotashield x Intussusception', () => {
    const s = pairStatistics(load.reports, '1999Q3', 'ROTAVIRUS (ROTASHIELD)', 'Intussusception', { keep: isSerious });
    console.log(`raw-vaers 1999Q3 serious: n ${s.n}, n_vaccine ${s.n_vaccine}, n_event ${s.n_event}, N ${s.N}, `
      + `E ${sig(s.E)}, E_strat ${sig(s.E_strat)}`);
    expect([s.n, s.n_vaccine, s.n_event, s.N]).toEqual([97, 202, 100, 1_349]);
    expectClose(s.E, 14.97405485544848);
    expectClose(s.E_strat, 46.020047279071235);
    const er = load.reports.find((r) => r.erVisit && !isSerious(r));
    expect(er).toBeDefined();
  });

  it('caseCounts: Rotashield x Intussusception over 1998Q4..1999Q3', () => {
    const c = caseCounts(load.reports, { vaccines: ['ROTAVIRUS (ROTASHIELD)'], events: ['Intussusception'], from: '1998Q4', to: '1999Q3' });
    console.log('raw-vaers cases', JSON.stringify({ ...c, ids: c.ids.length }));
    expect(c.reports).toBe(101);
    expect(c.ids).toHaveLength(101);
    expect(c.bySex).toEqual({ F: 38, M: 61, U: 2 });
    expect([c.serious, c.nonSerious]).toEqual([97, 4]);
    expect(Object.values(c.byAgeGroup).reduce((a, b) => a + b, 0)).toBe(101);
    const all = caseCounts(load.reports, { from: '1998Q4', to: '1999Q3' });
    expect(all.reports).toBe(12_115);
  });

  it.skipIf(!existsSync(path.join(modern, '1999VAERSDATA.csv.gz')))('reads the current layout (vaers-modern-layout, 1999)', async () => {
    const m = await loadRawReports(modern, [1999]);
    console.log(`raw-vaers modern 1999: ${m.dataRows} DATA rows, ${m.reports.length} kept, drops ${JSON.stringify(m.drops)}`);
    expect(m.dataRows).toBe(12_123);
    expect(m.reports.find((r) => r.id === 117862)).toMatchObject({ sex: 'F', hospital: true, vaccines: ['INFLUENZA (SEASONAL) (FLUZONE)'] });
    expect(m.reports.some((r) => r.erVisit)).toBe(true);
  });
});
