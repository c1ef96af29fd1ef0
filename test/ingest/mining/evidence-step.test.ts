/**
 * The build's evidence step (src/ingest/mining/evidence-step.ts WindowEvidence, as the build's worker
 * threads run it) on a hand-made window: which reports make a pair's evidence (the window's
 * quarters, the analysis's subset) and which onsets each KS test compares (the event after other
 * vaccines; other events after the vaccine).
 */
import { describe, expect, it } from 'vitest';
import { evidenceFromDoubles, EVIDENCE_NUMBER_COLUMNS } from '../../../src/domain/columns.js';
import { QuarterReports, WindowEvidence, type EvidenceTables } from '../../../src/ingest/mining/evidence-step.js';
import { ks2samp } from '../../../src/stats/ks.js';
import { failureTables } from '../../../src/ingest/mining/evidence-failure.js';

const Q2000Q1 = 2000 * 4;
/** Reports: [quarter, vaccines, events, onset days, lag days, serious]. Vaccines A=0, B=1; events X=0, Y=1. */
const REPORTS: Array<[number, number[], number[], number | null, number | null, boolean]> = [
  [Q2000Q1, [0], [0], 1, 10, true],
  [Q2000Q1 - 1, [0], [0], 2, 20, false],
  [Q2000Q1 - 3, [0, 1], [0, 1], 3, 400, true],
  [Q2000Q1, [1], [0], 10, 5, false],
  [Q2000Q1, [0], [1], 20, 5, false],
  [Q2000Q1, [0], [0], null, null, false],
  [Q2000Q1 - 4, [0], [0], 0, 0, false], // before the window 1999Q2..2000Q1
];

function tables(): EvidenceTables {
  const runs = (lists: number[][]) => {
    const start = [0];
    for (const l of lists) start.push(start[start.length - 1] + l.length);
    return { start: Int32Array.from(start), values: Int32Array.from(lists.flat()) };
  };
  const vax = runs(REPORTS.map((r) => r[1]));
  const ev = runs(REPORTS.map((r) => r[2]));
  return {
    quarter: Uint16Array.from(REPORTS, (r) => r[0]), vaccineStart: vax.start, vaccines: vax.values, eventStart: ev.start, events: ev.values, nEvents: 2,
    lagDays: Float64Array.from(REPORTS, (r) => r[4] ?? Number.NaN), onsetDays: Int8Array.from(REPORTS, (r) => r[3] ?? -1),
    legal: new Int8Array(REPORTS.length), completeness: new Float64Array(REPORTS.length).fill(1),
    serious: Uint8Array.from(REPORTS, (r) => (r[5] ? 1 : 0)), died: new Uint8Array(REPORTS.length),
    onsetLagDays: new Float64Array(REPORTS.length).fill(Number.NaN), caseKey: Float64Array.from(REPORTS, (_, i) => i + 1),
    signatures: new Uint32Array(REPORTS.length * 32), hasSignature: new Uint8Array(REPORTS.length), narratives: false,
    onsetAny: Int32Array.from(REPORTS, (r) => r[3] ?? -1), vaxDate: new Int32Array(REPORTS.length), receivedDay: new Float64Array(REPORTS.length).fill(Number.NaN),
    typeStart: vax.start, types: vax.values, nTypes: 2, itemType: Int32Array.from([0, 1]), itemsAreTypes: true,
    failure: failureTables(['A', 'B'], ['X', 'Y']),
  };
}

/** Pair keys: A x X 0, A x Y 1 (v * 2 + e). */
const KEY: Record<string, number> = { 'A|X': 0, 'A|Y': 1, 'B|X': 2, 'B|Y': 3 };

/** The evidence of pairs `wanted` in the window ending at `quarter`, every report kept (mask 1) unless `mask` says otherwise. */
function evidenceOf(wanted: string[], quarter: number, mask = new Uint8Array(REPORTS.length).fill(1)): Array<ReturnType<typeof evidenceFromDoubles>> {
  const { values } = new WindowEvidence(tables(), mask).window(quarter, Float64Array.from(wanted, (k) => KEY[k]));
  expect(values.length).toBe(wanted.length * EVIDENCE_NUMBER_COLUMNS.length);
  return wanted.map((_, j) => evidenceFromDoubles(values, j * EVIDENCE_NUMBER_COLUMNS.length));
}

