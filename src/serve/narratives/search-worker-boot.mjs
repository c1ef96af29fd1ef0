/* global process, URL */
// Worker bootstrap of the text search pool when running from TypeScript sources (vitest, tsx):
// registers tsx in the worker thread, then re-exports the worker function. The compiled build
// (dist/) starts dist/serve/narratives/search-worker.js directly and never uses this file.
// Under a test run that has just compiled dist/ (REPORTING_SIGNALS_COMPILED_WORKERS=1, as
// src/ingest/mining/worker-boot.mjs), the thread loads that compiled worker (when it exists) instead
// of compiling.
import { existsSync } from 'node:fs';

const compiled = new URL('../../../dist/serve/narratives/search-worker.js', import.meta.url);
const worker = process.env.REPORTING_SIGNALS_COMPILED_WORKERS === '1' && existsSync(compiled)
  ? await import(compiled.href)
  : await import('tsx/esm/api').then(({ register }) => { register(); return import('./search-worker.ts'); });
export default worker.default;
