/**
 * The build's evidence step (src/mining/evidence-step.ts) on a hand-made window: which reports
 * make a pair's evidence (the window's quarters, the analysis's subset) and which onsets each KS
 * test compares (the event after other vaccines; other events after the vaccine).
 */
import { describe, expect, it } from 'vitest';
import { ANALYSES } from '../../src/domain/analysis-rules.js';
import type { QuarterlyRow } from '../../src/domain/columns.js';
import { withEvidence, type EvidenceInputs } from '../../src/mining/evidence-step.js';
import type { ReportEvidence } from '../../src/mining/evidence.js';
import { ks2samp } from '../../src/stats/ks.js';
import type { ReportDetails } from '../../src/vaers/report-details.js';

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

function inputs(): EvidenceInputs {
  const runs = (lists: number[][]) => {
    const start = [0];
    for (const l of lists) start.push(start[start.length - 1] + l.length);
    return { start: Int32Array.from(start), values: Int32Array.from(lists.flat()) };
  };
  const vax = runs(REPORTS.map((r) => r[1]));
  const ev = runs(REPORTS.map((r) => r[2]));
  const evidence: ReportEvidence[] = REPORTS.map(([, , , onset, lag, serious]) => ({
    lagDays: lag, legal: false, onsetDays: onset, completeness: 1, serious, died: false,
  }));
  return {
    quarter: Uint16Array.from(REPORTS, (r) => r[0]), vaccineStart: vax.start, vaccines: vax.values, eventStart: ev.start, events: ev.values,
    evidence, vaccineNames: ['A', 'B'], eventNames: ['X', 'Y'], details: { count: REPORTS.length } as unknown as ReportDetails,
  };
}

async function evidenceOf(drug: string, event: string, quarter: string): Promise<QuarterlyRow> {
  async function* rows(): AsyncGenerator<QuarterlyRow> {
    yield { analysis: 'all', drug, event, quarter } as QuarterlyRow;
  }
  const all = ANALYSES.find((a) => a.name === 'all')!;
  const out: QuarterlyRow[] = [];
  for await (const row of withEvidence(inputs(), rows(), all, new Set([0 * 2 + 0, 0 * 2 + 1]))) out.push(row);
  return out[0];
}

describe('the evidence step', () => {
  it('A x X in 2000Q1: the window\'s four reports of the pair; onsets against X after B and against Y after A', async () => {
    const row = await evidenceOf('A', 'X', '2000Q1');
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
  });

  it('A x Y in 2000Q1: reports 2 and 4; the other-vaccine sample is empty, so that test is null', async () => {
    const row = await evidenceOf('A', 'Y', '2000Q1');
    expect(row.onset_n).toBe(2);
    expect(row.onset_median_days).toBe(11.5);
    expect(row.onset_d_other_vaccines).toBeNull(); // Y after B: report 2 names A too
    expect(row.onset_d_other_events).not.toBeNull();
  });
});
