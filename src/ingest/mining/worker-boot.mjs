/* global process, URL */
// Worker bootstrap for running from TypeScript sources (vitest, tsx): registers tsx in the
// worker thread, then loads the worker entry given in workerData.entry. The compiled build
// (dist/) starts dist/mining/worker.js directly and never uses this file.
// When the test run has just compiled dist/ from these very sources (test/global-setup.ts sets
// REPORTING_SIGNALS_COMPILED_WORKERS=1 after `scripts/build.mjs --if-stale`), a thread whose entry
// lies under src/ loads the entry's compiled file under dist/ instead (same path, .js for .ts):
// tsx would compile the worker's modules anew in every thread (about 0.5 s of CPU each, a hundred
// threads in a run of the suite). Other entries (the tests' own workers), and an entry whose
// compiled file is missing (a child process running another checkout), go through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

/** src/ and dist/ of this checkout (this file is src/ingest/mining/worker-boot.mjs). */
const source = new URL('../../', import.meta.url).href;
const compiled = new URL('../../../dist/', import.meta.url).href;
const target = workerData.entry.startsWith(source) ? `${compiled}${workerData.entry.slice(source.length).replace(/\.ts$/, '.js')}` : null;
if (process.env.REPORTING_SIGNALS_COMPILED_WORKERS === '1' && target !== null && existsSync(fileURLToPath(target))) {
  await import(target);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.entry);
}
