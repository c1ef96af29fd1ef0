/**
 * Worker thread of the build's duplicate-report linkage (linkage-step.ts `linkInWorker`): it
 * receives the read's report columns (a structured clone of `ReportDetails`), runs
 * src/ingest/linkage `linkReports` on them and answers `{ok: true, representative, links,
 * summary}` (`representative` transferred), or `{ok: false, message}` when the linkage threw. It
 * runs while the main thread counts and the pool fits (build.ts), so both cores work meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { linkReports } from '../linkage/link.js';
import type { ReportDetails } from '../vaers/report-details.js';

parentPort!.once('message', (details: ReportDetails) => {
  try {
    const result = linkReports(details);
    parentPort!.postMessage({ ok: true, representative: result.representative, links: result.links, summary: result.summary }, [result.representative.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
});
