/**
 * Packed lists: the linkage's per-report lists of numbers (features.ts: word hashes, vaccines,
 * lots, events, named days) as views into shared chunks of memory rather than one small typed
 * array each. V8 gives every typed array its own buffer: about 250 bytes a small list, against
 * about 110 for a view into a shared buffer (measured on Node 20: a million lists of 1 to 10
 * numbers), which at 2 million reports of seven lists each is a few GB. Lists that repeat across
 * reports (vaccine sets, event sets, lots) share one view (packShared): on the 10% sample this
 * takes the linkage's memory above its columns from 404 to 268 MiB (bench/linkage-size.ts).
 */

/** Numbers per chunk (4 MiB of Int32). */
const CHUNK = 1 << 20;
const EMPTY = new Int32Array(0);

/** Copies lists into shared chunks and hands back views of them (see the module header). */
export class ListPacker {
  private chunk = new Int32Array(0);
  private used = 0;
  private readonly shared = new Map<string, Int32Array>();

  /**
   * pack, one view for every equal list (the lists are read only): for lists that repeat across
   * reports (a vaccine set, the events, the lots of a campaign), which then cost one view in all.
   */
  packShared(values: Int32Array): Int32Array {
    if (values.length === 0) return EMPTY;
    const key = values.join();
    let view = this.shared.get(key);
    if (view === undefined) this.shared.set(key, (view = this.pack(values)));
    return view;
  }

  /** A view of a copy of `values` in a shared chunk (the shared empty array when `values` is empty). */
  pack(values: Int32Array): Int32Array {
    const n = values.length;
    if (n === 0) return EMPTY;
    if (this.used + n > this.chunk.length) {
      this.chunk = new Int32Array(Math.max(CHUNK, n));
      this.used = 0;
    }
    const view = this.chunk.subarray(this.used, this.used + n);
    view.set(values);
    this.used += n;
    return view;
  }
}
