/**
 * The triage evidence functions (src/ingest/mining/evidence.ts) on hand-worked values.
 */
import { describe, expect, it } from 'vitest';
import {
  completenessScore, daysBetween, legalWording, onsetCounts, onsetDays, onsetKs, pairEvidence, without, type ReportEvidence,
} from '../../../src/ingest/mining/evidence.js';
import { quantileSorted } from '../../../src/domain/report-days.js';
import { ks2samp, ksTest } from '../../../src/stats/ks.js';

const report = (over: Partial<ReportEvidence>): ReportEvidence => ({
  lagDays: null, legal: false, onsetDays: null, completeness: 1, serious: false, died: false, onsetLagDays: null, caseKey: 0, ...over,
});

describe('reporting lag', () => {
  it('counts days between yyyymmdd dates across a leap year', () => {
    expect(daysBetween(19990101, 20000101)).toBe(365);
    expect(daysBetween(20000101, 20010101)).toBe(366);
    expect(daysBetween(20000301, 20000228)).toBe(-2);
    expect(daysBetween(0, 20000101)).toBeNull();
  });
  it('type 7 quantiles: (n - 1) p interpolation', () => {
    // [1, 2, 3, 4]: h = 0.75 -> 1.75; median h = 1.5 -> 2.5; q3 h = 2.25 -> 3.25.
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(quantileSorted([7], 0.25)).toBe(7);
    expect(quantileSorted([], 0.5)).toBeNull();
  });
});

describe('legal wording', () => {
  it('matches the litigation words as whole words in any case', () => {
    expect(legalWording('Legal report: mercury poisoning')).toBe(true);
    expect(legalWording('per ATTORNEY, child developed autism')).toBe(true);
    expect(legalWording('Claims filed in court.')).toBe(true); // "claims filed"
    expect(legalWording('A petition was filed in the Court of Federal Claims.')).toBe(true);
    expect(legalWording('Patient claims she had a sore arm; seen in court.')).toBe(false); // bare claim(s) and court: no legal context
    expect(legalWording('fell on the volleyball court')).toBe(false);
    expect(legalWording('consent given by the legal guardian')).toBe(false);
    expect(legalWording('illegally obtained; paralegal; courtesy call; reclaimed')).toBe(false);
    expect(legalWording('fever and rash')).toBe(false);
  });
});

describe('onset days', () => {
  it('takes NUMDAYS when whole, else ONSET_DATE - VAX_DATE, within 0..60', () => {
    expect(onsetDays(2, 0, 0)).toBe(2);
    expect(onsetDays(0, 0, 0)).toBe(0);
    expect(onsetDays(NaN, 19990110, 19990101)).toBe(9);
    expect(onsetDays(1.5, 19990103, 19990101)).toBe(2);
    expect(onsetDays(61, 0, 0)).toBeNull();
    expect(onsetDays(NaN, 19990101, 19990110)).toBeNull();
    // A negative NUMDAYS (an entry error) lets the dates decide, as the case series' onset does.
    expect(onsetDays(-1, 19990105, 19990101)).toBe(4);
    expect(onsetDays(-1, 19990101, 19990105)).toBeNull();
    expect(onsetDays(-1, 0, 19990105)).toBeNull();
    expect(onsetDays(NaN, 0, 19990101)).toBeNull();
  });
});

describe('completeness (vigiGrade adaptation)', () => {
  it('multiplies (1 - penalty) over the missing elements; unassessed elements cost nothing', () => {
    expect(completenessScore({ onset: true, sex: true })).toBe(1);
    expect(completenessScore({ onset: false, lot: false })).toBeCloseTo(0.45, 12);
    expect(completenessScore({ sex: false, age: false, dose: false })).toBeCloseTo(0.7 * 0.7 * 0.9, 12);
  });
});

