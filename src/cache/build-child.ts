/**
 * The default store's builder, run as a child process of `serve` (src/cache/default-store.ts)
 * so that the build never blocks the server's event loop (/healthz and /readyz answer
 * within 100 ms throughout). Arguments: the VAERS folder, the store file to write, the analyses
 * (comma-separated). Progress goes to standard error (as `build` prints it) and to the parent as
 * IPC messages `{type: 'progress', phase, done, total, unit}`; at the end `{type: 'done'}` or
 * `{type: 'failed', message}` and the exit code. The store is written by `buildStore` (a
 * temporary file renamed when complete). When the parent dies (even `kill -9`) the builder dies
 * at once, leaving at most its temporary files, which the next start removes: a watchdog thread
 * (watchdog.ts) checks every 100 ms that its parent is still the process that started it, and
 * kills this process otherwise. A thread, because the build's main thread can be busy (a
 * synchronous stretch) and would see its IPC channel close only afterwards: a fast restart could
 * then run two builds of about 1.9 GB each.
 */
import { buildStore } from '../ingest/mining/build.js';
import { stderrProgress, type Progress } from '../ingest/mining/progress.js';
import { dieWithParent } from './watchdog.js';

/** A progress message to the parent. */
export interface ProgressMessage {
  type: 'progress';
  phase: string;
  done: number;
  total: number;
  unit: string;
}

/** The last message to the parent. */
export type EndMessage = { type: 'done' } | { type: 'failed'; message: string };

function send(message: ProgressMessage | EndMessage): void {
  process.send?.(message);
}

/** Progress on standard error and, at most every 200 ms per phase, to the parent. */
function childProgress(): Progress {
  const stderr = stderrProgress();
  let current = { phase: '', total: 0, unit: '', sent: 0 };
  return {
    start(phase, total, unit) {
      current = { phase, total, unit, sent: 0 };
      stderr.start(phase, total, unit);
      send({ type: 'progress', phase, done: 0, total, unit });
    },
    update(done, detail) {
      stderr.update(done, detail);
      const now = Date.now();
      if (now - current.sent < 200) return;
      current.sent = now;
      send({ type: 'progress', phase: current.phase, done, total: current.total, unit: current.unit });
    },
    end() {
      stderr.end();
      send({ type: 'progress', phase: current.phase, done: current.total, total: current.total, unit: current.unit });
    },
  };
}

async function main(): Promise<void> {
  const [vaers, out, analyses] = process.argv.slice(2);
  // The parent is gone (its IPC channel closed): stop now, whatever the build was doing; the
  // watchdog thread does it even while this thread is busy.
  const orphaned = (): never => process.exit(70);
  process.on('disconnect', orphaned);
  dieWithParent();
  try {
    // The default store keeps the narratives (text search, the report view).
    const summary = await buildStore({ vaers, out, analyses, narratives: true, progress: childProgress() });
    const analysesLine = summary.analyses.map((a) => `${a.name} ${a.pairs} pairs`).join(', ');
    process.stderr.write(`build: wrote ${out}: ${summary.reportsKept} reports through ${summary.reportsThrough}; ${analysesLine}; ` +
      `${summary.seconds.total} s, peak RSS ${(summary.peakRssBytes / 2 ** 20).toFixed(0)} MiB\n`);
    send({ type: 'done' });
    process.exitCode = 0;
  } catch (error) {
    send({ type: 'failed', message: (error as Error).message });
    process.exitCode = 1;
  }
  process.removeListener('disconnect', orphaned);
  process.disconnect?.();
}

void main();
