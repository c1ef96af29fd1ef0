/**
 * The two-sample KS test (src/stats/ks.ts) and the Kolmogorov distribution (src/stats/kstwo.ts)
 * against SciPy 1.17.1: reference values from test/stats/fixtures/scipy/ks_2samp.py, committed
 * beside the ks_2samp.json it wrote. Numbers come from the JSON only.
 *
 * Relative tolerances per regime (max observed when written in brackets):
 * - exact p-values (exact_small, exact_equal, exact_medium, edge): 1e-14 [0: the same operations
 *   in the same order as SciPy's Python and Pythran code];
 * - statistic D, every regime: 1e-15 [0];
 * - asymptotic p-values of ks2samp (asymp): 1e-10 [6.0e-13];
 * - kstwo.sf: n <= 140 1e-10 [1.1e-12], 140 < n <= 100000 5e-9 [8.1e-10], n > 100000 2e-8
 *   [4.4e-9] (the one-sided Smirnov sum is taken in logarithms in double precision here, in
 *   double-double in SciPy; the largest differences are at p-values below 1e-80).
 * An expected 0 must be matched by an absolute difference below 1e-300.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exactTwoSided, ks2samp, ks2sampCounts, ksStatistic, MAX_AUTO_N, probOutsideBand, probOutsideSquare } from '../../src/stats/ks.js';
import { kstwoSf, smirnov } from '../../src/stats/kstwo.js';

interface KsCase {
  name?: string; n1: number; n2: number; d: number; p: number; method: 'exact' | 'asymp';
  counts1?: number[]; counts2?: number[]; x?: number[]; y?: number[];
}
interface KstwoCase { n: number; d: number; sf: number }
interface Fixture { scipy: string; regimes: Record<string, KsCase[]> & { kstwo_sf: KstwoCase[] } }

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(readFileSync(path.join(here, 'fixtures', 'scipy', 'ks_2samp.json'), 'utf8')) as Fixture;

/** A sample from counts per onset day (index = day). */
const expand = (counts: number[]): number[] => counts.flatMap((k, day) => Array<number>(k).fill(day));

/** Checks actual against expected within a relative tolerance; the message carries the inputs. */
function expectClose(actual: number, expected: number, tolerance: number, what: string): void {
  const delta = Math.abs(actual - expected);
  const ok = expected === 0 ? delta < 1e-300 : delta <= tolerance * Math.abs(expected);
  if (!ok) throw new Error(`${what}: expected ${expected}, got ${actual}, delta ${delta}, relative tolerance ${tolerance}`);
}

const exactRegimes = ['exact_small', 'exact_equal', 'exact_medium', 'edge'] as const;

describe('ks2samp against scipy.stats.ks_2samp (method auto)', () => {
  it(`the fixture was written by SciPy 1.17 and has every regime`, () => {
    expect(fixture.scipy.startsWith('1.17')).toBe(true);
    for (const r of [...exactRegimes, 'asymp', 'kstwo_sf']) expect(fixture.regimes[r].length).toBeGreaterThan(10);
  });

  for (const regime of [...exactRegimes, 'asymp'] as const) {
    it(`${regime}: D, p and the method as SciPy`, () => {
      for (const c of fixture.regimes[regime]) {
        const x = c.counts1 ? expand(c.counts1) : c.x!;
        const y = c.counts2 ? expand(c.counts2) : c.y!;
        const what = `${regime} ${c.name ?? ''} n1=${c.n1} n2=${c.n2}`;
        expect(x.length).toBe(c.n1);
        const result = ks2samp(x, y);
        expect(result, what).not.toBeNull();
        expect(result!.method, what).toBe(c.method);
        expectClose(result!.d, c.d, 1e-15, `${what} D`);
        expectClose(result!.p, c.p, c.method === 'exact' ? 1e-14 : 1e-10, `${what} p`);
        if (c.n1 * c.n2 > 1e6) continue; // symmetric in the two samples (checked on the smaller cases: time)
        const swapped = ks2samp(y, x)!;
        expect(swapped.d, what).toBe(result!.d);
        expect(swapped.p, what).toBe(result!.p);
      }
    });
  }

  it('kstwo_sf: kstwoSf(d, n) as scipy.stats.kstwo.sf(d, n) on every branch', () => {
    for (const c of fixture.regimes.kstwo_sf) {
      const tolerance = c.n <= 140 ? 1e-10 : c.n <= 100000 ? 5e-9 : 2e-8;
      expectClose(kstwoSf(c.d, c.n)!, c.sf, tolerance, `kstwo.sf(${c.d}, ${c.n})`);
    }
  });
});

