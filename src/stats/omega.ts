/**
 * The Omega shrinkage measure of a drug-drug (here vaccine-vaccine) interaction in spontaneous
 * reports: G. N. Norén, R. Sundberg, A. Bate, I. R. Edwards, "A statistical methodology for
 * drug-drug interaction surveillance", Statistics in Medicine 2008;27:3057-3070 (UMC's vigiLyze).
 *
 * From the reports of a window split by exposure to V1 (i = 1: the report names V1), to V2
 * (j = 1) and by the event E (k = 1): f_ij is the rate of E among the reports with V1 = i and
 * V2 = j, o_ij = f_ij / (1 - f_ij) its odds; the additive-on-odds baseline of the joint
 * exposure is `g11 = 1 - 1 / (max(o00, o10) + max(o00, o01) - o00 + 1)`, the expected count
 * `E111 = g11 * n11.`, the measure `Omega = log2((n111 + 0.5) / (E111 + 0.5))` and its 95%
 * credibility interval the log2 of the 2.5% and 97.5% quantiles of Gamma(shape n111 + 0.5,
 * rate E111 + 0.5). A signal: `Omega025 > 0`.
 *
 * Exact against the test values of the open R implementation (the fixture of
 * test/stats/omega.test.ts: n111 = 0, n11. = 6, n1.1 = 5, n.11 = 0, n1.. = 51, n.1. = 15,
 * n..1 = 15, N = 1000 -> g11 = 1/9, E111 = 2/3, Omega = -1.22239242133645).
 */
import { gammaQuantile } from './gamma-quantile.js';
import type { OmegaCounts, OmegaResult } from '../domain/interactions.js';

/** The counts of one triple and its Omega: the shapes live beside the stored row (src/domain/interactions.ts). */
export type { OmegaCounts, OmegaResult };

/** The rate of E among `exposed` reports of which `withEvent` name E, as odds f / (1 - f); 0 when no report is exposed. */
function odds(withEvent: number, exposed: number): number {
  if (exposed <= 0) return 0;
  const f = withEvent / exposed;
  return f / (1 - f);
}

/**
 * Omega of a triple from its margins (the 2x2x2 cells follow: V1 without V2 n10. = n1.. - n11.
 * with n101 = n1.1 - n111 reports of E; V2 without V1 n01. = n.1. - n11. with n011 = n.11 - n111;
 * neither n00. = N - n1.. - n.1. + n11. with n001 = n..1 - n1.1 - n.11 + n111). A group with no
 * report has odds 0; a group whose every report names E has infinite odds, and then g11 = 1.
 * @throws Error when a count is negative or not whole, or the margins are inconsistent (a cell below 0).
 */
export function omega(c: OmegaCounts): OmegaResult {
  for (const [name, value] of Object.entries(c)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`omega: ${name} must be a whole number >= 0, got ${value}`);
  }
  const n10 = c.n1 - c.n11, n101 = c.n1_1 - c.n111;
  const n01 = c.n_1 - c.n11, n011 = c.n_11 - c.n111;
  const n00 = c.N - c.n1 - c.n_1 + c.n11, n001 = c.n__1 - c.n1_1 - c.n_11 + c.n111;
  if (Math.min(n10, n101, n01, n011, n00, n001, c.n11 - c.n111) < 0 || n101 > n10 || n011 > n01 || n001 > n00) {
    throw new Error(`omega: inconsistent margins ${JSON.stringify(c)}`);
  }
  const o00 = odds(n001, n00), o10 = odds(n101, n10), o01 = odds(n011, n01);
  // max(o00, o10) + max(o00, o01) - o00 >= max(o00, o10, o01): infinite when any odds is (where
  // the formula's own arithmetic would give Infinity - Infinity = NaN), and then g11 = 1.
  const infinite = !Number.isFinite(o00) || !Number.isFinite(o10) || !Number.isFinite(o01);
  const g11 = infinite ? 1 : 1 - 1 / (Math.max(o00, o10) + Math.max(o00, o01) - o00 + 1);
  const e111 = g11 * c.n11;
  const shape = c.n111 + 0.5, rate = e111 + 0.5;
  return {
    g11, e111,
    omega: Math.log2(shape / rate),
    omega025: Math.log2(gammaQuantile(0.025, shape, rate)),
    omega975: Math.log2(gammaQuantile(0.975, shape, rate)),
  };
}

/**
 * Omega with the expected count summed over strata (age groups): `E111 = sum_s g11_s * n11._s`,
 * each stratum's baseline g11_s from its own margins as {@link omega} computes it, against the
 * triple's total n111; the measure and its interval as {@link omega}. Summing stratum-wise expected
 * counts is how Norén et al. adjust an observed-to-expected ratio ("Extending the methods used to
 * screen the WHO drug safety database towards analysis of complex associations and improved
 * accuracy for rare events", Statistics in Medicine 2006: "a Mantel-Haenszel-type adjustment to
 * control for suspected confounders"); a stratum without a report of both vaccines adds nothing.
 * Example: one stratum gives omega(c); two strata that each hold the same rates give the same g11.
 * @throws Error as {@link omega} for a stratum's negative, fractional or inconsistent counts, or when there is no stratum.
 */
export function omegaStratified(strata: readonly OmegaCounts[]): OmegaResult {
  if (strata.length === 0) throw new Error('omegaStratified: no stratum');
  let n111 = 0, n11 = 0, e111 = 0;
  for (const s of strata) {
    n111 += s.n111;
    n11 += s.n11;
    if (s.n11 > 0) e111 += omega(s).e111;
  }
  const shape = n111 + 0.5, rate = e111 + 0.5;
  return {
    g11: n11 > 0 ? e111 / n11 : 0, e111,
    omega: Math.log2(shape / rate),
    omega025: Math.log2(gammaQuantile(0.025, shape, rate)),
    omega975: Math.log2(gammaQuantile(0.975, shape, rate)),
  };
}
