/**
 * The two passes of one analysis over its windows, run in the worker pool:
 *
 * 1. `fitPass`: per window, the MGPS prior fit and each pair's flags (`n_methods_flagged`);
 *    a pair is stored when some window flags it with at least SERVING_FLOOR methods.
 * 2. `rowsPasses`: per window, the statistics of the stored pairs with the window's fitted
 *    hyperparameters, as a batch of quarterly columns (the store's appender takes them as they
 *    are), with the EWMA of EB05 per pair in quarter order, and (after the pool's EvidenceSetup
 *    of the analysis) their triage evidence; every analysis's chunks in one sequence.
 *
 * Windows are sent in chunks of CHUNK_WINDOWS consecutive windows (the first of a chunk fitted
 * from the fixed starting points, each later one also warm-started from the previous fit), so
 * the result does not depend on the number of workers. A window with fewer pairs than the prior
 * has parameters cannot be fitted: it is recorded with its reason and skipped, never a crash.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { SERVING_FLOOR } from '../../domain/floor.js';
import { formatQuarter, type QuarterIndex } from '../../domain/quarter.js';
import { ewmaStep } from '../../stats/ewma.js';
import { QUARTERLY_COLUMNS, type WindowRow } from '../../domain/store-schema.js';
import type { ColumnBatch, ColumnValues } from '../store/appender.js';
import { WINDOW_QUARTERS } from '../../domain/quarter.js';
import { windowCounts, type HistoryCounts, type QuarterCounts, type WindowCounts } from './counts.js';
import { scoreInOrder, type ChunkJob, type WorkerPool } from './pool.js';
import { STAT_COLUMNS, type WindowReply, type WindowRequest } from './protocol.js';
import { EVIDENCE_NUMBER_COLUMNS, finiteOrNull } from '../../domain/columns.js';

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

/** The counts of the windows of chunk `chunk` that can be fitted (with `keep`, of the pairs it keeps: counts.ts windowCounts), and the skipped ones. */
function chunkCounts(plan: WindowPlan, chunk: number, keep?: (key: number) => boolean): { counts: WindowCounts[]; skipped: SkippedWindow[] } {
  const counts: WindowCounts[] = [];
  const skipped: SkippedWindow[] = [];
  for (const quarter of plan.windowQuarters.slice(chunk * CHUNK_WINDOWS, (chunk + 1) * CHUNK_WINDOWS)) {
    const w = windowCounts(plan.history, plan.byQuarter, quarter, keep)!;
    if (w.pairs < MIN_FIT_PAIRS) {
      skipped.push({ quarter: formatQuarter(quarter), reason: `${w.pairs} pair(s) with n >= 1, fewer than the ${MIN_FIT_PAIRS} the prior needs` });
    } else counts.push(w);
  }
  return { counts, skipped };
}

