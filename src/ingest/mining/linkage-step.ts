/**
 * The build's duplicate-report linkage step (docs/design.md "Signal quality": suspected duplicates,
 * after vigiMatch, Noren 2007): after the reports are read, the linkage (src/ingest/linkage/link.ts
 * `linkReports`) finds the reports judged to be one case; this step records each report's
 * cluster in the report columns (`cluster`: the VAERS_ID of its cluster's representative, NaN in
 * no cluster; src/domain/report-columns.ts) and turns the links into `report_links` rows (by
 * VAERS_ID). The analyses' `@dedup` modifier then keeps only representatives
 * (src/domain/analysis-rules.ts).
 *
 * Never fails the build: a linkage that throws is reported as a warning and the build goes on
 * without links (every `cluster` null, no `report_links` rows, `summary` null).
 */
import { Worker } from 'node:worker_threads';
import { linkReports } from '../linkage/link.js';
import { LINKAGE_TEXT, type LinkageColumns, type LinkageText } from '../linkage/features.js';
import type { LinkageTextChunk } from '../linkage/linkage-text.js';
import type { LinkageSummary } from '../../domain/store-schema.js';
import type { LinkageResult } from '../linkage/types.js';
import type { ReportLinkRow } from '../../domain/store-schema.js';
import type { ReportDetails } from '../vaers/report-details.js';
import { textChunks, TEXT_CHUNK_REPORTS } from '../vaers/text-chunks.js';
import type { Progress } from './progress.js';

/** What the linkage step leaves for the store. */
export interface LinkageOutcome {
  /** The linkage's figures, or null when it failed. */
  summary: LinkageSummary | null;
  /** Its links by VAERS_ID (`vaers_id` the report read first), each once. */
  links: ReportLinkRow[];
  /** Why the linkage failed (its error's message), or null. */
  warning: string | null;
}

/**
 * Sets `details.cluster` from a linkage result: for a report of a cluster of two or more, its
 * representative's VAERS_ID (the representative's own id for itself); NaN for the others.
 */
export function setClusters(details: ReportDetails, result: Pick<LinkageResult, 'representative'>): void {
  const { representative } = result;
  const members = new Int32Array(details.count);
  for (let i = 0; i < details.count; i++) members[representative[i]]++;
  for (let i = 0; i < details.count; i++) {
    const rep = representative[i];
    details.cluster[i] = rep !== i || members[i] > 1 ? details.id[rep] : NaN;
  }
}

/**
 * Runs the linkage over the kept reports (progress phase `link`), sets their clusters and gives
 * the links by VAERS_ID. A thrown error, or a result whose `representative` does not cover every
 * report, is caught: `warn` gets one line, clusters stay NaN, and the outcome has no links.
 */
