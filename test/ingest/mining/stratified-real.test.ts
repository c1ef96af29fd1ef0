/**
 * Stratified expected counts on the real 1999Q3 window (and, with the default strata, 1999Q1): the build's path
 * (src/ingest/vaers reader -> analyses' strata -> src/ingest/mining/counts.ts) against an independent
 * computation from the raw files (test/helpers/raw-vaers.ts, which uses no project code), within
 * 1e-9 relative: n, the margins, N, crude E and stratified E, for every report and for the
 * `serious` subset, with the 13 CDC WONDER age groups (`sex,age13,year`) and with Empirica's
 * AGE_GROUP_6 (`sex,age6,year`, the default). Skipped with a message when ../shared/data/vaers is absent.
 */
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analysisRule, DEFAULT_STRATA, parseStrata, strataCount, stratumOf, subsetMask, type AnalysisDefinition } from '../../../src/domain/analysis-rules.js';
import { countQuarters, windowCounts, type HistoryCounts, type WindowCounts } from '../../../src/ingest/mining/counts.js';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { readVaers, type VaersData } from '../../../src/ingest/vaers/read.js';
import { isSerious, loadRawReports, pairStatistics, type RawReport } from '../../helpers/raw-vaers.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const vaers = path.resolve(SHARED_DATA, 'vaers');
const present = existsSync(path.join(vaers, '1999VAERSDATA.csv.gz'));
if (!present) console.warn(`stratified E on the real 1999Q3 window skipped: ${vaers} is absent`);

const PAIRS: Array<[string, string]> = [
  ['ROTAVIRUS (ROTASHIELD)', 'Intussusception'],
  ['ROTAVIRUS (ROTASHIELD)', 'Gastrointestinal haemorrhage'],
  ['ANTHRAX (NO BRAND NAME)', 'Tinnitus'],
  ['POLIO VIRUS, INACT. (POLIOVAX)', 'Screaming'],
  ['MEASLES + MUMPS + RUBELLA (MMR II)', 'Pyrexia'],
];

/** The two strata choices the oracle computes: sex x 13 CDC WONDER age groups (or AGE_GROUP_6) x year. */
const STRATA = { age13: parseStrata('sex,age13,year'), age6: parseStrata(DEFAULT_STRATA) } as const;

function close(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
}

describe.skipIf(!present)('stratified E on the real 1999Q3 window against an independent computation', () => {
  let data: VaersData;
  let raw: RawReport[];
  beforeAll(async () => {
    // Only 1998 and 1999 are needed for the 1998Q4..1999Q3 window: a folder of links to them.
    const folder = mkdtempSync(path.join(tmpdir(), 'stratified-real-'));
    for (const year of [1998, 1999]) {
      for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) symlinkSync(path.join(vaers, `${year}VAERS${kind}.csv.gz`), path.join(folder, `${year}VAERS${kind}.csv.gz`));
    }
    data = await readVaers(folder);
    raw = (await loadRawReports(vaers, [1998, 1999])).reports;
  }, 120_000);

  function window(analysis: AnalysisDefinition, ages: keyof typeof STRATA, end: string): { history: HistoryCounts; w: WindowCounts } {
    const mask = subsetMask(analysis, data.details);
    const reports = data.reports.flatMap((r, i) => (mask[i] ? [{ ...r, stratum: stratumOf(STRATA[ages], data.details, i, 1998, 1999) }] : []));
    const history = countQuarters(reports, data.vaccines.length, data.events.length, { strata: strataCount(STRATA[ages], 1998, 1999) });
    const quarter = parseQuarter(end)!;
    return { history, w: windowCounts(history, new Map(history.quarters.map((q) => [q.quarter, q])), quarter)! };
  }

  function check(analysis: AnalysisDefinition, rawKeep?: (r: RawReport) => boolean, ages: keyof typeof STRATA = 'age13', end = '1999Q3'): void {
    const { history, w } = window(analysis, ages, end);
    for (const [vaccine, event] of PAIRS) {
      const expected = pairStatistics(raw, end, vaccine, event, { ages, ...(rawKeep ? { keep: rawKeep } : {}) });
      const key = data.vaccines.indexOf(vaccine) * history.nEvents + data.events.indexOf(event);
      const i = w.keys.indexOf(key);
      if (expected.n === 0) {
        expect(i, `${vaccine} x ${event}`).toBe(-1);
        continue;
      }
      expect(i, `${vaccine} x ${event}`).toBeGreaterThanOrEqual(0);
      expect([w.n[i], w.n_vaccine[i], w.n_event[i], w.n_reports]).toEqual([expected.n, expected.n_vaccine, expected.n_event, expected.N]);
      close(w.n_vaccine[i] * w.n_event[i] / w.n_reports, expected.E!);
      close(w.expected![i], expected.E_strat!);
    }
  }

  it('every report: n, margins, N, crude E and stratified E agree (RotaShield x Intussusception: n 101, E 4.37 crude, 35.5 stratified)', () => {
    check(analysisRule('stratified')!);
    const rota = pairStatistics(raw, '1999Q3', 'ROTAVIRUS (ROTASHIELD)', 'Intussusception');
    expect(rota.n).toBe(101);
    expect(rota.E_strat! / rota.E!).toBeGreaterThan(8);
  });

  it('the serious subset agrees too', () => {
    check(analysisRule('serious')!, isSerious);
  });

  it('with the default strata sex x AGE_GROUP_6 x year, every report and serious, in 1999Q3 and 1999Q1 (RotaShield x Intussusception 1999Q3: E 15.68, 35.52 with 13 groups)', () => {
    for (const end of ['1999Q3', '1999Q1']) {
      check(analysisRule('stratified')!, undefined, 'age6', end);
      check(analysisRule('serious')!, isSerious, 'age6', end);
    }
    const six = pairStatistics(raw, '1999Q3', 'ROTAVIRUS (ROTASHIELD)', 'Intussusception', { ages: 'age6' });
    expect(six.E_strat!.toFixed(2)).toBe('15.68');
  });
});
