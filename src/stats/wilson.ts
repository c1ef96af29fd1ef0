/**
 * Wilson score interval of a binomial proportion (Wilson 1927, "Probable inference, the law of
 * succession, and statistical inference", JASA 22:209-212; recommended for small n by Brown, Cai
 * and DasGupta 2001, Statistical Science 16:101-133): for x successes in n trials, p = x/n,
 *
 *   centre = (p + z^2/(2n)) / (1 + z^2/n),  half = z/(1 + z^2/n) * sqrt(p(1-p)/n + z^2/(4n^2)),
 *
 * with z = qnorm(0.975) ({@link Z95}, the z of the PRR and ROR intervals). Used by the evaluation
 * harness for sensitivity, specificity and PPV of a small reference set.
 */
import { Z95 } from './prr.js';

/** A proportion with its 95% Wilson interval; every field null when n = 0 (undefined). */
export interface Proportion {
  /** Successes. */
  x: number;
  /** Trials. */
  n: number;
  /** x / n. */
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

/**
 * The proportion x/n with its Wilson 95% interval (bounds within [0, 1]).
 * Example: `wilson(3, 4)` -> estimate 0.75, lower 0.3006418, upper 0.9544127 (R: `prop.test(3, 4,
 * correct = FALSE)$conf.int`).
 * @throws Error when x or n is not a whole number, or x > n.
 */
export function wilson(x: number, n: number, z: number = Z95): Proportion {
  if (!Number.isInteger(x) || !Number.isInteger(n) || x < 0 || x > n) throw new Error(`wilson: need whole numbers 0 <= x <= n (got x ${x}, n ${n})`);
  if (n === 0) return { x, n, estimate: null, lower: null, upper: null };
  const p = x / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 and x = n the bounds are exactly 0 and 1; the formula leaves a rounding residue.
  return { x, n, estimate: p, lower: x === 0 ? 0 : Math.max(0, centre - half), upper: x === n ? 1 : Math.min(1, centre + half) };
}
