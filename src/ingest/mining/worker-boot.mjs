/* global process */
// Worker bootstrap for running from TypeScript sources (vitest, tsx): registers tsx in the
// worker thread, then loads the worker entry given in workerData.entry. The compiled build
// (dist/) starts dist/mining/worker.js directly and never uses this file.
// When the test run has just compiled dist/ from these very sources (test/global-setup.ts sets
// REPORTING_SIGNALS_COMPILED_WORKERS=1 after `scripts/build.mjs --if-stale`), the thread loads the
// entry's compiled file instead (src/x.ts -> dist/x.js): tsx would compile the worker's modules
// anew in every thread (about 0.5 s of CPU each, a hundred threads in a run of the suite).
import { workerData } from 'node:worker_threads';

if (process.env.REPORTING_SIGNALS_COMPILED_WORKERS === '1') {
  const at = workerData.entry.lastIndexOf('/src/');
  await import(`${workerData.entry.slice(0, at)}/dist/${workerData.entry.slice(at + 5).replace(/\.ts$/, '.js')}`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.entry);
}
