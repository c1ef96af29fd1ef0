/**
 * windowFlags (src/stats/window.ts): the build's fit pass decides the GPS and IC flags from the
 * posterior CDF at the threshold (src/stats/quantile-test.ts) instead of the quantile search; the
 * flag counts must equal scoreWindow's, pair for pair, including pairs whose EB05 or IC025 sits
 * at the threshold.
 */
import { describe, expect, it } from 'vitest';
import { ic, ic025Above } from '../../src/stats/bcpnn.js';
import { posterior, posteriorCdf, posteriorQuantile, posteriorQuantileAtLeast } from '../../src/stats/mgps.js';
import { CDF_MARGIN, quantileAtLeast } from '../../src/stats/quantile-test.js';
import { scoreWindow, windowFlags, type WindowInput } from '../../src/stats/window.js';
import { random as seededRandom } from '../../bench/prng.js';

/** A random window of `pairs` pairs over N reports, seeded (counts consistent: n <= margins, margins within N). */
function randomWindow(seed: number, pairs: number, total: number): WindowInput {
  const random = seededRandom(seed);
  const n: number[] = [], nv: number[] = [], ne: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const a = 1 + Math.floor(random() ** 3 * 60);
    const v = a + Math.floor(random() ** 2 * total * 0.2);
    const e = a + Math.floor(random() ** 2 * (total - v) * 0.3);
    n.push(a); nv.push(v); ne.push(e);
  }
  return { n, n_vaccine: nv, n_event: ne, n_reports: total };
}

describe('windowFlags equals scoreWindow (src/stats/window.ts)', () => {
  for (const [seed, pairs, total] of [[1, 400, 5000], [2, 300, 800], [3, 500, 20000]] as const) {
    it(`a random window (seed ${seed}, ${pairs} pairs, N ${total}), fitted: same fit, same n_methods_flagged for every pair`, () => {
      const input = randomWindow(seed, pairs, total);
      const full = scoreWindow(input);
      const fast = windowFlags(input);
      expect(fast.fit).toEqual(full.fit);
      expect(Array.from(fast.n_methods_flagged)).toEqual(full.pairs.map((p) => p.n_methods_flagged));
      // The window mixes flag counts (else the comparison says little).
      expect(new Set(full.pairs.map((p) => p.n_methods_flagged)).size).toBeGreaterThanOrEqual(3);
    });
  }

  it('stratified expected counts (given E) give the same flags as scoreWindow', () => {
    const input = randomWindow(4, 300, 4000);
    const expected = Array.from(input.n, (_, i) => (input.n_vaccine[i] * input.n_event[i]) / 4000 * (0.5 + (i % 7) / 7));
    const hyper = { alpha1: 0.2, beta1: 0.1, alpha2: 2, beta2: 4, p: 0.1 };
    const full = scoreWindow({ ...input, expected }, { hyper });
    expect(Array.from(windowFlags({ ...input, expected }, { hyper }).n_methods_flagged)).toEqual(full.pairs.map((p) => p.n_methods_flagged));
  });
});

describe('the CDF test at the threshold (src/stats/quantile-test.ts)', () => {
  const mixture = posterior({ alpha1: 0.2, beta1: 0.1, alpha2: 2, beta2: 4, p: 0.1 }, 7, 1.3);
  const eb05 = posteriorQuantile(mixture, 0.05);

  it('far from the threshold the CDF decides: EB05 of n 7, E 1.3 is at least eb05 / 2 and not at least 2 eb05', () => {
    expect(posteriorCdf(mixture, eb05 / 2)).toBeLessThan(0.05 - CDF_MARGIN);
    expect(posteriorQuantileAtLeast(mixture, 0.05, eb05 / 2)).toBe(true);
    expect(posteriorQuantileAtLeast(mixture, 0.05, eb05 * 2)).toBe(false);
  });

  it('at the threshold itself the computed quantile decides (eb05 >= eb05 is true; a hair above is false)', () => {
    expect(Math.abs(posteriorCdf(mixture, eb05) - 0.05)).toBeLessThanOrEqual(CDF_MARGIN);
    expect(posteriorQuantileAtLeast(mixture, 0.05, eb05)).toBe(true);
    expect(posteriorQuantileAtLeast(mixture, 0.05, eb05 * (1 + 4e-16))).toBe(eb05 >= eb05 * (1 + 4e-16));
    expect(posteriorQuantileAtLeast(mixture, 0.05, eb05 * (1 + 1e-12))).toBe(false);
  });

  it('IC025 above log2(level) agrees with ic() on both sides of the level and at it', () => {
    const lower = ic(7, 1.3).ic025; // log2 of the 2.5% quantile
    const q = 2 ** lower;
    expect(ic025Above(7, 1.3, q / 2)).toBe(true);
    expect(ic025Above(7, 1.3, q * 2)).toBe(false);
    expect(ic025Above(7, 1.3, q)).toBe(false); // strict: IC025 > log2(q) is false at q itself
    expect(ic025Above(7, 1.3, 1)).toBe(lower > 0);
    expect(ic025Above(1, 3, 1)).toBe(ic(1, 3).ic025 > 0);
  });

  it('a NaN CDF decides through the quantile (a null statistic never flags)', () => {
    expect(quantileAtLeast(Number.NaN, 0.05, 2, () => Number.NaN)).toBe(false);
    expect(quantileAtLeast(0.5, 0.05, 2, () => { throw new Error('not called'); })).toBe(false);
  });
});
