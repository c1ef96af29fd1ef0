/**
 * MGPS, the Multi-item Gamma Poisson Shrinker (DuMouchel 1999, "Bayesian data mining in large
 * frequency tables", The American Statistician 53(3):177-190), as openEBGM implements it
 * (Canida and Ihrie 2017, "openEBGM: An R Implementation of the Gamma-Poisson Shrinker Data
 * Mining Model", The R Journal 9(2):499-519). docs/design.md "Statistics, precisely" is the contract.
 *
 * - Prior of the ratio lambda = mu/E: `p*Gamma(alpha1, beta1) + (1-p)*Gamma(alpha2, beta2)`
 *   (shape, rate).
 * - Marginal of an observed count n with expected E: a mixture of negative binomials with size
 *   alpha_k and probability beta_k/(beta_k+E) (DuMouchel eq. 2.2); only pairs with n >= 1 exist,
 *   so each component is truncated at zero (openEBGM `negLLzero`, `N_star = 1`).
 * - The hyperparameters minimise the negative log-likelihood inside openEBGM's box (alpha, beta
 *   in [1e-5, 20], p in (0, 1)), by BFGS with the analytic gradient (./optimise.ts) from
 *   openEBGM's five vignette starts plus an optional warm start; the best converged fit wins.
 * - Posterior: `Qn*Gamma(alpha1+n, beta1+E) + (1-Qn)*Gamma(alpha2+n, beta2+E)` with `Qn` from
 *   the untruncated densities (DuMouchel eq. 2.5); EBGM = exp(E[ln lambda]) (eq. 2.6); EB05,
 *   EB50, EB95 are quantiles of the posterior mixture, solved by Halley's iteration on its CDF
 *   (a plain Newton step where Halley's correction factor falls outside (0.5, 2)), safeguarded
 *   by a bracket (`posteriorQuantile`).
 *
 * Special functions come from @stdlib; only the model is ours.
 */
import digamma from '@stdlib/math-base-special-digamma';
import gammainc from '@stdlib/math-base-special-gammainc';
import gammaln from '@stdlib/math-base-special-gammaln';
import { gammaQuantile } from './gamma-quantile.js';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { BoxBfgs } from './optimise.js';
import { quantileAtLeast } from './quantile-test.js';
import { HYPER_NAMES, type Hyperparameters } from '../domain/mgps-prior.js';

/** A prior fit with its diagnostics, as recorded per window in the build metadata. */
export interface PriorFit extends Hyperparameters {
  /** Negative log-likelihood of the zero-truncated mixture at these hyperparameters (natural log). */
  neg_log_lik: number;
  /** The optimiser met a stopping test (always true when the hyperparameters were fixed). */
  converged: boolean;
  /** Comma-separated names of parameters on a bound of the box ('' if none), e.g. 'alpha1'. */
  at_bound: string;
  /** BFGS iterations of the winning start (0 when fixed). */
  iterations: number;
  /** True when fitted here, false when the hyperparameters were given. */
  fitted: boolean;
}

/** openEBGM's box: alpha and beta in [1e-5, 20]; p in the open interval (0, 1). */
export const HYPER_LOWER = [1e-5, 1e-5, 1e-5, 1e-5, 0] as const;
/** Upper ends of openEBGM's box, in HYPER_NAMES order. */
export const HYPER_UPPER = [20, 20, 20, 20, 1] as const;

/** openEBGM's five vignette starting points (vignette "Hyperparameter Estimation"). */
export const OPENEBGM_STARTS: readonly Hyperparameters[] = [
  { alpha1: 0.2, beta1: 0.1, alpha2: 2, beta2: 4, p: 1 / 3 },
  { alpha1: 0.1, beta1: 0.1, alpha2: 10, beta2: 10, p: 0.2 },
  { alpha1: 0.3, beta1: 0.5, alpha2: 6, beta2: 6, p: 0.5 },
  { alpha1: 0.5, beta1: 0.3, alpha2: 12, beta2: 12, p: 0.8 },
  { alpha1: 0.2, beta1: 0.2, alpha2: 5, beta2: 5, p: 0.4 },
];

/**
 * Observed counts collapsed to distinct (n, E) with their multiplicity, plus per-count
 * constants the likelihood reuses. Build with {@link countTable}.
 */
