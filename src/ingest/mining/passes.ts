/**
 * The two passes of one analysis over its windows, run in the worker pool:
 *
 * 1. `fitPass`: per window, the MGPS prior fit and each pair's flags (`n_methods_flagged`);
 *    a pair is stored when some window flags it with at least SERVING_FLOOR methods.
 * 2. `rowsPass`: per window, the statistics of the stored pairs with the window's fitted
 *    hyperparameters, as quarterly rows, with the EWMA of EB05 per pair in quarter order, and
 *    (after the pool's EvidenceSetup of the analysis) their triage evidence.
 *
 * Windows are sent in chunks of CHUNK_WINDOWS consecutive windows (the first of a chunk fitted
 * from the fixed starting points, each later one also warm-started from the previous fit), so
 * the result does not depend on the number of workers. A window with fewer pairs than the prior
 * has parameters cannot be fitted: it is recorded with its reason and skipped, never a crash.
 */
import { SERVING_FLOOR } from '../../domain/floor.js';
import { formatQuarter, type QuarterIndex } from '../../domain/quarter.js';
import { ewmaStep } from '../../stats/ewma.js';
import type { QuarterlyRow, WindowRow } from '../../domain/store-schema.js';
import { WINDOW_QUARTERS } from '../../domain/quarter.js';
import { windowCounts, type HistoryCounts, type QuarterCounts, type WindowCounts } from './counts.js';
import { scoreInOrder, type WorkerPool } from './pool.js';
import { STAT_COLUMNS, type WindowRequest } from './protocol.js';
import { EVIDENCE_NUMBER_COLUMNS, evidenceFromDoubles, statisticsFromDoubles } from '../../domain/columns.js';

/** Windows per worker job; fixed so that results do not depend on the number of workers. */
export const CHUNK_WINDOWS = 8;

/** A window needs at least this many pairs (n >= 1) to fit the 5-parameter MGPS prior. */
export const MIN_FIT_PAIRS = 5;

/** The windows of one counted history: every quarter from the first whose window holds reports. */
export interface WindowPlan {
  history: HistoryCounts;
  byQuarter: ReadonlyMap<QuarterIndex, QuarterCounts>;
  /** First quarter with reports. */
  first: QuarterIndex;
  /** Last quarter with reports (reports_through). */
  last: QuarterIndex;
  /** Quarters ending a window that holds reports, ascending. */
  windowQuarters: QuarterIndex[];
  chunks: number;
}

/** A window left out, with the reason (a window too small to fit is recorded and skipped, not fatal). */
export interface SkippedWindow {
  quarter: string;
  reason: string;
}

/** What the fit pass found. */
export interface FitPassResult {
  /** Pair keys with n_methods_flagged >= SERVING_FLOOR in some window: the pairs stored. */
  flagged: Set<number>;
  /** Fitted windows, in quarter order. */
  windows: WindowRow[];
  fits: Map<QuarterIndex, WindowRow>;
  /** Windows of the first three quarters that cover fewer than 4 quarters. */
  partialWindows: string[];
  skippedWindows: SkippedWindow[];
  /** Pair rows scored over all windows (a pair counts once per window). */
  pairWindowsScored: number;
}

/**
 * The windows of a counted history.
 * @throws Error when the history holds no quarter.
 */
export function planWindows(history: HistoryCounts): WindowPlan {
  if (history.quarters.length === 0) throw new Error('planWindows: no quarter holds reports');
  const byQuarter = new Map<QuarterIndex, QuarterCounts>(history.quarters.map((q) => [q.quarter, q]));
  const first = history.quarters[0].quarter;
  const last = history.quarters[history.quarters.length - 1].quarter;
  const windowQuarters: QuarterIndex[] = [];
  for (let q = first; q <= last; q++) {
    let any = false;
    for (let k = 0; k < WINDOW_QUARTERS; k++) any ||= byQuarter.has(q - k);
    if (any) windowQuarters.push(q);
  }
  return { history, byQuarter, first, last, windowQuarters, chunks: Math.ceil(windowQuarters.length / CHUNK_WINDOWS) };
}

