/**
 * Benchmark of the VAERS reader: `npx tsx bench/ingest.ts [dir]` (default ../shared/data/vaers
 * relative to the repo root). Prints records read, reports kept, skips by reason, reports/s,
 * wall time and peak RSS. Prints figures only; asserts nothing.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readVaers } from '../src/ingest/vaers/read.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dir = process.argv[2] ?? resolve(repoRoot, '..', 'shared', 'data', 'vaers');

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);

const start = process.hrtime.bigint();
const data = await readVaers(dir, {
  includeNondomestic: process.argv.includes('--include-nondomestic'),
  onProgress: () => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  },
});
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());

const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;
console.log(`folder          ${dir}`);
console.log(`source files    ${data.sources.length} (${mib(data.sources.reduce((s, f) => s + f.bytes, 0))} on disk)`);
console.log(`DATA records    ${data.reportsRead}`);
console.log(`reports kept    ${data.reports.length}`);
console.log(`vaccines        ${data.vaccines.length}`);
console.log(`events          ${data.events.length}`);
for (const s of data.skipped) console.log(`skipped         ${s.count}  ${s.reason}  e.g. ${s.examples.slice(0, 2).join('; ')}`);
if (data.skipped.length === 0) console.log('skipped         0');
console.log(`wall time       ${seconds.toFixed(2)} s`);
console.log(`reports/s       ${Math.round(data.reportsRead / seconds)}`);
console.log(`peak RSS        ${mib(peakRss)}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  const heap = process.memoryUsage().heapUsed;
  console.log(`heap after GC   ${mib(heap)} with the result alive (${Math.round(heap / Math.max(1, data.reports.length))} bytes per kept report, all included)`);
} else {
  console.log('heap after GC   (run with NODE_OPTIONS=--expose-gc to measure)');
}
