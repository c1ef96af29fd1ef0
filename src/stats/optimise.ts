/**
 * Box-constrained minimisation by BFGS on logistic-transformed parameters.
 *
 * Each parameter x_i in the open box (lower_i, upper_i) is written as
 * `x_i = lower_i + (upper_i - lower_i) * s(u_i)` with the logistic `s(u) = 1 / (1 + exp(-u))`,
 * and BFGS runs unconstrained in u (Nocedal and Wright, Numerical Optimization, 2nd ed. 2006:
 * Algorithm 6.1 with the initial scaling of eq. 6.20 and the backtracking Armijo line search of
 * Algorithm 3.1; the transform is the usual one for box constraints, e.g. the Stan reference
 * manual, "Lower and upper bounded scalar"). A minimum that lies on a bound is approached as
 * u_i -> +-infinity; the caller decides whether to snap such a parameter onto its bound.
 *
 * This is our own model code: no maintained bounded optimiser exists for JavaScript.
 */

/** Objective: returns f(x) and writes the gradient df/dx into `grad` (same length as x). */
export type ObjectiveWithGradient = (x: Float64Array, grad: Float64Array) => number;

/** Options of {@link BoxBfgs}; all optional. */
export interface MinimiseOptions {
  /** Stop when two successive decreases are both <= ftol * max(1, |f|) (default 1e-13). */
  ftol?: number;
  /** Stop when max |df/du_i| <= gtol (default 1e-9). */
  gtol?: number;
  /** Largest step in the transformed coordinates u, per component (default 5). */
  maxStep?: number;
}

/** State of a {@link BoxBfgs} run: the current (best) point, its value and diagnostics. */
export interface MinimiseResult {
  x: Float64Array;
  f: number;
  /** True when a stopping test (gradient or function change) was met before the iteration cap. */
  converged: boolean;
  iterations: number;
  evaluations: number;
}

function logistic(u: number): number {
  return 1 / (1 + Math.exp(-u));
}

/**
 * One BFGS run in the box (lower, upper) from `x0` (clamped into the box interior), resumable:
 * `run(k)` performs up to k more iterations and can be called again, which lets a multi-start
 * give every start a few iterations and continue only the promising ones.
 * Non-finite objective values count as "too far" and make the line search step back.
 * The constructor throws on mismatched lengths, an empty box or a non-finite f(x0).
 */
export class BoxBfgs implements MinimiseResult {
  x: Float64Array;
  f: number;
  converged = false;
  /** True once a stopping test was met or the line search failed for good. */
  done = false;
  iterations = 0;
  evaluations = 0;

  private readonly m: number;
  private readonly width: Float64Array;
  private readonly u: Float64Array;
  private readonly g: Float64Array;
  private readonly H: Float64Array; // inverse Hessian approximation in u, row-major
  private readonly gradX: Float64Array;
  private readonly ftol: number;
  private readonly gtol: number;
  private readonly maxStep: number;
  private firstStep = true;
  private justReset = false;
  private smallDecreases = 0;

