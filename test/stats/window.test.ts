/** scoreWindow: one table's statistics (docs/design.md "Statistics, precisely"). */
import { describe, expect, it } from 'vitest';
import { ic } from '../../src/stats/bcpnn.js';
import { countTable, ebgm, evaluatePrior, posterior, posteriorQuantile, qn } from '../../src/stats/mgps.js';
import { prr, yatesChiSquare } from '../../src/stats/prr.js';
import { ror } from '../../src/stats/ror.js';
import { scoreWindow, type WindowInput } from '../../src/stats/window.js';

const hyper = { alpha1: 0.5, beta1: 0.2, alpha2: 3, beta2: 2.5, p: 0.2 };
// Six pairs over N = 200 reports; pairs 0 and 3 share n and n_vaccine * n_event (40 * 30 = 60 * 20).
const input: WindowInput = {
  n: [5, 1, 2, 5, 12, 1],
  n_vaccine: [40, 40, 40, 60, 60, 60],
  n_event: [30, 10, 200 - 40 - 60 + 2, 20, 25, 1],
  n_reports: 200,
};

describe('scoreWindow (docs/design.md statistics: report 2x2 table a = n, b = n_vaccine - n, c = n_event - n)', () => {
  const { fit, pairs } = scoreWindow(input, { hyper });

  it('each pair equals the per-method functions on its own 2x2 table (collapsing identical (n, E) is exact)', () => {
    const table = countTable(input.n, Array.from(input.n, (_, i) => (input.n_vaccine[i] * input.n_event[i]) / 200));
    // Same likelihood as the uncollapsed table (up to summation order).
    expect(Math.abs(fit.neg_log_lik / evaluatePrior(table, hyper).neg_log_lik - 1)).toBeLessThan(1e-14);
    for (let i = 0; i < pairs.length; i++) {
      const a = input.n[i], b = input.n_vaccine[i] - a, c = input.n_event[i] - a, d = 200 - a - b - c;
      const E = (input.n_vaccine[i] * input.n_event[i]) / 200;
      const s = pairs[i];
      expect(s.expected).toBe(E);
      expect(s.qn).toBe(qn(hyper, a, E));
      expect(s.ebgm).toBe(ebgm(hyper, a, E, qn(hyper, a, E)));
      expect(s.eb05).toBe(posteriorQuantile(posterior(hyper, a, E), 0.05));
      expect(s.eb95).toBe(posteriorQuantile(posterior(hyper, a, E), 0.95));
      expect({ prr: s.prr, prr_lci: s.prr_lci, prr_uci: s.prr_uci }).toEqual(prr(a, b, c, d));
      expect(s.prr_chisq).toBe(yatesChiSquare(a, b, c, d));
      expect({ ror: s.ror, ror_lci: s.ror_lci, ror_uci: s.ror_uci }).toEqual(ror(a, b, c, d));
      expect({ ic: s.ic, ic025: s.ic025, ic975: s.ic975 }).toEqual(ic(a, E));
    }
    expect(pairs[0].eb05).toBe(pairs[3].eb05); // same n and E
    expect(pairs[0].prr).not.toBe(pairs[3].prr); // different 2x2 tables
  });

  it('undefined values are null, never NaN or Infinity: c = 0 (n_event = n) makes PRR and ROR null', () => {
    expect(pairs[5]).toMatchObject({ prr: null, prr_lci: null, prr_uci: null, ror: null, ror_lci: null, ror_uci: null });
    for (const s of pairs) {
      for (const value of Object.values(s)) {
        if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
      }
    }
  });

  it('fixed hyperparameters give fitted false; a fit gives fitted true and a finite likelihood', () => {
    expect(fit.fitted).toBe(false);
    const own = scoreWindow(input).fit;
    expect(own.fitted).toBe(true);
    expect(Number.isFinite(own.neg_log_lik)).toBe(true);
    expect(own.neg_log_lik).toBeLessThanOrEqual(fit.neg_log_lik + 1e-9);
    expect(scoreWindow(input, { warmStart: own }).fit.neg_log_lik).toBeLessThanOrEqual(own.neg_log_lik + 1e-6);
  });

  it('an empty window throws a clear Error; inconsistent counts throw naming the pair', () => {
    expect(() => scoreWindow({ n: [], n_vaccine: [], n_event: [], n_reports: 10 })).toThrow(/empty window/);
    expect(() => scoreWindow({ n: [3], n_vaccine: [2], n_event: [5], n_reports: 10 })).toThrow(/pair 0/);
    expect(() => scoreWindow({ n: [3], n_vaccine: [8], n_event: [5], n_reports: 9 })).toThrow(/pair 0/);
    expect(() => scoreWindow({ n: [0], n_vaccine: [8], n_event: [5], n_reports: 20 })).toThrow(/pair 0/);
  });
});
