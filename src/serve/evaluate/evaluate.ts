/**
 * The evaluation of a reference set against one analysis of a store, every method judged in
 * every window: per reference pair and method, the windows it is reported in, the windows the
 * method flags, whether it flags any window through a quarter, the first flagged window and the
 * time to signal from the `emerged` quarter; per method the confusion counts and their rates with
 * Wilson 95% intervals (src/stats/wilson.ts), per pair and per window, and the share of the
 * artefact pairs flagged (scored apart). Pure: the store reads are done by the caller
 * (src/serve/store/evaluation.ts, src/serve/evaluate/run.ts).
 *
 * A reference pair is a concept (src/serve/evaluate/reference.ts): it covers the items its `vaccine`
 * expands to (products; VAX_TYPE codes in an `@types` analysis) and the concept's terms, and its
 * event-group item when it names one and the store has the analysis's `@groups` twin (`groups`
 * for `stratified`). Each (item, term) pair's windows through quarter `through` come from:
 * - the store's quarterly rows when it kept the pair (the methods' verdicts: src/serve/evaluate/methods.ts);
 * - else the report tables: `recompute` gives the rows the store would hold had it kept the pair
 *   (src/serve/evaluate/recompute.ts), so no method is undetermined for an unkept pair;
 * - else (a store without report tables, e.g. an import) nothing: the item counts as not reported.
 * and each (item, group item) pair's from the twin the same way (`groupRows`). In a window the
 * concept is flagged by a method when one of these pairs is (so synonyms count once); undetermined
 * when none is and a verdict is undetermined (only a store without `prr_chisq` or `ror_lci`); else
 * not. A concept none of whose pairs has a window through `through` is `not_reported`, counted apart.
 */
import { METHODS, windowFlags, type MethodKey, type WindowFlags } from './methods.js';
import type { ReferencePair } from './reference.js';
import { formatQuarter, parseQuarter, type QuarterIndex } from '../../domain/quarter.js';
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
  /** The concept's name, its terms and its event-group item (or null). */
  event: string;
  terms: string[];
  group: string | null;
  class: ReferencePair['class'];
  /** Flagged in any window through `through`; null when undetermined or not reported. */
  flagged: boolean | null;
  /** Quarter of the first window the method flags, or null. */
  first_flagged: string | null;
  /** For a positive with `emerged`: quarters from `emerged` to `first_flagged` (negative: before it was known). */
  time_to_signal: number | null;
  not_reported: boolean;
  status: PairStatus;
  emerged: string | null;
  /** Windows through `through` with at least one report of the pair, those the method flags, those it cannot decide. */
  windows: number;
  windows_flagged: number;
  windows_undetermined: number;
  /** Whether some item's windows were recomputed from the report tables (the store did not keep the pair). */
  recomputed: boolean;
  /** The items (products, or VAX_TYPE codes) the vaccine expanded to. */
  products: string[];
}

/** What the evaluation of one analysis reads. */
export interface AnalysisInput {
  analysis: string;
  /** Last quarter evaluated. */
  through: QuarterIndex;
  /** The reference pairs. */
  pairs: readonly ReferencePair[];
  /** Per reference id: the items its vaccine expands to in this analysis. */
  products: ReadonlyMap<string, readonly string[]>;
  /** Quarterly rows of the pairs the store kept (any quarter). */
  rows: readonly FlagRow[];
  /** Flag columns the store does not keep. */
  missing: ReadonlySet<FlagColumn>;
  /**
   * The rows of an (item, event) the store did not keep, recomputed from the report tables (every
   * window with a report, through `through`; empty: never reported), or null when the store has no report tables.
   */
  recompute(item: string, event: string): readonly FlagRow[] | null;
  /**
   * The rows of (item, event-group item) in the analysis's `@groups` twin (stored, else recomputed,
   * `recomputed` saying which), or null when the store has no twin or no such group item.
   */
  groupRows?(item: string, group: string): { rows: readonly FlagRow[]; recomputed: boolean } | null;
}

/** Per window (quarter index) the methods' verdicts merged over a pair's items. */
function mergeWindows(rowsOfItems: ReadonlyArray<readonly FlagRow[]>, through: QuarterIndex, missing: ReadonlySet<FlagColumn>, recomputed: boolean[]): Map<QuarterIndex, WindowFlags> {
  const windows = new Map<QuarterIndex, WindowFlags>();
  rowsOfItems.forEach((rows, k) => {
    for (const row of rows) {
      const quarter = parseQuarter(row.quarter);
      if (quarter === null || quarter > through) continue;
      // A recomputed row has every flag input; the store's may lack some (an import).
      const verdict = windowFlags(row, recomputed[k] ? new Set() : missing);
      const merged = windows.get(quarter);
      if (!merged) {
        windows.set(quarter, { ...verdict });
        continue;
      }
      for (const m of METHODS) {
        const a = merged[m.key], b = verdict[m.key];
        merged[m.key] = a === true || b === true ? true : a === null || b === null ? null : false;
      }
    }
  });
  return windows;
}

/** Rows grouped by pair: `drug \u0000 event` -> its rows, in input order. */
export function rowsByPair(rows: readonly FlagRow[]): Map<string, FlagRow[]> {
  const rowsOf = new Map<string, FlagRow[]>();
  for (const row of rows) {
    const key = `${row.drug}\u0000${row.event}`;
    const list = rowsOf.get(key);
    if (list) list.push(row);
    else rowsOf.set(key, [row]);
  }
  return rowsOf;
}

