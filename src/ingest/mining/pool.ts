/**
 * A small pool of worker threads for the per-window statistics (they run in
 * worker threads so that both cores work).
 *
 * The worker entry is `worker.js` next to this file in the compiled build; when running from
 * TypeScript sources (vitest, tsx) it is `worker.ts`, started through `worker-boot.mjs`,
 * which registers tsx inside the worker thread.
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
   * every chunk sent after this call sees the setup; send it when no chunk of the previous
   * analysis is pending.
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

/**
 * Scores `count` chunks through the pool, keeping at most `2 * pool.size` in flight, and yields
 * the replies chunk by chunk in chunk order (so memory holds a few chunks, not the history).
 * `make(i)` builds chunk i's windows when it is sent.
 */
export async function* scoreInOrder(
  pool: WorkerPool,
  mode: ChunkRequest['mode'],
  count: number,
  make: (chunk: number) => WindowRequest[],
  analysis?: string,
): AsyncGenerator<WindowReply[]> {
  const inFlight: Array<Promise<WindowReply[]>> = [];
  let sent = 0;
  const fill = (): void => {
    while (sent < count && inFlight.length < 2 * pool.size) {
      const promise = pool.run(mode, make(sent++), analysis);
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
