/**
 * The `@dedup` analysis modifier (src/domain/analysis-rules.ts ANALYSIS_MODIFIERS): its parse and
 * its rule on hand-made report columns.
 */
import { describe, expect, it } from 'vitest';
import { analysisRule, subsetMask } from '../../../src/domain/analysis-rules.js';
import { OUTCOME, type RuleColumns } from '../../../src/domain/report-rules.js';
import { parseAnalyses } from '../../../src/ingest/mining/build.js';

/**
 * Four reports: ids 10, 11, 12, 13; 10 and 11 a cluster represented by 11, 12 alone, 13 in a
 * cluster represented by a report outside these columns (99). Report 10 and 13 died.
 */
const COLUMNS: RuleColumns = {
  count: 4, sex: Uint8Array.of(0, 0, 1, 2), age: Float64Array.of(1, 1, 30, NaN), ageGroup: Uint8Array.of(2, 2, 6, 12),
  quarter: Uint16Array.of(8000, 8000, 8001, 8001), outcomes: Uint16Array.of(OUTCOME.DIED, 0, 0, OUTCOME.DIED),
  id: Float64Array.of(10, 11, 12, 13), cluster: Float64Array.of(11, 11, NaN, 99),
};

describe('the @dedup modifier', () => {
  it('keeps the representatives and the reports in no cluster, within the base rule', () => {
    expect(Array.from(subsetMask(analysisRule('all@dedup')!, COLUMNS))).toEqual([0, 1, 1, 0]);
    // death keeps 10 and 13; neither represents its cluster.
    expect(Array.from(subsetMask(analysisRule('death@dedup')!, COLUMNS))).toEqual([0, 0, 0, 0]);
    expect(Array.from(subsetMask(analysisRule('death')!, COLUMNS))).toEqual([1, 0, 0, 1]);
  });

  it('names and describes the modified analysis, which says it is deduplicated', () => {
    const a = analysisRule('stratified@dedup')!;
    expect(a).toMatchObject({ name: 'stratified@dedup', stratified: true, deduplicated: true });
    expect(a.subset).toMatch(/suspected-duplicate cluster/);
    expect(analysisRule('stratified')!.deduplicated).toBeUndefined();
    // One definition per name: the build shares counts by the rule function.
    expect(analysisRule('stratified@dedup')).toBe(a);
  });

  it('an unknown or repeated modifier, or an unknown base, is no analysis; --analyses says which', () => {
    expect(analysisRule('all@nope')).toBeUndefined();
    expect(analysisRule('all@dedup@dedup')).toBeUndefined();
    expect(analysisRule('nope@dedup')).toBeUndefined();
    expect(() => parseAnalyses('all,all@nope')).toThrow(/--analyses: unknown modifier "@nope" in "all@nope" \(choose from @dedup, @types, @groups\)/);
    expect(parseAnalyses('stratified,stratified@dedup').map((a) => a.name)).toEqual(['stratified', 'stratified@dedup']);
  });
});
