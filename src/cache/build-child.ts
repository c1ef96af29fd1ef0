/**
 * The default store's builder, run as a child process of `serve` (src/cache/default-store.ts)
 * so that the build never blocks the server's event loop (/healthz and /readyz answer
 * within 100 ms throughout). Arguments: the VAERS folder, the store file to write, the analyses
 * (comma-separated) and, optionally, where to write the first analysis alone first (then
 * `{type: 'first', path}` tells the parent, which serves it while the rest is built). Progress goes to the parent as IPC messages (`{type: 'plan', phases}` once,
 * then `{type: 'progress', event, phase, done, total, unit, cpu}`), which shows it
 * (progress-report.ts); warnings and the closing line go to standard error; at the end `{type: 'done'}` or
 * `{type: 'failed', message}` and the exit code. The store is written by `buildStore` (a
 * temporary file renamed when complete). When the parent dies (even `kill -9`) the builder dies
 * at once, leaving at most its temporary files, which the next start removes: a watchdog thread
 * (watchdog.ts) checks every 100 ms that its parent is still the process that started it, and
 * kills this process otherwise. A thread, because the build's main thread can be busy (a
 * synchronous stretch) and would see its IPC channel close only afterwards: a fast restart could
 * then run two builds of about 1.9 GB each.
 */
import { buildStore } from '../ingest/mining/build.js';
import type { Progress } from '../ingest/mining/progress.js';
import { dieWithParent } from './watchdog.js';

/** A progress message to the parent: a phase starts, moves or ends (`cpu`: the builder's CPU seconds so far). */
export interface ProgressMessage {
  type: 'progress';
  event: 'start' | 'update' | 'end';
  phase: string;
  done: number;
  total: number;
  unit: string;
  cpu: number;
}

/** The build's phases, in order (sent once, before the first ProgressMessage). */
export interface PlanMessage {
  type: 'plan';
  phases: readonly string[];
}

/** The last message to the parent. */
export type EndMessage = { type: 'done' } | { type: 'failed'; message: string };

/** The first analysis is written on its own, a complete store at `path` (build.ts `firstAnalysis`); the build goes on. */
export interface FirstMessage {
  type: 'first';
  path: string;
}

function send(message: ProgressMessage | PlanMessage | EndMessage | FirstMessage): void {
  process.send?.(message);
}

/** Sends `message` to the parent and resolves once it is handed to the channel (or at once without one). */
function sent(message: EndMessage): Promise<void> {
  return new Promise((resolve) => {
    if (process.send) process.send(message, undefined, {}, () => resolve());
    else resolve();
  });
}

/** The builder's CPU seconds so far (every thread: user and system). */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Progress to the parent (which shows it: progress-report.ts), at most every 200 ms within a phase. */
function childProgress(): Progress {
  let current = { phase: '', total: 0, unit: '', sent: 0 };
  const message = (event: ProgressMessage['event'], done: number): ProgressMessage => ({ type: 'progress', event, phase: current.phase, done, total: current.total, unit: current.unit, cpu: cpuNow() });
  return {
    plan(phases) {
      send({ type: 'plan', phases });
    },
    start(phase, total, unit) {
      current = { phase, total, unit, sent: Date.now() };
      send(message('start', 0));
    },
    update(done) {
      const now = Date.now();
      if (now - current.sent < 200) return;
      current.sent = now;
      send(message('update', done));
    },
    end() {
      send(message('end', current.total));
    },
  };
}

/** The builder's CPU time so far, for the log line. */
function cpuSeconds(): string {
  const { user } = process.cpuUsage();
  return `cpu ${cpuNow().toFixed(1)} s (user ${(user / 1e6).toFixed(1)} s)`;
}

async function main(): Promise<void> {
  const [vaers, out, analyses, firstOut] = process.argv.slice(2);
  // The parent is gone (its IPC channel closed): stop now, whatever the build was doing; the
  // watchdog thread does it even while this thread is busy.
  const orphaned = (): never => process.exit(70);
  process.on('disconnect', orphaned);
  dieWithParent();
  try {
    // The default store keeps the narratives (text search, the report view).
    // With a fourth argument, the first analysis is written there first and served meanwhile (FirstMessage).
    const firstAnalysis = firstOut ? { out: firstOut, written: (path: string) => send({ type: 'first', path }) } : undefined;
    const summary = await buildStore({ vaers, out, analyses, narratives: true, progress: childProgress(), firstAnalysis });
    const analysesLine = summary.analyses.map((a) => `${a.name} ${a.pairs} pairs`).join(', ');
    process.stderr.write(`build: wrote ${out}: ${summary.reportsKept} reports through ${summary.reportsThrough}; ${analysesLine}; ` +
      `${summary.seconds.total} s, ${cpuSeconds()}, peak RSS ${(summary.peakRssBytes / 2 ** 20).toFixed(0)} MiB\n`);
    await sent({ type: 'done' });
    process.exitCode = 0;
  } catch (error) {
    await sent({ type: 'failed', message: (error as Error).message });
    process.exitCode = 1;
  }
  process.removeListener('disconnect', orphaned);
  process.disconnect?.();
  // The outcome is reported: end now, whatever thread or handle a failed build may have left open.
  process.exit();
}

void main();
