/**
 * Worker thread of the build's duplicate-report linkage (linkage-step.ts `linkInWorker`): it
 * receives the linkage's report columns (a structured clone of linkage-step.ts `linkageColumnsOf`: the
 * columns first, without their text, then the text in chunks, linkage-step.ts sendColumns), takes
 * each chunk as it arrives and reads its text values and patient evidence, a chunk a turn, letting
 * it go once read (src/ingest/linkage/linkage-text.ts: the thread holds only the chunks not read
 * yet, never the whole text unless the text comes much faster than it is read), then runs
 * src/ingest/linkage `linkReports` on them and answers `{ok: true, representative, links,
 * summary}` (`representative` transferred), or `{ok: false, message}` when the linkage threw. It
 * runs while the main thread counts and the pool fits (build.ts), so both cores work meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { linkReports } from '../linkage/link.js';
import { LinkageTextReader } from '../linkage/linkage-text.js';
import type { LinkageStart, LinkageTextMessage } from './linkage-step.js';

let start: LinkageStart | null = null;
let text: LinkageTextReader | null = null;
let taken: Int32Array;
let failure: Error | null = null;

function run(start: LinkageStart): void {
  try {
    if (failure) throw failure;
    const result = linkReports(start.columns, text ? { text } : {});
    parentPort!.postMessage({ ok: true, representative: result.representative, links: result.links, summary: result.summary }, [result.representative.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
}

/**
 * Reads the oldest chunk waiting, one chunk a turn of the event loop (setImmediate), so that the
 * messages are taken as they come (the sender waits for that, linkage-step.ts sendColumns) while
 * the chunks are read: only the chunks not read yet are held, and the linkage runs after the last.
 */
function readNext(): void {
  const message = waiting.shift();
  if (message === undefined) return;
  const { start: from, ...chunk } = message;
  try {
    if (!failure) text!.read(from, chunk);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  read++;
  if (read === start!.textChunks) run(start!);
  else if (waiting.length > 0) setImmediate(readNext);
}

const waiting: LinkageTextMessage[] = [];
let read = 0;

parentPort!.on('message', (message: LinkageStart | LinkageTextMessage) => {
  if (start === null) {
    start = message as LinkageStart;
    taken = new Int32Array(start.taken);
    if (start.textChunks > 0) text = new LinkageTextReader(start.columns.count);
    else run(start);
    return;
  }
  waiting.push(message as LinkageTextMessage);
  if (waiting.length === 1) setImmediate(readNext);
  Atomics.add(taken, 0, 1);
  Atomics.notify(taken, 0);
});
