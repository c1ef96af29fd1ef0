import { describe, expect, it } from 'vitest';
import { omega, omegaStratified } from '../../src/stats/omega.js';
import { MIN_TRIPLE_REPORTS } from '../../src/domain/interactions.js';

/** Relative difference |x - y| / |y|. */
const rel = (x: number, y: number): number => Math.abs(x - y) / Math.abs(y);

describe('omega (Noren et al. 2008)', () => {
  it('reproduces the test values of the open R implementation', () => {
    // n111 = 0, n11. = 6, n1.1 = 5, n.11 = 0, n1.. = 51, n.1. = 15, n..1 = 15, N = 1000.
    const r = omega({ n111: 0, n11: 6, n1_1: 5, n_11: 0, n1: 51, n_1: 15, n__1: 15, N: 1000 });
    // Cells: V1 only 45 reports, 5 with E (o10 = 5/40); V2 only 9, none with E (o01 = 0);
    // neither 940, 10 with E (o00 = 10/930): g11 = 1 - 1/(1/8 + 1) = 1/9, E111 = 6/9.
    expect(rel(r.g11, 1 / 9)).toBeLessThan(1e-14);
    expect(rel(r.e111, 2 / 3)).toBeLessThan(1e-14);
    expect(rel(r.omega, -1.22239242133645)).toBeLessThan(1e-13);
    expect(rel(r.omega025, -11.2142802371433)).toBeLessThan(1e-13);
    expect(rel(r.omega975, 1.10641135999973)).toBeLessThan(1e-13);
  });

  it('computes a worked case with the joint exposure over its baseline', () => {
    // N = 100: V1 only 20 reports (2 with E), V2 only 20 (2 with E), both 10 (6 with E), neither 50 (1 with E).
    const r = omega({ n111: 6, n11: 10, n1_1: 8, n_11: 8, n1: 30, n_1: 30, n__1: 11, N: 100 });
    const o00 = 1 / 49, o10 = 2 / 18, o01 = 2 / 18;
    const g11 = 1 - 1 / (o10 + o01 - o00 + 1);
    expect(rel(r.g11, g11)).toBeLessThan(1e-14);
    expect(rel(r.e111, 10 * g11)).toBeLessThan(1e-14);
    expect(rel(r.omega, Math.log2(6.5 / (10 * g11 + 0.5)))).toBeLessThan(1e-14);
    expect(r.omega025).toBeLessThan(r.omega);
    expect(r.omega975).toBeGreaterThan(r.omega);
  });

  it('takes g11 = 1 when every report of a single exposure names the event', () => {
    const r = omega({ n111: 1, n11: 2, n1_1: 4, n_11: 1, n1: 5, n_1: 3, n__1: 4, N: 10 });
    expect(r.g11).toBe(1);
    expect(r.e111).toBe(2);
  });

  it('takes g11 = 1 when every report of neither vaccine names the event (Infinity - Infinity in the formula)', () => {
    // N = 10: V1 only 3 reports (3 with E: o10 infinite), V2 only 2 (1 with E), both 2 (1 with E), neither 3 (3 with E: o00 infinite).
    // The real case: a subset analysis's window of the recompute test (DTAP (TRIPEDIA) + ROTASHIELD x Urticaria, 2000Q1) gave NaN.
    const r = omega({ n111: 1, n11: 2, n1_1: 4, n_11: 2, n1: 5, n_1: 4, n__1: 8, N: 10 });
    expect(r.g11).toBe(1);
    expect(r.e111).toBe(2);
    expect(r.omega).toBe(Math.log2(1.5 / 2.5));
    // Only o00 infinite: max(o00, o10) + max(o00, o01) - o00 is infinite too.
    const s = omega({ n111: 0, n11: 1, n1_1: 0, n_11: 0, n1: 3, n_1: 2, n__1: 4, N: 8 });
    expect(s.g11).toBe(1);
    expect(Number.isFinite(s.omega025)).toBe(true);
  });

  it('is never a signal below 3 reports of the triple (the build stores triples from MIN_TRIPLE_REPORTS on)', () => {
    // E111 = 0 (no report of E outside the joint exposure) gives the largest Omega025 of a given n111.
    const at = (n111: number) => omega({ n111, n11: n111, n1_1: n111, n_11: n111, n1: n111, n_1: n111, n__1: n111, N: 10 });
    expect(at(2).e111).toBe(0);
    expect(at(2).omega025).toBeLessThan(0);
    expect(at(2).omega025).toBeCloseTo(-0.27, 2);
    expect(at(MIN_TRIPLE_REPORTS).omega025).toBeGreaterThan(0);
  });

  it('refuses negative, fractional and inconsistent counts', () => {
    const base = { n111: 0, n11: 6, n1_1: 5, n_11: 0, n1: 51, n_1: 15, n__1: 15, N: 1000 };
    expect(() => omega({ ...base, n111: -1 })).toThrow(/n111/);
    expect(() => omega({ ...base, N: 10.5 })).toThrow(/N must be/);
    expect(() => omega({ ...base, n111: 7 })).toThrow(/inconsistent/);
    expect(() => omega({ ...base, N: 60 })).toThrow(/inconsistent/);
  });
});

describe('omegaStratified (expected count summed over strata)', () => {
  it('one stratum is omega; two strata sum their own expected counts against the total n111', () => {
    const infants = { n111: 6, n11: 10, n1_1: 8, n_11: 8, n1: 30, n_1: 30, n__1: 11, N: 100 };
    const one = omegaStratified([infants]);
    const plain = omega(infants);
    expect(one.e111).toBe(plain.e111);
    expect(one.omega025).toBe(plain.omega025);
    // Adults: both vaccines on 20 reports, none with E, and E rare: E111 adds 20 x g11 of that stratum.
    const adults = { n111: 0, n11: 20, n1_1: 1, n_11: 1, n1: 40, n_1: 40, n__1: 3, N: 200 };
    const both = omegaStratified([infants, adults]);
    const e111 = plain.e111 + omega(adults).e111;
    expect(rel(both.e111, e111)).toBeLessThan(1e-14);
    expect(rel(both.omega, Math.log2(6.5 / (e111 + 0.5)))).toBeLessThan(1e-14);
    expect(() => omegaStratified([])).toThrow(/no stratum/);
  });
});
