/**
 * Exponentially weighted moving average (Roberts 1959, "Control chart tests based on geometric
 * moving averages", Technometrics 1(3):239-250), as DESIGN.md applies it to EB05 per pair in
 * quarter order: `s_t = lambda x_t + (1 - lambda) s_(t-1)`, `s_0 = x_0`, lambda = 0.3.
 */

/** The smoothing weight DESIGN.md fixes. */
export const EWMA_LAMBDA = 0.3;

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
    const x = values[t];
    if (x !== null && Number.isFinite(x)) smoothed = smoothed === null ? x : lambda * x + (1 - lambda) * smoothed;
    out[t] = smoothed;
  }
  return out;
}
