/**
 * An upper bound of EB05 (DuMouchel 1999) for a pair whose statistics are not stored: the 5%
 * quantile of the posterior mixture `Qn Gamma(alpha1 + n, beta1 + E) + (1 - Qn) Gamma(alpha2 + n,
 * beta2 + E)` is at most the larger of its components' 5% quantiles (the mixture CDF at that value
 * is a weighted mean of component CDFs that are each >= 0.05), and each component's quantile
 * grows as E falls to 0. So, whatever E >= 0 and Qn are,
 *
 *   EB05 <= max(q05(Gamma(alpha1 + n, rate beta1)), q05(Gamma(alpha2 + n, rate beta2))).
 *
 * Used by the evaluation harness to rule out GPS for a pair the store does not keep.
 */
import gammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import type { Hyperparameters } from '../domain/mgps-prior.js';

/**
 * The bound above for count `n` under the prior `theta` of the window.
 * Example: alpha1 = 1, beta1 = 0.1, alpha2 = 1, beta2 = 1, n = 1 -> 10 * qgamma(0.05, 2) = 3.5536154.
 */
export function eb05UpperBound(theta: Hyperparameters, n: number): number {
  return Math.max(gammaQuantile(0.05, theta.alpha1 + n, theta.beta1), gammaQuantile(0.05, theta.alpha2 + n, theta.beta2));
}
