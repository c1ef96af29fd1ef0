/**
 * Text searches off the event loop: a pool of worker threads (piscina) that run
 * NarrativeIndex.search over the index's shared memory (src/serve/narratives/index.ts `share`: no text
 * or posting is copied to a worker), so that a costly text query never stalls the server's other
 * requests. Each search has a time budget (a deadline) and follows an AbortSignal (the request
 * abandoned by its client, or past its deadline): the worker stops between steps as soon as either
 * says so. When more searches wait than SEARCH_QUEUE_MAX, a new one is refused at once
 * (Unavailable `busy`: the server answers 503 with Retry-After).
 *
 * The searches running on an index are counted (`searchesEnded`), so that the index file it reads
 * is closed only after the last of them has stopped (src/serve/cases/service.ts `close`).
 *
 * Threads: SEARCH_THREADS (one fewer than the cores, at least 1, at most 4), started on the first
 * search and ended after SEARCH_IDLE_MS without work; an idle thread does not keep the process alive.
 * Under TypeScript sources (vitest, tsx) the worker is started through search-worker-boot.mjs,
 * which registers tsx in the thread (or, in a test run that has just compiled dist/, loads the
 * compiled worker: see that file).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { Unavailable } from '../query/unavailable.js';
import { StoreReadError } from '../query/store-read-error.js';
import type { NarrativeIndex } from './index.js';
import type { TextQuery } from './query.js';
import type { SearchOutcome, SearchTask } from './search-worker.js';

/** Worker threads of the pool: one fewer than the cores (the event loop keeps one), at least 1, at most 4. */
export const SEARCH_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
/** Searches that may wait for a thread; one more is refused (Unavailable `busy`). */
export const SEARCH_QUEUE_MAX = 64;
/** Milliseconds a thread may stay idle before it ends. */
export const SEARCH_IDLE_MS = 60_000;

let pool: Piscina<SearchTask, SearchOutcome> | null = null;
const ids = new WeakMap<NarrativeIndex, number>();
let nextId = 1;

function searchPool(): Piscina<SearchTask, SearchOutcome> {
  pool ??= new Piscina<SearchTask, SearchOutcome>({
    filename: import.meta.url.endsWith('.ts') ? new URL('./search-worker-boot.mjs', import.meta.url).href : new URL('./search-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: SEARCH_THREADS,
    maxQueue: SEARCH_QUEUE_MAX,
    idleTimeout: SEARCH_IDLE_MS,
  });
  return pool;
}

/** Per index, its searches not yet ended (posted to the pool and not answered). */
const running = new WeakMap<NarrativeIndex, Set<Promise<unknown>>>();

/** Resolves when every search of `index` posted so far has ended (answered, stopped or failed). */
export async function searchesEnded(index: NarrativeIndex): Promise<void> {
  await Promise.allSettled([...(running.get(index) ?? [])]);
}

/** Searches of the process by outcome: found, stopped by their signal (`cancelled`), stopped at their deadline, refused (busy). */
export const searchStats = { found: 0, cancelled: 0, deadline: 0, busy: 0 };

/**
 * The reports matching `query` (within `within` when given), computed in a worker thread:
 * NarrativeIndex.search, the same result.
 * @param deadline epoch milliseconds after which the search stops
 * @param signal aborts the search (queued or running)
 * @returns ascending ordinals
 * @throws the signal's reason when it aborts; Unavailable `deadline` after the deadline, `busy`
 * when SEARCH_QUEUE_MAX searches already wait; StoreReadError when the index file could not be read.
 */
export async function searchOffThread(index: NarrativeIndex, query: TextQuery, within: Int32Array | null, deadline: number, signal?: AbortSignal): Promise<Int32Array> {
  signal?.throwIfAborted();
  let id = ids.get(index);
  if (id === undefined) ids.set(index, (id = nextId++));
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  const stop = (): void => {
    Atomics.store(cancel, 0, 1);
  };
  signal?.addEventListener('abort', stop, { once: true });
  let outcome: SearchOutcome;
  const task = searchPool().run({ id, shared: index.share(), query, within, deadline, cancel });
  let searches = running.get(index);
  if (!searches) running.set(index, (searches = new Set()));
  searches.add(task);
  const ended = searches;
  void task.then(() => ended.delete(task), () => ended.delete(task));
  try {
    outcome = await task;
  } catch (error) {
    if (!(error as Error).message.includes('queue is at limit')) throw error;
    searchStats.busy++;
    throw new Unavailable('busy', `the server is busy: ${SEARCH_QUEUE_MAX} text searches are waiting; retry in a few seconds`);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (outcome === 'cancelled') {
    searchStats.cancelled++;
    throw signal?.reason ?? new Unavailable('cancelled', 'text search cancelled');
  }
  if (outcome === 'deadline') {
    searchStats.deadline++;
    throw new Unavailable('deadline', 'the text search took longer than its time budget and was stopped; retry later, or narrow the query');
  }
  if (!(outcome instanceof Int32Array)) throw new StoreReadError(outcome.unreadable);
  searchStats.found++;
  return outcome;
}