export function linkDuplicates(details: ReportDetails, progress: Progress, warn: (line: string) => void): LinkageOutcome {
  progress.start('link', details.count, 'reports');
  let result: LinkageResult | Error;
  try {
    result = linkReports(details);
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  try {
    return applyLinkage(details, result, warn);
  } finally {
    progress.end();
  }
}

/** Sets the clusters from a linkage result (or from its failure: `result` an Error) and gives the outcome (see linkDuplicates). */
function applyLinkage(details: ReportDetails, result: LinkageResult | Error, warn: (line: string) => void): LinkageOutcome {
  try {
    if (result instanceof Error) throw result;
    if (result.representative.length !== details.count) throw new Error(`representative has ${result.representative.length} entries for ${details.count} reports`);
    setClusters(details, result);
    const links = result.links.map((l): ReportLinkRow => ({ vaers_id: details.id[l.a], linked_vaers_id: details.id[l.b], weight: l.weight, agreed: [...l.agreed] }));
    return { summary: result.summary, links, warning: null };
  } catch (error) {
    details.cluster.fill(NaN);
    const warning = `duplicate-report linkage failed, the build goes on without links: ${(error as Error).message ?? String(error)}`;
    warn(`build: warning: ${warning}\n`);
    return { summary: null, links: [], warning };
  }
}

/**
 * The report columns the linkage reads (features.ts LinkageColumns), taken from the build's
 * `details` without copying: what linkInWorker hands its thread (a structured clone copies only
 * these, not every report column) and what the linkage benchmarks cache. The text (`narrative`,
 * `otherMeds`) is `details`' own arrays: null when the build keeps it in its scratch file
 * (`details.text`; withLinkageText reads it).
 */
export function linkageColumnsOf(d: ReportDetails): LinkageColumns {
  return {
    count: d.count, id: d.id, received: d.received, age: d.age, sex: d.sex, state: d.state, vaxDate: d.vaxDate, onsetDate: d.onsetDate,
    splttype: d.splttype, narrative: d.narrative, otherMeds: d.otherMeds, history: d.history, priorVax: d.priorVax, rptDate: d.rptDate, strings: d.strings,
    vaccines: { start: d.vaccines.start, name: d.vaccines.name, lot: d.vaccines.lot, dose: d.vaccines.dose, site: d.vaccines.site }, events: { start: d.events.start, term: d.events.term },
  };
}

/**
 * `details` with its linkage text (narrative, OTHER_MEDS) as arrays, read back from the build's
 * scratch file when `details.text` holds it (report-text.ts), for the linkage on this thread
 * (`@dedup`: linkDuplicates): a shallow copy, sharing `details`' arrays (the clusters are set in
 * `details.cluster` itself); `details` as it is when it holds no scratch file.
 */
export async function withLinkageText(details: ReportDetails): Promise<ReportDetails> {
  if (!details.text) return details;
  const text = Object.fromEntries(LINKAGE_TEXT.map((field) => [field, [] as Array<string | null>])) as Record<LinkageText, Array<string | null>>;
  for await (const chunk of textChunks(details, LINKAGE_TEXT, TEXT_CHUNK)) {
    for (const field of LINKAGE_TEXT) for (const value of chunk.columns[field]!) text[field].push(value);
  }
  return { ...details, ...text };
}

/** Reports whose text (LINKAGE_TEXT) goes to the linkage worker in one message (sendColumns). */
export const TEXT_CHUNK = TEXT_CHUNK_REPORTS;
/** The longest sendColumns waits for the worker to take a chunk before it sends the rest without waiting (ms). */
const TEXT_WAIT_MS = 5_000;

/** A message of text to the linkage worker (after LinkageStart): LINKAGE_TEXT's values of the reports from `start` on (a column null: blank). */
export type LinkageTextMessage = { start: number } & LinkageTextChunk;

/**
 * The first message to the linkage worker (linkage-worker.ts): the columns without their text,
 * the number of text messages that follow (each LINKAGE_TEXT's values for the next TEXT_CHUNK
 * reports, either null when the column is), and the counter the worker raises as it takes each.
 */
export interface LinkageStart {
  columns: LinkageColumns;
  textChunks: number;
  taken: SharedArrayBuffer;
}

/**
 * Sends the linkage's columns of `details` to its worker: a structured clone copies them, and the
 * clone of the text (the narratives and OTHER_MEDS, most of the bytes) is made message by message,
 * `textChunk` reports each (TEXT_CHUNK in a build), read from `details`' arrays or from the
 * build's scratch file (report-text.ts textChunks: this thread never holds the whole text), with
 * at most two messages waiting in the worker's queue (this thread waits, Atomics.wait, for the
 * worker to take the one before; after TEXT_WAIT_MS without it, the rest is sent at once): so the
 * serialized text waiting in the queue is two chunks, not a second copy of every narrative; the
 * worker reads each chunk's values as it comes and lets the chunk go (linkage-worker.ts), so it
 * holds no copy of the whole text either (docs/architecture.md "Scale").
 */
async function sendColumns(worker: Worker, details: ReportDetails, columns: LinkageColumns, textChunk: number): Promise<void> {
  const kept = LINKAGE_TEXT.some((field) => !!details[field]) || !!details.text;
  const chunks = kept ? Math.ceil(columns.count / textChunk) : 0;
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const start: LinkageStart = { columns: { ...columns, narrative: null, otherMeds: null, history: null, priorVax: null }, textChunks: chunks, taken: taken.buffer as SharedArrayBuffer };
  worker.postMessage(start);
  if (chunks === 0) return;
  let wait = true;
  let k = 0;
  for await (const chunk of textChunks(details, LINKAGE_TEXT, textChunk)) {
    for (let seen = Atomics.load(taken, 0); wait && seen < k - 1; seen = Atomics.load(taken, 0)) {
      if (Atomics.wait(taken, 0, seen, TEXT_WAIT_MS) === 'timed-out') wait = false;
    }
    const message: LinkageTextMessage = { start: chunk.start, ...Object.fromEntries(LINKAGE_TEXT.map((field) => [field, chunk.columns[field]])) };
    worker.postMessage(message);
    k++;
  }
}

/** The linkage worker's entry (`.ts` through worker-boot.mjs under tsx and vitest, `.js` compiled; as pool.ts). */
function startLinkageWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./worker-boot.mjs', import.meta.url), { workerData: { entry: new URL('./linkage-worker.ts', import.meta.url).href } });
  }
  return new Worker(new URL('./linkage-worker.js', import.meta.url));
}

