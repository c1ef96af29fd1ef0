import { describe, expect, it } from 'vitest';
import { countQuarters, windowCounts, type HistoryCounts, type QuarterCounts } from '../../../src/ingest/mining/counts.js';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { random as seededRandom } from '../../../bench/prng.js';

const Q = (text: string): number => parseQuarter(text)!;

function byQuarter(history: HistoryCounts): Map<number, QuarterCounts> {
  return new Map(history.quarters.map((q) => [q.quarter, q]));
}

/** Window counts as { "v,e": n } plus margins, for readable assertions. */
function windowOf(history: HistoryCounts, quarter: string) {
  const w = windowCounts(history, byQuarter(history), Q(quarter));
  if (!w) return null;
  const pairs: Record<string, number> = {};
  const nVaccine: Record<string, number> = {};
  const nEvent: Record<string, number> = {};
  w.keys.forEach((key, i) => {
    const v = Math.floor(key / history.nEvents);
    const e = key - v * history.nEvents;
    pairs[`${v},${e}`] = w.n[i];
    nVaccine[`${v}`] = w.n_vaccine[i];
    nEvent[`${e}`] = w.n_event[i];
  });
  return { pairs, nVaccine, nEvent, N: w.n_reports, quartersWithData: w.quartersWithData };
}

