/**
 * Long computations of the event loop's thread in short slices (the case series' selection,
 * breakdowns and page, src/serve/cases/service.ts), so that other requests are answered between them.
 * A computation is a generator that yields between steps (`yield` every thousand reports or so);
 * {@link runSliced} runs it for at most SLICE_MS, then lets the event loop turn, and stops with
 * the AbortSignal's reason when the signal aborts (the request's deadline passed, or its client
 * left). Slices of several computations would pile up in one turn of the loop, so the slices after
 * the first run in one lane: one computation at a time, the others wait in turn (at most
 * LANE_QUEUE_MAX; then Unavailable `busy`, a 503). {@link runAll} runs the same generator at once (callers
 * without an event loop to protect: tests, benches, the evaluate command).
 */
import { setImmediate as turn } from 'node:timers/promises';
import pLimit from 'p-limit';
import { Unavailable } from '../query/unavailable.js';

/** Longest slice of a computation, in milliseconds, before the event loop gets a turn. */
export const SLICE_MS = 8;
/** Computations that may wait for the lane; one more is refused (Unavailable `busy`). */
export const LANE_QUEUE_MAX = 64;

/** Steps of a computation: yields between steps, returns its result. */
export type Steps<T> = Generator<void, T, void>;

const lane = pLimit(1);

/** Runs steps to their end at once. */
export function runAll<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs steps until SLICE_MS passed: true when they ended (result in `out.value`). */
function slice<T>(steps: Steps<T>, out: { value?: T }): boolean {
  const until = performance.now() + SLICE_MS;
  do {
    const next = steps.next();
    if (next.done) {
      out.value = next.value;
      return true;
    }
  } while (performance.now() < until);
  return false;
}

/**
 * Runs steps in slices of SLICE_MS: the first at once (a short computation ends in it), the
 * rest in the lane with a turn of the event loop between slices.
 * @throws the signal's reason once it aborts (checked between slices); Unavailable `busy` when
 * LANE_QUEUE_MAX computations already wait for the lane.
 */
export async function runSliced<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  const out: { value?: T } = {};
  if (slice(steps, out)) return out.value as T;
  if (lane.pendingCount >= LANE_QUEUE_MAX) {
    steps.return(undefined as T);
    throw new Unavailable('busy', `the server is busy: ${LANE_QUEUE_MAX} case series are waiting to be computed; retry in a few seconds`);
  }
  return lane(async () => {
    for (;;) {
      await turn();
      if (signal?.aborted) {
        steps.return(undefined as T);
        throw signal.reason;
      }
      if (slice(steps, out)) return out.value as T;
    }
  });
}