/** The counts of the windows of chunk `chunk` that can be fitted, and the skipped ones. */
function chunkCounts(plan: WindowPlan, chunk: number): { counts: WindowCounts[]; skipped: SkippedWindow[] } {
  const counts: WindowCounts[] = [];
  const skipped: SkippedWindow[] = [];
  for (const quarter of plan.windowQuarters.slice(chunk * CHUNK_WINDOWS, (chunk + 1) * CHUNK_WINDOWS)) {
    const w = windowCounts(plan.history, plan.byQuarter, quarter)!;
    if (w.keys.length < MIN_FIT_PAIRS) {
      skipped.push({ quarter: formatQuarter(quarter), reason: `${w.keys.length} pair(s) with n >= 1, fewer than the ${MIN_FIT_PAIRS} the prior needs` });
    } else counts.push(w);
  }
  return { counts, skipped };
}

function request(w: WindowCounts, keep?: Int32Array, hyper?: WindowRow): WindowRequest {
  const pick = (values: Float64Array): Float64Array => (keep ? Float64Array.from(keep, (p) => values[p]) : values);
  return {
    n: pick(w.n), n_vaccine: pick(w.n_vaccine), n_event: pick(w.n_event), n_reports: w.n_reports,
    ...(w.expected ? { expected: pick(w.expected) } : {}),
    ...(hyper ? { hyper } : {}),
  };
}

/** Pass 1: fits every window of the plan and collects the flagged pairs. */
export async function fitPass(pool: WorkerPool, plan: WindowPlan, onWindows: (done: number) => void = () => {}): Promise<FitPassResult> {
  const result: FitPassResult = { flagged: new Set(), windows: [], fits: new Map(), partialWindows: [], skippedWindows: [], pairWindowsScored: 0 };
  const pending: WindowCounts[][] = [];
  const replies = scoreInOrder(pool, 'flags', plan.chunks, (chunk) => {
    const { counts, skipped } = chunkCounts(plan, chunk);
    result.skippedWindows.push(...skipped);
    pending.push(counts);
    return counts.map((w) => request(w));
  });
  for await (const chunkReplies of replies) {
    const counts = pending.shift()!;
    chunkReplies.forEach((reply, i) => {
      const w = counts[i];
      for (let p = 0; p < w.keys.length; p++) if ((reply.flags[p] & 0x7f) >= SERVING_FLOOR) result.flagged.add(w.keys[p]);
      const { alpha1, beta1, alpha2, beta2, p, neg_log_lik, converged, at_bound } = reply.fit;
      const row: WindowRow = { quarter: formatQuarter(w.quarter), alpha1, beta1, alpha2, beta2, p, neg_log_lik, converged, at_bound, n_pairs: w.keys.length, n_reports: w.n_reports };
      result.windows.push(row);
      result.fits.set(w.quarter, row);
      result.pairWindowsScored += w.keys.length;
      if (w.quartersWithData < WINDOW_QUARTERS && w.quarter - plan.first < WINDOW_QUARTERS - 1) result.partialWindows.push(row.quarter);
    });
    onWindows(result.windows.length + result.skippedWindows.length);
  }
  return result;
}

/**
 * Pass 2: the quarterly rows of the flagged pairs, window by window in quarter order (the
 * EWMA of EB05 runs per pair over its rows in that order). `names` turns a pair key into the
 * vaccine and event names; every row carries `analysis` and its evidence columns, computed by
 * the workers (the pool must have had the analysis's EvidenceSetup: build.ts allRows).
 */
