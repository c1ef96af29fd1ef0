/**
 * Worker thread of the build's duplicate-report linkage (linkage-step.ts `linkInWorker`): it
 * receives the linkage's report columns (a structured clone of linkage-step.ts `linkageColumnsOf`: the
 * columns first, then their text in chunks, linkage-step.ts sendColumns), runs
 * src/ingest/linkage `linkReports` on them and answers `{ok: true, representative, links,
 * summary}` (`representative` transferred), or `{ok: false, message}` when the linkage threw. It
 * runs while the main thread counts and the pool fits (build.ts), so both cores work meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { linkReports } from '../linkage/link.js';
import { LINKAGE_TEXT, type LinkageText } from '../linkage/features.js';
import type { LinkageStart } from './linkage-step.js';

type Text = Array<string | null> | null;
let start: LinkageStart | null = null;
let received = 0;
let taken: Int32Array;

function run(start: LinkageStart): void {
  try {
    // This thread's copy of the columns: the linkage may free their text once read.
    const result = linkReports(start.columns, { releaseText: true });
    parentPort!.postMessage({ ok: true, representative: result.representative, links: result.links, summary: result.summary }, [result.representative.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
}

/** Appends a chunk of text to this thread's column (created at the first chunk; null when the chunk's is). */
function append(into: Text | undefined, chunk: Text): Text {
  if (chunk === null) return null;
  const column = into ?? [];
  for (const value of chunk) column.push(value);
  return column;
}

parentPort!.on('message', (message: LinkageStart | Record<LinkageText, Text>) => {
  if (start === null) {
    start = message as LinkageStart;
    taken = new Int32Array(start.taken);
  } else {
    const chunk = message as Record<LinkageText, Text>;
    const { columns } = start;
    for (const field of LINKAGE_TEXT) columns[field] = append(received === 0 ? undefined : columns[field], chunk[field]);
    received++;
    Atomics.add(taken, 0, 1);
    Atomics.notify(taken, 0);
  }
  if (received === start.textChunks) run(start);
});
