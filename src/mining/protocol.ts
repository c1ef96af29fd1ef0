/**
 * Messages between the build and its worker threads (`pool.ts`, `worker.ts`).
 *
 * A request is a chunk of consecutive windows. Mode `flags` (first pass) fits each window's
 * prior, the first window of the chunk from the fixed starting points and each later one also
 * from the previous window's fit (warm start), and returns the fit and each pair's flags.
 * Mode `rows` (second pass) uses the given hyperparameters and also returns the statistics.
 * Chunks have a fixed length, so the result does not depend on the number of workers.
 */
import type { Hyperparameters, PriorFit } from '../stats/mgps.js';

/** Statistics carried per pair in `WindowReply.stats`, in this order (NaN stands for null): the column table's. */
export { STAT_COLUMNS } from '../domain/columns.js';

/** One window to score: a `WindowInput` as typed arrays, and in mode `rows` its hyperparameters. */
export interface WindowRequest {
  n: Float64Array;
  n_vaccine: Float64Array;
  n_event: Float64Array;
  n_reports: number;
  /** Stratified expected counts (stratified analyses); absent: crude E from the margins. */
  expected?: Float64Array;
  hyper?: Hyperparameters;
}

/** A chunk of consecutive windows. */
export interface ChunkRequest {
  id: number;
  mode: 'flags' | 'rows';
  windows: WindowRequest[];
}

/**
 * One window's answer: the fit; per pair `flags` = n_methods_flagged (low bits) | 0x80 when
 * is_signal_any; in mode `rows`, `stats[i * STAT_COLUMNS.length + c]`.
 */
export interface WindowReply {
  fit: PriorFit;
  flags: Uint8Array;
  stats?: Float64Array;
}

/** A chunk's answer (`transfer` lists the buffers moved, not copied, to the main thread). */
export interface ChunkReply {
  id: number;
  windows: WindowReply[];
  transfer: ArrayBuffer[];
}
