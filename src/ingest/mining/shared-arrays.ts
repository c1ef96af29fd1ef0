/**
 * Typed arrays moved into shared memory, so that the build's worker threads read the one copy
 * the main thread holds instead of a structured clone each (docs/architecture.md "Scale").
 *
 * A message to a worker (`postMessage`) copies every typed array it carries, unless the array's
 * buffer is a SharedArrayBuffer: then the worker gets a view of the same memory. The evidence
 * tables (evidence-step.ts `EvidenceTables`, a few hundred bytes a report: the narratives'
 * MinHash signatures, onsets, dates, the reports' items and events) are sent to every worker once
 * per item kind (protocol.ts `EvidenceSetup`); copied, the default analyses' three item kinds
 * cost six copies with two workers (about 3 GB at 2.1 million reports), shared, none.
 */

type Typed = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** A typed array of the same type and values over a new SharedArrayBuffer. */
function sharedCopy<T extends Typed>(array: T): T {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const Constructor = array.constructor as new (buffer: SharedArrayBuffer) => T;
  const copy = new Constructor(new SharedArrayBuffer(array.byteLength));
  copy.set(array as never);
  return copy;
}

/**
 * `value` (a plain object of numbers, booleans, typed arrays and nested plain objects) with each
 * typed array replaced by a copy over a SharedArrayBuffer (sharedCopy); an array met twice (the
 * same object, e.g. the report columns every item kind's tables share) is copied once and both
 * places get the one copy (`seen`: pass the same map for several objects). The originals are
 * left as they were (drop them to let them go). Other values are kept as they are.
 * Example: shareArrays({ n: 2, x: Float64Array.of(1, 2) }).x.buffer is a SharedArrayBuffer.
 */
export function shareArrays<T extends object>(value: T, seen: Map<Typed, Typed> = new Map()): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (ArrayBuffer.isView(field) && !(field instanceof DataView)) {
      const array = field as Typed;
      let copy = seen.get(array);
      if (copy === undefined) seen.set(array, (copy = sharedCopy(array)));
      out[key] = copy;
    } else if (field !== null && typeof field === 'object' && Object.getPrototypeOf(field) === Object.prototype) {
      out[key] = shareArrays(field as object, seen);
    } else out[key] = field;
  }
  return out as T;
}
