/**
 * Memory probe of the real server: the all-distinct /signals workload at 64
 * connections for SECONDS_RUN seconds (default 240), printing every 15 s the server's RSS, V8
 * heap used and total, and external memory (Buffers) in MB, from its /metrics. Tells a cache
 * filling up (heap or external growing, then flat) from memory held elsewhere (RSS growing alone).
 *
 * Run: npm run build && SECONDS_RUN=240 npx tsx bench/mem-probe.ts [--store FILE]
 */
import { benchTarget, distinctPaths, drive, startServer, workload } from './serve.js';
const { cli, storePath } = await benchTarget();
const { urls, series } = await workload(storePath);
const server = await startServer(cli, storePath, urls[0]);
const seconds = Number(process.env.SECONDS_RUN ?? 240);
const sample = async () => {
  const t = await (await fetch(`${server.base}/metrics`)).text();
  const v = (n: string) => Math.round(Number(new RegExp(`^${n} ([0-9.e+]+)`, 'm').exec(t)?.[1] ?? NaN) / 1048576);
  console.log(JSON.stringify({ rss: v('process_resident_memory_bytes'), heapUsed: v('nodejs_heap_size_used_bytes'), heapTotal: v('nodejs_heap_size_total_bytes'), external: v('nodejs_external_memory_bytes') }));
};
const timer = setInterval(() => void sample(), 15_000);
await drive(server.base, 64, seconds, distinctPaths(urls, series));
clearInterval(timer);
await sample();
server.stop();
