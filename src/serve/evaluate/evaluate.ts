/**
 * The evaluation of a reference set against one analysis of a store: per reference
 * pair and method, whether the method flags the pair in any window through a quarter, the first
 * flagged window and the time to signal; per method the confusion counts and their rates with
 * Wilson 95% intervals (src/stats/wilson.ts). Pure: the store reads are done by the caller
 * (src/serve/store/evaluation.ts, src/serve/evaluate/run.ts).
 *
 * A reference pair covers the products its `vaccine` expands to (a name, a type or a VAX_TYPE
 * code). Each product is, through quarter `through`:
 * - stored with rows through it: every window is judged (src/serve/evaluate/methods.ts);
 * - stored but without a row through it, or not stored and never reported with the event in the
 *   analysis's reports: it adds nothing;
 * - not stored but reported (the store keeps only pairs that reach n_methods_flagged >= 2 in some
 *   window): below the floor, so `floor` is false in every window. A single method may have flagged
 *   a window alone; it is ruled out (false) when it could not flag any window at its most
 *   favourable statistics given the window's report count n (from the report tables): `flags()`
 *   with PRR, chi-square and the ROR bound at +Infinity, IC025 at its bound as E goes to 0 (IC025
 *   decreases with E), and EB05 at its bound under the window's fitted prior
 *   (src/stats/mgps-bound.ts; +Infinity for a window without a fit). So PRR and ROR are ruled out
 *   when every window has n < 3, IC when n <= 2; else undetermined.
 * The pair is flagged by a method when a product is; else undetermined when a product is; else
 * not flagged. A pair none of whose products has a report through `through` is `not_reported`,
 * counted apart from TP/FP/FN/TN, as are undetermined pairs.
 */
import { METHODS, windowFlags, type MethodKey } from './methods.js';
import type { ReferencePair } from './reference.js';
import { formatQuarter, parseQuarter, type QuarterIndex } from '../../domain/quarter.js';
import { ic } from '../../stats/bcpnn.js';
import { flags } from '../../stats/flags.js';
import { eb05UpperBound } from '../../stats/mgps-bound.js';
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import { wilson, type Proportion } from '../../stats/wilson.js';
import type { FlagColumn, FlagRow } from '../store/evaluation.js';

/** Outcome of one pair under one method. */
export type PairStatus = 'flagged' | 'not_flagged' | 'undetermined' | 'not_reported';

/** One reference pair under one method in one analysis (pairs.json / pairs.csv). */
export interface PairResult {
  id: string;
  analysis: string;
  method: MethodKey;
  vaccine: string;
  event: string;
  class: ReferencePair['class'];
  /** Flagged in any window through `through`; null when undetermined or not reported. */
  flagged: boolean | null;
  /** Quarter of the first window the method certainly flags (an undetermined window may come before it), or null. */
  first_flagged: string | null;
  /** For a positive with `emerged`: quarters from `emerged` to `first_flagged` (negative: before it was known). */
  time_to_signal: number | null;
  not_reported: boolean;
  status: PairStatus;
  emerged: string | null;
  /** The store's products the vaccine expanded to. */
  products: string[];
}

/** What the evaluation of one analysis reads. */
export interface AnalysisInput {
  analysis: string;
  /** Last quarter evaluated. */
  through: QuarterIndex;
  /** The reference pairs. */
  pairs: readonly ReferencePair[];
  /** Per reference id: the products its vaccine expands to in the store. */
  products: ReadonlyMap<string, readonly string[]>;
  /** Quarterly rows of the pairs (any quarter). */
  rows: readonly FlagRow[];
  /** Flag columns the store does not keep. */
  missing: ReadonlySet<FlagColumn>;
  /** The MGPS prior fitted in each window (quarter index -> hyperparameters). */
  priors: ReadonlyMap<QuarterIndex, Hyperparameters>;
  /**
   * Per window through `through`, the analysis's reports naming `product` and `event` (windows
   * without one left out; empty: never reported); null when the store has no report tables (then
   * a product without a row counts as not reported).
   */
  windowReports(product: string, event: string): ReadonlyMap<QuarterIndex, number> | null;
}

/** Per method: the first quarter flagged (index), whether a window is undetermined. */
interface ProductVerdict {
  first: QuarterIndex | null;
  undetermined: boolean;
}

/** The verdict of one product's rows through `through` for every method. */
function judgeRows(rows: readonly FlagRow[], through: QuarterIndex, missing: ReadonlySet<FlagColumn>): Map<MethodKey, ProductVerdict> {
  const out = new Map<MethodKey, ProductVerdict>(METHODS.map((m) => [m.key, { first: null, undetermined: false }]));
  for (const row of rows) {
    const quarter = parseQuarter(row.quarter);
    if (quarter === null || quarter > through) continue;
    const verdict = windowFlags(row, missing);
    for (const m of METHODS) {
      const v = out.get(m.key)!;
      if (verdict[m.key] === true && (v.first === null || quarter < v.first)) v.first = quarter;
      else if (verdict[m.key] === null) v.undetermined = true;
    }
  }
  return out;
}

/**
 * Whether each method could flag some window of a pair below the floor, given its report count per
 * window (`counts`) and the windows' priors (see the module docstring); the floor cannot.
 */