export interface CountTable {
  n: Float64Array;
  E: Float64Array;
  weight: Float64Array;
  logE: Float64Array;
  /** Index of each row's n in `distinctN`. */
  nIndex: Int32Array;
  distinctN: Float64Array;
  /** Index of each row's E in `distinctE`: the terms that depend on E alone are computed once per distinct E (many pairs share a margin product). */
  eIndex: Int32Array;
  distinctE: Float64Array;
  /** sum of weight * ln(n!), the part of the likelihood free of the hyperparameters. */
  logFactorialSum: number;
}

/**
 * Prepare a count table: `n` (integers >= 1), `E` (> 0) and optional `weight` (multiplicity,
 * default 1), parallel arrays. Throws on an empty table or invalid entries.
 */
export function countTable(n: ArrayLike<number>, E: ArrayLike<number>, weight?: ArrayLike<number>): CountTable {
  const size = n.length;
  if (size === 0) throw new Error('countTable: no pairs');
  if (E.length !== size || (weight && weight.length !== size)) throw new Error('countTable: n, E and weight differ in length');
  const distinctN = new DistinctValues();
  const distinctE = new DistinctValues();
  const table: CountTable = {
    n: Float64Array.from(n), E: Float64Array.from(E),
    weight: weight ? Float64Array.from(weight) : new Float64Array(size).fill(1),
    logE: new Float64Array(size), nIndex: new Int32Array(size), distinctN: new Float64Array(0),
    eIndex: new Int32Array(size), distinctE: new Float64Array(0), logFactorialSum: 0,
  };
  for (let j = 0; j < size; j++) {
    const nj = table.n[j];
    const Ej = table.E[j];
    if (!(Number.isInteger(nj) && nj >= 1)) throw new Error(`countTable: n[${j}] = ${nj} is not an integer >= 1`);
    if (!(Ej > 0 && Number.isFinite(Ej))) throw new Error(`countTable: E[${j}] = ${Ej} is not a positive number`);
    if (!(table.weight[j] > 0)) throw new Error(`countTable: weight[${j}] is not positive`);
    table.nIndex[j] = distinctN.indexOf(nj);
    table.eIndex[j] = distinctE.indexOf(Ej);
    table.logE[j] = Math.log(Ej);
    table.logFactorialSum += table.weight[j] * gammaln(nj + 1);
  }
  table.distinctN = Float64Array.from(distinctN.values);
  table.distinctE = Float64Array.from(distinctE.values);
  return table;
}

/** Distinct numbers in order of first appearance, each with its index. */
class DistinctValues {
  readonly values: number[] = [];
  private readonly index = new Map<number, number>();

  /** The index of `value`, added when new. */
  indexOf(value: number): number {
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.values.length;
      this.values.push(value);
      this.index.set(value, at);
    }
    return at;
  }
}

/** Hyperparameters as the vector [alpha1, beta1, alpha2, beta2, p]. */
export function hyperVector(theta: Hyperparameters): Float64Array {
  return Float64Array.of(theta.alpha1, theta.beta1, theta.alpha2, theta.beta2, theta.p);
}

/** The vector [alpha1, beta1, alpha2, beta2, p] as named hyperparameters. */
export function hyperFromVector(x: ArrayLike<number>): Hyperparameters {
  return { alpha1: x[0], beta1: x[1], alpha2: x[2], beta2: x[3], p: x[4] };
}

/**
 * Negative log-likelihood of the zero-truncated negative binomial mixture (openEBGM `negLLzero`
 * with `N_star = 1`): `-sum_j w_j ln(p f1*(n_j) + (1-p) f2*(n_j))`, where
 * `fk*(n) = NB(n; alpha_k, beta_k/(beta_k+E)) / (1 - NB(0; ...))`.
 * `x` = [alpha1, beta1, alpha2, beta2, p]. When `grad` is given, writes d(negLL)/dx into it.
 */
