/**
 * Two-sample two-sided Kolmogorov-Smirnov test, computed as SciPy 1.17's
 * `scipy.stats.ks_2samp(x, y, alternative='two-sided', method='auto')` computes it
 * (`scipy/stats/_stats_py.py` `ks_2samp`, `_attempt_exact_2kssamp`, `_compute_prob_outside_square`,
 * and `_compute_outer_prob_inside_method` in `_stats_pythran.py`).
 *
 * Statistic: `D = max over the pooled values v of |F1(v) - F2(v)|`, F1 and F2 the empirical CDFs
 * (`#{x_i <= v} / n1`, `#{y_j <= v} / n2`); evaluated at every pooled value, so ties (integer
 * onset days) are handled as SciPy does.
 *
 * p-value, method 'auto': exact when max(n1, n2) <= 10000, else asymptotic.
 * - Exact (Hodges 1958, "The significance probability of the Smirnov two-sample test", Arkiv for
 *   Matematik 3(43):469-486, after Drion, Gnedenko and Korolyuk): with g = gcd(n1, n2),
 *   L = n1 n2 / g and h = round(D L), D is re-expressed as h / L and p = P(D_{n1,n2} >= h / L) is
 *   the share of the C(n1 + n2, n1) lattice paths from (0, 0) to (n1, n2) that leave the band
 *   |x/n1 - y/n2| < h/L: for n1 = n2 = n, `2 sum_k (-1)^(k-1) C(2n, n - k h) / C(2n, n)` in Horner
 *   form; otherwise the column recursion of the inside method carried as 1 - p (Viehmann 2021,
 *   arXiv:2102.08037). h = 0 gives p = 1. When the result is not a probability (rounding), SciPy
 *   falls back to the asymptotic p-value, and so does this function.
 * - Asymptotic: `p = kstwo.sf(D, round(n1 n2 / (n1 + n2)))` (./kstwo.ts; round half to even as
 *   NumPy), with D as computed from the ECDFs (not re-expressed).
 *
 * Use for vaccines: Van Holle, Zeinoun, Bauchau and Verstraeten 2012, "Using time-to-onset for
 * detecting safety signals in spontaneous reports of adverse events following immunization: a
 * proof of concept study", Pharmacoepidemiology and Drug Safety 21(6):603-610 (onset days of a
 * vaccine x event pair against the same event after other vaccines, and against other events
 * after the same vaccine).
 *
 * Edge behaviour: an empty sample or a NaN anywhere gives null (SciPy raises or returns NaN);
 * identical samples give D = 0, p = 1; n1 = n2 = 1 with different values gives D = 1, p = 1.
 */
import { kstwoSf } from './kstwo.js';

/** SciPy's `MAX_AUTO_N`: 'auto' is exact when both sample sizes are at most this. */
export const MAX_AUTO_N = 10000;

/**
 * A memo of exact probabilities by (n1, n2, h) (h as in exactTwoSided), for a caller that runs
 * many tests (the build's onset tests: src/ingest/mining/ks-memo.ts); it only saves time.
 */
export interface ExactMemo {
  get(n1: number, n2: number, h: number): number | undefined;
  set(n1: number, n2: number, h: number, p: number): void;
}

/** Result of {@link ks2samp}: statistic D in [0, 1], two-sided p-value in [0, 1], and how p was computed. */
export interface KsResult {
  d: number;
  p: number;
  method: 'exact' | 'asymp';
}

/**
 * Two-sample two-sided KS test of samples x and y (any finite or infinite numbers, any order,
 * ties allowed; neither is modified). Null when a sample is empty or holds a NaN.
 * Example: ks2samp([0, 1, 1, 2, 7], [3, 5, 8, 12, 14, 20]) = { d: 0.8, p: 0.0476..., method: 'exact' }
 * (SciPy: statistic 0.8, pvalue 0.04761904761904761; in the fixture's edge cases).
 */
export function ks2samp(x: readonly number[], y: readonly number[]): KsResult | null {
  const n1 = x.length, n2 = y.length;
  if (n1 === 0 || n2 === 0 || x.some(Number.isNaN) || y.some(Number.isNaN)) return null;
  return ksTest(n1, n2, ksStatistic(x, y));
}

/**
 * The p-value of a two-sided two-sample KS statistic `d` (as ksStatistic computes it) for sample
 * sizes n1, n2 >= 1, method 'auto' as ks2samp; with `exact` false, always the asymptotic branch
 * (SciPy's method 'asymp'). Null when undefined. `memo` keeps the exact probabilities.
 */
