/**
 * Benchmark of the bulk export (GET /analyses/NAME/export, GET /export): serves the default store
 * (built into the cache when absent, unless --store) on a local port and downloads every table of
 * every analysis in both formats with fetch, printing per download the bytes, the time to the
 * first byte and the total time, and the server's peak RSS. Asserts nothing.
 *
 * Run: npx tsx bench/export.ts [--store FILE] [--analyses all,types]
 */
import { parseArgs } from 'node:util';
import { defaultStorePath } from '../src/cache/default-store.js';
import { buildApp } from '../src/http/app.js';

const { values } = parseArgs({ options: { store: { type: 'string' }, analyses: { type: 'string' } } });
const app = await buildApp({ storePath: values.store ?? await defaultStorePath((line) => console.error(line)) });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
while ((await app.inject({ url: '/readyz' })).statusCode !== 200) await new Promise((done) => setTimeout(done, 200));
const names: string[] = values.analyses ? values.analyses.split(',') : (await app.inject({ url: '/analyses' })).json().analyses.map((a: { name: string }) => a.name);
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);

/** Downloads `path`, counting bytes as they come: [bytes, ms to the first byte, ms in all]. */
async function download(path: string): Promise<[number, number, number]> {
  const started = performance.now();
  const res = await fetch(base + path);
  const first = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.length;
  return [bytes, first, performance.now() - started];
}

const paths = [
  ...names.flatMap((name) => ['pairs', 'quarterly'].map((table) => [`${name} ${table}`, `/analyses/${name}/export?table=${table}`])),
  ...['reports', 'report_vaccines', 'report_events'].map((table) => [table, `/export?table=${table}`]),
];
for (const [label, path] of paths) {
  for (const format of ['csv', 'parquet']) {
    const [bytes, first, total] = await download(`${path}&format=${format}`);
    console.log(`${label.padEnd(22)} ${format.padEnd(8)} ${String(bytes).padStart(11)} bytes  first byte ${(first / 1000).toFixed(2)} s  total ${(total / 1000).toFixed(2)} s`);
  }
}
clearInterval(sampler);
console.log(`server peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (one process: the bench and the server)`);
await app.close();