describe('QuarterReports', () => {
  it("lists each quarter's reports in ascending order, none for a quarter without reports or outside the range", () => {
    const byQuarter = new QuarterReports(Uint16Array.from([3, 1, 3, 0, 1, 3]));
    expect([...byQuarter.of(0)]).toEqual([3]);
    expect([...byQuarter.of(1)]).toEqual([1, 4]);
    expect([...byQuarter.of(2)]).toEqual([]);
    expect([...byQuarter.of(3)]).toEqual([0, 2, 5]);
    expect([...byQuarter.of(4)]).toEqual([]);
    expect([...byQuarter.of(-1)]).toEqual([]);
  });
});

describe('the evidence step', () => {
  it('A x X in 2000Q1: the window\'s four reports of the pair; onsets against X after B and against Y after A', async () => {
    const [row] = evidenceOf(['A|X'], Q2000Q1);
    expect(row.lag_n).toBe(3);
    expect(row.lag_excluded).toBe(1);
    expect(row.lag_median_days).toBe(20);
    expect(row.lag_share_over_365).toBeCloseTo(1 / 3, 12);
    expect(row.onset_n).toBe(3);
    expect(row.onset_median_days).toBe(2);
    expect(row.serious_share).toBe(0.5);
    // X without A: report 3 (onset 10); A without X: report 4 (onset 20).
    const vsVaccines = ks2samp([1, 2, 3], [10])!;
    const vsEvents = ks2samp([1, 2, 3], [20])!;
    expect([row.onset_d_other_vaccines, row.onset_p_other_vaccines]).toEqual([1, vsVaccines.p]);
    expect([row.onset_d_other_events, row.onset_p_other_events]).toEqual([1, vsEvents.p]);
    expect(vsVaccines.p).toBe(0.5); // 4 lattice paths, 2 leave the band (hand count)
    expect([row.onset_n_other_vaccines, row.onset_n_other_events, row.n_cases]).toEqual([1, 1, 4]);
  });

  it('with the window\'s scores: the co-reported vaccine and the related pairs of the flagged pairs', () => {
    // A x X (reports 0, 1, 2, 5), A x Y (2, 4), B x X (2, 3); report 2 names A and B.
    const keys = Float64Array.from(['A|X', 'A|Y', 'B|X'], (k) => KEY[k]);
    const evidence = new WindowEvidence(tables(), new Uint8Array(REPORTS.length).fill(1));
    const { links } = evidence.window(Q2000Q1, keys, { eb05: Float64Array.from([3, 2, 1]), flagged: Uint8Array.from([1, 1, 1]) });
    // B x X: report 2 of its 2 names A (type A: share 0.5), but X is on 3 of A's 4 reports without B
    // (0, 1, 4, 5: 0.75) against 1 of B's 1 without A (report 3: 1.0): not a bystander of A
    expect(Array.from(links.coVaccine)).toEqual([-1, -1, -1]);
    // A x X and A x Y share report 2: 1 of the smaller's 2 = 0.5, related
    expect(Array.from(links.related)).toEqual([0, 1, 0.5, 1, 0, 0.5]);
    const [, , bx] = Array.from(keys, (_, j) => evidenceFromDoubles(evidence.window(Q2000Q1, keys, { eb05: Float64Array.from([3, 2, 1]), flagged: Uint8Array.from([1, 1, 1]) }).values, j * EVIDENCE_NUMBER_COLUMNS.length));
    expect(bx.co_share).toBeNull();
    // Without report 3 (the mask), B has no report without A: its own rate counts 0, so B x X is a
    // bystander of type A, on 1 of 1 report, A's rate 3 of 4
    const masked = new WindowEvidence(tables(), Uint8Array.from(REPORTS, (_, i) => (i === 3 ? 0 : 1)));
    const scores = { eb05: Float64Array.from([3, 2, 1]), flagged: Uint8Array.from([1, 1, 1]) };
    const result = masked.window(Q2000Q1, keys, scores);
    expect(Array.from(result.links.coVaccine)).toEqual([-1, -1, 0]);
    const b = evidenceFromDoubles(result.values, 2 * EVIDENCE_NUMBER_COLUMNS.length);
    expect([b.co_share, b.co_type_event, b.co_type_reports, b.co_own_event, b.co_own_reports]).toEqual([1, 3, 4, 0, 0]);
  });

  it('with the window\'s scores, only the flagged pairs\' evidence is computed: every evidence value of the others is null', () => {
    const keys = Float64Array.from(['A|X', 'A|Y', 'B|X'], (k) => KEY[k]);
    const evidence = new WindowEvidence(tables(), new Uint8Array(REPORTS.length).fill(1));
    // A x Y not flagged: nulls; A x X flagged: as computed alone (hand-worked in the first test).
    const { values } = evidence.window(Q2000Q1, keys, { eb05: Float64Array.from([3, 1, 2]), flagged: Uint8Array.from([1, 0, 1]) });
    const [ax, ay, bx] = Array.from(keys, (_, j) => evidenceFromDoubles(values, j * EVIDENCE_NUMBER_COLUMNS.length));
    expect(Object.values(ay).every((value) => value === null)).toBe(true);
    expect([ax.lag_n, ax.lag_excluded, ax.onset_n, ax.serious_share, ax.n_cases]).toEqual([3, 1, 3, 0.5, 4]);
    // B x X: reports 2 and 3; X without B: reports 0, 1 and 5, two with an onset.
    expect([bx.lag_n, bx.onset_n, bx.onset_n_other_vaccines]).toEqual([2, 2, 2]);
    expect(ax).toEqual({ ...evidenceOf(['A|X'], Q2000Q1)[0], co_share: null, co_type_event: null, co_type_reports: null, co_own_event: null, co_own_reports: null });
  });

  it('A x Y in 2000Q1: reports 2 and 4; the other-vaccine sample is empty, so that test is null', async () => {
    const [row] = evidenceOf(['A|Y'], Q2000Q1);
    expect(row.onset_n).toBe(2);
    expect(row.onset_median_days).toBe(11.5);
    expect(row.onset_d_other_vaccines).toBeNull(); // Y after B: report 2 names A too
    expect(row.onset_d_other_events).not.toBeNull();
  });

  it('several pairs at once answer in the order asked, each as alone; the mask leaves reports out; a pair without a report in the window has counts 0', () => {
    const [ay, ax] = evidenceOf(['A|Y', 'A|X'], Q2000Q1);
    expect(ax).toEqual(evidenceOf(['A|X'], Q2000Q1)[0]);
    expect(ay).toEqual(evidenceOf(['A|Y'], Q2000Q1)[0]);
    // Without report 0 (the serious one of 2000Q1): A x X keeps reports 1, 2 and 5.
    const mask = new Uint8Array(REPORTS.length).fill(1);
    mask[0] = 0;
    const [masked] = evidenceOf(['A|X'], Q2000Q1, mask);
    expect([masked.lag_n, masked.lag_excluded, masked.onset_n, masked.serious_share]).toEqual([2, 1, 2, 1 / 3]);
    // In 1999Q1 (window 1998Q2..1999Q1) only report 6 (A x X) is in: B x Y has none there.
    const [none] = evidenceOf(['B|Y'], Q2000Q1 - 4);
    expect([none.lag_n, none.onset_n, none.deaths, none.lag_median_days, none.serious_share, none.onset_p_other_events]).toEqual([0, 0, 0, null, null, null]);
    const [early] = evidenceOf(['A|X'], Q2000Q1 - 4);
    expect([early.lag_n, early.onset_n, early.onset_median_days]).toEqual([1, 1, 0]);
  });
});
