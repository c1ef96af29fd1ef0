/**
 * Audit of the MGPS prior fits on the real VAERS windows (docs/design.md "Statistics, precisely":
 * zero-truncated negative binomial mixture, openEBGM's box). For each window it compares
 * - ours: `fitPrior` replayed as the build runs it (chunks of 8 windows, warm start from the
 *   previous window of the chunk; src/ingest/mining/build.ts), and
 * - an independent optimum: its own likelihood code (checked against @stdlib's negative binomial
 *   log-pmf), Nelder-Mead on (ln alpha, ln beta, logit p) with the box enforced by clamping,
 *   from many random starts with restarts, plus a profile over alpha1 on a grid (the other four
 *   optimised by Nelder-Mead, each grid point warm-started from its neighbour).
 * Prints a table (window, our negLL, independent best, difference, hyperparameters, at_bound)
 * and the alpha1 profile of the windows asked for. Asserts nothing. The independent optimum may
 * come out with the components swapped (alpha2 on the bound, p -> 1-p): the same likelihood.
 * Some windows are bimodal (1992Q4: an interior mode at alpha1 0.56 beats the alpha1 -> 0 mode
 * by 0.54), so a few random starts can miss the best mode: use --starts 40 to be sure.
 *
 * Run: npx tsx bench/fit-audit.ts [--windows 1995Q2,1999Q3,...|all] [--starts 24] [--profile 1999Q3,2006Q4]
 */
import gammaln from '@stdlib/math-base-special-gammaln';
import nbinomLogpmf from '@stdlib/stats-base-dists-negative-binomial-logpmf';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countQuarters, windowCounts, type QuarterCounts } from '../src/ingest/mining/counts.js';
import { CHUNK_WINDOWS } from '../src/ingest/mining/passes.js';
import { formatQuarter, type QuarterIndex } from '../src/domain/quarter.js';
import { countTable, fitPrior, type PriorFit } from '../src/stats/mgps.js';
import { readVaers } from '../src/ingest/vaers/read.js';
import { random } from './prng.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vaersDir = path.resolve(repoRoot, '..', 'shared', 'data', 'vaers');

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** A window collapsed to distinct (n, E) with multiplicities. */
interface Table { n: Float64Array; E: Float64Array; w: Float64Array; distinct: Float64Array; idx: Int32Array }

function collapse(n: ArrayLike<number>, nv: ArrayLike<number>, ne: ArrayLike<number>, total: number): Table {
  const map = new Map<string, number>();
  const N: number[] = [], E: number[] = [], W: number[] = [];
  for (let i = 0; i < n.length; i++) {
    const key = `${n[i]}:${nv[i] * ne[i]}`;
    const k = map.get(key);
    if (k === undefined) { map.set(key, N.length); N.push(n[i]); E.push((nv[i] * ne[i]) / total); W.push(1); } else W[k]++;
  }
  const distinct = [...new Set(N)];
  const pos = new Map(distinct.map((v, i) => [v, i]));
  return { n: Float64Array.from(N), E: Float64Array.from(E), w: Float64Array.from(W), distinct: Float64Array.from(distinct), idx: Int32Array.from(N, (v) => pos.get(v)!) };
}

/**
 * Independent negative log-likelihood of the zero-truncated NB mixture, x = [a1, b1, a2, b2, p]:
 * -sum w ln(p NB1(n)/(1-NB1(0)) + (1-p) NB2(n)/(1-NB2(0))), NB(n; size a, prob b/(b+E)).
 */
function negLL(x: ArrayLike<number>, t: Table): number {
  const [a1, b1, a2, b2, p] = [x[0], x[1], x[2], x[3], x[4]];
  const k = t.distinct.length;
  const c1 = new Float64Array(k), c2 = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const v = t.distinct[i];
    c1[i] = gammaln(a1 + v) - gammaln(a1) - gammaln(v + 1);
    c2[i] = gammaln(a2 + v) - gammaln(a2) - gammaln(v + 1);
  }
  let total = 0;
  for (let j = 0; j < t.n.length; j++) {
    const n = t.n[j], E = t.E[j];
    const lr1 = Math.log(b1) - Math.log(b1 + E), lq1 = Math.log(E) - Math.log(b1 + E);
    const lr2 = Math.log(b2) - Math.log(b2 + E), lq2 = Math.log(E) - Math.log(b2 + E);
    const lf1 = c1[t.idx[j]] + a1 * lr1 + n * lq1 - Math.log(-Math.expm1(a1 * lr1));
    const lf2 = c2[t.idx[j]] + a2 * lr2 + n * lq2 - Math.log(-Math.expm1(a2 * lr2));
    const u = Math.log(p) + lf1, v = Math.log1p(-p) + lf2;
    const m = Math.max(u, v);
    total -= t.w[j] * (m + Math.log(Math.exp(u - m) + Math.exp(v - m)));
  }
  return total;
}

