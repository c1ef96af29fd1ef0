/**
 * Reliability benchmarks of the real server (swap under load, 10-minute soak), printing figures and asserting nothing:
 * 1. swap under load: the realistic /signals workload at 32 connections while the server gets
 *    `--swaps` SIGHUPs 10 s apart (each reloads the store beside the current one and swaps it
 *    in): requests, failed requests (errors), non-2xx answers and latency across the swaps. (That
 *    the headers change with a different store is the test suite's: test/operations/process.test.ts.)
 * 2. soak: `--minutes` (default 10) at 64 connections over all-distinct URLs (the answer caches
 *    never hit), the server's RSS sampled every 10 s; flat when the mean of the last minute is
 *    within 10 % of the mean of the third minute; errors and non-2xx counted.
 *
 * Run: npm run build && npx tsx bench/soak.ts [--store FILE] [--minutes M] [--swaps K] [--skip-soak]
 */
import { readFileSync } from 'node:fs';
import { arg, benchTarget, distinctPaths, drive, startServer, workload } from './serve.js';

/** Current RSS (VmRSS) of a process in MB, or null. */
function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

async function main(): Promise<void> {
  const { cli, storePath } = await benchTarget();
  const { urls, series } = await workload(storePath);
  const popular = urls.slice(0, 200);
  const server = await startServer(cli, storePath, popular[0]);
  try {
    // 1. Swap under load.
    const swaps = Number(arg('swaps') ?? 3);
    const swapSeconds = 10 + swaps * 10;
    let i = 0;
    const timers: NodeJS.Timeout[] = [];
    for (let k = 0; k < swaps; k++) timers.push(setTimeout(() => process.kill(server.pid, 'SIGHUP'), 5_000 + k * 10_000));
    const buildsBefore = (await (await fetch(`${server.base}/readyz`)).json()) as { store_build: string };
    const loadsBefore = await loads(server.base);
    const swapRun = await drive(server.base, 32, swapSeconds, () => popular[i++ % popular.length]);
    timers.forEach(clearTimeout);
    const loadsAfter = await loads(server.base);
    console.log(JSON.stringify({
      swap_under_load: {
        connections: 32, seconds: swapSeconds, sighups: swaps, reloads_ok: loadsAfter.ok - loadsBefore.ok, reloads_failed: loadsAfter.failed - loadsBefore.failed,
        requests: swapRun.requests.total, errors: swapRun.errors, non2xx: swapRun.non2xx, rps: Math.round(swapRun.requests.average),
        p50_ms: swapRun.latency.p50, p99_ms: swapRun.latency.p99, store_build: buildsBefore.store_build,
      },
    }, null, 2));

    // 2. Soak.
    if (process.argv.includes('--skip-soak')) return;
    const minutes = Number(arg('minutes') ?? 10);
    const samples: Array<{ s: number; rss_mb: number | null }> = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ s: Math.round((Date.now() - started) / 1000), rss_mb: rssMb(server.pid) }), 10_000);
    const soak = await drive(server.base, 64, minutes * 60, distinctPaths(urls, series));
    clearInterval(sampler);
    const rss = (from: number, to: number) => mean(samples.filter((x) => x.s > from && x.s <= to && x.rss_mb !== null).map((x) => x.rss_mb!));
    const third = rss(120, 180);
    const last = rss((minutes - 1) * 60, minutes * 60);
    console.log(JSON.stringify({
      soak: {
        connections: 64, minutes, workload: 'all-distinct URLs', requests: soak.requests.total, errors: soak.errors, non2xx: soak.non2xx,
        rps: Math.round(soak.requests.average), p50_ms: soak.latency.p50, p99_ms: soak.latency.p99,
        rss_third_minute_mb: Number(third.toFixed(1)), rss_last_minute_mb: Number(last.toFixed(1)),
        rss_change: Number(((last - third) / third).toFixed(3)), flat: Math.abs(last - third) <= 0.1 * third,
        rss_samples_mb: samples.map((x) => (x.rss_mb === null ? null : Math.round(x.rss_mb))),
      },
    }, null, 2));
  } finally {
    server.stop();
  }
}

/** The store loads counted by /metrics (ok, failed). */
async function loads(base: string): Promise<{ ok: number; failed: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (result: string) => Number(new RegExp(`^reporting_signals_store_loads_total\\{result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { ok: value('ok'), failed: value('failed') };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
