/**
 * A small pool of worker threads for the per-window statistics (they run in
 * worker threads so that both cores work).
 *
 * The worker entry is `worker.js` next to this file in the compiled build; when running from
 * TypeScript sources (vitest, tsx) it is `worker.ts`, started through `worker-boot.mjs`,
 * which registers tsx inside the worker thread (or, in a test run that has just compiled dist/,
 * loads dist/'s compiled copy: see that file).
 */
import { Worker } from 'node:worker_threads';
import type { ChunkRequest, EvidenceSetup, WindowReply, WindowRequest } from './protocol.js';

interface Job {
  request: ChunkRequest;
  resolve: (windows: WindowReply[]) => void;
  reject: (error: Error) => void;
}

function startWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./worker.ts', import.meta.url).href },
    });
  }
  return new Worker(new URL('./worker.js', import.meta.url));
}

/** Worker threads that score chunks of windows (`protocol.ts`), one chunk per worker at a time. */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private failure: Error | null = null;

  /** Starts `size` (>= 1) worker threads. */
  constructor(readonly size: number) {
    for (let i = 0; i < Math.max(1, size); i++) {
      const worker = startWorker();
      worker.on('message', (message: { id: number; windows?: WindowReply[]; error?: string }) => this.settle(worker, message));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (this.busy.has(worker)) this.fail(new Error(`worker thread exited with code ${code}`));
      });
      this.idle.push(worker);
    }
  }

  /** Scores one chunk of windows in a worker (their arrays are transferred, not copied); `analysis` names the EvidenceSetup the windows' evidence needs. */
  run(mode: ChunkRequest['mode'], windows: WindowRequest[], analysis?: string): Promise<WindowReply[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, mode, windows, analysis }, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Sends `setup` to every worker (copied to each, but for arrays over a SharedArrayBuffer, which each
   * worker sees as the same memory: the evidence tables, build.ts shareEvidence). A worker handles its messages in order, so
   * every chunk sent after this call sees the setup; a worker keeps the setups of the last few
   * analyses (worker.ts), so the chunks of the previous analysis still pending find theirs.
   */
  broadcast(setup: EvidenceSetup): void {
    for (const worker of [...this.idle, ...this.busy.keys()]) worker.postMessage(setup);
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      const transfer = job.request.windows.flatMap((w) => [
        w.n.buffer, w.n_vaccine.buffer, w.n_event.buffer, ...(w.expected ? [w.expected.buffer] : []), ...(w.evidence ? [w.evidence.keys.buffer] : []),
      ]) as ArrayBuffer[];
      worker.postMessage(job.request, transfer);
    }
  }

  private settle(worker: Worker, message: { id: number; windows?: WindowReply[]; error?: string }): void {
    const job = this.busy.get(worker);
    this.busy.delete(worker);
    this.idle.push(worker);
    if (job) {
      if (message.error !== undefined) job.reject(new Error(`window statistics failed: ${message.error}`));
      else job.resolve(message.windows!);
    }
    this.dispatch();
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const job of [...this.busy.values(), ...this.queue]) job.reject(error);
    this.busy.clear();
    this.queue.length = 0;
  }

  /** Stops every worker thread. */
  async close(): Promise<void> {
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
    this.idle.length = 0;
    this.busy.clear();
  }
}

/** One chunk of windows to score: `make()` builds its windows when the chunk is sent; `analysis` names the EvidenceSetup they need. */
export interface ChunkJob {
  make: () => WindowRequest[];
  analysis?: string;
}

/**
 * Scores the chunks `jobs` (taken lazily, in order) through the pool, keeping at most
 * `2 * pool.size` in flight, and yields the replies chunk by chunk in the jobs' order (so memory
 * holds a few chunks, not the history). The jobs may belong to several analyses in turn (the
 * rows pass: passes.ts rowsPasses): the next analysis's first chunks then start while the last of
 * the previous one are still scored, and no thread waits at an analysis's end.
 */
export async function* scoreInOrder(pool: WorkerPool, mode: ChunkRequest['mode'], jobs: Iterable<ChunkJob>): AsyncGenerator<WindowReply[]> {
  const inFlight: Array<Promise<WindowReply[]>> = [];
  const pending = jobs[Symbol.iterator]();
  let more = true;
  const fill = (): void => {
    while (more && inFlight.length < 2 * pool.size) {
      const next = pending.next();
      if (next.done) {
        more = false;
        break;
      }
      const promise = pool.run(mode, next.value.make(), next.value.analysis);
      promise.catch(() => undefined); // awaited in order below; avoid unhandled rejections meanwhile
      inFlight.push(promise);
    }
  };
  fill();
  while (inFlight.length > 0) {
    const replies = await inFlight.shift()!;
    fill();
    yield replies;
  }
}
