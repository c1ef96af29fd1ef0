/**
 * Information component with shrinkage (BCPNN family), as Noren, Hopstadius and Bate 2013,
 * "Shrinkage observed-to-expected ratios for robust and transparent large-scale pattern
 * discovery", Statistical Methods in Medical Research 22(1):57-69, define it and the WHO's
 * VigiBase uses it: `IC = log2((n + 0.5) / (E + 0.5))`; the credibility interval is that of the
 * posterior of the observed-to-expected ratio, `Gamma(shape n + 0.5, rate E + 0.5)`, on log2.
 */
import gammainc from '@stdlib/math-base-special-gammainc';
import { gammaQuantile } from './gamma-quantile.js';
import { quantileAtLeast } from './quantile-test.js';

/** IC and its 95% credibility interval (log2 scale). */
export interface IcResult {
  ic: number;
  ic025: number;
  ic975: number;
}

/**
 * IC, IC025 and IC975 for observed n >= 0 and expected E > 0 (throws otherwise).
 * IC025 = log2(2.5% quantile of Gamma(n + 0.5, E + 0.5)), IC975 likewise at 97.5%.
 * Example: n = 11, E = 3.6517 gives IC = log2(11.5/4.1517) = 1.4699...
 */
export function ic(n: number, E: number): IcResult {
  if (!(n >= 0) || !(E > 0)) throw new Error(`ic: need n >= 0 and E > 0 (got n = ${n}, E = ${E})`);
  const shape = n + 0.5;
  const rate = E + 0.5;
  return {
    ic: Math.log2(shape / rate),
    ic025: Math.log2(gammaQuantile(0.025, shape, rate)),
    ic975: Math.log2(gammaQuantile(0.975, shape, rate)),
  };
}

/**
 * Whether IC025 > log2(level) (level > 0; the IC flag uses level 1, i.e. IC025 > 0) for observed n
 * >= 0 and expected E > 0, from the CDF of Gamma(n + 0.5, E + 0.5) at `level` (src/stats/quantile-test.ts):
 * the same answer as `ic(n, E).ic025 > Math.log2(level)` without the quantile search.
 */
export function ic025Above(n: number, E: number, level: number): boolean {
  const shape = n + 0.5;
  const rate = E + 0.5;
  return quantileAtLeast(gammainc(rate * level, shape), 0.025, level, () => gammaQuantile(0.025, shape, rate), true);
}