describe('ks2samp: edge behaviour', () => {
  it('an empty sample or a NaN gives null', () => {
    expect(ks2samp([], [1, 2])).toBeNull();
    expect(ks2samp([1], [])).toBeNull();
    expect(ks2samp([1, Number.NaN], [1, 2])).toBeNull();
  });

  it('does not modify its inputs', () => {
    const x = [5, 1, 3], y = [2, 9, 0, 4];
    ks2samp(x, y);
    expect(x).toEqual([5, 1, 3]);
    expect(y).toEqual([2, 9, 0, 4]);
  });

  it('D is the largest ECDF gap over the pooled values, ties included', () => {
    // x: F1(0) = 2/4, y: F2(0) = 1/4; at 1: 3/4 vs 1/4; at 2: 1 vs 2/4; at 3: 1 vs 1.
    expect(ksStatistic([0, 0, 1, 2], [0, 2, 3, 3])).toBe(3 / 4 - 1 / 4);
    expect(ksStatistic([0, 2, 3, 3], [0, 0, 1, 2])).toBe(3 / 4 - 1 / 4);
    expect(ksStatistic([7, 7, 7], [7])).toBe(0);
  });

  it(`'auto' is exact up to max(n1, n2) = ${MAX_AUTO_N} and asymptotic above`, () => {
    const small = Array.from({ length: 5 }, (_, i) => i);
    expect(ks2samp(small, Array<number>(MAX_AUTO_N).fill(2))!.method).toBe('exact');
    expect(ks2samp(small, Array<number>(MAX_AUTO_N + 1).fill(2))!.method).toBe('asymp');
  });
});

describe('ks2sampCounts: samples given as counts per value', () => {
  it('the same D, p and method as ks2samp of the samples, on every fixture case given as counts', () => {
    let cases = 0;
    for (const regime of [...exactRegimes, 'asymp'] as const) {
      for (const c of fixture.regimes[regime]) {
        if (!c.counts1 || !c.counts2) continue;
        cases++;
        expect(ks2sampCounts(c.counts1, c.counts2), `${regime} ${c.name ?? ''}`).toEqual(ks2samp(expand(c.counts1), expand(c.counts2)));
      }
    }
    expect(cases).toBeGreaterThan(10);
  });

  it('the same on random counts (gaps, lengths that differ, lopsided sizes), to the last bit', () => {
    let seed = 41;
    const next = (k: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % k);
    for (let t = 0; t < 300; t++) {
      const counts = (): number[] => Array.from({ length: 1 + next(61) }, () => (next(3) === 0 ? 0 : next(t % 7 === 0 ? 40 : 6)));
      const x = counts(), y = counts();
      const expected = ks2samp(expand(x), expand(y));
      expect(ks2sampCounts(x, y), `x ${x} y ${y}`).toEqual(expected);
    }
  });

  it('null when a sample is empty (all counts 0)', () => {
    expect(ks2sampCounts([0, 0], [1])).toBeNull();
    expect(ks2sampCounts([2], [])).toBeNull();
  });
});

describe('exact path (Hodges 1958)', () => {
  /** C(a + b, a) as a float, by a product of ratios. */
  const binomial = (a: number, b: number): number => {
    let c = 1;
    for (let i = 1; i <= b; i++) c = (c * (a + i)) / i;
    return c;
  };

  it('h = 0 (identical samples): D = 0 and p = 1 without a path count', () => {
    expect(exactTwoSided(4, 6, 2, 0)).toEqual({ d: 0, p: 1 });
    expect(ks2samp([1, 2, 2, 5], [1, 2, 2, 5])).toEqual({ d: 0, p: 1, method: 'exact' });
  });

  it('disjoint samples (D = 1): p = 2 / C(n1 + n2, n1), by both the square and the band method', () => {
    expect(probOutsideSquare(5, 5)).toBeCloseTo(2 / binomial(5, 5), 15);
    expect(probOutsideBand(3, 4, 1, 12)).toBeCloseTo(2 / binomial(3, 4), 15);
    expect(probOutsideBand(4, 3, 1, 12)).toBe(probOutsideBand(3, 4, 1, 12));
    const r = ks2samp([0, 1, 2], [10, 11, 12, 13])!;
    expect(r.d).toBe(1);
    expect(r.p).toBeCloseTo(2 / 35, 15);
  });

  it('n1 = n2 = 1: D = 1 and p = 1 (both orders are equally likely)', () => {
    expect(ks2samp([0], [5])).toEqual({ d: 1, p: 1, method: 'exact' });
  });

  it('n1 = 1 against k values all later: p = 2 / (k + 1)', () => {
    const r = ks2samp([0], [1, 2, 3, 4, 5, 6, 7, 8, 9])!;
    expect(r.d).toBe(1);
    expect(r.p).toBeCloseTo(2 / 10, 15);
  });

  it('D is re-expressed as h / lcm(n1, n2) on the exact path', () => {
    const lcm = 12; // n1 = 4, n2 = 6
    const { d } = exactTwoSided(4, 6, 2, 0.5000000000000001);
    expect(d).toBe(6 / lcm);
  });

  it('a count that is not a probability falls back to the asymptotic p-value, as SciPy warns and does', () => {
    // n1 = n2 = 5, h = 1: the square method's Horner sum exceeds 1.
    expect(probOutsideSquare(5, 1)).toBeGreaterThan(1);
    expect(exactTwoSided(5, 5, 5, 0.2).p).toBeNull();
    // Asymptotic with n = round(25 / 10) = round(2.5) = 2 (ties to even): t = 0.4 <= 1/2, so p = 1.
    expect(ks2samp([0, 1, 2, 3, 5], [0, 1, 2, 3, 4])).toEqual({ d: 0.2, p: 1, method: 'asymp' });
  });
});

