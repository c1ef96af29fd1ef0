/**
 * Measuring helpers of bench/full-size.ts: the resident memory of a process tree sampled from
 * /proc (worker threads share their process's RSS; DuckDB runs inside it; child processes such
 * as `unzip -p` are added), the machine's load, HTTP timings and percentiles, a served store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';

/** Resident set size of one process in bytes (VmRSS of /proc/PID/status), 0 when it is gone. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pids of the children of `pid` (from /proc/PID/task/TID/children), recursively. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const read = (file: string): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    const children = read(`/proc/${pid}/task/${tid}/children`) ?? '';
    for (const c of children.split(' ').filter(Boolean).map(Number)) out.push(c, ...descendants(c));
  }
  return out;
}

/** Samples the RSS of the tree under `pid` and the 1-minute load average every `everyMs` until stopped. */
export class TreeSampler {
  peakRss = 0;
  /** The peak since the last takePeak (bytes). */
  private peakSince = 0;
  private loads: number[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number, everyMs = 500) {
    this.timer = setInterval(() => this.sample(), everyMs);
  }
  private sample(): void {
    const rss = [this.pid, ...descendants(this.pid)].reduce((sum, p) => sum + rssOf(p), 0);
    this.peakRss = Math.max(this.peakRss, rss);
    this.peakSince = Math.max(this.peakSince, rss);
    this.loads.push(loadavg()[0]);
  }
  /** The peak tree RSS (bytes) since the previous call (or the start), sampling once more first; then starts a new span. */
  takePeak(): number {
    this.sample();
    const peak = this.peakSince;
    this.peakSince = 0;
    return peak;
  }
  /** Stops sampling; returns the peak tree RSS (bytes) and the load average's mean and max over the run. */
  stop(): { peakRss: number; load: { mean: number; max: number } } {
    clearInterval(this.timer);
    const n = Math.max(1, this.loads.length);
    return { peakRss: this.peakRss, load: { mean: this.loads.reduce((a, b) => a + b, 0) / n, max: Math.max(0, ...this.loads) } };
  }
}

/** Current RSS of one process in bytes (VmRSS) and its high-water mark (VmHWM). */
export function processMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** The q-quantile (0..1) of `values` (nearest rank), ms. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** GETs `url`; returns the status, the body parsed as JSON when it is, and the time to the whole body (ms). */
export async function timedGet(url: string): Promise<{ status: number; ms: number; body: unknown }> {
  const t0 = performance.now();
  const response = await fetch(url);
  const text = await response.text();
  const ms = performance.now() - t0;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, ms, body };
}

/** Times each URL once, in order (sequential: one request at a time); returns the times and the last bodies. */
export async function timeAll(urls: string[]): Promise<{ ms: number[]; statuses: number[] }> {
  const ms: number[] = [];
  const statuses: number[] = [];
  for (const url of urls) {
    const r = await timedGet(url);
    ms.push(r.ms);
    statuses.push(r.status);
  }
  return { ms, statuses };
}

/** "12.3 s" / "1.2 GiB" formatting. */
export const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node CLI serve --store STORE` (CLI: the built dist/cli.js) and waits for /readyz 200
 * (polled every 100 ms): the process, its URL and the seconds to ready.
 * @throws Error when the server exits before it is ready.
 */
export async function startServe(cli: string, store: string): Promise<{ child: ChildProcess; base: string; seconds: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--store', store, '--port', String(port)], { cwd: path.dirname(path.dirname(cli)), stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const ready = await timedGet(`${base}/readyz`).catch(() => null);
    if (ready?.status === 200) break;
    if (child.exitCode !== null) throw new Error('serve exited');
  }
  return { child, base, seconds: (performance.now() - started) / 1000 };
}