export function possibleBelowFloor(counts: ReadonlyMap<QuarterIndex, number>, priors: ReadonlyMap<QuarterIndex, Hyperparameters>): Record<MethodKey, boolean> {
  const possible: Record<MethodKey, boolean> = { gps: false, prr: false, ror: false, ic: false, floor: false };
  for (const [quarter, n] of counts) {
    const prior = priors.get(quarter);
    // IC025 decreases with E: its supremum over E > 0 is its value at the smallest E (E + 0.5 rounds to 0.5).
    const best = flags({
      n, eb05: prior ? eb05UpperBound(prior, n) : Infinity, prr: Infinity, prr_chisq: Infinity, ror_lci: Infinity, ic025: ic(n, Number.MIN_VALUE).ic025,
    });
    for (const k of ['gps', 'prr', 'ror', 'ic'] as const) possible[k] ||= best[k];
  }
  return possible;
}

/** Evaluates every reference pair under every method in one analysis. */
export function evaluatePairs(input: AnalysisInput): PairResult[] {
  const rowsOf = new Map<string, FlagRow[]>();
  for (const row of input.rows) {
    const key = `${row.drug}\u0000${row.event}`;
    const list = rowsOf.get(key);
    if (list) list.push(row);
    else rowsOf.set(key, [row]);
  }
  const out: PairResult[] = [];
  for (const pair of input.pairs) {
    const products = [...(input.products.get(pair.id) ?? [])];
    const verdicts: Array<Map<MethodKey, ProductVerdict>> = [];
    let belowFloor: Record<MethodKey, boolean> | null = null;
    for (const product of products) {
      const rows = (rowsOf.get(`${product}\u0000${pair.event}`) ?? []).filter((r) => (parseQuarter(r.quarter) ?? Infinity) <= input.through);
      if (rows.length > 0) verdicts.push(judgeRows(rows, input.through, input.missing));
      else if (!rowsOf.has(`${product}\u0000${pair.event}`)) {
        const counts = input.windowReports(product, pair.event);
        if (counts !== null && counts.size > 0) {
          const possible = possibleBelowFloor(counts, input.priors);
          belowFloor = belowFloor ? Object.fromEntries(METHODS.map((m) => [m.key, belowFloor![m.key] || possible[m.key]])) as Record<MethodKey, boolean> : possible;
        }
      }
    }
    const notReported = verdicts.length === 0 && belowFloor === null;
    for (const method of METHODS) {
      const firsts = verdicts.map((v) => v.get(method.key)!.first).filter((q): q is number => q !== null);
      const first = firsts.length > 0 ? Math.min(...firsts) : null;
      const undetermined = verdicts.some((v) => v.get(method.key)!.undetermined) || (belowFloor?.[method.key] ?? false);
      const status: PairStatus = notReported ? 'not_reported' : first !== null ? 'flagged' : undetermined ? 'undetermined' : 'not_flagged';
      out.push({
        id: pair.id, analysis: input.analysis, method: method.key, vaccine: pair.vaccine, event: pair.event, class: pair.class,
        flagged: status === 'flagged' ? true : status === 'not_flagged' ? false : null,
        first_flagged: first === null ? null : formatQuarter(first),
        time_to_signal: first !== null && pair.class === 'positive' && pair.emergedIndex !== null ? first - pair.emergedIndex : null,
        not_reported: notReported, status, emerged: pair.emerged, products,
      });
    }
  }
  return out;
}

/** Median of numbers (mean of the two middle ones for an even count), or null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Counts and rates of one method in one analysis (methods.json / methods.csv). */
export interface MethodSummary {
  analysis: string;
  method: MethodKey;
  /** Positives flagged, negatives flagged, positives not flagged, negatives not flagged. */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Pairs the store cannot judge (see the module docstring), by class. */
  undetermined_positive: number;
  undetermined_negative: number;
  /** Pairs without a report through the quarter, by class. */
  not_reported_positive: number;
  not_reported_negative: number;
  /** TP / (TP + FN), TN / (TN + FP), TP / (TP + FP), with Wilson 95% intervals. */
  sensitivity: Proportion;
  specificity: Proportion;
  ppv: Proportion;
  /** Median time to signal (quarters) over the flagged positives with `emerged`, and how many there are. */
  median_time_to_signal: number | null;
  n_time_to_signal: number;
}

/** The per-method summaries of pair results (one analysis or several), in analysis then METHODS order. */
export function summarise(results: readonly PairResult[]): MethodSummary[] {
  const groups = new Map<string, PairResult[]>();
  for (const r of results) {
    const key = `${r.analysis}\u0000${r.method}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()].map((list) => {
    const count = (cls: PairResult['class'], status: PairStatus): number => list.filter((r) => r.class === cls && r.status === status).length;
    const tp = count('positive', 'flagged');
    const fn = count('positive', 'not_flagged');
    const fp = count('negative', 'flagged');
    const tn = count('negative', 'not_flagged');
    const times = list.filter((r) => r.time_to_signal !== null).map((r) => r.time_to_signal!);
    return {
      analysis: list[0].analysis, method: list[0].method, tp, fp, fn, tn,
      undetermined_positive: count('positive', 'undetermined'), undetermined_negative: count('negative', 'undetermined'),
      not_reported_positive: count('positive', 'not_reported'), not_reported_negative: count('negative', 'not_reported'),
      sensitivity: wilson(tp, tp + fn), specificity: wilson(tn, tn + fp), ppv: wilson(tp, tp + fp),
      median_time_to_signal: median(times), n_time_to_signal: times.length,
    };
  });
}