/** The request of window `w` (its arrays transferred to the worker; with `copy`, copies of them, `w` kept whole). */
function request(w: WindowCounts, copy = false, hyper?: WindowRow): WindowRequest {
  const pick = (values: Float64Array): Float64Array => (copy ? values.slice() : values);
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
  const replies = scoreInOrder(pool, 'flags', Array.from({ length: plan.chunks }, (_, chunk) => ({
    make: () => {
      const { counts, skipped } = chunkCounts(plan, chunk);
      result.skippedWindows.push(...skipped);
      pending.push(counts);
      return counts.map((w) => request(w));
    },
  })));
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

/** What a window of rowsPasses gives each quarterly column: its values over the window's stored pairs. */
interface WindowColumns {
  analysis: string;
  quarter: string;
  n_reports: number;
  drug: string[];
  event: string[];
  /** n, n_vaccine, n_event of the stored pairs, in row order. */
  counts: { n: Float64Array; n_vaccine: Float64Array; n_event: Float64Array };
  /** The worker's statistics, `stats[j * STAT_COLUMNS.length + c]` (protocol.ts). */
  stats: Float64Array;
  n_methods_flagged: Float64Array;
  /** 1 when is_signal_any, else 0. */
  is_signal_any: Float64Array;
  /** NaN for null. */
  ewma_eb05: Float64Array;
  /** The worker's numeric evidence, `evidence[j * EVIDENCE_NUMBER_COLUMNS.length + c]`; null: none (stored as null). */
  evidence: Float64Array | null;
  /** The text evidence columns; null: none (stored as null). */
  texts: { co_vaccine: Array<string | null>; co_products: Array<string | null>; related_events: Array<string | null> } | null;
}

const NULL_COLUMN: ColumnValues = { kind: 'constant', value: null };

/** How each quarterly column (QUARTERLY_COLUMNS, in table order) takes its values from a window's columns. */
const QUARTERLY_SOURCES: ReadonlyArray<(w: WindowColumns) => ColumnValues> = QUARTERLY_COLUMNS.map(([name]): ((w: WindowColumns) => ColumnValues) => {
  const stat = (STAT_COLUMNS as readonly string[]).indexOf(name);
  if (stat >= 0) return (w) => ({ kind: 'numbers', values: w.stats, at: stat, stride: STAT_COLUMNS.length });
  const evidence = (EVIDENCE_NUMBER_COLUMNS as readonly string[]).indexOf(name);
  if (evidence >= 0) return (w) => (w.evidence ? { kind: 'numbers', values: w.evidence, at: evidence, stride: EVIDENCE_NUMBER_COLUMNS.length } : NULL_COLUMN);
  const numbers = (values: Float64Array): ColumnValues => ({ kind: 'numbers', values, at: 0, stride: 1 });
  switch (name) {
    case 'analysis': return (w) => ({ kind: 'constant', value: w.analysis });
    case 'quarter': return (w) => ({ kind: 'constant', value: w.quarter });
    case 'n_reports': return (w) => ({ kind: 'constant', value: w.n_reports });
    case 'drug': return (w) => ({ kind: 'values', values: w.drug });
    case 'event': return (w) => ({ kind: 'values', values: w.event });
    case 'n': case 'n_vaccine': case 'n_event': return (w) => numbers(w.counts[name]);
    case 'n_methods_flagged': case 'is_signal_any': case 'ewma_eb05': return (w) => numbers(w[name]);
    case 'co_vaccine': case 'co_products': case 'related_events': return (w) => (w.texts ? { kind: 'values', values: w.texts[name] } : NULL_COLUMN);
    default: throw new Error(`rowsPasses: no values for quarterly column ${name}`);
  }
});

/** The position of eb05 in the worker's statistics (the EWMA smooths it). */
const EB05_AT = STAT_COLUMNS.indexOf('eb05');

/** One analysis of the rows pass (rowsPasses): its windows and fit, the names of its items, and what to call as it goes. */
export interface RowsPassInput {
  plan: WindowPlan;
  fit: FitPassResult;
  /** Turns a pair key into the vaccine and event names; `types` names the co-reported types. */
  names: { vaccines: readonly string[]; events: readonly string[]; types: readonly string[] };
  analysis: string;
  /** Called before the analysis's first chunk is sent (the pool's EvidenceSetup of the analysis: build.ts allRows). */
  setUp: () => void;
  /** Called when the first of the analysis's rows are taken, after the previous analysis's last (its phase). */
  onStart?: () => void;
  /** Windows of the analysis done so far. */
  onWindows?: (done: number) => void;
  /** Called after the analysis's last rows, with their number. */
  onEnd?: (rows: number) => void;
}

/**
 * One analysis's rows, chunk by chunk: `request(chunk)` the chunk's windows for the workers (the
 * stored pairs of each window with its fit, and their keys for the evidence), `batches(replies)`
 * the chunk's rows from the workers' replies, in quarter order (the EWMA of EB05 runs per pair
 * over its rows in that order).
 */
class RowsPassState {
  private readonly ewma = new Map<number, number | null>();
  /** Per chunk sent, its windows' counts of the stored pairs (in row order). */
  private readonly selected: WindowCounts[][] = [];
  /** Chunks whose replies were taken, windows done, rows given. */
  received = 0;
  windows = 0;
  rows = 0;

  constructor(readonly input: RowsPassInput) {}

  request(chunk: number): WindowRequest[] {
    const { plan, fit } = this.input;
    // The stored pairs only: their counts (and stratified E) alone are computed.
    const picked = chunkCounts(plan, chunk, (key) => fit.flagged.has(key)).counts.filter((w) => w.keys.length > 0);
    this.selected.push(picked);
    return picked.map((w) => ({
      ...request(w, true, fit.fits.get(w.quarter)!),
      evidence: { quarter: w.quarter, keys: w.keys.slice() },
    }));
  }

  *batches(chunkReplies: WindowReply[]): Generator<ColumnBatch> {
    const { plan, names, analysis } = this.input;
    const nEvents = plan.history.nEvents;
    const { ewma } = this;
    const picked = this.selected.shift()!;
    for (let i = 0; i < chunkReplies.length; i++) {
      const w = picked[i];
      const { flags, stats, evidence, links } = chunkReplies[i];
      const rows = w.keys.length;
      const width = STAT_COLUMNS.length;
      const related = links ? relatedByPair(links.related, (k) => names.events[w.keys[k] % nEvents]) : new Map<number, string>();
      const products = links ? relatedByPair(links.coProducts, (item) => names.vaccines[item], 0) : new Map<number, string>();
      const columns: WindowColumns = {
        analysis, quarter: formatQuarter(w.quarter), n_reports: w.n_reports, drug: new Array<string>(rows), event: new Array<string>(rows),
        counts: { n: w.n, n_vaccine: w.n_vaccine, n_event: w.n_event },
        stats: stats!, n_methods_flagged: new Float64Array(rows), is_signal_any: new Float64Array(rows), ewma_eb05: new Float64Array(rows),
        evidence: evidence ?? null,
        texts: evidence ? { co_vaccine: new Array<string | null>(rows), co_products: new Array<string | null>(rows), related_events: new Array<string | null>(rows) } : null,
      };
      for (let j = 0; j < rows; j++) {
        const key = w.keys[j];
        const v = Math.floor(key / nEvents);
        columns.drug[j] = names.vaccines[v];
        columns.event[j] = names.events[key - v * nEvents];
        const smoothed = ewmaStep(ewma.has(key) ? ewma.get(key)! : null, finiteOrNull(stats![j * width + EB05_AT]));
        ewma.set(key, smoothed);
        columns.ewma_eb05[j] = smoothed ?? Number.NaN;
        columns.n_methods_flagged[j] = flags[j] & 0x7f;
        columns.is_signal_any[j] = (flags[j] & 0x80) !== 0 ? 1 : 0;
        if (columns.texts) {
          columns.texts.co_vaccine[j] = links && links.coVaccine[j] >= 0 ? names.types[links.coVaccine[j]] : null;
          columns.texts.co_products[j] = products.get(j) ?? null;
          columns.texts.related_events[j] = related.get(j) ?? null;
        }
      }
      this.rows += rows;
      yield { rows, columns: QUARTERLY_SOURCES.map((source) => source(columns)) };
    }
    this.received++;
    this.windows += picked.length;
  }
}

/**
 * Pass 2 of each analysis in `passes`, in turn: the quarterly rows of the flagged pairs, window
 * by window in quarter order (the EWMA of EB05 runs per pair over its rows in that order), one
 * batch of columns per window (store/appender.ts ColumnBatch, the columns of QUARTERLY_COLUMNS in
 * order: the worker's statistics and evidence arrays are read in place, no object per row). Every
 * row carries `analysis` and its evidence columns, computed by the workers. The chunks of every
 * analysis go through the pool as one sequence (pool.ts scoreInOrder): an analysis's first chunks
 * are sent (after its `setUp`, the workers' EvidenceSetup) while the previous analysis's last are
 * still scored, so neither thread waits for the slowest chunk of an analysis; the batches come out
 * in the same order as one analysis after the other (its `onStart`, batches, `onEnd`).
 */
export async function* rowsPasses(pool: WorkerPool, passes: readonly RowsPassInput[]): AsyncGenerator<ColumnBatch> {
  const states = passes.map((input) => new RowsPassState(input));
  function* jobs(): Generator<ChunkJob> {
    for (const state of states) {
      for (let chunk = 0; chunk < state.input.plan.chunks; chunk++) {
        yield { analysis: state.input.analysis, make: () => {
          if (chunk === 0) state.input.setUp();
          return state.request(chunk);
        } };
      }
    }
  }
  let at = -1; // the analysis whose rows are being taken
  const advance = (): void => {
    if (at >= 0) states[at].input.onEnd?.(states[at].rows);
    at++;
    if (at < states.length) states[at].input.onStart?.();
  };
  advance();
  for await (const chunkReplies of scoreInOrder(pool, 'rows', jobs())) {
    while (states[at].received === states[at].input.plan.chunks) advance(); // an analysis without windows has no chunk
    const state = states[at];
    for (const batch of state.batches(chunkReplies)) {
      yield batch;
      // The consumer appends the batch synchronously: let the event loop turn between windows, so a
      // worker that finished its chunk meanwhile gets its next one now (pool.ts settle), not after
      // the whole chunk's rows are appended (it would wait on this thread).
      await yieldToEventLoop();
    }
    state.input.onWindows?.(state.windows);
  }
  while (at < states.length) advance();
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
