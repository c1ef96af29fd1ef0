/**
 * Whether a distribution's `prob` quantile is at least `x`, decided from its CDF at `x` instead of
 * the quantile itself (one CDF evaluation instead of a root search): for a continuous increasing
 * CDF F, `F^-1(prob) >= x` exactly when `F(x) <= prob`. Near the boundary, where the CDF and the
 * quantile search could round differently (`|F(x) - prob| <= CDF_MARGIN`), the quantile is
 * computed and compared, so the answer is always the one the computed quantile gives.
 * Used by the build's flag pass (src/stats/window.ts `windowFlags`: GPS `eb05 >= 2`, IC `ic025 > 0`).
 */

/** Below this distance of F(x) from prob the quantile decides (CDF and quantile are accurate to ~1e-13). */
export const CDF_MARGIN = 1e-9;

/**
 * `quantile() >= x` (or `> x` when `strict`), with `cdfAtX` = F(x), the distribution's CDF at x.
 * A NaN CDF or quantile decides false, as a null statistic never flags.
 * Example: for Exponential(1), F(2) = 0.8647, so the median (0.693) is not at least 2: F(2) > 0.5 + margin.
 */
export function quantileAtLeast(cdfAtX: number, prob: number, x: number, quantile: () => number, strict = false): boolean {
  if (cdfAtX < prob - CDF_MARGIN) return true; // F(x) < prob: the quantile lies above x
  if (cdfAtX > prob + CDF_MARGIN) return false; // F(x) > prob: the quantile lies below x
  const q = quantile();
  return strict ? q > x : q >= x;
}
