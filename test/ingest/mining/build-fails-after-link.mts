/**
 * Run by build-failure.test.ts as its own process: a --narratives build of the case fixture whose
 * second read of the scratch text (the triage evidence's, after the linkage thread has its text)
 * fails. Prints the build's error, then returns without process.exit: the process must end by itself.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { ReportText } from '../../../src/ingest/vaers/report-text.js';
import { CASE_REPORTS, writeCaseFolder } from '../../serve/cases/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-build-fails-'));
const vaers = await writeCaseFolder(join(dir, 'vaers'), {}, CASE_REPORTS);
let reads = 0;
const read = ReportText.prototype.read;
ReportText.prototype.read = function (this: ReportText, ...args: Parameters<typeof read>) {
  if (++reads === 2) return Promise.reject(new Error('IO Error: simulated read failure'));
  return read.apply(this, args);
} as typeof read;
try {
  await buildStore({ vaers, out: join(dir, 'store.duckdb'), narratives: true, workers: 1 });
  console.log('built');
} catch (error) {
  console.log(`failed: ${(error as Error).message} (reads ${reads})`);
}
