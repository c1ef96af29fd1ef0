/**
 * The build's Omega step (docs/interactions.md): for each 4-quarter window of one analysis, every
 * pair of vaccines named together on at least `minCoReports` reports of the window
 * (src/domain/interactions.ts MIN_CO_REPORTS), and every event of those reports, the counts of
 * the triple and its Omega (src/stats/omega.ts). Rows are kept for triples with n111 >=
 * MIN_TRIPLE_REPORTS (3: fewer is never a signal).
 *
 * Counting (as counts.ts does for the pairs: every report is in exactly one quarter, so a window's
 * counts are the sums of its four quarters'): each quarter's reports are visited twice, not once
 * per window that covers them (four times). First pass: per quarter N, n(V) and n(E) (dense typed
 * arrays) and n11. per pair of a report's distinct vaccines; a window's n11. are the sums of its
 * quarters', which decide its pairs over the bound. Second pass: per quarter n111 per (pair, event)
 * for the pairs over the bound in any window covering the quarter, and n(V, E) for their vaccines;
 * summed over a window's quarters for the window's own pairs. Whole numbers summed: the counts are
 * exactly those of counting the window's reports together.
 */
import { WINDOW_QUARTERS, formatQuarter, type QuarterIndex } from '../../domain/quarter.js';
import { MIN_TRIPLE_REPORTS, type InteractionRow } from '../../domain/interactions.js';
import { omega } from '../../stats/omega.js';
import { subsetMask, type AnalysisDefinition } from '../../domain/analysis-rules.js';
import type { VaersData } from '../vaers/read.js';
import type { ReportItems } from './items.js';

/** A report as the step needs it: its quarter and distinct ascending vaccine and event indexes. */
export interface InteractionReport {
  quarter: QuarterIndex;
  vaccines: readonly number[];
  events: readonly number[];
}

/** Options of {@link interactionRows}. */
export interface InteractionOptions {
  analysis: string;
  /** Vaccine and event names by index. */
  vaccines: readonly string[];
  events: readonly string[];
  /** The bound: pairs co-reported on fewer reports of a window are not computed. */
  minCoReports: number;
}

/** The reports counted, as columns: report k's quarter, vaccines and events (no object per report). */
interface ReportColumns {
  quarter: (k: number) => QuarterIndex;
  vaccines: (k: number) => readonly number[];
  events: (k: number) => readonly number[];
  count: number;
}

/** Margins and co-reported pairs of one quarter (first pass). */
interface QuarterMargins {
  reports: number[];
  N: number;
  nVaccine: Int32Array;
  nEvent: Int32Array;
  /** n11. per pair key `v1 * nV + v2` (v1 < v2). */
  nPair: Map<number, number>;
}

/** n111 and n(V, E) of one quarter (second pass), for the pairs over the bound in a window covering it. */
interface QuarterTriples {
  /** Keyed `pair * nE + event`. */
  nTriple: Map<number, number>;
  /** Keyed `vaccine * nE + event`. */
  nVaccineEvent: Map<number, number>;
}

