/**
 * Exponentially weighted moving average (Roberts 1959, "Control chart tests based on geometric
 * moving averages", Technometrics 1(3):239-250), as docs/design.md applies it to EB05 per pair in
 * quarter order: `s_t = lambda x_t + (1 - lambda) s_(t-1)`, `s_0 = x_0`, lambda = 0.3.
 */

/** The smoothing weight docs/design.md fixes. */
export const EWMA_LAMBDA = 0.3;

/**
 * One EWMA step: `lambda x + (1 - lambda) previous`; the first non-null value starts the
 * average (`previous` null); a null, NaN or infinite `x` leaves the average unchanged.
 * Used incrementally by the build (one quarter at a time per pair) and by `ewma`.
 * Example: ewmaStep(2, 4) = 2.6; ewmaStep(null, 2) = 2; ewmaStep(2, null) = 2.
 */
export function ewmaStep(previous: number | null, x: number | null, lambda: number = EWMA_LAMBDA): number | null {
  if (x === null || !Number.isFinite(x)) return previous;
  return previous === null ? x : lambda * x + (1 - lambda) * previous;
}

/**
 * EWMA of a series in time order. Null inputs: before the first non-null value the output is
 * null; the first non-null value starts the average (`s_0 = x_0`); a later null input leaves the
 * average unchanged and outputs the previous smoothed value (carried forward). NaN and
 * infinite inputs are treated as null. Throws when lambda is not in (0, 1].
 * Example: ewma([1, 2, null, 4]) = [1, 1.3, 1.3, 2.11].
 */
export function ewma(values: ArrayLike<number | null>, lambda: number = EWMA_LAMBDA): Array<number | null> {
  if (!(lambda > 0 && lambda <= 1)) throw new Error(`ewma: lambda must be in (0, 1], got ${lambda}`);
  const out: Array<number | null> = new Array(values.length);
  let smoothed: number | null = null;
  for (let t = 0; t < values.length; t++) {
    smoothed = ewmaStep(smoothed, values[t], lambda);
    out[t] = smoothed;
  }
  return out;
}
