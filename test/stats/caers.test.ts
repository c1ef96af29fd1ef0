/**
 * Reference test on openEBGM's caers data (docs/reference-data.md):
 * the table built the openEBGM way, the published scores with the published hyperparameters fixed,
 * and our own fit's negative log-likelihood against the published 4162.456.
 * Tolerances follow how openEBGM produced the printed numbers: EBGM is exact, then rounded to 2
 * decimals (so within 0.005); QUANT_05/QUANT_95 come from `quantBisect`, which stops once the
 * bisection half-width is below 0.005 and then rounds the midpoint to 2 decimals (so within 0.01).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readReportTable, type ReportTable } from '../../src/ingest/mining/report-table.js';
import type { Hyperparameters } from '../../src/domain/mgps-prior.js';
import { posterior, posteriorCdf } from '../../src/stats/mgps.js';
import { scoreWindow, type PairStatistics } from '../../src/stats/window.js';
import { SHARED_DATA } from '../helpers/paths.js';

const caers = path.resolve(SHARED_DATA, 'oracle', 'caers.csv');
const present = existsSync(caers);
if (!present) console.warn(`caers reference test skipped: ${caers} is absent`);

// docs/reference-data.md, openEBGM 0.9.1 vignettes (full data, no squashing).
const published: Hyperparameters = { alpha1: 3.25596685, beta1: 0.39998994, alpha2: 2.02376139, beta2: 1.90614108, p: 0.06530755 };
const publishedNegLL = 4162.456;
const publishedPairs = [
  { var1: '1-PHENYLALANINE', var2: 'HEART RATE INCREASED', n: 1, ebgm: 2.23, eb05: 0.49, eb95: 13.85 },
  { var1: 'REUMOFAN PLUS', var2: 'WEIGHT INCREASED', n: 16, ebgm: 23.26, eb05: 15.68, eb95: 33.48 },
];
const publishedTopEb05 = [15.68, 11.65, 10.16, 8.99, 8.98];

describe.skipIf(!present)('caers reference (docs/reference-data.md)', () => {
  let table: ReportTable;
  let fixed: PairStatistics[];
  beforeAll(async () => {
    table = await readReportTable(caers, { id: 'id', vaccine: 'var1', event: 'var2' });
    fixed = scoreWindow(table, { hyper: published }).pairs;
  });

  it('the table is built the openEBGM way: 17,189 pairs, N from 1 to 54 summing to 19,917, N_tot 3,356', () => {
    expect(table.n.length).toBe(17189);
    expect(table.n_reports).toBe(3356);
    expect(table.n.reduce((sum, n) => sum + n, 0)).toBe(19917);
    expect(Math.max(...table.n)).toBe(54);
    expect(Math.min(...table.n)).toBe(1);
  });

  it('CALCIUM / DYSPHAGIA: N = 11, E = 3.651668653', () => {
    const i = table.vaccine.findIndex((v, k) => v === 'CALCIUM' && table.event[k] === 'DYSPHAGIA');
    expect(table.n[i]).toBe(11);
    expect(fixed[i].expected).toBeCloseTo(3.651668653, 9);
    expect(fixed[i].ror!.toFixed(4)).toBe('3.8126');
    expect(fixed[i].prr_chisq!.toFixed(3)).toBe('14.217');
  });

  it('published hyperparameters fixed: negative log-likelihood 4162.456', () => {
    const { fit } = scoreWindow(table, { hyper: published });
    expect(fit.fitted).toBe(false);
    expect(Math.abs(fit.neg_log_lik - publishedNegLL)).toBeLessThan(5e-4);
  });

  it('published hyperparameters fixed: EBGM, QUANT_05, QUANT_95 of the two printed pairs (within openEBGM\'s print precision)', () => {
    for (const pair of publishedPairs) {
      const i = table.vaccine.findIndex((v, k) => v === pair.var1 && table.event[k] === pair.var2);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(table.n[i]).toBe(pair.n);
      expect(Math.abs(fixed[i].ebgm! - pair.ebgm)).toBeLessThanOrEqual(0.005);
      expect(Math.abs(fixed[i].eb05! - pair.eb05)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(fixed[i].eb95! - pair.eb95)).toBeLessThanOrEqual(0.01);
    }
  });

  it('published hyperparameters fixed: 131 pairs with EB05 > 2; the five largest EB05 are 15.68, 11.65, 10.16, 8.99, 8.98', () => {
    expect(fixed.filter((s) => s.eb05! > 2).length).toBe(131);
    const top = fixed.map((s) => s.eb05!).sort((x, y) => y - x).slice(0, 5);
    top.forEach((value, k) => expect(Math.abs(value - publishedTopEb05[k])).toBeLessThanOrEqual(0.01));
  });

  it('quantiles are solved to 1e-9 relative: the posterior CDF at EB05/EB50/EB95 is 0.05/0.5/0.95 to 1e-10', () => {
    let worst = 0;
    for (let i = 0; i < table.n.length; i++) {
      const mixture = posterior(published, table.n[i], fixed[i].expected);
      const [eb05, eb50, eb95] = [fixed[i].eb05!, fixed[i].eb50!, fixed[i].eb95!];
      for (const [q, prob] of [[eb05, 0.05], [eb50, 0.5], [eb95, 0.95]]) worst = Math.max(worst, Math.abs(posteriorCdf(mixture, q) - prob) / prob);
    }
    expect(worst).toBeLessThan(1e-10);
  });

  it('invariants on every pair: 0 <= Qn <= 1, EB05 <= EB50 <= EB95, EB05 <= EBGM <= EB95, CIs contain estimates, 0..4 flags', () => {
    for (const s of fixed) {
      expect(s.qn! >= 0 && s.qn! <= 1).toBe(true);
      expect(s.eb05! <= s.eb50! && s.eb50! <= s.eb95!).toBe(true);
      expect(s.eb05! <= s.ebgm! && s.ebgm! <= s.eb95!).toBe(true);
      if (s.prr !== null && s.prr_lci !== null) expect(s.prr_lci <= s.prr && s.prr <= s.prr_uci!).toBe(true);
      if (s.ror !== null && s.ror_lci !== null) expect(s.ror_lci <= s.ror && s.ror <= s.ror_uci!).toBe(true);
      expect(s.ic025! <= s.ic! && s.ic! <= s.ic975!).toBe(true);
      expect(s.n_methods_flagged >= 0 && s.n_methods_flagged <= 4).toBe(true);
      expect(s.is_signal_any).toBe(s.n_methods_flagged >= 1);
    }
  });

  it('our own fit: negative log-likelihood no worse than the published 4162.456 + 1e-3, converged, inside the box', () => {
    const { fit } = scoreWindow(table);
    expect(fit.fitted).toBe(true);
    expect(fit.converged).toBe(true);
    expect(fit.at_bound).toBe('');
    expect(fit.neg_log_lik).toBeLessThanOrEqual(publishedNegLL + 1e-3);
    // The same optimum from a warm start at the published values.
    expect(scoreWindow(table, { warmStart: published }).fit.neg_log_lik).toBeLessThanOrEqual(publishedNegLL + 1e-3);
  });
});