export function ksTest(n1: number, n2: number, d: number, exact = true, memo?: ExactMemo): KsResult | null {
  if (exact && Math.max(n1, n2) <= MAX_AUTO_N) {
    const result = exactTwoSided(n1, n2, gcd(n1, n2), d, memo);
    if (result.p !== null) return { d: result.d, p: result.p, method: 'exact' };
    return asymptotic(n1, n2, result.d);
  }
  return asymptotic(n1, n2, d);
}

/** The two-sided statistic D = max |F1 - F2| over the pooled values, as `ks_2samp` computes it (cdf1 - cdf2 in floating point). */
export function ksStatistic(x: readonly number[], y: readonly number[]): number {
  const a = Float64Array.from(x).sort();
  const b = Float64Array.from(y).sort();
  let i = 0, j = 0, maxS = 0, minDiff = 0;
  while (i < a.length || j < b.length) {
    const v = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
    while (i < a.length && a[i] <= v) i++;
    while (j < b.length && b[j] <= v) j++;
    const diff = i / a.length - j / b.length;
    if (diff > maxS) maxS = diff;
    if (diff < minDiff) minDiff = diff;
  }
  const minS = Math.min(1, Math.max(0, -minDiff));
  return minS > maxS ? minS : maxS;
}

/**
 * {@link ks2samp} of two samples of whole numbers given as counts per value (`x[v]`: how many
 * times v occurs in the first sample, v = 0..length-1): the same result, without the samples or
 * their sorting (the onset days of a case series, 0..60). Null when a sample is empty.
 */
export function ks2sampCounts(x: ArrayLike<number>, y: ArrayLike<number>): KsResult | null {
  let n1 = 0, n2 = 0;
  for (let v = 0; v < x.length; v++) n1 += x[v];
  for (let v = 0; v < y.length; v++) n2 += y[v];
  if (n1 === 0 || n2 === 0) return null;
  return ksTest(n1, n2, ksStatisticCounts(x, y, n1, n2));
}

/**
 * {@link ksStatistic} of samples given as counts per value (sizes n1, n2): the ECDFs are read at
 * each value either sample holds, in ascending order, as ksStatistic reads them at the pooled
 * values, so D is the same number.
 */
function ksStatisticCounts(x: ArrayLike<number>, y: ArrayLike<number>, n1: number, n2: number): number {
  let i = 0, j = 0, maxS = 0, minDiff = 0;
  for (let v = 0; v < Math.max(x.length, y.length); v++) {
    const a = v < x.length ? x[v] : 0, b = v < y.length ? y[v] : 0;
    if (a === 0 && b === 0) continue;
    i += a;
    j += b;
    const diff = i / n1 - j / n2;
    if (diff > maxS) maxS = diff;
    if (diff < minDiff) minDiff = diff;
  }
  const minS = Math.min(1, Math.max(0, -minDiff));
  return minS > maxS ? minS : maxS;
}

/**
 * SciPy `_attempt_exact_2kssamp` (two-sided): D re-expressed as h / lcm(n1, n2) with
 * h = round(D lcm), and P(D_{n1,n2} >= h / lcm); p is null when the computation does not give a
 * probability in [0, 1] (SciPy then uses the asymptotic p-value with this D). The probability,
 * symmetric in n1 and n2, is looked up in and added to `memo` when given.
 */
export function exactTwoSided(n1: number, n2: number, g: number, d: number, memo?: ExactMemo): { d: number; p: number | null } {
  const lcm = (n1 / g) * n2;
  const h = roundHalfEven(d * lcm);
  const dh = h / lcm;
  if (h === 0) return { d: dh, p: 1 };
  let p = memo?.get(n1, n2, h);
  if (p === undefined) {
    p = n1 === n2 ? probOutsideSquare(n1, h) : probOutsideBand(n1, n2, g, h);
    memo?.set(n1, n2, h, p);
  }
  return { d: dh, p: p >= 0 && p <= 1 ? p : null };
}

/**
 * P(D_{n,n} >= h/n) for two samples of equal size n (SciPy `_compute_prob_outside_square`):
 * `2 (A0 - A0 A1 + A0 A1 A2 - ...)` with each ratio `A_k = C(2n, n - k h) / C(2n, n - (k-1) h)`
 * evaluated as h simple factors, nested in Horner form from k = floor(n/h) down to 1.
 */
