/**
 * Worker thread of the build's duplicate-report linkage (linkage-step.ts `linkInWorker`): it
 * receives the linkage's report columns (a structured clone of linkage-step.ts `linkageColumnsOf`: the
 * columns first, without their text, then the text in chunks, linkage-step.ts sendColumns), reads
 * each chunk's text values and patient evidence as it arrives and lets the chunk go
 * (src/ingest/linkage/linkage-text.ts: the thread never holds the whole text), then runs
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
let received = 0;
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

parentPort!.on('message', (message: LinkageStart | LinkageTextMessage) => {
  if (start === null) {
    start = message as LinkageStart;
    taken = new Int32Array(start.taken);
    if (start.textChunks > 0) text = new LinkageTextReader(start.columns.count);
  } else {
    const { start: from, ...chunk } = message as LinkageTextMessage;
    try {
      if (!failure) text!.read(from, chunk);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    received++;
    Atomics.add(taken, 0, 1);
    Atomics.notify(taken, 0);
  }
  if (received === start.textChunks) run(start);
});