  constructor(
    private readonly fg: ObjectiveWithGradient,
    x0: ArrayLike<number>,
    private readonly lower: ArrayLike<number>,
    upper: ArrayLike<number>,
    options: MinimiseOptions = {},
  ) {
    const m = (this.m = x0.length);
    if (lower.length !== m || upper.length !== m) throw new Error('BoxBfgs: x0, lower and upper differ in length');
    this.width = Float64Array.from({ length: m }, (_, i) => upper[i] - lower[i]);
    if (this.width.some((w) => !(w > 0))) throw new Error('BoxBfgs: empty box');
    this.ftol = options.ftol ?? 1e-13;
    this.gtol = options.gtol ?? 1e-9;
    this.maxStep = options.maxStep ?? 5;
    this.gradX = new Float64Array(m);
    // Start strictly inside the box: |u| <= 12 keeps the gradient informative.
    this.u = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const share = (x0[i] - lower[i]) / this.width[i];
      const u = Math.log(share) - Math.log1p(-share);
      this.u[i] = Number.isNaN(u) ? 0 : Math.min(12, Math.max(-12, u));
    }
    this.x = new Float64Array(m);
    this.g = new Float64Array(m);
    this.f = this.evaluate(this.u, this.x, this.g);
    if (!Number.isFinite(this.f)) throw new Error('BoxBfgs: objective is not finite at the starting point');
    this.H = new Float64Array(m * m);
    this.resetH(1);
  }

  /** f(u) and its gradient in u (chain rule: dx/du = width * s(u) * s(-u)). */
  private evaluate(u: Float64Array, x: Float64Array, g: Float64Array): number {
    for (let i = 0; i < this.m; i++) x[i] = this.lower[i] + this.width[i] * logistic(u[i]);
    this.evaluations++;
    const f = this.fg(x, this.gradX);
    for (let i = 0; i < this.m; i++) g[i] = this.gradX[i] * this.width[i] * logistic(u[i]) * logistic(-u[i]);
    return f;
  }

  private resetH(scale: number): void {
    this.H.fill(0);
    for (let i = 0; i < this.m; i++) this.H[i * this.m + i] = scale;
  }

  /** Up to `maxIterations` more iterations (stops early when done). Returns this. */
  run(maxIterations: number): this {
    const { m, H, u, g } = this;
    const d = new Float64Array(m), uNew = new Float64Array(m), xNew = new Float64Array(m), gNew = new Float64Array(m);
    const s = new Float64Array(m), y = new Float64Array(m), Hy = new Float64Array(m);
    for (let k = 0; k < maxIterations && !this.done; k++) {
      if (maxAbs(g) <= this.gtol) {
        this.converged = this.done = true;
        break;
      }
      this.iterations++;
      // Search direction d = -H g (eq. 6.18); steepest descent if that is not a descent direction.
      let slope = 0;
      for (let i = 0; i < m; i++) {
        let acc = 0;
        for (let j = 0; j < m; j++) acc -= H[i * m + j] * g[j];
        d[i] = acc;
        slope += acc * g[i];
      }
      if (!(slope < 0)) {
        this.resetH(1);
        for (let i = 0; i < m; i++) d[i] = -g[i];
        slope = -dot(g, g);
      }
      const longest = maxAbs(d);
      if (longest > this.maxStep) {
        for (let i = 0; i < m; i++) d[i] *= this.maxStep / longest;
        slope *= this.maxStep / longest;
      }
      // Backtracking Armijo line search (Algorithm 3.1, c1 = 1e-4) with quadratic interpolation.
      let step = 1;
      let fNew = Number.NaN;
      let accepted = false;
      for (let trial = 0; trial < 60; trial++) {
        for (let i = 0; i < m; i++) uNew[i] = u[i] + step * d[i];
        fNew = this.evaluate(uNew, xNew, gNew);
        if (Number.isFinite(fNew) && fNew <= this.f + 1e-4 * step * slope) {
          accepted = true;
          break;
        }
        const quadratic = Number.isFinite(fNew) ? (-slope * step * step) / (2 * (fNew - this.f - slope * step)) : step / 10;
        step = Math.min(0.5 * step, Math.max(0.1 * step, quadratic));
      }
      if (!accepted) {
        // No decrease along d: at the optimum up to rounding, or H is poor; one retry from H = I.
        if (!this.justReset) {
          this.resetH(1);
          this.firstStep = this.justReset = true;
          continue;
        }
        this.converged = maxAbs(g) <= 1e-4 * Math.max(1, Math.abs(this.f));
        this.done = true;
        break;
      }
      let sy = 0;
      for (let i = 0; i < m; i++) {
        s[i] = uNew[i] - u[i];
        y[i] = gNew[i] - g[i];
        sy += s[i] * y[i];
      }
      const decrease = this.f - fNew;
      this.justReset = false;
      u.set(uNew);
      this.x.set(xNew);
      g.set(gNew);
      this.f = fNew;
      // BFGS update of the inverse Hessian (eq. 6.17), skipped when the curvature condition fails.
      if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
        if (this.firstStep) {
          this.resetH(sy / dot(y, y)); // eq. 6.20
          this.firstStep = false;
        }
        const rho = 1 / sy;
        let yHy = 0;
        for (let i = 0; i < m; i++) {
          let acc = 0;
          for (let j = 0; j < m; j++) acc += H[i * m + j] * y[j];
          Hy[i] = acc;
          yHy += y[i] * acc;
        }
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < m; j++) H[i * m + j] += -rho * (Hy[i] * s[j] + s[i] * Hy[j]) + (rho * rho * yHy + rho) * s[i] * s[j];
        }
      }
      this.smallDecreases = decrease <= this.ftol * Math.max(1, Math.abs(this.f)) ? this.smallDecreases + 1 : 0;
      if (this.smallDecreases >= 2) {
        this.converged = this.done = true;
        break;
      }
    }
    return this;
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let acc = 0;
  for (let i = 0; i < a.length; i++) acc += a[i] * b[i];
  return acc;
}

function maxAbs(a: Float64Array): number {
  let acc = 0;
  for (let i = 0; i < a.length; i++) acc = Math.max(acc, Math.abs(a[i]));
  return acc;
}
