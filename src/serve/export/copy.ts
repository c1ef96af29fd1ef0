/**
 * Runs the export's COPY in a writer process (src/serve/export/copy-child.ts) and bounds how many
 * run at once ({@link WriterSlots}). Why a process and not the server's own DuckDB: the
 * `@duckdb/node-api` queries run on Node's libuv thread pool (4 threads, shared with file reads,
 * compression and every other DuckDB query of the server), and 16 exports of 122 MB held it for
 * seconds each (issue 45: /interactions/series, cold /triage windows and the explorer's files
 * answered 503). A child has its own pool and memory, and `kill` stops it at once when the
 * export's clients have all left (a DuckDB interrupt would still leave the thread busy until the
 * operator checks it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExportFormat } from './params.js';

/** One export file to write (the child's argv[2], as JSON). */
export interface CopyJob {
  /** A store file to attach read-only as `store` for the query, or null. */
  attach: string | null;
  /** The query whose rows the file holds (`SELECT ...`). */
  select: string;
  format: ExportFormat;
  /** The file written (first as `out.part`, renamed when complete). */
  out: string;
  /** DuckDB's spill folder (inside the export's folder). */
  temp: string;
}

/** An export that stopped because its clients left, or because its files were disposed of. */
export class ExportCancelled extends Error {
  constructor() {
    super('the export was cancelled: its clients left');
    this.name = 'ExportCancelled';
  }
}

const CHILD = new URL(`./copy-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
/** Under tsx (tests, `npx tsx`), the child is TypeScript too. */
const CHILD_ARGV = CHILD.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [];
/** The most of a writer's stderr kept for its error message. */
const STDERR_LIMIT = 4096;

/** Children running, killed at the process's exit. */
const children = new Set<ChildProcess>();
let exitHook = false;

/**
 * Writes `job.out` in a writer process. Rejects with ExportCancelled when `signal` aborts (the child
 * is killed), or with an Error carrying the child's message when the COPY failed.
 */
export function runCopy(job: CopyJob, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new ExportCancelled());
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => { for (const child of children) child.kill('SIGKILL'); });
  }
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(CHILD), [JSON.stringify(job)], { execArgv: CHILD_ARGV, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    children.add(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => { if (stderr.length < STDERR_LIMIT) stderr += text; });
    const cancel = (): void => { child.kill('SIGKILL'); };
    signal.addEventListener('abort', cancel, { once: true });
    child.once('error', (error) => {
      children.delete(child);
      signal.removeEventListener('abort', cancel);
      reject(error);
    });
    child.once('exit', (code) => {
      children.delete(child);
      signal.removeEventListener('abort', cancel);
      if (signal.aborted) reject(new ExportCancelled());
      else if (code === 0) resolve();
      else reject(new Error(stderr.trim().split('\n').pop() || `the export writer exited with code ${code}`));
    });
  });
}

/**
 * At most `size` writers at once: `acquire` waits its turn (first come, first served) and
 * resolves with the release function; it rejects with ExportCancelled when `signal` aborts while
 * waiting (the place is given up).
 */
export class WriterSlots {
  private running = 0;
  private readonly waiting: Array<{ start: () => void }> = [];

  constructor(readonly size: number) {}

  /** Writers running now. */
  get busy(): number {
    return this.running;
  }

  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(new ExportCancelled());
    return new Promise((resolve, reject) => {
      const release = (): void => {
        this.running--;
        this.waiting.shift()?.start();
      };
      const entry = {
        start: (): void => {
          signal.removeEventListener('abort', leave);
          this.running++;
          let released = false;
          resolve(() => { if (!released) { released = true; release(); } });
        },
      };
      const leave = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new ExportCancelled());
      };
      if (this.running < this.size) {
        entry.start();
        return;
      }
      signal.addEventListener('abort', leave, { once: true });
      this.waiting.push(entry);
    });
  }
}
