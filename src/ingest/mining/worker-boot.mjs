// Worker bootstrap for running from TypeScript sources (vitest, tsx): registers tsx in the
// worker thread, then loads the worker entry given in workerData.entry. The compiled build
// (dist/) starts dist/mining/worker.js directly and never uses this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