/** Adds `by` to `key` of a count map. */
function bump(map: Map<number, number>, key: number, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** First pass: each quarter's margins and pair counts. */
function quarterMargins(reports: ReportColumns, nV: number, nE: number): Map<QuarterIndex, QuarterMargins> {
  const out = new Map<QuarterIndex, QuarterMargins>();
  for (let k = 0; k < reports.count; k++) {
    const q = reports.quarter(k);
    let m = out.get(q);
    if (!m) out.set(q, (m = { reports: [], N: 0, nVaccine: new Int32Array(nV), nEvent: new Int32Array(nE), nPair: new Map() }));
    m.reports.push(k);
    m.N++;
    const vaccines = reports.vaccines(k);
    for (const v of vaccines) m.nVaccine[v]++;
    for (const e of reports.events(k)) m.nEvent[e]++;
    for (let i = 0; i < vaccines.length; i++) for (let j = i + 1; j < vaccines.length; j++) bump(m.nPair, vaccines[i] * nV + vaccines[j]);
  }
  return out;
}

/** The quarters q-3..q that hold reports, oldest first. */
function windowQuarters<T>(byQuarter: ReadonlyMap<QuarterIndex, T>, q: QuarterIndex): T[] {
  const out: T[] = [];
  for (let k = WINDOW_QUARTERS - 1; k >= 0; k--) {
    const value = byQuarter.get(q - k);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/** The pairs of window q co-reported on at least `bound` of its reports, with their n11. */
function keptPairs(margins: QuarterMargins[], bound: number): Map<number, number> {
  const nPair = new Map<number, number>();
  for (const m of margins) for (const [key, n] of m.nPair) bump(nPair, key, n);
  for (const [key, n] of nPair) if (n < bound) nPair.delete(key);
  return nPair;
}

/** Second pass over one quarter's reports: n111 for the pairs in `pairs`, n(V, E) for their vaccines. */
function quarterTriples(reports: ReportColumns, m: QuarterMargins, pairs: ReadonlySet<number>, nV: number, nE: number): QuarterTriples {
  const involved = new Set<number>();
  for (const key of pairs) involved.add(Math.floor(key / nV)).add(key % nV);
  const nTriple = new Map<number, number>(), nVaccineEvent = new Map<number, number>();
  for (const k of m.reports) {
    const mine = reports.vaccines(k).filter((v) => involved.has(v));
    if (mine.length === 0) continue;
    const events = reports.events(k);
    for (const v of mine) for (const e of events) bump(nVaccineEvent, v * nE + e);
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length; j++) {
        const pair = mine[i] * nV + mine[j];
        if (pairs.has(pair)) for (const e of events) bump(nTriple, pair * nE + e);
      }
    }
  }
  return { nTriple, nVaccineEvent };
}

/** The rows of window `quarter` from its quarters' counts, sorted by (vaccine1, vaccine2, event) index. */
function windowRows(quarter: QuarterIndex, margins: QuarterMargins[], triples: QuarterTriples[], nPair: ReadonlyMap<number, number>, options: InteractionOptions): InteractionRow[] {
  const nV = options.vaccines.length, nE = options.events.length;
  const nTriple = new Map<number, number>();
  for (const t of triples) for (const [key, n] of t.nTriple) if (nPair.has(Math.floor(key / nE))) bump(nTriple, key, n);
  const sum = (pick: (m: QuarterMargins) => number): number => margins.reduce((s, m) => s + pick(m), 0);
  const nVaccineEvent = (v: number, e: number): number => triples.reduce((s, t) => s + (t.nVaccineEvent.get(v * nE + e) ?? 0), 0);
  const N = sum((m) => m.N);
  const name = formatQuarter(quarter);
  const rows: InteractionRow[] = [];
  for (const key of [...nTriple.keys()].sort((a, b) => a - b)) {
    if (nTriple.get(key)! < MIN_TRIPLE_REPORTS) continue;
    const pair = Math.floor(key / nE), e = key % nE;
    const v1 = Math.floor(pair / nV), v2 = pair % nV;
    const counts = {
      n111: nTriple.get(key)!, n11: nPair.get(pair)!, n1_1: nVaccineEvent(v1, e), n_11: nVaccineEvent(v2, e),
      n1: sum((m) => m.nVaccine[v1]), n_1: sum((m) => m.nVaccine[v2]), n__1: sum((m) => m.nEvent[e]), N,
    };
    const [vaccine1, vaccine2] = [options.vaccines[v1], options.vaccines[v2]].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const swapped = vaccine1 !== options.vaccines[v1];
    rows.push({
      analysis: options.analysis, quarter: name, vaccine1, vaccine2, event: options.events[e],
      ...counts, ...(swapped ? { n1_1: counts.n_11, n_11: counts.n1_1, n1: counts.n_1, n_1: counts.n1 } : {}),
      ...omega(counts),
    });
  }
  return rows;
}

/** The rows of every window of `reports` (see interactionRows), from columns. */
function rowsOf(reports: ReportColumns, options: InteractionOptions): InteractionRow[] {
  const nV = options.vaccines.length, nE = options.events.length;
  for (let k = 0; k < reports.count; k++) {
    const v = reports.vaccines(k);
    for (let i = 1; i < v.length; i++) if (!(v[i] > v[i - 1])) throw new Error('interactionRows: a report\'s vaccines must be distinct and ascending');
  }
  const margins = quarterMargins(reports, nV, nE);
  if (margins.size === 0) return [];
  const first = Math.min(...margins.keys()), last = Math.max(...margins.keys());
  // The pairs over the bound per window, then per quarter those of the windows covering it (q..q+3).
  const kept = new Map<QuarterIndex, Map<number, number>>();
  for (let q = first; q <= last; q++) {
    const pairs = keptPairs(windowQuarters(margins, q), options.minCoReports);
    if (pairs.size > 0) kept.set(q, pairs);
  }
  const triples = new Map<QuarterIndex, QuarterTriples>();
  for (const [q, m] of margins) {
    const pairs = new Set<number>();
    for (let w = q; w < q + WINDOW_QUARTERS; w++) for (const key of kept.get(w)?.keys() ?? []) pairs.add(key);
    if (pairs.size > 0) triples.set(q, quarterTriples(reports, m, pairs, nV, nE));
  }
  const rows: InteractionRow[] = [];
  for (const [q, nPair] of kept) {
    for (const row of windowRows(q, windowQuarters(margins, q), windowQuarters(triples, q), nPair, options)) rows.push(row);
  }
  return rows;
}

/**
 * The interaction rows of every window of `reports` (windows ending at each quarter from the first
 * with reports to the last, those holding reports; as src/ingest/mining/passes.ts planWindows),
 * in window order. Omega is symmetric in V1 and V2, so each pair is stored once, its names in
 * UTF-16 order.
 * @throws Error when a report's vaccines are not distinct and ascending (the counts would be wrong).
 */
export function interactionRows(reports: readonly InteractionReport[], options: InteractionOptions): InteractionRow[] {
  return rowsOf({ count: reports.length, quarter: (k) => reports[k].quarter, vaccines: (k) => reports[k].vaccines, events: (k) => reports[k].events }, options);
}

/** What the build's Omega step made: the rows and what they cost. */
export interface InteractionStep {
  rows: InteractionRow[];
  /** The stored record of the step (meta `parameters.interactions`). */
  meta: { analysis: string; min_co_reports: number; rows: number; signals: number; seconds: number };
}

/**
 * The build's Omega step for `analysis` (the store's default analysis): its kept reports (the
 * subset rule over the read's report columns, those with items as `items` lists them) counted by
 * {@link interactionRows} with the bound `minCoReports`, read by index (no object per report).
 */
export function interactionStep(data: VaersData, analysis: AnalysisDefinition, items: ReportItems, minCoReports: number): InteractionStep {
  const started = performance.now();
  const mask = subsetMask(analysis, data.details);
  const kept: number[] = [];
  for (let i = 0; i < data.reports.length; i++) if (mask[i] && items.lists[i].length > 0) kept.push(i);
  const columns: ReportColumns = {
    count: kept.length, quarter: (k) => data.reports[kept[k]].quarter, vaccines: (k) => items.lists[kept[k]], events: (k) => data.reports[kept[k]].events,
  };
  const rows = rowsOf(columns, { analysis: analysis.name, vaccines: items.names, events: data.events, minCoReports });
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  return { rows, meta: { analysis: analysis.name, min_co_reports: minCoReports, rows: rows.length, signals: rows.filter((r) => r.omega025 > 0).length, seconds } };
}