/** The same likelihood through @stdlib's negative binomial log-pmf (slow; a cross-check). */
function negLLStdlib(x: ArrayLike<number>, t: Table): number {
  const [a1, b1, a2, b2, p] = [x[0], x[1], x[2], x[3], x[4]];
  let total = 0;
  for (let j = 0; j < t.n.length; j++) {
    const n = t.n[j], E = t.E[j];
    const f1 = Math.exp(nbinomLogpmf(n, a1, b1 / (b1 + E))) / (1 - Math.exp(nbinomLogpmf(0, a1, b1 / (b1 + E))));
    const f2 = Math.exp(nbinomLogpmf(n, a2, b2 / (b2 + E))) / (1 - Math.exp(nbinomLogpmf(0, a2, b2 / (b2 + E))));
    total -= t.w[j] * Math.log(p * f1 + (1 - p) * f2);
  }
  return total;
}

const LO = Math.log(1e-5), HI = Math.log(20);
const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
/** y (ln a1, ln b1, ln a2, ln b2, logit p) -> x in the box (clamped). */
function toX(y: ArrayLike<number>): number[] {
  const x = [0, 1, 2, 3].map((i) => Math.exp(clamp(y[i], LO, HI)));
  x.push(1 / (1 + Math.exp(-clamp(y[4], -40, 40))));
  return x;
}

/** Nelder-Mead (Lagarias et al. 1998 coefficients), simplex of size `scale`; returns best y, f. */
function nelderMead(f: (y: number[]) => number, y0: number[], scale: number, maxEval: number, tol = 1e-10): { y: number[]; f: number; evals: number } {
  const m = y0.length;
  let simplex = [y0.slice(), ...y0.map((_, i) => { const y = y0.slice(); y[i] += scale; return y; })];
  let values = simplex.map(f);
  let evals = m + 1;
  while (evals < maxEval) {
    const order = values.map((v, i) => i).sort((i, j) => values[i] - values[j]);
    simplex = order.map((i) => simplex[i]); values = order.map((i) => values[i]);
    if (values[m] - values[0] <= tol * (1 + Math.abs(values[0]))) break;
    const centroid = Array.from({ length: m }, (_, i) => simplex.slice(0, m).reduce((s, y) => s + y[i], 0) / m);
    const along = (t: number): number[] => centroid.map((c, i) => c + t * (simplex[m][i] - c));
    const reflected = along(-1); const fr = f(reflected); evals++;
    if (fr < values[0]) {
      const expanded = along(-2); const fe = f(expanded); evals++;
      if (fe < fr) { simplex[m] = expanded; values[m] = fe; } else { simplex[m] = reflected; values[m] = fr; }
    } else if (fr < values[m - 1]) { simplex[m] = reflected; values[m] = fr; } else {
      const contracted = fr < values[m] ? along(-0.5) : along(0.5); const fc = f(contracted); evals++;
      if (fc < Math.min(fr, values[m])) { simplex[m] = contracted; values[m] = fc; } else {
        for (let k = 1; k <= m; k++) { simplex[k] = simplex[k].map((v, i) => simplex[0][i] + 0.5 * (v - simplex[0][i])); values[k] = f(simplex[k]); evals++; }
      }
    }
  }
  const best = values.indexOf(Math.min(...values));
  return { y: simplex[best], f: values[best], evals };
}

/** Nelder-Mead restarted from its own best point until a restart improves by < 1e-9. */
function polish(f: (y: number[]) => number, y0: number[], maxEval = 20000): { y: number[]; f: number } {
  let best = nelderMead(f, y0, 1, maxEval);
  for (let r = 0; r < 20; r++) {
    const next = nelderMead(f, best.y, 0.2, maxEval);
    const gain = best.f - next.f;
    if (next.f < best.f) best = next;
    if (gain < 1e-9) break;
  }
  return best;
}

/** Best of `starts` random starts (log-uniform alpha, beta in [1e-3, 20], p uniform) plus the corners near alpha1 -> 0. */
function independentFit(t: Table, starts: number, seed: number): { x: number[]; f: number } {
  const f = (y: number[]): number => { const v = negLL(toX(y), t); return Number.isFinite(v) ? v : 1e300; };
  const uniform = random(seed);
  let best = { y: [] as number[], f: Infinity };
  for (let s = 0; s < starts; s++) {
    const y = [0, 1, 2, 3].map(() => Math.log(1e-3) + uniform() * (HI - Math.log(1e-3)));
    y.push(Math.log(0.02 / 0.98) + uniform() * 2 * Math.log(0.98 / 0.02));
    const run = polish(f, y);
    if (run.f < best.f) best = run;
  }
  return { x: toX(best.y), f: best.f };
}

