/**
 * The signal build (issue 3; DESIGN.md "Data flow" and "Statistics, precisely"):
 * VAERS files -> reports -> per-quarter counts -> 4-quarter windows -> per-window statistics
 * (worker threads) -> flagged pairs with their full series and EWMA of EB05 -> store.
 *
 * Windows: one per quarter from the first quarter with reports to the last. Window q covers
 * quarters q-3..q; the windows of the first three quarters cover only the quarters that exist
 * (VAERS begins in 1990Q3, so the 1990Q3 window holds one quarter): they are included, and
 * `meta.parameters.partial_windows` lists them. A window after a gap of 4+ empty quarters
 * would have no reports and is skipped.
 *
 * Two passes over the windows keep memory small (no window's full statistics are held):
 * 1. `flags`: fit each window's prior (warm start from the previous window of the same chunk of
 *    8) and compute every pair's flags; remember the pairs with n_methods_flagged >= 2 in some
 *    window.
 * 2. `rows`: with each window's fitted hyperparameters, score only those pairs (a pair's
 *    statistics depend only on its own counts and the hyperparameters) and stream their rows
 *    in quarter order to the store, with the EWMA of EB05 carried per pair.
 */
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { formatQuarter, type QuarterIndex } from '../spec/quarter.js';
import { SERVING_FLOOR } from '../spec/floor.js';
import { EWMA_LAMBDA, ewmaStep } from '../stats/ewma.js';
import type { QuarterlyRow, StoreMeta, VaccineRow, WindowRow } from '../store/schema.js';
import { writeStore } from '../store/write.js';
import { readVaers, type SkipReason, type SourceFile } from '../vaers/read.js';
import { PROGRAM_VERSION } from '../version.js';
import { WINDOW_QUARTERS, countQuarters, windowCounts, type HistoryCounts, type QuarterCounts, type WindowCounts } from './counts.js';
import { scoreInOrder, WorkerPool } from './pool.js';
import { SILENT, type Progress } from './progress.js';
import { STAT_COLUMNS, type WindowRequest } from './protocol.js';
import { vaxType } from '../vaccine-type.js';

/** Windows per worker job; fixed so that results do not depend on the number of workers. */
export const CHUNK_WINDOWS = 8;

/** Options of {@link buildStore}. */
export interface BuildOptions {
  /** Folder with the official VAERS files. */
  vaers: string;
  /** Store file to write. */
  out: string;
  includeNondomestic?: boolean;
  /** Worker threads (default: available parallelism). */
  workers?: number;
  /** Benchmarks only: replay the reports K times (see `countQuarters`). */
  scale?: number;
  progress?: Progress;
}

/** What the build did (printed at the end, also kept in `meta.extra`). */
export interface BuildSummary {
  reportsRead: number;
  reportsKept: number;
  reportsCounted: number;
  skipped: SkipReason[];
  vaccines: number;
  events: number;
  quarters: number;
  firstQuarter: string | null;
  reportsThrough: string | null;
  windows: number;
  partialWindows: string[];
  /** Pair rows scored over all windows in the first pass (a pair counts once per window). */
  pairWindowsScored: number;
  /** Distinct pairs with n_methods_flagged >= 2 in some window: the pairs stored. */
  pairs: number;
  rows: number;
  fitsAtBound: Array<{ quarter: string; at_bound: string }>;
  fitsNotConverged: string[];
  workers: number;
  scale: number;
  /** Seconds per phase. */
  seconds: { read: number; count: number; fit: number; rows_and_write: number; total: number };
  /** Peak resident set size of this process, bytes (process.resourceUsage().maxRSS). */
  peakRssBytes: number;
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 10) / 100;
}

