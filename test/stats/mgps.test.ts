/**
 * MGPS pieces against hand-worked values (docs/design.md "Statistics, precisely";
 * DuMouchel 1999): likelihood, gradient, Qn, EBGM, posterior quantiles, prior fit on bounds.
 */
import negativeBinomialLogpmf from '@stdlib/stats-base-dists-negative-binomial-logpmf';
import { describe, expect, it } from 'vitest';
import {
  countTable, ebgm, evaluatePrior, fitPrior, hyperVector, negLogLikelihood, posterior, posteriorCdf,
  posteriorQuantile, qn,
} from '../../src/stats/mgps.js';
import type { Hyperparameters } from '../../src/domain/mgps-prior.js';

// A prior whose posterior CDFs are elementary: Gamma(1, 1) and Gamma(2, 2), p = 1/2.
const simple: Hyperparameters = { alpha1: 1, beta1: 1, alpha2: 2, beta2: 2, p: 0.5 };

function relative(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.abs(expected);
}

describe('negative log-likelihood of the zero-truncated NB mixture (openEBGM negLLzero, N_star = 1)', () => {
  it('hand-worked: n = 1, 2 with E = 1 under the simple prior gives -ln(31/60) - ln(31/120)', () => {
    // Component 1: NB(size 1, prob 1/2): f(0) = 1/2, f(1) = 1/4, f(2) = 1/8 -> f*(1) = 1/2, f*(2) = 1/4.
    // Component 2: NB(size 2, prob 2/3): f(0) = 4/9, f(1) = 2 * 4/9 * 1/3 = 8/27, f(2) = 3 * 4/9 * 1/9 = 4/27
    //   -> f*(1) = (8/27)/(5/9) = 8/15, f*(2) = 4/15.
    // L(1) = (1/2)(1/2) + (1/2)(8/15) = 31/60; L(2) = (1/2)(1/4) + (1/2)(4/15) = 31/120.
    const table = countTable([1, 2], [1, 1]);
    const value = negLogLikelihood(hyperVector(simple), table);
    expect(relative(value, -Math.log(31 / 60) - Math.log(31 / 120))).toBeLessThan(1e-14);
  });

  it('equals the sum written with @stdlib negative-binomial logpmf (independent formula), with weights', () => {
    const n = [1, 1, 2, 3, 7, 1, 15];
    const E = [0.2, 3.5, 0.01, 1.7, 2.2, 40, 0.9];
    const weight = [3, 1, 2, 1, 1, 5, 1];
    const theta = [0.7, 0.3, 2.5, 1.8, 0.2];
    let expected = 0;
    for (let j = 0; j < n.length; j++) {
      const star = (alpha: number, beta: number): number => {
        const prob = beta / (beta + E[j]);
        return Math.exp(negativeBinomialLogpmf(n[j], alpha, prob)) / (1 - Math.exp(negativeBinomialLogpmf(0, alpha, prob)));
      };
      expected -= weight[j] * Math.log(theta[4] * star(theta[0], theta[1]) + (1 - theta[4]) * star(theta[2], theta[3]));
    }
    expect(relative(negLogLikelihood(theta, countTable(n, E, weight)), expected)).toBeLessThan(1e-12);
  });

  it('analytic gradient matches central differences (relative 1e-5)', () => {
    const table = countTable([1, 1, 2, 3, 7, 1, 15, 4], [0.2, 3.5, 0.01, 1.7, 2.2, 40, 0.9, 0.3]);
    for (const theta of [[0.7, 0.3, 2.5, 1.8, 0.2], [3, 0.4, 2, 1.9, 0.07], [1e-3, 0.05, 12, 15, 0.6]]) {
      const grad = new Float64Array(5);
      negLogLikelihood(theta, table, grad);
      for (let i = 0; i < 5; i++) {
        const h = 1e-5 * theta[i];
        const up = [...theta];
        const down = [...theta];
        up[i] += h;
        down[i] -= h;
        const numeric = (negLogLikelihood(up, table) - negLogLikelihood(down, table)) / (2 * h);
        expect(Math.abs(grad[i] - numeric)).toBeLessThan(1e-5 * Math.max(1, Math.abs(numeric)));
      }
    }
  });
});

