/**
 * Messages between the build and its worker threads (`pool.ts`, `worker.ts`).
 *
 * A request is a chunk of consecutive windows. Mode `flags` (first pass) fits each window's
 * prior, the first window of the chunk from the fixed starting points and each later one also
 * from the previous window's fit (warm start), and returns the fit and each pair's flags.
 * Mode `rows` (second pass) uses the given hyperparameters and also returns the statistics.
 * Chunks have a fixed length, so the result does not depend on the number of workers.
 * In mode `rows` a window may also ask for the triage evidence of its pairs (`evidence`): the
 * worker computes it from the `EvidenceSetup` the build sent it before the analysis's rows
 * (evidence-step.ts `WindowEvidence`), so the evidence is spread over the workers with the rows.
 */
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import type { PriorFit } from '../../stats/mgps.js';
import type { EvidenceTables } from './evidence-step.js';
import type { WindowLinks } from './evidence-links.js';

/** Statistics carried per pair in `WindowReply.stats`, in this order (NaN stands for null): the column table's. */
export { STAT_COLUMNS } from '../../domain/columns.js';

/** One window to score: a `WindowInput` as typed arrays, and in mode `rows` its hyperparameters. */
export interface WindowRequest {
  n: Float64Array;
  n_vaccine: Float64Array;
  n_event: Float64Array;
  n_reports: number;
  /** Stratified expected counts (stratified analyses); absent: crude E from the margins. */
  expected?: Float64Array;
  hyper?: Hyperparameters;
  /** Mode `rows`: the window's quarter and its pairs' keys (`v * nEvents + e`, in row order) whose evidence to compute. */
  evidence?: { quarter: number; keys: Float64Array };
}

/** A chunk of consecutive windows. */
export interface ChunkRequest {
  id: number;
  mode: 'flags' | 'rows';
  windows: WindowRequest[];
  /** The analysis whose EvidenceSetup the windows' `evidence` needs (checked by the worker). */
  analysis?: string;
}

/**
 * Sent to every worker before an analysis's rows that ask for evidence: the analysis, its item
 * kind, its subset mask (1 per report it keeps) and, the first time a kind is sent, that kind's
 * tables (a worker keeps them per kind for the later analyses), their arrays over SharedArrayBuffers
 * (build.ts shareEvidence: a worker reads the main thread's one copy, not a clone of its own).
 */
export interface EvidenceSetup {
  type: 'evidence-setup';
  analysis: string;
  kind: string;
  mask: Uint8Array;
  tables?: EvidenceTables;
  /** The memo of exact KS probabilities (ks-memo.ts), shared, not copied (the build sends the same table with every setup). */
  ksMemo?: SharedArrayBuffer;
}

/**
 * One window's answer: the fit; per pair `flags` = n_methods_flagged (low bits) | 0x80 when
 * is_signal_any; in mode `rows`, `stats[i * STAT_COLUMNS.length + c]`.
 */
export interface WindowReply {
  fit: PriorFit;
  flags: Uint8Array;
  stats?: Float64Array;
  /** With a request's `evidence`: `evidence[i * EVIDENCE_NUMBER_COLUMNS.length + c]` (NaN for null). */
  evidence?: Float64Array;
  /** With a request's `evidence`: the co-reported vaccines and related pairs (evidence-links.ts). */
  links?: WindowLinks;
}

/** A chunk's answer (`transfer` lists the buffers moved, not copied, to the main thread). */
export interface ChunkReply {
  id: number;
  windows: WindowReply[];
  transfer: ArrayBuffer[];
}