function nullable(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/**
 * Builds a store from the VAERS files in `options.vaers` and writes it atomically to
 * `options.out` (an error leaves no store, and an existing store untouched).
 * @throws UserError for bad input (from src/vaers) or an output folder that does not exist.
 */
export async function buildStore(options: BuildOptions): Promise<BuildSummary> {
  const progress = options.progress ?? SILENT;
  const started = performance.now();
  const outDir = dirname(resolve(options.out));
  try {
    await access(outDir);
  } catch {
    throw new UserError(`build: output folder does not exist: ${outDir}`);
  }

  // Read.
  let t = performance.now();
  let lastFile = '';
  const data = await readVaers(options.vaers, {
    includeNondomestic: options.includeNondomestic,
    onProgress: (e) => {
      if (e.file !== lastFile) {
        if (lastFile === '') progress.start('read', e.fileCount, 'files');
        lastFile = e.file;
      }
      progress.update(Math.round((e.fileIndex + (e.bytesTotal ? e.bytesRead / e.bytesTotal : 0)) * 100) / 100, e.file);
    },
  });
  if (lastFile !== '') progress.end();
  const readSeconds = seconds(t);
  if (data.reports.length === 0) throw new UserError(`build: ${options.vaers}: no usable reports (need RECVDATE, a vaccine and an event)`);

  // Count.
  t = performance.now();
  const scale = options.scale ?? 1;
  progress.start('count', data.reports.length * scale, 'reports');
  const history = countQuarters(data.reports, data.vaccines.length, data.events.length, {
    scale, onProgress: (done) => progress.update(done),
  });
  progress.end();
  const reportsKept = data.reports.length;
  data.reports.length = 0; // the reports are no longer needed; let them go
  const countSeconds = seconds(t);

  const byQuarter = new Map<QuarterIndex, QuarterCounts>(history.quarters.map((q) => [q.quarter, q]));
  const first = history.quarters[0].quarter;
  const last = history.quarters[history.quarters.length - 1].quarter;
  const windowQuarters: QuarterIndex[] = [];
  for (let q = first; q <= last; q++) if (byQuarter.has(q) || byQuarter.has(q - 1) || byQuarter.has(q - 2) || byQuarter.has(q - 3)) windowQuarters.push(q);
  const chunks = Math.ceil(windowQuarters.length / CHUNK_WINDOWS);
  const chunkQuarters = (chunk: number): QuarterIndex[] => windowQuarters.slice(chunk * CHUNK_WINDOWS, (chunk + 1) * CHUNK_WINDOWS);
  const workers = Math.max(1, options.workers ?? availableParallelism());
  const pool = new WorkerPool(workers);
  try {
    // Pass 1: fit and flags.
    t = performance.now();
    progress.start('fit', windowQuarters.length, 'windows');
    const pending: WindowCounts[][] = [];
    const flagged = new Set<number>();
    const windows: WindowRow[] = [];
    const fits = new Map<QuarterIndex, WindowRow>();
    const partialWindows: string[] = [];
    let pairWindowsScored = 0;
    const makeCounts = (chunk: number): WindowCounts[] =>
      chunkQuarters(chunk).map((q) => windowCounts(history, byQuarter, q)!);
    const replies1 = scoreInOrder(pool, 'flags', chunks, (chunk) => {
      const counts = makeCounts(chunk);
      pending.push(counts);
      return counts.map((w): WindowRequest => ({ n: w.n, n_vaccine: w.n_vaccine, n_event: w.n_event, n_reports: w.n_reports }));
    });
    for await (const replies of replies1) {
      const counts = pending.shift()!;
      replies.forEach((reply, i) => {
        const w = counts[i];
        for (let p = 0; p < w.keys.length; p++) if ((reply.flags[p] & 0x7f) >= SERVING_FLOOR) flagged.add(w.keys[p]);
        const row: WindowRow = {
          quarter: formatQuarter(w.quarter),
          alpha1: reply.fit.alpha1, beta1: reply.fit.beta1, alpha2: reply.fit.alpha2, beta2: reply.fit.beta2, p: reply.fit.p,
          neg_log_lik: reply.fit.neg_log_lik, converged: reply.fit.converged, at_bound: reply.fit.at_bound,
          n_pairs: w.keys.length, n_reports: w.n_reports,
        };
        windows.push(row);
        fits.set(w.quarter, row);
        pairWindowsScored += w.keys.length;
        if (w.quartersWithData < WINDOW_QUARTERS && w.quarter - first < WINDOW_QUARTERS - 1) partialWindows.push(row.quarter);
      });
      progress.update(windows.length);
    }
    progress.end();
    const fitSeconds = seconds(t);

    // Pass 2: rows of the flagged pairs, streamed to the store.
    t = performance.now();
    const vaccineNames = data.vaccines;
    const eventNames = data.events;
    const ewmaState = new Map<number, number | null>();
    let rowsSeen = 0;
    progress.start('rows', windowQuarters.length, 'windows');
    async function* quarterly(): AsyncGenerator<QuarterlyRow> {
      const selected: Array<Array<{ w: WindowCounts; keep: Int32Array }>> = [];
      const replies2 = scoreInOrder(pool, 'rows', chunks, (chunk) => {
        const picked = makeCounts(chunk).map((w) => {
          const keep: number[] = [];
          for (let p = 0; p < w.keys.length; p++) if (flagged.has(w.keys[p])) keep.push(p);
          return { w, keep: Int32Array.from(keep) };
        }).filter((s) => s.keep.length > 0);
        selected.push(picked);
        return picked.map(({ w, keep }): WindowRequest => ({
          n: Float64Array.from(keep, (p) => w.n[p]),
          n_vaccine: Float64Array.from(keep, (p) => w.n_vaccine[p]),
          n_event: Float64Array.from(keep, (p) => w.n_event[p]),
          n_reports: w.n_reports,
          hyper: fits.get(w.quarter)!,
        }));
      });
      let windowsDone = 0;
      for await (const replies of replies2) {
        const picked = selected.shift()!;
        windowsDone += picked.length;
        for (let i = 0; i < replies.length; i++) {
          const { w, keep } = picked[i];
          const { flags, stats } = replies[i];
          const quarter = formatQuarter(w.quarter);
          const width = STAT_COLUMNS.length;
          for (let j = 0; j < keep.length; j++) {
            const key = w.keys[keep[j]];
            const v = Math.floor(key / history.nEvents);
            const row: Record<string, unknown> = {
              drug: vaccineNames[v], event: eventNames[key - v * history.nEvents], quarter,
              n: w.n[keep[j]], n_vaccine: w.n_vaccine[keep[j]], n_event: w.n_event[keep[j]], n_reports: w.n_reports,
            };
            for (let c = 0; c < width; c++) row[STAT_COLUMNS[c]] = nullable(stats![j * width + c]);
            row.n_methods_flagged = flags[j] & 0x7f;
            row.is_signal_any = (flags[j] & 0x80) !== 0;
            const smoothed = ewmaStep(ewmaState.has(key) ? ewmaState.get(key)! : null, row.eb05 as number | null);
            ewmaState.set(key, smoothed);
            row.ewma_eb05 = smoothed;
            rowsSeen++;
            yield row as unknown as QuarterlyRow;
          }
        }
        progress.update(windowsDone);
      }
    }

    const vaccines = (): VaccineRow[] => data.vaccines.map((name, i) => ({
      vax_name: name, vax_type: vaxType(name), vax_type_codes: [...(data.vaxTypeCodes.get(i) ?? [])].sort(),
    })).sort((a, b) => (a.vax_name < b.vax_name ? -1 : a.vax_name > b.vax_name ? 1 : 0));

    const summary = (): BuildSummary => ({
      reportsRead: data.reportsRead, reportsKept, reportsCounted: history.reports, skipped: data.skipped,
      vaccines: data.vaccines.length, events: data.events.length,
      quarters: history.quarters.length, firstQuarter: formatQuarter(first), reportsThrough: formatQuarter(last),
      windows: windows.length, partialWindows, pairWindowsScored, pairs: flagged.size, rows: rowsSeen,
      fitsAtBound: windows.filter((w) => w.at_bound !== '').map((w) => ({ quarter: w.quarter, at_bound: w.at_bound })),
      fitsNotConverged: windows.filter((w) => !w.converged).map((w) => w.quarter),
      workers, scale,
      seconds: { read: readSeconds, count: countSeconds, fit: fitSeconds, rows_and_write: seconds(t), total: seconds(started) },
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    });
    const meta = (): StoreMeta => {
      progress.end();
      const s = summary();
      return {
        reports_through: s.reportsThrough,
        sources: data.sources.map((f: SourceFile) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })),
        parameters: buildParameters(history, s, options),
        program_version: PROGRAM_VERSION,
        built_at: new Date().toISOString(),
        origin: 'build',
        has_ic025: true,
        extra: { summary: s },
      };
    };
    await writeStore(options.out, { quarterly: quarterly(), vaccines, windows, meta });
    return summary();
  } finally {
    await pool.close();
  }
}

function buildParameters(history: HistoryCounts, s: BuildSummary, options: BuildOptions): Record<string, unknown> {
  return {
    window_quarters: WINDOW_QUARTERS,
    quarter_of_report: 'RECVDATE',
    counting_unit: 'distinct reports; N = reports naming >= 1 vaccine and >= 1 event',
    partial_windows: 'included: the windows of the first three quarters cover only the quarters from the first quarter with reports',
    partial_window_quarters: s.partialWindows,
    stored_pairs: `pairs with n_methods_flagged >= ${SERVING_FLOOR} in at least one window, with every window where n >= 1`,
    ewma_lambda: EWMA_LAMBDA,
    ewma_of: 'eb05',
    mgps_fit: `per window; warm start from the previous window within chunks of ${CHUNK_WINDOWS} windows`,
    include_nondomestic: options.includeNondomestic ?? false,
    scale: history.scale,
    ...(history.scale > 1 ? { scale_shift_quarters: history.shift, scale_note: 'benchmark only: synthetic history' } : {}),
  };
}
