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