export function probOutsideSquare(n: number, h: number): number {
  let P = 0;
  for (let k = Math.floor(n / h); k >= 0; k--) {
    let p1 = 1;
    for (let j = 0; j < h; j++) p1 = ((n - k * h - j) * p1) / (n + k * h + j + 1);
    P = p1 * (1 - P);
  }
  return 2 * P;
}

/**
 * P(D_{m,n} >= h / lcm(m, n)) for m != n (SciPy `_compute_outer_prob_inside_method`): the share
 * of lattice paths that do not stay strictly inside |n x - m y| / g < h, by the inside method's
 * column recursion carried as 1 - p (Hodges 1958; Viehmann 2021). Column i (1..m, m the larger
 * size) covers the rows j in [lower(i), upper(i)) of the band: `A_i[j] = (A_{i-1}[j] i + A_i[j-1] j)
 * / (i + j)`, where a row above the previous column's band reads 1 and the row below the band
 * reads 0 at j = 0, else 1. SciPy keeps one column in a sliding window; here one array indexed by
 * the row holds the latest value of each row (the band's ends only move up, so a row above it is
 * still 1), and four columns are computed together on a diagonal: column i + k at row s - k in
 * step s, which needs column i + k - 1's value of that row, written in step s - 1. The four
 * updates of a step are independent, so the processor overlaps their divisions (about 3x faster
 * on the build's onset tests); each value is the same expression of the same operands as
 * SciPy's, so the result is the same to the last bit (test/stats/ks.test.ts checks it against
 * the sliding window).
 */
export function probOutsideBand(m: number, n: number, g: number, h: number): number {
  if (m < n) [m, n] = [n, m];
  const mg = m / g, ng = n / g;
  const lower = (i: number): number => Math.min(Math.max(Math.floor((ng * i - h) / mg) + 1, 0), n);
  const upper = (i: number): number => Math.min(Math.ceil((ng * i + h) / mg), n + 1);
  const A = new Float64Array(n + 1).fill(1);
  A.fill(0, 0, Math.min(Math.ceil(h / mg), n + 1)); // column 0
  let last = 0; // upper() of the last column computed
  let i = 1;
  for (; i + 3 <= m; i += 4) {
    const i0 = i, i1 = i + 1, i2 = i + 2, i3 = i + 3;
    const min0 = lower(i0), max0 = upper(i0), min1 = lower(i1), max1 = upper(i1);
    const min2 = lower(i2), max2 = upper(i2), min3 = lower(i3), max3 = upper(i3);
    // An empty band: no path stays inside (SciPy returns 1 when it reaches that column).
    if (max0 <= min0 || max1 <= min1 || max2 <= min2 || max3 <= min3) return 1;
    let v0 = min0 === 0 ? 0 : 1, v1 = min1 === 0 ? 0 : 1, v2 = min2 === 0 ? 0 : 1, v3 = min3 === 0 ? 0 : 1;
    for (let s = min0; s < max3 + 3; s++) {
      const j1 = s - 1, j2 = s - 2, j3 = s - 3;
      if (s < max0) {
        v0 = (A[s] * i0 + v0 * s) / (i0 + s);
        A[s] = v0;
      }
      if (j1 >= min1 && j1 < max1) {
        v1 = (A[j1] * i1 + v1 * j1) / (i1 + j1);
        A[j1] = v1;
      }
      if (j2 >= min2 && j2 < max2) {
        v2 = (A[j2] * i2 + v2 * j2) / (i2 + j2);
        A[j2] = v2;
      }
      if (j3 >= min3 && j3 < max3) {
        v3 = (A[j3] * i3 + v3 * j3) / (i3 + j3);
        A[j3] = v3;
      }
    }
    last = max3;
  }
  for (; i <= m; i++) {
    const min = lower(i), max = upper(i);
    if (max <= min) return 1;
    let v = min === 0 ? 0 : 1;
    for (let j = min; j < max; j++) {
      v = (A[j] * i + v * j) / (i + j);
      A[j] = v;
    }
    last = max;
  }
  return A[last - 1];
}

/** The asymptotic branch: kstwo.sf(D, round(n1 n2 / (n1 + n2))), clipped to [0, 1]; null when undefined. */
function asymptotic(n1: number, n2: number, d: number): KsResult | null {
  const [m, n] = n1 >= n2 ? [n1, n2] : [n2, n1];
  const p = kstwoSf(d, roundHalfEven((m * n) / (m + n)));
  return p === null || Number.isNaN(p) ? null : { d, p: Math.min(1, Math.max(0, p)), method: 'asymp' };
}

/** Round to the nearest whole number, ties to even (NumPy's `np.round`). */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