describe('posterior (DuMouchel 1999 eqs. 2.5, 2.6)', () => {
  // n = 1, E = 1: f1(1) = 1/4, f2(1) = 8/27 (above), so Qn = (1/4) / (1/4 + 8/27) = 27/59.
  it('Qn uses the untruncated densities: 27/59 for n = 1, E = 1 under the simple prior', () => {
    expect(relative(qn(simple, 1, 1), 27 / 59)).toBeLessThan(1e-14);
    expect(qn({ ...simple, p: 0 }, 1, 1)).toBe(0);
    expect(qn({ ...simple, p: 1 }, 1, 1)).toBe(1);
  });

  it('EBGM = exp(Qn (digamma(2) - ln 2) + (1 - Qn)(digamma(3) - ln 3)) = 0.80324968', () => {
    // digamma(2) = 1 - gamma_E, digamma(3) = 1.5 - gamma_E (gamma_E = 0.5772156649...)
    const gammaE = 0.5772156649015329;
    const expected = Math.exp((27 / 59) * (1 - gammaE - Math.log(2)) + (32 / 59) * (1.5 - gammaE - Math.log(3)));
    expect(relative(ebgm(simple, 1, 1, 27 / 59), expected)).toBeLessThan(1e-14);
  });

  it('quantiles solve the elementary mixture CDF to 1e-12 relative (checked by bisection to machine precision)', () => {
    // Posterior: (27/59) Gamma(2, 2) + (32/59) Gamma(3, 3), with closed-form CDFs
    // Gamma(2, 2): 1 - exp(-2x)(1 + 2x); Gamma(3, 3): 1 - exp(-3x)(1 + 3x + 4.5x^2).
    const cdf = (x: number): number =>
      (27 / 59) * (1 - Math.exp(-2 * x) * (1 + 2 * x)) + (32 / 59) * (1 - Math.exp(-3 * x) * (1 + 3 * x + 4.5 * x * x));
    const mixture = posterior(simple, 1, 1);
    for (const prob of [0.05, 0.5, 0.95]) {
      let lo = 0;
      let hi = 50;
      for (let i = 0; i < 200 && hi - lo > 0; i++) {
        const mid = 0.5 * (lo + hi);
        if (mid === lo || mid === hi) break;
        if (cdf(mid) < prob) lo = mid;
        else hi = mid;
      }
      expect(relative(posteriorQuantile(mixture, prob), lo)).toBeLessThan(1e-12);
    }
  });

  it('quantiles of extreme mixtures agree with bisection of the same CDF to 1e-12 relative; EB05 <= EB50 <= EB95', () => {
    const theta = { alpha1: 3.25596685, beta1: 0.39998994, alpha2: 2.02376139, beta2: 1.90614108, p: 0.06530755 };
    for (const [n, E] of [[1, 1e-4], [1, 0.05], [2, 0.5], [16, 0.4], [54, 30], [1, 500], [200, 3], [3, 1e-6]]) {
      const mixture = posterior(theta, n, E);
      const q = [0.05, 0.5, 0.95].map((prob) => posteriorQuantile(mixture, prob));
      [0.05, 0.5, 0.95].forEach((prob, i) => {
        // Bisection on the CDF down to adjacent doubles (an independent, slow, sure method).
        let lo = 0;
        let hi = 1;
        while (posteriorCdf(mixture, hi) < prob) hi *= 2;
        for (;;) {
          const mid = 0.5 * (lo + hi);
          if (mid === lo || mid === hi) break;
          if (posteriorCdf(mixture, mid) < prob) lo = mid;
          else hi = mid;
        }
        expect(relative(q[i], hi)).toBeLessThan(1e-12);
        expect(Math.abs(posteriorCdf(mixture, q[i]) - prob) / prob).toBeLessThan(1e-10);
      });
      expect(q[0]).toBeLessThanOrEqual(q[1]);
      expect(q[1]).toBeLessThanOrEqual(q[2]);
    }
  });
});

describe('prior fit within openEBGM box (docs/design.md: bounded optimum, converged and at_bound recorded)', () => {
  it('fixed hyperparameters: the likelihood there, fitted false', () => {
    const table = countTable([1, 2], [1, 1]);
    const fit = evaluatePrior(table, simple);
    expect(fit).toMatchObject({ ...simple, fitted: false, iterations: 0, at_bound: '' });
    expect(relative(fit.neg_log_lik, -Math.log(31 / 60) - Math.log(31 / 120))).toBeLessThan(1e-14);
    expect(() => evaluatePrior(table, { ...simple, beta1: 0 })).toThrow(/beta1/);
  });

  it('a degenerate table ends on the bound (alpha -> 0) with finite values, no worse than nearby interior points', () => {
    // Logarithmic-series-like counts: many n = 1 and a thin tail; the likelihood improves as an alpha -> 0.
    const n: number[] = [];
    const E: number[] = [];
    for (let i = 0; i < 400; i++) {
      for (const [value, share] of [[1, 30], [2, 6], [3, 2], [5, 1], [9, 1]]) {
        if (i % 40 < share) {
          n.push(value);
          E.push(0.05 + (i % 20) * 0.1);
        }
      }
    }
    const table = countTable(n, E);
    const fit = fitPrior(table);
    expect(fit.fitted).toBe(true);
    expect(fit.at_bound).toMatch(/alpha/);
    for (const value of hyperVector(fit)) expect(Number.isFinite(value)).toBe(true);
    expect(Number.isFinite(fit.neg_log_lik)).toBe(true);
    const x = hyperVector(fit);
    for (const i of [0, 2]) {
      if (x[i] !== 1e-5) continue;
      const inside = Float64Array.from(x);
      inside[i] = 1e-3;
      expect(fit.neg_log_lik).toBeLessThanOrEqual(negLogLikelihood(inside, table));
    }
  });

  it('countTable rejects n < 1, E <= 0 and empty input', () => {
    expect(() => countTable([], [])).toThrow(/no pairs/);
    expect(() => countTable([0], [1])).toThrow(/n\[0\]/);
    expect(() => countTable([1], [0])).toThrow(/E\[0\]/);
  });
});