/** Profile over alpha1: min over (beta1, alpha2, beta2, p) at each grid value, from the previous grid point, our fit, a fixed and 3 random starts. */
function profile(t: Table, grid: number[], start: number[]): Array<{ alpha1: number; f: number; x: number[] }> {
  const out: Array<{ alpha1: number; f: number; x: number[] }> = [];
  let y4 = [Math.log(start[1]), Math.log(start[2]), Math.log(start[3]), Math.log(start[4] / (1 - start[4]))];
  for (const alpha1 of grid) {
    const f = (y: number[]): number => { const v = negLL(toX([Math.log(alpha1), ...y]), t); return Number.isFinite(v) ? v : 1e300; };
    const uniform = random(Math.round(alpha1 * 1e6) + 7);
    const randomStarts = [0, 1, 2].map(() => [...[0, 1, 2].map(() => Math.log(1e-3) + uniform() * (HI - Math.log(1e-3))), -4 + 8 * uniform()]);
    const fromFit = [Math.log(start[1]), Math.log(start[2]), Math.log(start[3]), Math.log(start[4] / (1 - start[4]))];
    const candidates = [y4, fromFit, [Math.log(0.3), Math.log(2), Math.log(2), Math.log(0.15 / 0.85)], ...randomStarts].map((y) => polish(f, y));
    const best = candidates.reduce((a, b) => (b.f < a.f ? b : a));
    y4 = best.y;
    out.push({ alpha1, f: best.f, x: toX([Math.log(alpha1), ...best.y]) });
  }
  return out;
}

async function main(): Promise<void> {
  const started = performance.now();
  const data = await readVaers(vaersDir);
  const history = countQuarters(data.reports, data.vaccines.length, data.events.length);
  const byQuarter = new Map<QuarterIndex, QuarterCounts>(history.quarters.map((q) => [q.quarter, q]));
  const first = history.quarters[0].quarter, last = history.quarters[history.quarters.length - 1].quarter;
  const quarters: QuarterIndex[] = [];
  for (let q = first; q <= last; q++) if ([0, 1, 2, 3].some((k) => byQuarter.has(q - k))) quarters.push(q);
  const wanted = argument('windows', '1990Q3,1992Q1,1995Q2,1997Q3,1999Q2,1999Q3,2000Q3,2002Q1,2004Q4,2006Q2,2006Q4');
  const selected = wanted === 'all' ? new Set(quarters.map(formatQuarter)) : new Set(wanted.split(','));
  const profiled = new Set(argument('profile', '').split(',').filter(Boolean));
  const starts = Number(argument('starts', '24'));
  console.log(`read and counted in ${((performance.now() - started) / 1000).toFixed(1)} s; ${quarters.length} windows`);

  // Replay the build's fits: chunks of CHUNK_WINDOWS windows, warm start from the previous fit of the chunk.
  const ours = new Map<string, { fit: PriorFit; table: Table }>();
  for (let c = 0; c * CHUNK_WINDOWS < quarters.length; c++) {
    const chunk = quarters.slice(c * CHUNK_WINDOWS, (c + 1) * CHUNK_WINDOWS);
    if (!chunk.some((q) => selected.has(formatQuarter(q)))) continue;
    let previous: PriorFit | undefined;
    for (const q of chunk) {
      const w = windowCounts(history, byQuarter, q)!;
      const t = collapse(w.n, w.n_vaccine, w.n_event, w.n_reports);
      const fit = fitPrior(countTable(t.n, t.E, t.w), previous ? { warmStart: previous } : {});
      previous = fit;
      if (selected.has(formatQuarter(q))) ours.set(formatQuarter(q), { fit, table: t });
    }
  }

  const fmt = (v: number, d = 4): string => v.toFixed(d);
  console.log('| window | combos | our negLL | independent negLL | ours - indep | ours: alpha1 beta1 alpha2 beta2 p | indep: alpha1 beta1 alpha2 beta2 p | at_bound | ours cold (no warm start) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [quarter, { fit, table }] of ours) {
    const x = [fit.alpha1, fit.beta1, fit.alpha2, fit.beta2, fit.p];
    const check = negLL(x, table), checkStdlib = negLLStdlib(x, table);
    if (Math.abs(check - fit.neg_log_lik) > 1e-6 * Math.abs(check) || Math.abs(checkStdlib - check) > 1e-6 * Math.abs(check)) {
      console.log(`  ${quarter}: likelihoods disagree: ours ${fit.neg_log_lik}, independent ${check}, stdlib ${checkStdlib}`);
    }
    const independent = independentFit(table, starts, 12345);
    // A start at our own fit too: the independent optimum is then at least as good as ours.
    const cold = fitPrior(countTable(table.n, table.E, table.w));
    console.log(`| ${quarter} | ${table.n.length} | ${fmt(fit.neg_log_lik)} | ${fmt(independent.f)} | ${(fit.neg_log_lik - independent.f).toExponential(2)} | ${x.map((v) => v.toPrecision(4)).join(' ')} | ${independent.x.map((v) => v.toPrecision(4)).join(' ')} | ${fit.at_bound || '-'} | ${fmt(cold.neg_log_lik)} (${cold.at_bound || '-'}) |`);
    if (profiled.has(quarter)) {
      const grid = [1e-5, 1e-4, 1e-3, 0.01, 0.03, 0.06, 0.1, 0.13, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20];
      console.log(`  profile over alpha1 of ${quarter} (negLL minus ours):`);
      for (const point of profile(table, grid, x)) {
        console.log(`    alpha1 ${point.alpha1.toExponential(1).padStart(8)}  ${(point.f - fit.neg_log_lik).toFixed(4).padStart(10)}  (${point.x.slice(1).map((v) => v.toPrecision(4)).join(' ')})`);
      }
    }
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await main();
