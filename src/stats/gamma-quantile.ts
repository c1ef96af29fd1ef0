/**
 * The gamma quantile of @stdlib (`@stdlib/stats-base-dists-gamma-quantile`, shape and rate) with
 * its root search done once per (probability, shape). @stdlib computes the quantile as
 * `(1 / rate) * gammaincinv(prob, shape)`: the search (`gammaincinv`, the costly part) depends on
 * the shape alone, and the shape recurs where it is a count plus a constant (IC's `n + 0.5`,
 * Noren et al. 2013; an MGPS posterior component's `alpha + n` within a window). The unit-rate
 * quantile `gammaQuantile(prob, shape, 1)` is @stdlib's `gammaincinv(prob, shape)` itself (times
 * 1 / 1 = 1), kept here, and the quantile is then the same expression of the same numbers as
 * @stdlib's: the same value to the last bit (test/stats/gamma-quantile.test.ts).
 */
import stdlibGammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';

/** Unit-rate quantiles kept per probability before that probability's memo starts again (a few MB at most). */
export const MEMO_SHAPES = 1 << 15;
/** Probabilities kept (the statistics ask for five: 0.025, 0.05, 0.5, 0.95, 0.975); past this the memo starts again. */
const MEMO_PROBS = 16;

/** Per probability: shape -> gammaincinv(prob, shape). */
const unitQuantiles = new Map<number, Map<number, number>>();

/**
 * The `prob` quantile of Gamma(shape, rate) (rate, not scale), equal to @stdlib's
 * `gammaQuantile(prob, shape, rate)` for every input. For 0 <= prob <= 1 and a finite shape > 0
 * and rate > 0 the search runs once per (prob, shape) in this thread; any other input goes to
 * @stdlib as it is (NaN, 0 for shape 0: its own rules).
 * Example: gammaQuantile(0.5, 1, 2) = ln(2) / 2 = 0.34657...
 */
export function gammaQuantile(prob: number, shape: number, rate: number): number {
  if (!(prob >= 0 && prob <= 1 && shape > 0 && Number.isFinite(shape) && rate > 0)) return stdlibGammaQuantile(prob, shape, rate);
  let byShape = unitQuantiles.get(prob);
  if (!byShape) {
    if (unitQuantiles.size >= MEMO_PROBS) unitQuantiles.clear();
    unitQuantiles.set(prob, (byShape = new Map()));
  }
  let unit = byShape.get(shape);
  if (unit === undefined) {
    if (byShape.size >= MEMO_SHAPES) byShape.clear();
    unit = stdlibGammaQuantile(prob, shape, 1);
    byShape.set(shape, unit);
  }
  return (1.0 / rate) * unit;
}
