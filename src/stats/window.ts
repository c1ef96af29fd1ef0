/**
 * All statistics of one report table (a window, or a whole `score` file): the MGPS prior fit
 * and, per pair, EBGM/EB05/EB50/EB95, PRR (+CI, Yates chi-square), ROR (+CI), IC (+IC025,
 * IC975) and the flags (docs/design.md "Statistics, precisely").
 *
 * Pairs with the same n and the same margin product n_vaccine*n_event have the same expected
 * count and hence the same MGPS and IC values, so the likelihood and the posterior run once per
 * distinct (n, E) with the multiplicity as weight (exact, unlike openEBGM's squashing).
 */
import { finiteOrNull, type PairStatistics } from '../domain/columns.js';
import { ic, ic025Above } from './bcpnn.js';
import { flags, flagsFrom, IC_THRESHOLD, prrFlag, rorFlag } from './flags.js';
import { GPS_THRESHOLD } from '../domain/floor.js';
import {
  countTable, evaluatePrior, fitPrior, posterior, posteriorQuantile, posteriorQuantileAtLeast, ebgm as ebgmOf,
  type CountTable, type PriorFit,
} from './mgps.js';
import type { Hyperparameters } from '../domain/mgps-prior.js';
import { prr, yatesChiSquare } from './prr.js';
import { ror } from './ror.js';

/**
 * One report table as parallel arrays, one entry per pair with n >= 1: `n` distinct reports
 * naming both, `n_vaccine` and `n_event` the distinct-report margins; `n_reports` = N, the
 * reports that name at least one vaccine and one event. `expected`, when given, is each
 * pair's stratified expected count (DuMouchel 1999, section 2: `sum_s n_vaccine,s *
 * n_event,s / N_s`), used by MGPS and IC in place of the crude `n_vaccine * n_event / N`;
 * PRR and ROR always use the crude 2x2 report table (as Empirica and openEBGM do).
 */
export interface WindowInput {
  n: ArrayLike<number>;
  n_vaccine: ArrayLike<number>;
  n_event: ArrayLike<number>;
  n_reports: number;
  expected?: ArrayLike<number>;
}

/**
 * Statistics of one pair, in input order; null where undefined. Its shape follows the column
 * table (src/domain/columns.ts: the columns of kind `statistic` and `flag`).
 */
export type { PairStatistics };

/** Options of {@link scoreWindow}. */
export interface ScoreOptions {
  /** Fixed hyperparameters: no fit (the returned fit has `fitted: false`). */
  hyper?: Hyperparameters;
  /** An extra starting point for the fit, e.g. the previous window's hyperparameters. */
  warmStart?: Hyperparameters;
}

function checkInput(input: WindowInput): void {
  const size = input.n.length;
  if (size === 0) throw new Error('scoreWindow: empty window (no pairs with n >= 1)');
  if (input.n_vaccine.length !== size || input.n_event.length !== size) {
    throw new Error('scoreWindow: n, n_vaccine and n_event differ in length');
  }
  const total = input.n_reports;
  if (!(Number.isInteger(total) && total >= 1)) throw new Error(`scoreWindow: n_reports = ${total} is not a positive integer`);
  for (let i = 0; i < size; i++) {
    const n = input.n[i], nv = input.n_vaccine[i], ne = input.n_event[i];
    const ok = Number.isInteger(n) && n >= 1 && Number.isInteger(nv) && Number.isInteger(ne) && nv >= n && ne >= n && nv + ne - n <= total;
    if (!ok) throw new Error(`scoreWindow: pair ${i} has inconsistent counts (n ${n}, n_vaccine ${nv}, n_event ${ne}, n_reports ${total})`);
  }
  const expected = input.expected;
  if (expected) {
    if (expected.length !== size) throw new Error('scoreWindow: expected and n differ in length');
    for (let i = 0; i < size; i++) {
      if (!(Number.isFinite(expected[i]) && expected[i] > 0)) throw new Error(`scoreWindow: pair ${i} has expected ${expected[i]}, not a positive number`);
    }
  }
}

/** A window's distinct (n, E) combinations: combo index per pair, the combos' n and E, and their count table. */
interface Combos {
  comboOf: Int32Array;
  comboN: number[];
  comboE: number[];
  table: CountTable;
}

/** Checks the input and collapses its pairs to distinct (n, E) (crude E keyed by the exact margin product n_vaccine * n_event). */
function combosOf(input: WindowInput): Combos {
  checkInput(input);
  const size = input.n.length;
  const total = input.n_reports;
  const comboOf = new Int32Array(size);
  const byN = new Map<number, Map<number, number>>();
  const comboN: number[] = [], comboE: number[] = [], comboWeight: number[] = [];
  for (let i = 0; i < size; i++) {
    const n = input.n[i];
    const key = input.expected ? input.expected[i] : input.n_vaccine[i] * input.n_event[i];
    let inner = byN.get(n);
    if (!inner) byN.set(n, (inner = new Map()));
    let combo = inner.get(key);
    if (combo === undefined) {
      combo = comboN.length;
      inner.set(key, combo);
      comboN.push(n);
      comboE.push(input.expected ? key : key / total);
      comboWeight.push(0);
    }
    comboWeight[combo]++;
    comboOf[i] = combo;
  }
  return { comboOf, comboN, comboE, table: countTable(comboN, comboE, comboWeight) };
}