export function negLogLikelihood(x: ArrayLike<number>, table: CountTable, grad?: Float64Array): number {
  const [alpha1, beta1, alpha2, beta2, p] = [x[0], x[1], x[2], x[3], x[4]];
  const k = table.distinctN.length;
  // ln Gamma(alpha+n) - ln Gamma(alpha) and digamma(alpha+n) - digamma(alpha) per distinct n.
  const lg1 = new Float64Array(k), lg2 = new Float64Array(k), dg1 = new Float64Array(k), dg2 = new Float64Array(k);
  const lgA1 = gammaln(alpha1), lgA2 = gammaln(alpha2);
  const dgA1 = grad ? digamma(alpha1) : 0, dgA2 = grad ? digamma(alpha2) : 0;
  for (let i = 0; i < k; i++) {
    const v = table.distinctN[i];
    lg1[i] = gammaln(alpha1 + v) - lgA1;
    lg2[i] = gammaln(alpha2 + v) - lgA2;
    if (grad) {
      dg1[i] = digamma(alpha1 + v) - dgA1;
      dg2[i] = digamma(alpha2 + v) - dgA2;
    }
  }
  const logBeta1 = Math.log(beta1), logBeta2 = Math.log(beta2);
  const logP = Math.log(p), log1mP = Math.log1p(-p);
  // The terms that depend on E alone, once per distinct E (the same expressions as per row, so the
  // same values: rows sharing an E, a third of a VAERS window's, cost two logarithms fewer each).
  const { distinctE } = table;
  const eTerms = termsOf(distinctE.length);
  for (let i = 0; i < distinctE.length; i++) {
    const Ei = distinctE[i];
    // Component k: ln r_k = -ln(1 + E/beta_k), r_k = beta_k/(beta_k+E); 1 - P_k(0), the truncation mass.
    const l1p1 = Math.log1p(Ei / beta1), l1p2 = Math.log1p(Ei / beta2);
    eTerms.l1p1[i] = l1p1;
    eTerms.notZero1[i] = -Math.expm1(-alpha1 * l1p1);
    eTerms.l1p2[i] = l1p2;
    eTerms.notZero2[i] = -Math.expm1(-alpha2 * l1p2);
  }
  let negLL = table.logFactorialSum;
  let gA1 = 0, gB1 = 0, gA2 = 0, gB2 = 0, gP = 0;
  const { n, E, weight, logE, nIndex, eIndex } = table;
  for (let j = 0; j < n.length; j++) {
    const nj = n[j], Ej = E[j], wj = weight[j], idx = nIndex[j], e = eIndex[j];
    // Component 1: ln NB = lg + alpha ln r + n ln(1-r).
    const l1p1 = eTerms.l1p1[e], notZero1 = eTerms.notZero1[e];
    const h1 = logP + lg1[idx] - alpha1 * l1p1 + nj * (logE[j] - logBeta1 - l1p1); // ln p f1(n)
    const l1p2 = eTerms.l1p2[e], notZero2 = eTerms.notZero2[e];
    const h2 = log1mP + lg2[idx] - alpha2 * l1p2 + nj * (logE[j] - logBeta2 - l1p2);
    // p f1* + (1-p) f2* = exp(top) (m1 + m2), mk = exp(hk - top) / notZero_k (one exp, one log).
    const top = Math.max(h1, h2);
    const m1 = (h1 >= h2 ? 1 : Math.exp(h1 - top)) / notZero1;
    const m2 = (h1 >= h2 ? Math.exp(h2 - top) : 1) / notZero2;
    const sum = m1 + m2;
    negLL -= wj * (top + Math.log(sum));
    if (grad) {
      // Posterior component responsibilities q1, q2 (they sum to 1).
      const q1 = m1 / sum;
      const q2 = m2 / sum;
      const bE1 = beta1 + Ej, bE2 = beta2 + Ej;
      // d ln f*/d alpha = digamma(alpha+n) - digamma(alpha) + ln r / (1 - P0)
      gA1 -= wj * q1 * (dg1[idx] - l1p1 / notZero1);
      gA2 -= wj * q2 * (dg2[idx] - l1p2 / notZero2);
      // d ln f*/d beta = alpha E / (beta (beta+E) (1-P0)) - n / (beta+E)
      gB1 -= wj * q1 * ((alpha1 * Ej) / (beta1 * bE1 * notZero1) - nj / bE1);
      gB2 -= wj * q2 * ((alpha2 * Ej) / (beta2 * bE2 * notZero2) - nj / bE2);
      gP -= wj * (q1 / p - q2 / (1 - p));
    }
  }
  if (grad) {
    grad[0] = gA1; grad[1] = gB1; grad[2] = gA2; grad[3] = gB2; grad[4] = gP;
  }
  return negLL;
}