describe('pair evidence', () => {
  it('summarises a pair\'s reports (worked by hand)', () => {
    const e = pairEvidence([
      report({ lagDays: 10, legal: true, onsetDays: 1, completeness: 0.9, serious: true, died: true }),
      report({ lagDays: 400, legal: false, onsetDays: 3, completeness: 0.5 }),
      report({ lagDays: 800, legal: true, completeness: 0.81, serious: true }),
      report({ lagDays: null, legal: false, completeness: 0.3 }),
    ]);
    expect(e.lag_n).toBe(3);
    expect(e.lag_excluded).toBe(1);
    expect(e.lag_median_days).toBe(400);
    expect(e.lag_q1_days).toBe(205); // h = 0.5 between 10 and 400
    expect(e.lag_q3_days).toBe(600);
    expect(e.lag_share_over_365).toBeCloseTo(2 / 3, 12);
    expect(e.legal_share).toBe(0.5);
    expect(e.onset_n).toBe(2);
    expect(e.onset_median_days).toBe(2);
    expect(e.completeness_mean).toBeCloseTo((0.9 + 0.5 + 0.81 + 0.3) / 4, 12);
    expect(e.well_documented_share).toBe(0.5);
    expect(e.serious_share).toBe(0.5);
    expect(e.deaths).toBe(1);
  });
  it('legal share is null when no narrative was kept', () => {
    expect(pairEvidence([report({ legal: null })]).legal_share).toBeNull();
    expect(pairEvidence([report({})]).lag_median_days).toBeNull();
  });
});

describe('onset KS', () => {
  it('is SciPy ks_2samp (exact) on a small case and null on an empty sample', () => {
    const r = onsetKs(onsetCounts([0, 1, 1, 2, 7]), onsetCounts([3, 5, 8, 12, 14, 20]))!;
    expect(r.d).toBeCloseTo(0.8, 12);
    expect(r.p).toBeCloseTo(0.04761904761904761, 12);
    expect(onsetKs(onsetCounts([]), onsetCounts([1]))).toBeNull();
  });
  it('equals ks2samp on the same samples (ties, unequal sizes)', () => {
    const x = [0, 0, 0, 1, 1, 2, 3, 5, 8, 13, 21, 34];
    const y = [0, 1, 1, 1, 2, 2, 2, 3, 4, 5, 6, 7, 7, 14, 30, 60, 60];
    const want = ks2samp(x, y)!;
    const got = onsetKs(onsetCounts(x), onsetCounts(y))!;
    expect(got.d).toBe(want.d);
    expect(got.p).toBe(want.p);
  });
  it('samples over 10000 take the asymptotic p-value, as SciPy\'s method auto (D still exact)', () => {
    const x = onsetCounts(Array.from({ length: 10200 }, (_, i) => i % 3));
    const y = onsetCounts(Array.from({ length: 10200 }, (_, i) => i % 30));
    const r = onsetKs(x, y)!;
    // F_x(2) = 1, F_y(2) = 1020/10200 -> D = 0.9; SciPy: exact only while max(n1, n2) <= 10000
    expect(r.d).toBeCloseTo(0.9, 12);
    expect(r).toEqual({ d: r.d, p: ksTest(10200, 10200, r.d, false)!.p });
  });
  it('samples up to 10000 take the exact p-value, as SciPy\'s method auto', () => {
    const x = onsetCounts(Array.from({ length: 300 }, (_, i) => i % 7));
    const y = onsetCounts(Array.from({ length: 4000 }, (_, i) => i % 11));
    const r = onsetKs(x, y)!;
    const exact = ksTest(300, 4000, r.d)!;
    expect(exact.method).toBe('exact');
    expect(r.p).toBe(exact.p);
  });
  it('removes the pair\'s onsets from the event\'s (counts per day)', () => {
    expect([...without(onsetCounts([1, 2, 2, 5]), onsetCounts([2, 5])).slice(0, 6)]).toEqual([0, 1, 1, 0, 0, 0]);
  });
});