export async function* rowsPass(
  pool: WorkerPool, plan: WindowPlan, fit: FitPassResult, names: { vaccines: readonly string[]; events: readonly string[]; types: readonly string[] }, analysis: string,
  onWindows: (done: number) => void = () => {},
): AsyncGenerator<QuarterlyRow> {
  const nEvents = plan.history.nEvents;
  const ewma = new Map<number, number | null>();
  const selected: Array<Array<{ w: WindowCounts; keep: Int32Array }>> = [];
  const replies = scoreInOrder(pool, 'rows', plan.chunks, (chunk) => {
    const picked = chunkCounts(plan, chunk).counts.map((w) => {
      const keep: number[] = [];
      for (let p = 0; p < w.keys.length; p++) if (fit.flagged.has(w.keys[p])) keep.push(p);
      return { w, keep: Int32Array.from(keep) };
    }).filter((s) => s.keep.length > 0);
    selected.push(picked);
    return picked.map(({ w, keep }) => ({
      ...request(w, keep, fit.fits.get(w.quarter)!),
      evidence: { quarter: w.quarter, keys: Float64Array.from(keep, (p) => w.keys[p]) },
    }));
  }, analysis);
  let done = 0;
  for await (const chunkReplies of replies) {
    const picked = selected.shift()!;
    done += picked.length;
    for (let i = 0; i < chunkReplies.length; i++) {
      const { w, keep } = picked[i];
      const { flags, stats, evidence: evidenceValues, links } = chunkReplies[i];
      const quarter = formatQuarter(w.quarter);
      const width = STAT_COLUMNS.length;
      const related = links ? relatedByPair(links.related, (k) => names.events[w.keys[keep[k]] % nEvents]) : new Map<number, string>();
      const products = links ? relatedByPair(links.coProducts, (item) => names.vaccines[item], 0) : new Map<number, string>();
      for (let j = 0; j < keep.length; j++) {
        const key = w.keys[keep[j]];
        const v = Math.floor(key / nEvents);
        const statistics = statisticsFromDoubles(stats!, j * width);
        const smoothed = ewmaStep(ewma.has(key) ? ewma.get(key)! : null, statistics.eb05);
        ewma.set(key, smoothed);
        yield {
          analysis, drug: names.vaccines[v], event: names.events[key - v * nEvents], quarter,
          n: w.n[keep[j]], n_vaccine: w.n_vaccine[keep[j]], n_event: w.n_event[keep[j]], n_reports: w.n_reports,
          ...statistics, n_methods_flagged: flags[j] & 0x7f, is_signal_any: (flags[j] & 0x80) !== 0, ewma_eb05: smoothed,
          ...(evidenceValues ? {
            ...evidenceFromDoubles(evidenceValues, j * EVIDENCE_NUMBER_COLUMNS.length),
            co_vaccine: links && links.coVaccine[j] >= 0 ? names.types[links.coVaccine[j]] : null,
            co_products: products.get(j) ?? null,
            related_events: related.get(j) ?? null,
          } : {}),
        };
      }
    }
    onWindows(done);
  }
}

/**
 * The `related_events` text of each pair from a window's related triples (evidence-links.ts
 * relatedPairs; `eventOf(k)` the event of pair k): a JSON array `[[event, overlap], ...]`, overlap
 * rounded to `digits` decimals (3), descending (then by event). The same for `co_products` from
 * the (pair, product, reports) triples, with `digits` 0.
 */
export function relatedByPair(triples: Float64Array, eventOf: (k: number) => string, digits = 3): Map<number, string> {
  const lists = new Map<number, Array<[string, number]>>();
  for (let t = 0; t + 2 < triples.length; t += 3) {
    const j = triples[t], entry: [string, number] = [eventOf(triples[t + 1]), Math.round(triples[t + 2] * 10 ** digits) / 10 ** digits];
    const list = lists.get(j);
    if (list) list.push(entry);
    else lists.set(j, [entry]);
  }
  return new Map([...lists].map(([j, list]) => [j, JSON.stringify(list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))]));
}