/** Scratch arrays of the per-E terms of negLogLikelihood, grown as needed (one likelihood runs at a time per thread). */
let scratch = { l1p1: new Float64Array(0), notZero1: new Float64Array(0), l1p2: new Float64Array(0), notZero2: new Float64Array(0) };
function termsOf(size: number): typeof scratch {
  if (scratch.l1p1.length < size) {
    const grown = Math.max(size, 2 * scratch.l1p1.length);
    scratch = { l1p1: new Float64Array(grown), notZero1: new Float64Array(grown), l1p2: new Float64Array(grown), notZero2: new Float64Array(grown) };
  }
  return scratch;
}

/** Parameters whose value sits on (or beyond) a closed bound of the box, p within 1e-8 of 0 or 1. */
function boundNames(x: ArrayLike<number>): string {
  const names: string[] = [];
  for (let i = 0; i < 4; i++) if (x[i] <= HYPER_LOWER[i] || x[i] >= HYPER_UPPER[i]) names.push(HYPER_NAMES[i]);
  if (x[4] < 1e-8 || x[4] > 1 - 1e-8) names.push('p');
  return names.join(',');
}

/** Check given hyperparameters: alpha and beta finite and > 0, p in [0, 1]. Throws otherwise. */
export function checkHyperparameters(theta: Hyperparameters): void {
  for (const name of HYPER_NAMES) {
    const value = theta[name];
    const ok = name === 'p' ? value >= 0 && value <= 1 : value > 0 && Number.isFinite(value);
    if (!ok) throw new Error(`hyperparameter ${name} = ${value} is out of range (${name === 'p' ? '[0, 1]' : '> 0'})`);
  }
}

/** PriorFit for fixed hyperparameters (no optimisation): the likelihood at theta, fitted false. */
export function evaluatePrior(table: CountTable, theta: Hyperparameters): PriorFit {
  checkHyperparameters(theta);
  const x = hyperVector(theta);
  return { ...hyperFromVector(x), neg_log_lik: negLogLikelihood(x, table), converged: true, at_bound: boundNames(x), iterations: 0, fitted: false };
}

/** Multi-start schedule of {@link fitPrior}: iterations every start gets, how many continue. */
export const FIT_SCHEDULE = { exploreIterations: 15, continued: 2, maxIterations: 1000 } as const;

/**
 * Fit the prior by maximum likelihood, multi-start: BFGS (./optimise.ts) from each of
 * {@link OPENEBGM_STARTS} and `warmStart` if given (clamped into the box) runs
 * `exploreIterations` iterations; the `continued` lowest then run to convergence. The lowest
 * negative log-likelihood among converged runs wins (among all runs if none converged). A
 * parameter within 1e-4 box widths of a closed bound is put exactly on the bound when that is
 * no worse (relative 1e-11): degenerate windows (alpha1 -> 0) thus get their bounded optimum.
 * Never throws for a valid table; never returns NaN.
 */
export function fitPrior(table: CountTable, options: { warmStart?: Hyperparameters } = {}): PriorFit {
  const starts = [...OPENEBGM_STARTS];
  if (options.warmStart && HYPER_NAMES.every((name) => Number.isFinite(options.warmStart![name]))) starts.push(options.warmStart);
  const objective = (x: Float64Array, grad: Float64Array): number => negLogLikelihood(x, table, grad);
  const runs: BoxBfgs[] = [];
  for (const start of starts) {
    try {
      runs.push(new BoxBfgs(objective, hyperVector(start), HYPER_LOWER, HYPER_UPPER).run(FIT_SCHEDULE.exploreIterations));
    } catch {
      // The likelihood is not finite at this start: skip it.
    }
  }
  if (runs.length === 0) throw new Error('fitPrior: the likelihood is not finite at any starting point');
  runs.sort((r1, r2) => r1.f - r2.f);
  for (const run of runs.slice(0, FIT_SCHEDULE.continued)) run.run(FIT_SCHEDULE.maxIterations);
  const best = runs.reduce((b, run) => ((run.converged && !b.converged) || (run.converged === b.converged && run.f < b.f) ? run : b));
  const x = Float64Array.from(best.x);
  let f = best.f;
  for (let i = 0; i < 4; i++) {
    const width = HYPER_UPPER[i] - HYPER_LOWER[i];
    const candidates = [x[i] - HYPER_LOWER[i] < 1e-4 * width ? HYPER_LOWER[i] : null, HYPER_UPPER[i] - x[i] < 1e-4 * width ? HYPER_UPPER[i] : null];
    for (const bound of candidates) {
      if (bound === null) continue;
      const trial = Float64Array.from(x);
      trial[i] = bound;
      const fTrial = negLogLikelihood(trial, table);
      if (fTrial <= f + 1e-11 * Math.abs(f)) {
        x[i] = bound;
        f = Math.min(f, fTrial);
      }
    }
  }
  f = negLogLikelihood(x, table);
  return { ...hyperFromVector(x), neg_log_lik: f, converged: best.converged, at_bound: boundNames(x), iterations: best.iterations, fitted: true };
}

