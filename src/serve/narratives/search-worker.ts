/**
 * The worker-thread side of the text search pool (src/serve/narratives/search-pool.ts): runs one
 * search (NarrativeIndex.search) over an index held in shared memory, and stops between steps
 * when the task's cancel flag is set (the request was abandoned or ran out of time) or its
 * deadline (epoch ms) has passed. The indexes seen are rebuilt over the shared arrays once and
 * kept (the two most recent: a live store swap serves two generations for a while). An index
 * file that can no longer be read (file-range.ts: truncated) is answered as `unreadable` with the
 * message (an error's class does not cross the thread; the pool throws a StoreReadError again).
 */
import { move } from 'piscina';
import { StoreReadError } from '../query/store-read-error.js';
import { NarrativeIndex, type SharedNarrativeIndex } from './index.js';
import type { TextQuery } from './query.js';

/** One search task, as posted by the pool. */
export interface SearchTask {
  /** Identifies the index (the same id always carries the same `shared`). */
  id: number;
  shared: SharedNarrativeIndex;
  query: TextQuery;
  /** Ascending ordinals to search within (a copy), or null for every report. */
  within: Int32Array | null;
  /** Epoch milliseconds after which the search stops. */
  deadline: number;
  /** One Int32 over a SharedArrayBuffer: set to 1 by the pool to stop the search. */
  cancel: Int32Array;
}

/** What a task answers: the found ordinals (ascending), why it stopped, or why the index file could not be read. */
export type SearchOutcome = Int32Array | 'cancelled' | 'deadline' | { unreadable: string };

/** Thrown between the steps of a stopped search. */
class Stop extends Error {
  constructor(readonly why: 'cancelled' | 'deadline') {
    super(why);
  }
}

const indexes = new Map<number, NarrativeIndex>();

function indexOf(id: number, shared: SharedNarrativeIndex): NarrativeIndex {
  let index = indexes.get(id);
  if (!index) {
    index = NarrativeIndex.fromShared(shared);
    indexes.set(id, index);
    for (const key of indexes.keys()) if (indexes.size > 2) indexes.delete(key);
  }
  return index;
}

/** Runs one search task (the pool's worker function). */
export default function search(task: SearchTask): SearchOutcome | ReturnType<typeof move> {
  const check = (): void => {
    if (Atomics.load(task.cancel, 0) !== 0) throw new Stop('cancelled');
    if (Date.now() > task.deadline) throw new Stop('deadline');
  };
  try {
    check();
    const found = indexOf(task.id, task.shared).search(task.query, task.within ?? undefined, check);
    return move(found);
  } catch (error) {
    if (error instanceof Stop) return error.why;
    if (error instanceof StoreReadError) return { unreadable: error.message };
    throw error;
  }
}
