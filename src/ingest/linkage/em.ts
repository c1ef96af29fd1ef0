/**
 * The m and u probabilities of the Fellegi-Sunter model estimated by EM from the comparison
 * patterns of the candidate pairs, and the match weights they give.
 *
 * Model (Fellegi and Sunter 1969, "A theory for record linkage", JASA 64:1183-1210): a candidate
 * pair is a match (M) with probability p, else a non-match (U); given the class, the fields'
 * agreement levels are independent, with `m[k][l] = P(level l of field k | M)` and
 * `u[k][l] = P(level l | U)`. The match weight of a pattern is the sum over its non-missing
 * fields of `log2(m[k][l] / u[k][l])`; a missing field (level 0) contributes 0, as in
 * vigiMatch's hit-miss model (Noren, Orre, Bate and Edwards 2007, "Duplicate detection in
 * adverse drug reaction surveillance", Data Min Knowl Disc 14:305-328; Tregunno et al. 2014).
 *
 * Estimation: the EM algorithm for this latent-class mixture (Winkler 1988, "Using the EM
 * algorithm for weight computation in the Fellegi-Sunter model of record linkage", Proc. Section
 * on Survey Research Methods, ASA, 667-671; Jaro 1989), run on the distinct patterns with their
 * counts. E step: `g = p Prod m / (p Prod m + (1 - p) Prod u)` per pattern (missing fields
 * omitted); M step: p = mean g, `m[k][l]` = g-weighted share of level l among the pairs where field
 * k is not missing, u likewise with 1 - g. Start: p = 0.01, m putting most mass on the top
 * agreement level, u the observed level shares (most candidate pairs are non-matches). Stops when
 * no parameter moves by more than 1e-7 or after 500 iterations; probabilities are kept in
 * [1e-6, 1 - 1e-6] so that every weight is finite. With `fixedU` the u probabilities are given
 * (estimated from random pairs, as Winkler and later splink do) and only m and p are fitted.
 */

/** The fitted model: per field and level (index 0, missing, unused), m and u; the match share p. */
export interface MatchModel {
  m: number[][];
  u: number[][];
  p: number;
  iterations: number;
  converged: boolean;
  /** Per field and level, the weight log2(m / u) (0 at level 0). */
  weights: number[][];
}

const FLOOR = 1e-6;
const clamp = (x: number): number => Math.min(1 - FLOOR, Math.max(FLOOR, x));

/**
 * Fits the model to `patterns` (distinct comparison patterns, each as its per-field levels,
 * with `counts[i]` pairs of pattern i). `radix[k]` is the number of levels of field k including
 * missing (level 0). Throws nothing; with no pairs it returns the starting values.
 */
export function fitMatchModel(patterns: readonly (readonly number[])[], counts: readonly number[], radix: readonly number[],
  options: { maxIterations?: number; tolerance?: number; p?: number; fixedU?: readonly (readonly number[])[]; fixedP?: boolean } = {}): MatchModel {
  const maxIterations = options.maxIterations ?? 500;
  const tolerance = options.tolerance ?? 1e-7;
  const fields = radix.length;
  let p = options.p ?? 0.01;
  const u = radix.map((r) => new Array<number>(r).fill(0));
  const observed = radix.map((r) => new Array<number>(r).fill(0));
  patterns.forEach((levels, i) => levels.forEach((l, k) => { if (l > 0) observed[k][l] += counts[i]; }));
  for (let k = 0; k < fields; k++) {
    const total = observed[k].reduce((s, x) => s + x, 0);
    for (let l = 1; l < radix[k]; l++) u[k][l] = clamp(options.fixedU?.[k][l] ?? (total > 0 ? observed[k][l] / total : 1 / (radix[k] - 1)));
  }
  const m = radix.map((r) => {
    const row = new Array<number>(r).fill(0);
    // Most mass on the top agreement level, the rest spread evenly below it.
    for (let l = 1; l < r; l++) row[l] = l === r - 1 ? 0.8 : 0.2 / (r - 2);
    return row;
  });
  let iterations = 0;
  let converged = false;
  const g = new Float64Array(patterns.length);
  while (iterations < maxIterations && !converged) {
    iterations++;
    // E step.
    for (let i = 0; i < patterns.length; i++) {
      let logRatio = Math.log(p / (1 - p));
      patterns[i].forEach((l, k) => { if (l > 0) logRatio += Math.log(m[k][l] / u[k][l]); });
      g[i] = 1 / (1 + Math.exp(-logRatio));
    }
    // M step.
    let matches = 0;
    let all = 0;
    const mSum = radix.map((r) => new Array<number>(r).fill(0));
    const uSum = radix.map((r) => new Array<number>(r).fill(0));
    for (let i = 0; i < patterns.length; i++) {
      matches += counts[i] * g[i];
      all += counts[i];
      patterns[i].forEach((l, k) => {
        if (l === 0) return;
        mSum[k][l] += counts[i] * g[i];
        uSum[k][l] += counts[i] * (1 - g[i]);
      });
    }
    const nextP = options.fixedP ? p : clamp(all > 0 ? matches / all : p);
    let moved = Math.abs(nextP - p);
    p = nextP;
    for (let k = 0; k < fields; k++) {
      const mTotal = mSum[k].reduce((s, x) => s + x, 0);
      const uTotal = uSum[k].reduce((s, x) => s + x, 0);
      for (let l = 1; l < radix[k]; l++) {
        if (mTotal > 0) {
          const next = clamp(mSum[k][l] / mTotal);
          moved = Math.max(moved, Math.abs(next - m[k][l]));
          m[k][l] = next;
        }
        if (uTotal > 0 && options.fixedU === undefined) {
          const next = clamp(uSum[k][l] / uTotal);
          moved = Math.max(moved, Math.abs(next - u[k][l]));
          u[k][l] = next;
        }
      }
    }
    converged = moved <= tolerance;
  }
  const weights = radix.map((r, k) => Array.from({ length: r }, (_, l) => (l === 0 ? 0 : Math.log2(m[k][l] / u[k][l]))));
  return { m, u, p, iterations, converged, weights };
}