/**
 * Posterior weight of the first component (DuMouchel 1999 eq. 2.5), from the untruncated
 * negative binomial densities: `Qn = p f1(n) / (p f1(n) + (1-p) f2(n))`, in [0, 1].
 * Example (docs/reference-data.md hyperparameters, n = 1, E = 0.5): about 0.18.
 */
export function qn(theta: Hyperparameters, n: number, E: number): number {
  const { alpha1, beta1, alpha2, beta2, p } = theta;
  // ln NB(n) without the ln n! term, which cancels in the ratio.
  const l1p1 = Math.log1p(E / beta1), l1p2 = Math.log1p(E / beta2);
  const logF1 = gammaln(alpha1 + n) - gammaln(alpha1) - alpha1 * l1p1 + n * (Math.log(E / beta1) - l1p1);
  const logF2 = gammaln(alpha2 + n) - gammaln(alpha2) - alpha2 * l1p2 + n * (Math.log(E / beta2) - l1p2);
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  return 1 / (1 + Math.exp(Math.log1p(-p) + logF2 - Math.log(p) - logF1));
}

/**
 * Empirical Bayes geometric mean (DuMouchel 1999 eq. 2.6):
 * `exp(Qn (digamma(alpha1+n) - ln(beta1+E)) + (1-Qn) (digamma(alpha2+n) - ln(beta2+E)))`.
 */
export function ebgm(theta: Hyperparameters, n: number, E: number, weight1: number): number {
  const logMean1 = digamma(theta.alpha1 + n) - Math.log(theta.beta1 + E);
  const logMean2 = digamma(theta.alpha2 + n) - Math.log(theta.beta2 + E);
  return Math.exp(weight1 * logMean1 + (1 - weight1) * logMean2);
}

/** The posterior of one pair: weights and the two gamma components (shape a, rate b). */
export interface PosteriorMixture {
  qn: number;
  a1: number; b1: number;
  a2: number; b2: number;
}

/** Posterior mixture of a pair with count n and expected E (DuMouchel 1999 section 2). */
export function posterior(theta: Hyperparameters, n: number, E: number): PosteriorMixture {
  return { qn: qn(theta, n, E), a1: theta.alpha1 + n, b1: theta.beta1 + E, a2: theta.alpha2 + n, b2: theta.beta2 + E };
}

/** CDF of the posterior mixture at x: `Qn P(a1, b1 x) + (1-Qn) P(a2, b2 x)` (regularized gamma). */
export function posteriorCdf(mixture: PosteriorMixture, x: number): number {
  if (!(x > 0)) return 0;
  return mixture.qn * gammainc(mixture.b1 * x, mixture.a1) + (1 - mixture.qn) * gammainc(mixture.b2 * x, mixture.a2);
}

/** Standard normal quantile at prob (@stdlib), cached for the few probabilities we use. */
const normalZ = new Map<number, number>();
function zOf(prob: number): number {
  let z = normalZ.get(prob);
  if (z === undefined) normalZ.set(prob, (z = normalQuantile(prob, 0, 1)));
  return z;
}