/** Evaluates every reference pair under every method in one analysis. */
export function evaluatePairs(input: AnalysisInput): PairResult[] {
  const rowsOf = rowsByPair(input.rows);
  const out: PairResult[] = [];
  for (const pair of input.pairs) {
    const products = [...(input.products.get(pair.id) ?? [])];
    const rowsOfItems: Array<readonly FlagRow[]> = [];
    const recomputed: boolean[] = [];
    for (const product of products) {
      for (const term of pair.terms) {
        const stored = rowsOf.get(`${product}\u0000${term}`);
        const rows = stored ?? input.recompute(product, term) ?? [];
        rowsOfItems.push(rows);
        recomputed.push(stored === undefined && rows.length > 0);
      }
      const grouped = pair.group === null ? null : input.groupRows?.(product, pair.group) ?? null;
      if (grouped) {
        rowsOfItems.push(grouped.rows);
        recomputed.push(grouped.recomputed && grouped.rows.length > 0);
      }
    }
    const windows = mergeWindows(rowsOfItems, input.through, input.missing, recomputed);
    const notReported = windows.size === 0;
    for (const method of METHODS) {
      const verdicts = [...windows].map(([quarter, flags]) => [quarter, flags[method.key]] as const);
      const flaggedWindows = verdicts.filter(([, v]) => v === true).map(([q]) => q);
      const undetermined = verdicts.filter(([, v]) => v === null).length;
      const first = flaggedWindows.length > 0 ? Math.min(...flaggedWindows) : null;
      const status: PairStatus = notReported ? 'not_reported' : first !== null ? 'flagged' : undetermined > 0 ? 'undetermined' : 'not_flagged';
      out.push({
        id: pair.id, analysis: input.analysis, method: method.key, vaccine: pair.vaccine, event: pair.event, terms: pair.terms, group: pair.group, class: pair.class,
        flagged: status === 'flagged' ? true : status === 'not_flagged' ? false : null,
        first_flagged: first === null ? null : formatQuarter(first),
        time_to_signal: first !== null && pair.class === 'positive' && pair.emergedIndex !== null ? first - pair.emergedIndex : null,
        not_reported: notReported, status, emerged: pair.emerged,
        windows: windows.size, windows_flagged: flaggedWindows.length, windows_undetermined: undetermined,
        recomputed: recomputed.some(Boolean), products,
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
  /** Positives flagged in some window, negatives flagged, positives never flagged, negatives never flagged. */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Pairs the store cannot judge (a store without report tables or flag inputs), by class. */
  undetermined_positive: number;
  undetermined_negative: number;
  /** Pairs without a report through the quarter, by class. */
  not_reported_positive: number;
  not_reported_negative: number;
  /** TP / (TP + FN), TN / (TN + FP), TP / (TP + FP), with Wilson 95% intervals. */
  sensitivity: Proportion;
  specificity: Proportion;
  ppv: Proportion;
  /**
   * Per window: of the positive pairs' reported windows, the share flagged; of the negative pairs'
   * reported windows, the share not flagged (undetermined windows left out). Windows overlap (4
   * quarters each), so the intervals are narrower than the evidence: read them as descriptive.
   */
  window_sensitivity: Proportion;
  window_specificity: Proportion;
  /** Artefact pairs (litigation, stimulated reporting): flagged in some window / reported artefact pairs. */
  artefacts_flagged: Proportion;
  /** Refuted signals (raised, then rejected): flagged in some window / reported refuted pairs. */
  refuted_flagged: Proportion;
  /** Administration effects (of any injection): flagged in some window / reported administration pairs. */
  administration_flagged: Proportion;
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
    const sum = (cls: PairResult['class'], f: (r: PairResult) => number): number => list.filter((r) => r.class === cls).reduce((k, r) => k + f(r), 0);
    const tp = count('positive', 'flagged');
    const fn = count('positive', 'not_flagged');
    const fp = count('negative', 'flagged');
    const tn = count('negative', 'not_flagged');
    const decided = (r: PairResult): number => r.windows - r.windows_undetermined;
    const times = list.filter((r) => r.time_to_signal !== null).map((r) => r.time_to_signal!);
    const apart = (cls: PairResult['class']): Proportion => wilson(count(cls, 'flagged'), count(cls, 'flagged') + count(cls, 'not_flagged'));
    return {
      analysis: list[0].analysis, method: list[0].method, tp, fp, fn, tn,
      undetermined_positive: count('positive', 'undetermined'), undetermined_negative: count('negative', 'undetermined'),
      not_reported_positive: count('positive', 'not_reported'), not_reported_negative: count('negative', 'not_reported'),
      sensitivity: wilson(tp, tp + fn), specificity: wilson(tn, tn + fp), ppv: wilson(tp, tp + fp),
      window_sensitivity: wilson(sum('positive', (r) => r.windows_flagged), sum('positive', decided)),
      window_specificity: wilson(sum('negative', (r) => decided(r) - r.windows_flagged), sum('negative', decided)),
      artefacts_flagged: apart('artefact'), refuted_flagged: apart('refuted'), administration_flagged: apart('administration'),
      median_time_to_signal: median(times), n_time_to_signal: times.length,
    };
  });
}
