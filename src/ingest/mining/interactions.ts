/**
 * The build's Omega step (docs/interactions.md): for each 4-quarter window of one analysis, every
 * pair of vaccines named together on at least `minCoReports` reports of the window
 * (src/domain/interactions.ts MIN_CO_REPORTS), and every event of those reports, the counts of
 * the triple and its Omega (src/stats/omega.ts). Rows are kept for triples with n111 >=
 * MIN_TRIPLE_REPORTS (3: fewer is never a signal).
 *
 * Counting, per window: N, n(V) and n(E) over the window's reports; n11. per pair of the report's
 * distinct vaccines; then, for the pairs over the bound, n111 per (pair, event) and n(V, E) for
 * the vaccines of those pairs. Each report is visited once per window it falls in (4 times).
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

/** The reports of each quarter. */
function byQuarter(reports: readonly InteractionReport[]): Map<QuarterIndex, InteractionReport[]> {
  const out = new Map<QuarterIndex, InteractionReport[]>();
  for (const r of reports) {
    let list = out.get(r.quarter);
    if (!list) out.set(r.quarter, (list = []));
    list.push(r);
  }
  return out;
}

/** Increments `key` of a count map. */
function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The rows of one window (reports of quarters q-3..q), sorted by (vaccine1, vaccine2, event) index. */
function windowRows(reports: readonly InteractionReport[], quarter: QuarterIndex, options: InteractionOptions): InteractionRow[] {
  const nV = options.vaccines.length, nE = options.events.length;
  const nVaccine = new Map<number, number>(), nEvent = new Map<number, number>(), nPair = new Map<number, number>();
  for (const r of reports) {
    for (const v of r.vaccines) bump(nVaccine, v);
    for (const e of r.events) bump(nEvent, e);
    for (let i = 0; i < r.vaccines.length; i++) for (let j = i + 1; j < r.vaccines.length; j++) bump(nPair, r.vaccines[i] * nV + r.vaccines[j]);
  }
  const kept = new Set<number>();
  const involved = new Set<number>();
  for (const [key, n] of nPair) {
    if (n < options.minCoReports) continue;
    kept.add(key);
    involved.add(Math.floor(key / nV)).add(key % nV);
  }
  if (kept.size === 0) return [];
  const nTriple = new Map<number, number>(), nVaccineEvent = new Map<number, number>();
  for (const r of reports) {
    const mine = r.vaccines.filter((v) => involved.has(v));
    if (mine.length === 0) continue;
    for (const v of mine) for (const e of r.events) bump(nVaccineEvent, v * nE + e);
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length; j++) {
        const pair = mine[i] * nV + mine[j];
        if (kept.has(pair)) for (const e of r.events) bump(nTriple, pair * nE + e);
      }
    }
  }
  const name = formatQuarter(quarter);
  const rows: InteractionRow[] = [];
  for (const key of [...nTriple.keys()].sort((a, b) => a - b)) {
    if (nTriple.get(key)! < MIN_TRIPLE_REPORTS) continue;
    const pair = Math.floor(key / nE), e = key % nE;
    const v1 = Math.floor(pair / nV), v2 = pair % nV;
    const counts = {
      n111: nTriple.get(key)!, n11: nPair.get(pair)!, n1_1: nVaccineEvent.get(v1 * nE + e)!, n_11: nVaccineEvent.get(v2 * nE + e)!,
      n1: nVaccine.get(v1)!, n_1: nVaccine.get(v2)!, n__1: nEvent.get(e)!, N: reports.length,
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

/**
 * The interaction rows of every window of `reports` (windows ending at each quarter from the first
 * with reports to the last, those holding reports; as src/ingest/mining/passes.ts planWindows).
 * Omega is symmetric in V1 and V2, so each pair is stored once, its names in UTF-16 order.
 * @throws Error when a report's vaccines are not distinct and ascending (the counts would be wrong).
 */
export function interactionRows(reports: readonly InteractionReport[], options: InteractionOptions): InteractionRow[] {
  for (const r of reports) {
    for (let i = 1; i < r.vaccines.length; i++) if (!(r.vaccines[i] > r.vaccines[i - 1])) throw new Error('interactionRows: a report\'s vaccines must be distinct and ascending');
  }
  const quarters = byQuarter(reports);
  if (quarters.size === 0) return [];
  const first = Math.min(...quarters.keys()), last = Math.max(...quarters.keys());
  const rows: InteractionRow[] = [];
  for (let q = first; q <= last; q++) {
    // Loops, not push(...spread): a quarter of the 2021 surge holds some 200,000 reports, past the call stack's limit on arguments.
    const window: InteractionReport[] = [];
    for (let k = WINDOW_QUARTERS - 1; k >= 0; k--) for (const r of quarters.get(q - k) ?? []) window.push(r);
    if (window.length > 0) for (const row of windowRows(window, q, options)) rows.push(row);
  }
  return rows;
}

/** What the build's Omega step made: the rows and what they cost. */
export interface InteractionStep {
  rows: InteractionRow[];
  /** The stored record of the step (meta `parameters.interactions`). */
  meta: { analysis: string; min_co_reports: number; rows: number; signals: number; seconds: number };
}

/**
 * The build's Omega step for `analysis` (the store's default analysis): its kept reports (the
 * subset rule over the read's report columns, its items as `items` lists them) counted by
 * {@link interactionRows} with the bound `minCoReports`.
 */
export function interactionStep(data: VaersData, analysis: AnalysisDefinition, items: ReportItems, minCoReports: number): InteractionStep {
  const started = performance.now();
  const mask = subsetMask(analysis, data.details);
  const reports = data.reports.flatMap((r, i) => (mask[i] && items.lists[i].length > 0 ? [{ quarter: r.quarter, vaccines: items.lists[i], events: r.events }] : []));
  const rows = interactionRows(reports, { analysis: analysis.name, vaccines: items.names, events: data.events, minCoReports });
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  return { rows, meta: { analysis: analysis.name, min_co_reports: minCoReports, rows: rows.length, signals: rows.filter((r) => r.omega025 > 0).length, seconds } };
}