/**
 * Starting point for the quantile: the Wilson-Hilferty approximation (Johnson, Kotz and
 * Balakrishnan 1994, eq. 17.55) for the gamma with the mixture's mean and variance, or the
 * small-shape lower-tail approximation `(prob Gamma(k+1))^(1/k) / rate` when that is not positive.
 */
function quantileGuess(mixture: PosteriorMixture, prob: number): number {
  const { qn: w1, a1, b1, a2, b2 } = mixture;
  const w2 = 1 - w1;
  const mean = (w1 * a1) / b1 + (w2 * a2) / b2;
  const second = (w1 * a1 * (a1 + 1)) / (b1 * b1) + (w2 * a2 * (a2 + 1)) / (b2 * b2);
  const variance = Math.max(second - mean * mean, 1e-300);
  const shape = (mean * mean) / variance;
  const rate = mean / variance;
  const base = 1 - 1 / (9 * shape) + zOf(prob) / (3 * Math.sqrt(shape));
  const guess = base > 0 ? (shape / rate) * base * base * base : Math.exp((Math.log(prob) + gammaln(shape + 1)) / shape) / rate;
  return Number.isFinite(guess) && guess > 0 ? guess : mean;
}

/**
 * Quantile of the posterior mixture: the x > 0 with `posteriorCdf(x) = prob`, 0 < prob < 1
 * (openEBGM `quantBisect` solves the same equation to 2 decimals by bisection; here until the
 * step is below 1e-12 relative, so the result is accurate to ~1e-15 relative, limited by the
 * CDF). Method: Halley's iteration on the CDF with its density and the density's derivative,
 * from {@link quantileGuess}, safeguarded by the bracket that every evaluated point tightens
 * (a step outside it bisects geometrically; while one side is open a step moves x by a factor 8 at most). When a weight is
 * below 1e-14 the dominant component's quantile (@stdlib) is returned; the mixture quantile
 * then differs by less than ~1e-12 relative.
 */
export function posteriorQuantile(mixture: PosteriorMixture, prob: number): number {
  const { qn: w1, a1, b1, a2, b2 } = mixture;
  const w2 = 1 - w1;
  if (w2 <= 1e-14) return gammaQuantile(prob, a1, b1);
  if (w1 <= 1e-14) return gammaQuantile(prob, a2, b2);
  const logNorm1 = Math.log(w1) - gammaln(a1) + a1 * Math.log(b1);
  const logNorm2 = Math.log(w2) - gammaln(a2) + a2 * Math.log(b2);
  let lo = 0;
  let hi = Infinity;
  let x = quantileGuess(mixture, prob);
  for (let iteration = 0; iteration < 200; iteration++) {
    const excess = posteriorCdf(mixture, x) - prob;
    if (excess === 0) return x;
    if (excess < 0) lo = x;
    else hi = x;
    if (hi < Infinity && hi - lo <= 4e-16 * hi) return x;
    const logX = Math.log(x);
    const density1 = Math.exp(logNorm1 + (a1 - 1) * logX - b1 * x);
    const density2 = Math.exp(logNorm2 + (a2 - 1) * logX - b2 * x);
    const density = density1 + density2;
    const slope = density1 * ((a1 - 1) / x - b1) + density2 * ((a2 - 1) / x - b2);
    const newton = excess / density;
    const correction = 1 - (newton * slope) / (2 * density);
    let next = x - (correction > 0.5 && correction < 2 ? newton / correction : newton);
    if (hi === Infinity) next = Math.min(next, 8 * x); // one side open: move at most by a factor 8
    if (lo === 0) next = Math.max(next, x / 8);
    if (!(next > lo && next < hi)) next = hi === Infinity ? 2 * lo : lo === 0 ? hi / 2 : Math.sqrt(lo * hi);
    if (Math.abs(next - x) <= 1e-12 * next) return next;
    x = next;
  }
  return x;
}

/**
 * Whether the posterior `prob` quantile is at least x (the GPS flag: EB05 >= 2), from the CDF at x
 * (src/stats/quantile-test.ts): the same answer as `posteriorQuantile(mixture, prob) >= x`.
 */
export function posteriorQuantileAtLeast(mixture: PosteriorMixture, prob: number, x: number): boolean {
  return quantileAtLeast(posteriorCdf(mixture, x), prob, x, () => posteriorQuantile(mixture, prob));
}
