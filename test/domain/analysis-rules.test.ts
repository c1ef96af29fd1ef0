/** The named analyses: subset rules on the report columns, strata, the --analyses list. */
import { describe, expect, it } from 'vitest';
import { ANALYSES, ANALYSIS_NAMES, analysisRule, DEFAULT_ANALYSES, DEFAULT_STRATA, parseStrata, strataCount, stratumOf, subsetMask, SUBSET_ANALYSES } from '../../src/domain/analysis-rules.js';
import { quarterOf } from '../../src/domain/quarter.js';
import { AGE_GROUPS_6, ageGroup6Of, ageGroupOf, OUTCOME, SEX_CODES, type RuleColumns, type Sex } from '../../src/domain/report-rules.js';
import { parseAnalyses } from '../../src/ingest/mining/build.js';

/** One report as the rules see it. */
interface Report { sex?: Sex; age?: number | null; year?: number; outcomes?: number }

/** The reports as rule columns (the shape of the build's ReportDetails and the server's ReportData). */
function columns(reports: Report[]): RuleColumns {
  return {
    count: reports.length,
    sex: Uint8Array.from(reports, (r) => SEX_CODES.indexOf(r.sex ?? 'U')),
    age: Float64Array.from(reports, (r) => r.age ?? NaN),
    ageGroup: Uint8Array.from(reports, (r) => ageGroupOf(r.age ?? null)),
    quarter: Uint16Array.from(reports, (r) => quarterOf(r.year ?? 2000, 5)),
    outcomes: Uint16Array.from(reports, (r) => r.outcomes ?? 0),
    id: Float64Array.from(reports, (_, i) => i + 1),
    cluster: Float64Array.from(reports, () => NaN),
  };
}
const report = (r: Report): Report => r;

const kept = (name: string, reports: Report[]): number[] =>
  [...subsetMask(analysisRule(name)!, columns(reports))].flatMap((k, i) => (k ? [i] : []));

