/**
 * Benchmark of the default store's first start: `node dist/cli.js serve` (what
 * `npm start` runs) with an empty cache folder (a fresh temporary REPORTING_SIGNALS_CACHE_DIR),
 * timed from spawn to the port open and to `/readyz` 200 (the build of every default analysis
 * and the report tables, then the load); then a second start on the same cache (a cache hit),
 * timed to `/readyz` 200; and each serving process's memory with everything loaded (from /metrics:
 * RSS, V8's heap and external memory, after a few requests): the first start's process has built and
 * served the first analysis's store before the full one, the cache hit's has loaded the full store only. Prints the figures; asserts nothing.
 * Targets (issue 41, on 2 cores, quiet): first start <= 60 s to ready, cached start <= 3 s, RSS <= 600 MB (the earlier
 * targets were 90 s and 10 s); "ready" read here as the default analysis answering, /readyz (every analysis) printed beside.
 *
 * Run: npm run build && npx tsx bench/first-start.ts [--keep]   (--keep leaves the cache folder)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = mkdtempSync(path.join(tmpdir(), 'rs-first-start-'));

/** Starts serve on the cache; resolves with the process, its URL and the seconds to listening. */
function start(): Promise<{ child: ChildProcess; base: string; listen: number; t0: number; log: () => string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'serve', '--port', '0'], {
    cwd: repoRoot, env: { ...process.env, REPORTING_SIGNALS_CACHE_DIR: cache }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (found) resolve({ child, base: found[1], listen: (performance.now() - t0) / 1000, t0, log: () => out });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out.slice(-2000)}`)));
  });
}

/**
 * Seconds from spawn to `/readyz` 200 (every analysis and the case series loaded), and to the
 * default analysis answering (`/readyz` lists it as ready: on a first start, the build's first
 * analysis is served while the others are built).
 */
async function ready(base: string, t0: number): Promise<{ all: number; first: number }> {
  let first = Number.NaN;
  for (;;) {
    const answer = await fetch(`${base}/readyz`).then(async (r) => ({ status: r.status, body: await r.json().catch(() => ({})) as { analyses?: { ready?: string[] } } }), () => ({ status: 0, body: {} as { analyses?: { ready?: string[] } } }));
    const seconds = (performance.now() - t0) / 1000;
    if (Number.isNaN(first) && (answer.status === 200 || (answer.body.analyses?.ready ?? []).includes('all'))) first = seconds;
    if (answer.status === 200) return { all: seconds, first };
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const exit = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exit;
}

/** The load average (1, 5, 15 min) as printed beside every figure. */
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadBefore = load();
const first = await start();
const firstReady = await ready(first.base, first.t0);
/**
 * The serving process's memory after a few requests that load everything (every analysis, the case
 * series, the narrative index): RSS, and V8's heap (used, total) and external memory, in MiB (/metrics).
 */
async function memory(base: string): Promise<string> {
  for (const url of ['/signals?limit=5', '/cases?vaccine=ROTAVIRUS', '/cases?q=seizure', '/vaccines', '/analyses/serious/signals?limit=5']) await fetch(`${base}${url}`);
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const mib = (name: string): string => (Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20).toFixed(0);
  return `RSS ${mib('process_resident_memory_bytes')} MiB (V8 heap used ${mib('nodejs_heap_size_used_bytes')} of ${mib('nodejs_heap_size_total_bytes')} MiB, external ${mib('nodejs_external_memory_bytes')} MiB)`;
}
const firstMemory = await memory(first.base);
const firstLoad = load();
const buildLines = first.log().split('\n').filter((line) => /(: done in [\d.]+ s|^build: wrote|cpu )/.test(line));
await stop(first.child);
const second = await start();
const secondReady = await ready(second.base, second.t0);
const secondMemory = await memory(second.base);
const secondLoad = load();
await stop(second.child);
if (!process.argv.includes('--keep')) rmSync(cache, { recursive: true, force: true });

console.log(`build phases of the first start (wall time; the builder's last line gives its CPU time):\n  ${buildLines.join('\n  ')}`);
console.log(`load average (1/5/15 min): before ${loadBefore}, after the first start ${firstLoad}, after the cache hit ${secondLoad} (2 cores)`);
console.log(`first start (empty cache): port open ${first.listen.toFixed(1)} s, default analysis answers after ${firstReady.first.toFixed(1)} s (target <= 60 s), /readyz 200 (every analysis) after ${firstReady.all.toFixed(1)} s`);
console.log(`cache hit:                 port open ${second.listen.toFixed(1)} s, default analysis answers after ${secondReady.first.toFixed(1)} s (target <= 3 s), /readyz 200 after ${secondReady.all.toFixed(1)} s`);
console.log(`serving memory, everything loaded (target RSS <= 600 MB): after the first start ${firstMemory}; after the cache hit ${secondMemory}`);
