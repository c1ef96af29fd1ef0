import { describe, expect, it } from 'vitest';
import { maskingRatio, pairPrr } from '../../src/stats/masking.js';

/** A tiny report list: each report's vaccines and events. */
const REPORTS: Array<{ vaccines: string[]; events: string[] }> = [
  ...Array.from({ length: 40 }, (_, i) => ({ vaccines: ['M'], events: i < 30 ? ['E'] : ['X'] })),
  ...Array.from({ length: 10 }, (_, i) => ({ vaccines: ['V', 'M'], events: i < 4 ? ['E'] : ['X'] })),
  ...Array.from({ length: 20 }, (_, i) => ({ vaccines: ['V'], events: i < 5 ? ['E'] : ['Y'] })),
  ...Array.from({ length: 60 }, (_, i) => ({ vaccines: ['W'], events: i < 3 ? ['E'] : ['Y'] })),
];

/** Counts of (V, E) by plain recounting of `reports`. */
function recount(reports: typeof REPORTS): { a: number; nVaccine: number; nEvent: number; N: number } {
  const hasV = (r: (typeof REPORTS)[number]): boolean => r.vaccines.includes('V');
  const hasE = (r: (typeof REPORTS)[number]): boolean => r.events.includes('E');
  return { a: reports.filter((r) => hasV(r) && hasE(r)).length, nVaccine: reports.filter(hasV).length, nEvent: reports.filter(hasE).length, N: reports.length };
}

describe('masking ratio (Maignen et al. 2014)', () => {
  it('equals the PRR recomputed by deleting the masker reports, over the PRR', () => {
    const all = recount(REPORTS);
    const masker = { nMasker: 50, nMaskerVaccine: 10, nMaskerEvent: 34, nMaskerPair: 4 };
    const r = maskingRatio(all, masker);
    const deleted = recount(REPORTS.filter((x) => !x.vaccines.includes('M')));
    expect(r.without).toEqual(deleted);
    const prrAll = (9 / 30) / (33 / 100);
    const prrWithout = (5 / 20) / (3 / 60);
    expect(pairPrr(all)).toBeCloseTo(prrAll, 14);
    expect(r.prrWithout).toBeCloseTo(prrWithout, 14);
    expect(r.ratio).toBeCloseTo(prrWithout / prrAll, 13);
    expect(r.ratio!).toBeGreaterThan(1);
  });

  it('is null when the PRR without the masker is undefined', () => {
    // Every report of E without V names M: c' = 0.
    const r = maskingRatio({ a: 2, nVaccine: 5, nEvent: 6, N: 20 }, { nMasker: 8, nMaskerVaccine: 0, nMaskerEvent: 4, nMaskerPair: 0 });
    expect(r.prrWithout).toBeNull();
    expect(r.ratio).toBeNull();
  });
});
