/**
 * Worker thread of the build's duplicate-report linkage (linkage-step.ts `linkInWorker`): it
 * receives the linkage's report columns (a structured clone of linkage-step.ts `linkageColumnsOf`), runs
 * src/ingest/linkage `linkReports` on them and answers `{ok: true, representative, links,
 * summary}` (`representative` transferred), or `{ok: false, message}` when the linkage threw. It
 * runs while the main thread counts and the pool fits (build.ts), so both cores work meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { linkReports } from '../linkage/link.js';
import type { LinkageColumns } from '../linkage/features.js';

parentPort!.once('message', (details: LinkageColumns) => {
  try {
    // This thread's copy of the columns: the linkage may free their text once read.
    const result = linkReports(details, { releaseText: true });
    parentPort!.postMessage({ ok: true, representative: result.representative, links: result.links, summary: result.summary }, [result.representative.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
});