/**
 * linkDuplicates in a worker thread (linkage-worker.ts), so that the main thread and the pool
 * work meanwhile: the linkage's columns of `details` (linkageColumnsOf) are copied to the worker
 * (sendColumns: the text in chunks, from the build's scratch file when `details.text` holds it;
 * resolved once the last chunk is sent); the returned `result()` waits for the linkage, then
 * sets the clusters as linkDuplicates does (same outcome, same warning on a failure, the worker's
 * own failure and a failed read of the text included). Progress phase `link` spans the wait in
 * `result()`. `cancel()` ends the worker without waiting for its answer (a build that fails
 * before `result()` calls it, else the thread keeps the process alive). `textChunk`: reports per message of text (sendColumns; tests give a small one).
 */
export async function linkInWorker(details: ReportDetails, progress: Progress, warn: (line: string) => void, textChunk = TEXT_CHUNK): Promise<{ result: () => Promise<LinkageOutcome>; cancel: () => Promise<void> }> {
  const worker = startLinkageWorker();
  let columns: LinkageColumns | Error;
  try {
    columns = linkageColumnsOf(details);
  } catch (error) {
    // Columns missing: a failure of the linkage like any other (the build goes on without links).
    columns = error instanceof Error ? error : new Error(String(error));
  }
  const answer = columns instanceof Error ? Promise.resolve(columns) : new Promise<LinkageResult | Error>((resolve) => {
    worker.once('message', (m: { ok: true } & LinkageResult | { ok: false; message: string }) => resolve(m.ok ? m : new Error(m.message)));
    worker.once('error', (error) => resolve(error));
    worker.once('exit', (code) => resolve(new Error(`the linkage worker thread exited with code ${code}`)));
  });
  let sendError: Error | null = null;
  if (!(columns instanceof Error)) {
    try {
      await sendColumns(worker, details, columns, textChunk);
    } catch (error) {
      // The text could not be read: a failure of the linkage like any other (the worker is ended).
      sendError = error instanceof Error ? error : new Error(String(error));
    }
  }
  return {
    result: async () => {
      progress.start('link', 0, '');
      try {
        return applyLinkage(details, sendError ?? await answer, warn);
      } finally {
        progress.end();
        await worker.terminate();
      }
    },
    cancel: async () => {
      await worker.terminate();
    },
  };
}