describe('analyses', () => {
  const reports = [
    report({ sex: 'F', age: 0.2, outcomes: OUTCOME.ER_VISIT }), // 0: infant girl, ER visit only
    report({ sex: 'M', age: 17.99, outcomes: OUTCOME.HOSPITAL }), // 1: boy, hospitalised
    report({ sex: 'F', age: 18, outcomes: OUTCOME.DIED }), // 2: woman, died
    report({ sex: 'U', age: 64.99, outcomes: OUTCOME.BIRTH_DEFECT }), // 3: birth defect (current layout only)
    report({ sex: 'M', age: 65, outcomes: OUTCOME.OFC_VISIT }), // 4: elderly man, office visit
    report({ sex: 'U', age: null, outcomes: OUTCOME.L_THREAT | OUTCOME.DISABLE }), // 5: no age, no sex
  ];

  it('each subset keeps the reports of its rule; reports without the value are left out of age and sex subsets', () => {
    expect(kept('all', reports)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(kept('stratified', reports)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(kept('serious', reports)).toEqual([1, 2, 3, 5]);
    expect(kept('death', reports)).toEqual([2]);
    expect(kept('pediatric', reports)).toEqual([0, 1]);
    expect(kept('adult', reports)).toEqual([2, 3]);
    expect(kept('elderly', reports)).toEqual([4]);
    expect(kept('female', reports)).toEqual([0, 2]);
    expect(kept('male', reports)).toEqual([1, 4]);
  });

  it('only `all` uses crude E', () => {
    expect(ANALYSES.filter((a) => !a.stratified).map((a) => a.name)).toEqual(['all']);
  });

  it('strata sex,age13,year: year x 13 age groups x 3 sexes, each report in exactly one', () => {
    const scheme = parseStrata('year, sex,age13');
    expect(scheme.name).toBe('sex,age13,year');
    expect(scheme.by).toEqual(['year of RECVDATE', 'age group (CDC WONDER, 13 groups)', 'sex (F, M, U)']);
    expect(strataCount(scheme, 1999, 2000)).toBe(78);
    const reports: Report[] = [];
    for (const year of [1999, 2000]) {
      for (const age of [0.1, 0.7, 2, 4, 10, 20, 35, 45, 55, 62, 70, 90, null]) {
        for (const sex of ['F', 'M', 'U'] as const) reports.push({ sex, age, year });
      }
    }
    const c = columns(reports);
    const strata = reports.map((_, i) => stratumOf(scheme, c, i, 1999, 2000));
    expect(strata).toEqual(Array.from({ length: 78 }, (_, i) => i));
  });

  it('strata sex,age6,year (the default): year x AGE_GROUP_6 of whole years x 3 sexes', () => {
    const scheme = parseStrata();
    expect(scheme.name).toBe(DEFAULT_STRATA);
    expect(scheme.name).toBe('sex,age6,year');
    expect(scheme.by).toEqual(['year of RECVDATE', 'age group (AGE_GROUP_6: 00_01, 02_05, 06_17, 18_64, 65_above, unknown)', 'sex (F, M, U)']);
    expect(strataCount(scheme, 1999, 2001)).toBe(54);
    const reports: Report[] = [];
    for (const year of [1999, 2000, 2001]) {
      for (const age of [1.99, 5.5, 17.9, 64.99, 65, null]) {
        for (const sex of ['F', 'M', 'U'] as const) reports.push({ sex, age, year });
      }
    }
    const c = columns(reports);
    expect(reports.map((_, i) => stratumOf(scheme, c, i, 1999, 2001))).toEqual(Array.from({ length: 54 }, (_, i) => i));
    // whole years: 1.99 is 00_01, 2 is 02_05; 64.99 is 18_64
    expect([0, 1.99, 2, 5.99, 6, 17.99, 18, 64.99, 65, 101, NaN].map((a) => AGE_GROUPS_6[ageGroup6Of(a)].label))
      .toEqual(['00_01', '00_01', '02_05', '02_05', '06_17', '06_17', '18_64', '18_64', '65_above', '65_above', 'unknown']);
    expect(strataCount(parseStrata('year'), 1999, 2001)).toBe(3);
  });

  it('--strata: unknown, repeated, empty or two age groupings refused', () => {
    expect(() => parseStrata('sex,age7')).toThrow(/unknown dimension "age7".*sex, age6, age13, year/);
    expect(() => parseStrata('sex,sex')).toThrow(/named twice/);
    expect(() => parseStrata(' , ')).toThrow(/no dimension/);
    expect(() => parseStrata('age6,age13')).toThrow(/one age grouping/);
  });

  it('names and subsets come from the one table; an unknown name has no rule', () => {
    expect(ANALYSIS_NAMES).toEqual(['all', 'stratified', 'serious', 'death', 'pediatric', 'adult', 'elderly', 'female', 'male']);
    expect(SUBSET_ANALYSES.map((a) => a.name)).toEqual(['serious', 'death', 'pediatric', 'adult', 'elderly', 'female', 'male']);
    expect(analysisRule('elderly')?.title).toBe('Elderly (65 and over)');
    expect(analysisRule('teenagers')).toBeUndefined();
  });

  it('--analyses: order kept (the first is the default), `all` by default, unknown or repeated names refused', () => {
    expect(parseAnalyses(undefined).map((a) => a.name)).toEqual(['all']);
    expect(parseAnalyses('default').map((a) => a.name)).toEqual(['all', 'stratified', 'serious', 'death', 'pediatric', 'elderly', 'types', 'groups']);
    expect(parseAnalyses('default').map((a) => a.name)).toEqual(DEFAULT_ANALYSES);
    expect(parseAnalyses('stratified, all,serious').map((a) => a.name)).toEqual(['stratified', 'all', 'serious']);
    expect(() => parseAnalyses('all,bogus')).toThrow(/unknown analysis "bogus".*all, stratified, serious/);
    expect(() => parseAnalyses('all,all')).toThrow(/named twice/);
    expect(() => parseAnalyses(' , ')).toThrow(/no analysis/);
  });
});
