/** The named analyses: subset rules, strata, the --analyses list. */
import { describe, expect, it } from 'vitest';
import { ANALYSES, parseAnalyses, strataCount, stratumOf, type AnalysisReport } from '../src/analyses.js';
import { OUTCOME, ageGroupOf } from '../src/vaers/report-fields.js';

function report(fields: Partial<AnalysisReport>): AnalysisReport {
  const age = fields.age ?? null;
  return { sex: 'U', age, ageGroup: ageGroupOf(age), year: 2000, outcomes: 0, ...fields };
}

const kept = (name: string, reports: AnalysisReport[]): number[] =>
  reports.flatMap((r, i) => (ANALYSES.find((a) => a.name === name)!.keeps(r) ? [i] : []));

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

  it('strata: year x 13 age groups x 3 sexes, each report in exactly one', () => {
    expect(strataCount(1999, 2000)).toBe(78);
    const seen = new Set<number>();
    for (const year of [1999, 2000]) {
      for (const age of [0.1, 0.7, 2, 4, 10, 20, 35, 45, 55, 62, 70, 90, null]) {
        for (const sex of ['F', 'M', 'U'] as const) seen.add(stratumOf(report({ sex, age, year }), 1999));
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 78 }, (_, i) => i));
  });

  it('--analyses: order kept (the first is the default), `all` by default, unknown or repeated names refused', () => {
    expect(parseAnalyses(undefined).map((a) => a.name)).toEqual(['all']);
    expect(parseAnalyses('stratified, all,serious').map((a) => a.name)).toEqual(['stratified', 'all', 'serious']);
    expect(() => parseAnalyses('all,bogus')).toThrow(/unknown analysis "bogus".*all, stratified, serious/);
    expect(() => parseAnalyses('all,all')).toThrow(/named twice/);
    expect(() => parseAnalyses(' , ')).toThrow(/no analysis/);
  });
});