describe('probOutsideBand: four columns on a diagonal, the same bits as the sliding window', () => {
  /** SciPy's `_compute_outer_prob_inside_method` as written there (one column in a sliding window), the reference. */
  function slidingWindow(m: number, n: number, g: number, h: number): number {
    if (m < n) [m, n] = [n, m];
    const mg = m / g, ng = n / g;
    let minj = 0;
    let maxj = Math.min(Math.ceil(h / mg), n + 1);
    let curlen = maxj - minj;
    const lenA = Math.min(2 * maxj + 2, n + 1);
    const A = new Float64Array(lenA).fill(1);
    A.fill(0, minj, maxj);
    for (let i = 1; i <= m; i++) {
      const lastminj = minj, lastlen = curlen;
      minj = Math.min(Math.max(Math.floor((ng * i - h) / mg) + 1, 0), n);
      maxj = Math.min(Math.ceil((ng * i + h) / mg), n + 1);
      if (maxj <= minj) return 1;
      let val = minj === 0 ? 0 : 1;
      for (let jj = 0; jj < maxj - minj; jj++) {
        const j = jj + minj;
        val = (A[jj + minj - lastminj] * i + val * j) / (i + j);
        A[jj] = val;
      }
      curlen = maxj - minj;
      if (lastlen > curlen) A.fill(1, maxj - minj, Math.min(maxj - minj + (lastlen - curlen), lenA));
    }
    return A[maxj - minj - 1];
  }
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

  it('equal to the last bit on 3,000 sizes and statistics (up to 1,500, and lopsided up to 4,000), in both orders', () => {
    let state = 20261128;
    const next = (): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const cases: Array<[number, number]> = [[1, 2], [2, 1], [1, 9], [3, 4], [5, 7], [1, 4000], [2, 3999], [4000, 3], [17, 4000]];
    for (let t = 0; t < 3000; t++) {
      const limit = t < 2900 ? 40 : 1500;
      cases.push([1 + Math.floor(next() ** 2 * limit), 1 + Math.floor(next() ** 2 * limit)]);
    }
    let compared = 0;
    for (const [m, n] of cases) {
      if (m === n) continue;
      const g = gcd(m, n), lcm = (m / g) * n;
      for (const h of [1, 1 + Math.floor(next() * lcm), Math.round(0.1 * lcm) || 1, lcm]) {
        const expected = slidingWindow(m, n, g, h);
        expect(Object.is(probOutsideBand(m, n, g, h), expected), `m=${m} n=${n} h=${h}`).toBe(true);
        expect(Object.is(probOutsideBand(n, m, g, h), expected), `m=${n} n=${m} h=${h}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});

describe('kstwoSf and smirnov: domain', () => {
  it('null for n not a whole number >= 1 or d not finite; 1 below 1/(2n), 0 from d = 1', () => {
    expect(kstwoSf(0.3, 0)).toBeNull();
    expect(kstwoSf(0.3, 2.5)).toBeNull();
    expect(kstwoSf(Number.NaN, 5)).toBeNull();
    expect(kstwoSf(0.1, 5)).toBe(1);
    expect(kstwoSf(1, 5)).toBe(0);
    expect(kstwoSf(-1, 5)).toBe(1);
  });

  it('n = 1: P(D_1 >= d) = 2 (1 - d) for d >= 1/2 (Ruben-Gambino end case); smirnov(1, d) = 1 - d', () => {
    expect(kstwoSf(0.75, 1)).toBe(0.5);
    expect(smirnov(1, 0.25)).toBe(0.75);
    expect(smirnov(3, 0)).toBe(1);
    expect(smirnov(3, 1)).toBe(0);
    expect(Number.isNaN(smirnov(3, 1.5))).toBe(true);
  });
});
