/**
 * Benchmark of the duplicate-report linkage's size (issue 41, "Linkage as a stream"): links the
 * reports of a download (src/ingest/linkage/link.ts linkReports) and prints its wall and CPU
 * seconds, the process's resident memory before the linkage (its columns read) and its peak
 * during the linkage (VmRSS sampled every 20 ms by a thread of its own, so the synchronous
 * linkage is sampled too), the candidate pairs and the pairs kept past the lower bound, the
 * links, clusters and reports folded, and a SHA-256 digest of the result (each report's
 * representative, the links, the summary without its seconds) to compare two versions of the
 * code on the same data. Asserts nothing.
 *
 * Figures (shared 2-core machine, load 3-4.5, 2026-11-28; before: the linkage holding every
 * candidate pair, after: the stream of issue 41; same digests):
 *   data/vaers (203,445 reports, 9,970,511 candidate pairs; 56,274 held, 1,530 kept):
 *     17.1 s, 16.3 s CPU, +676 MiB before; 12.4 s, 12.6 s CPU, +191 MiB after.
 *   10% sample (398,038 reports, 24,496,760 candidate pairs; 60,219 held, 2,021 kept):
 *     37.9 s, 39.2 s CPU, +1,482 MiB before; 35.7 s, 32.3 s CPU, +268 MiB after.
 *
 * Run: nice -n 10 npx tsx --expose-gc bench/linkage-size.ts [--vaers DIR] [--cache FILE]
 *   --vaers  the download (default data/vaers; e.g. ~/.cache/reporting-signals-bench/full-29-0.1)
 *   --cache  a v8-serialised copy of the linkage columns (bench/linkage-columns.ts), written on the first run
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { linkReports } from '../src/ingest/linkage/link.js';
import { realLinkageColumns } from './linkage-columns.js';

const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' } } });

/** VmRSS of this process, MiB. */
function rssMiB(): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
}

const columns = await realLinkageColumns(values.vaers!, values.cache);
(globalThis as { gc?: () => void }).gc?.();
const before = rssMiB();
// The sampler: a thread that keeps the highest VmRSS seen (kB) in shared memory.
const peak = new Int32Array(new SharedArrayBuffer(8));
const sampler = new Worker(`
  const { workerData } = require('node:worker_threads');
  const { readFileSync } = require('node:fs');
  const peak = workerData;
  setInterval(() => {
    const kb = Number(/VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
    if (kb > Atomics.load(peak, 0)) Atomics.store(peak, 0, kb);
    Atomics.add(peak, 1, 1);
  }, 20);
`, { eval: true, workerData: peak });
while (Atomics.load(peak, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
const cpu = process.cpuUsage();
const started = performance.now();
// As the build's linkage thread, which owns its copy of the columns (linkage-worker.ts).
const result = linkReports(columns, { releaseText: true });
const wall = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
await new Promise((resolve) => setTimeout(resolve, 50));
await sampler.terminate();
const { seconds: _seconds, ...figures } = result.summary;
const digest = createHash('sha256').update(new Uint8Array(result.representative.buffer)).update(JSON.stringify(result.links)).update(JSON.stringify(figures)).digest('hex');
const s = result.summary;
console.log(`reports ${s.reports}; candidate pairs ${s.candidate_pairs}; pairs held ${'heldPairs' in result ? String(result.heldPairs) : 'all'}, kept ${'keptPairs' in result ? String(result.keptPairs) : 'all'}; links ${s.links}; clusters ${s.clusters}; reports folded ${s.reports_folded}`);
console.log(`link: wall ${wall.toFixed(1)} s, cpu ${((used.user + used.system) / 1e6).toFixed(1)} s; RSS before ${before.toFixed(0)} MiB, peak during ${(Atomics.load(peak, 0) / 1024).toFixed(0)} MiB (+${(Atomics.load(peak, 0) / 1024 - before).toFixed(0)})`);
console.log(`digest ${digest}`);