/** The fit of a window's count table: `options.hyper` evaluated, or the multi-start fit. */
function fitOf(table: CountTable, options: ScoreOptions): PriorFit {
  return options.hyper ? evaluatePrior(table, options.hyper) : fitPrior(table, { warmStart: options.warmStart });
}

/** The crude 2x2 report table of pair i: a (= n), b, c, d. */
function twoByTwo(input: WindowInput, i: number): [number, number, number, number] {
  const a = input.n[i];
  const b = input.n_vaccine[i] - a;
  const c = input.n_event[i] - a;
  return [a, b, c, input.n_reports - a - b - c];
}

/**
 * The fit and each pair's `n_methods_flagged` (0..4; is_signal_any is `>= 1`), the same as
 * {@link scoreWindow}'s, without the statistics: the GPS and IC flags are decided from the
 * posterior CDF at the threshold (mgps.ts posteriorQuantileAtLeast, bcpnn.ts ic025Above) instead
 * of the quantile search, the way the build's fit pass needs them (src/ingest/mining/passes.ts).
 * Throws as scoreWindow.
 */
export function windowFlags(input: WindowInput, options: ScoreOptions = {}): { fit: PriorFit; n_methods_flagged: Uint8Array } {
  const { comboOf, comboN, comboE, table } = combosOf(input);
  const fit = fitOf(table, options);
  const gps = new Uint8Array(comboN.length), icFlag = new Uint8Array(comboN.length);
  for (let k = 0; k < comboN.length; k++) {
    gps[k] = posteriorQuantileAtLeast(posterior(fit, comboN[k], comboE[k]), 0.05, GPS_THRESHOLD) ? 1 : 0;
    icFlag[k] = ic025Above(comboN[k], comboE[k], 2 ** IC_THRESHOLD) ? 1 : 0;
  }
  const counts = new Uint8Array(input.n.length);
  for (let i = 0; i < counts.length; i++) {
    const [a, b, c, d] = twoByTwo(input, i);
    const proportional = prr(a, b, c, d);
    counts[i] = flagsFrom({
      gps: gps[comboOf[i]] === 1, prr: prrFlag(a, proportional.prr, yatesChiSquare(a, b, c, d)),
      ror: rorFlag(a, ror(a, b, c, d).ror_lci), ic: icFlag[comboOf[i]] === 1,
    }).n_methods_flagged;
  }
  return { fit, n_methods_flagged: counts };
}

/**
 * Score one table: fit the MGPS prior (or use `options.hyper`) and compute every pair's
 * statistics. Throws an Error for an empty window or inconsistent counts; otherwise never
 * throws and never returns NaN (degenerate fits end on a bound, see `fit.at_bound`).
 */
export function scoreWindow(input: WindowInput, options: ScoreOptions = {}): { fit: PriorFit; pairs: PairStatistics[] } {
  const size = input.n.length;
  const { comboOf, comboN, comboE, table } = combosOf(input);
  const fit = fitOf(table, options);

  const combos = comboN.length;
  const mgps = { qn: new Float64Array(combos), ebgm: new Float64Array(combos), eb05: new Float64Array(combos), eb50: new Float64Array(combos), eb95: new Float64Array(combos) };
  const icValues = { ic: new Float64Array(combos), ic025: new Float64Array(combos), ic975: new Float64Array(combos) };
  for (let k = 0; k < combos; k++) {
    const mixture = posterior(fit, comboN[k], comboE[k]);
    mgps.qn[k] = mixture.qn;
    mgps.ebgm[k] = ebgmOf(fit, comboN[k], comboE[k], mixture.qn);
    mgps.eb05[k] = posteriorQuantile(mixture, 0.05);
    mgps.eb50[k] = posteriorQuantile(mixture, 0.5);
    mgps.eb95[k] = posteriorQuantile(mixture, 0.95);
    const information = ic(comboN[k], comboE[k]);
    icValues.ic[k] = information.ic;
    icValues.ic025[k] = information.ic025;
    icValues.ic975[k] = information.ic975;
  }

  const pairs: PairStatistics[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const k = comboOf[i];
    const [a, b, c, d] = twoByTwo(input, i);
    const proportional = prr(a, b, c, d);
    const odds = ror(a, b, c, d);
    // One object literal of fixed shape per pair (no spreads: this loop runs for every pair).
    const stats: PairStatistics = {
      expected: comboE[k],
      qn: finiteOrNull(mgps.qn[k]),
      ebgm: finiteOrNull(mgps.ebgm[k]),
      eb05: finiteOrNull(mgps.eb05[k]),
      eb50: finiteOrNull(mgps.eb50[k]),
      eb95: finiteOrNull(mgps.eb95[k]),
      prr: proportional.prr,
      prr_lci: proportional.prr_lci,
      prr_uci: proportional.prr_uci,
      prr_chisq: yatesChiSquare(a, b, c, d),
      ror: odds.ror,
      ror_lci: odds.ror_lci,
      ror_uci: odds.ror_uci,
      ic: finiteOrNull(icValues.ic[k]),
      ic025: finiteOrNull(icValues.ic025[k]),
      ic975: finiteOrNull(icValues.ic975[k]),
      n_methods_flagged: 0,
      is_signal_any: false,
    };
    const flagged = flags({ n: a, eb05: stats.eb05, prr: stats.prr, prr_chisq: stats.prr_chisq, ror_lci: stats.ror_lci, ic025: stats.ic025 });
    stats.n_methods_flagged = flagged.n_methods_flagged;
    stats.is_signal_any = flagged.is_signal_any;
    pairs[i] = stats;
  }
  return { fit, pairs };
}