describe('counts (docs/design.md "Statistics, precisely": distinct reports per quarter, 4-quarter windows)', () => {
  it('a report received in quarter q counts in the windows q..q+3 and in no other', () => {
    const history = countQuarters([
      { quarter: Q('2000Q1'), vaccines: [0], events: [0] },
      { quarter: Q('2001Q4'), vaccines: [1], events: [1] },
    ], 2, 2);
    expect(windowOf(history, '2000Q1')!.pairs).toEqual({ '0,0': 1 });
    expect(windowOf(history, '2000Q4')!.pairs).toEqual({ '0,0': 1 });
    expect(windowOf(history, '2001Q1')).toBeNull();
    expect(windowOf(history, '2001Q3')).toBeNull();
    expect(windowOf(history, '2001Q4')!.pairs).toEqual({ '1,1': 1 });
    expect(windowOf(history, '1999Q4')).toBeNull();
    expect(windowOf(history, '2000Q2')!.quartersWithData).toBe(1);
  });

  it('margins are distinct-report counts: n_vaccine, n_event and N = reports naming >= 1 vaccine and >= 1 event', () => {
    // Report 1 names vaccines 0 and 1 and events 0, 1, 2; report 2 names vaccine 0 and event 0;
    // report 3 (next quarter) names vaccine 1 and events 1 and 2.
    const history = countQuarters([
      { quarter: Q('2000Q1'), vaccines: [0, 1], events: [0, 1, 2] },
      { quarter: Q('2000Q1'), vaccines: [0], events: [0] },
      { quarter: Q('2000Q2'), vaccines: [1], events: [1, 2] },
    ], 2, 3);
    const w1 = windowOf(history, '2000Q1')!;
    expect(w1.pairs).toEqual({ '0,0': 2, '0,1': 1, '0,2': 1, '1,0': 1, '1,1': 1, '1,2': 1 });
    expect(w1.nVaccine).toEqual({ 0: 2, 1: 1 });
    expect(w1.nEvent).toEqual({ 0: 2, 1: 1, 2: 1 });
    expect(w1.N).toBe(2);
    const w2 = windowOf(history, '2000Q2')!;
    expect(w2.pairs).toEqual({ '0,0': 2, '0,1': 1, '0,2': 1, '1,0': 1, '1,1': 2, '1,2': 2 });
    expect(w2.nVaccine).toEqual({ 0: 2, 1: 2 });
    expect(w2.nEvent).toEqual({ 0: 2, 1: 2, 2: 2 });
    expect(w2.N).toBe(3);
    // Quarter totals: each report is in exactly one quarter.
    expect(history.quarters.map((q) => q.reports)).toEqual([2, 1]);
  });

  it('--scale K replays the reports K times, shifted by whole spans of the history (benchmarks only)', () => {
    const reports = [
      { quarter: Q('2000Q1'), vaccines: [0], events: [0] },
      { quarter: Q('2000Q3'), vaccines: [0], events: [1] },
    ];
    const history = countQuarters(reports, 1, 2, { scale: 3 });
    expect(history.shift).toBe(3);
    expect(history.reports).toBe(6);
    expect(history.quarters.map((q) => q.quarter)).toEqual(
      ['2000Q1', '2000Q3', '2000Q4', '2001Q2', '2001Q3', '2002Q1'].map(Q),
    );
    // The window ending at 2000Q4 holds both reports of the first history and the first report of its replay.
    expect(windowOf(history, '2000Q4')!.pairs).toEqual({ '0,0': 2, '0,1': 1 });
    expect(windowOf(history, '2000Q4')!.N).toBe(3);
    expect(() => countQuarters(reports, 1, 2, { scale: 0 })).toThrow(/scale/);
  });

  it('rejects vaccine or event indexes outside the vocabulary', () => {
    expect(() => countQuarters([{ quarter: 0, vaccines: [2], events: [0] }], 2, 1)).toThrow(/vaccine index 2/);
    expect(() => countQuarters([{ quarter: 0, vaccines: [0], events: [-1] }], 1, 1)).toThrow(/event index -1/);
  });

  it('a report with explicit pairs counts only those pairs; its margins still count it once per vaccine and event', () => {
    // One report naming V0 and V1 and E0 and E1, with rows (V0, E0) and (V1, E1) only (openEBGM raw data).
    const history = countQuarters([{ quarter: 0, vaccines: [0, 1], events: [0, 1], pairs: [0 * 2 + 0, 1 * 2 + 1] }], 2, 2);
    const w = windowOf(history, '0000Q1')!;
    expect(w.pairs).toEqual({ '0,0': 1, '1,1': 1 });
    expect(w.nVaccine).toEqual({ 0: 1, 1: 1 });
    expect(w.N).toBe(1);
  });

  it('stratified E = sum over strata of n_vaccine,s * n_event,s / N_s, worked by hand (DuMouchel 1999 section 2)', () => {
    // Quarter 0: stratum 0 holds r1 {V0; E0}, r2 {V0; E1}, r3 {V1; E0}; stratum 1 holds r4 {V0; E0}, r5 {V1; E1}.
    // Quarter 1: stratum 0 holds r6 {V0; E0}.
    const reports = [
      { quarter: 0, vaccines: [0], events: [0], stratum: 0 },
      { quarter: 0, vaccines: [0], events: [1], stratum: 0 },
      { quarter: 0, vaccines: [1], events: [0], stratum: 0 },
      { quarter: 0, vaccines: [0], events: [0], stratum: 1 },
      { quarter: 0, vaccines: [1], events: [1], stratum: 1 },
      { quarter: 1, vaccines: [0], events: [0], stratum: 0 },
    ];
    const history = countQuarters(reports, 2, 2, { strata: 2 });
    const quarters = byQuarter(history);
    const w0 = windowCounts(history, quarters, 0)!;
    // Keys ascend: (V0,E0), (V0,E1), (V1,E0), (V1,E1).
    // (V0,E0): s0 2*2/3 + s1 1*1/2 = 11/6 (crude 3*3/5 = 1.8); (V0,E1): 2*1/3 + 1*1/2 = 7/6;
    // (V1,E0): 1*2/3 + 1*1/2 = 7/6; (V1,E1): 1*1/3 + 1*1/2 = 5/6.
    expect(Array.from(w0.expected!)).toEqual([4 / 3 + 1 / 2, 2 / 3 + 1 / 2, 2 / 3 + 1 / 2, 1 / 3 + 1 / 2]);
    expect(Array.from(w0.n)).toEqual([2, 1, 1, 1]);
    expect(w0.n_vaccine[0] * w0.n_event[0] / w0.n_reports).toBe(1.8);
    // Window ending at quarter 1 (quarters -2..1): stratum 0 now has N 4, n_V0 3, n_E0 3 -> 9/4; stratum 1 unchanged 1/2.
    const w1 = windowCounts(history, quarters, 1)!;
    expect(w1.expected![0]).toBe(9 / 4 + 1 / 2);
    // Without the strata option there is no stratified E.
    expect(windowCounts(countQuarters(reports, 2, 2), quarters, 0)!.expected).toBeUndefined();
    expect(() => countQuarters([{ quarter: 0, vaccines: [0], events: [0], stratum: 2 }], 1, 1, { strata: 2 })).toThrow(/stratum index 2/);
  });

  it('every window merged from its quarters\' counts equals counting the window\'s reports at once (a made-up history of 12 quarters with gaps, 3 strata)', () => {
    const draw = seededRandom(41);
    const pick = (k: number, of: number): number[] => [...new Set(Array.from({ length: 1 + Math.floor(draw() * k) }, () => Math.floor(draw() * of)))];
    // Quarters 0..2 and 7..11 (a gap of 4: the window ending at 6 is empty), reports naming 1-3 of 6 vaccines and 1-4 of 8 events.
    const reports = Array.from({ length: 600 }, () => ({ quarter: [0, 1, 2, 7, 8, 9, 10, 11][Math.floor(draw() * 8)], vaccines: pick(3, 6), events: pick(4, 8), stratum: Math.floor(draw() * 3) }));
    const history = countQuarters(reports, 6, 8, { strata: 3 });
    const quarters = byQuarter(history);
    for (let q = 0; q <= 14; q++) {
      const inWindow = reports.filter((r) => r.quarter > q - 4 && r.quarter <= q).map((r) => ({ ...r, quarter: 0 }));
      const merged = windowCounts(history, quarters, q);
      if (inWindow.length === 0) {
        expect([q, merged]).toEqual([6, null]);
        continue;
      }
      const once = countQuarters(inWindow, 6, 8, { strata: 3 });
      const direct = windowCounts(once, byQuarter(once), 0)!;
      expect(merged!.n_reports).toBe(inWindow.length);
      for (const field of ['keys', 'n', 'n_vaccine', 'n_event'] as const) expect(Array.from(merged![field])).toEqual(Array.from(direct[field]));
      // E summed stratum by stratum over the window's margins: the same sums in the same order, so equal to the bit
      expect(Array.from(merged!.expected!)).toEqual(Array.from(direct.expected!));
    }
  });

  it('with keep, a window holds the kept pairs only, each with the values it has without keep, and pairs counts every pair', () => {
    const draw = seededRandom(7);
    const pick = (k: number, of: number): number[] => [...new Set(Array.from({ length: 1 + Math.floor(draw() * k) }, () => Math.floor(draw() * of)))];
    const reports = Array.from({ length: 400 }, () => ({ quarter: Math.floor(draw() * 5), vaccines: pick(3, 6), events: pick(4, 8), stratum: Math.floor(draw() * 3) }));
    const history = countQuarters(reports, 6, 8, { strata: 3 });
    const quarters = byQuarter(history);
    for (let q = 0; q <= 7; q++) {
      const whole = windowCounts(history, quarters, q)!;
      const keep = (key: number): boolean => key % 3 !== 1;
      const part = windowCounts(history, quarters, q, keep)!;
      expect(part.pairs).toBe(whole.keys.length);
      expect(whole.pairs).toBe(whole.keys.length);
      const at = Array.from(whole.keys.keys()).filter((i) => keep(whole.keys[i]));
      expect(at.length).toBeLessThan(whole.keys.length);
      for (const field of ['keys', 'n', 'n_vaccine', 'n_event', 'expected'] as const) expect(Array.from(part[field]!)).toEqual(at.map((i) => whole[field]![i]));
      expect([part.n_reports, part.quartersWithData]).toEqual([whole.n_reports, whole.quartersWithData]);
    }
  });
});
