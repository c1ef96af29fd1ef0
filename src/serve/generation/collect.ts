/**
 * A full garbage collection on demand, after a store generation is retired and closed
 * (generation.ts): the old generation's report columns, case series and narrative index are then
 * unreachable, but V8 collects them only under allocation pressure, and a server that has just
 * swapped stores allocates little. Measured on the embedded default's first start (the first
 * analysis's store served, then swapped for the full one; bench/first-start.ts, 2026-11-29): the
 * serving process held 699 MiB RSS with everything loaded (V8 heap 266 MiB used, 256 MiB of
 * ArrayBuffers: the first store's, unreachable); with this collection after the swap, 502 MiB (89
 * and 92 MiB); a cache-hit start's process 359-380 MiB. At full size the old generation holds GBs.
 * The cost: one full collection per swap, a pause of the event loop that grows with the live heap
 * (docs/operations.md "Signals": 367 ms after a store of the 10% sample, 398,038 reports, closed).
 *
 * How: V8's `gc` function, exposed at run time by setting V8's `--expose-gc` flag
 * (`v8.setFlagsFromString`) and taking `gc` from a new context (`vm.runInNewContext`), the method
 * of the npm package expose-gc (1.0.0, four lines, not a dependency for that). Node's documentation
 * of setFlagsFromString warns that changing V8's settings after start-up "may result in
 * unpredictable behavior"; this flag only makes the `gc` function available to contexts created
 * after it (one, here), and a `--expose-gc` process already has `gc`, used as it is. Where it cannot
 * be had, nothing is collected (V8 collects in its own time).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/**
 * Runs a full garbage collection (synchronous: a pause of tens of ms on the embedded default).
 * @returns whether one ran (false when V8's `gc` could not be exposed).
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    try {
      const found: unknown = (globalThis as { gc?: unknown }).gc ?? (setFlagsFromString('--expose-gc'), runInNewContext('gc'));
      gc = typeof found === 'function' ? (found as () => void) : null;
    } catch {
      gc = null;
    }
  }
  gc?.();
  return gc !== null;
}
