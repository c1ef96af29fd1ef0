/**
 * Operations on posting lists: ascending, distinct report ordinals in an Int32Array (the order
 * of the case series' report indexes, src/serve/cases/index.ts). Each result is a new ascending list.
 */
import { partitionPoint } from '../query/search.js';

/** Smallest index in `list[from..]` whose value is >= `value` (binary search). */
function lowerBound(list: Int32Array, value: number, from: number): number {
  return partitionPoint(from, list.length, (i) => list[i] < value);
}

/**
 * The ordinals in both lists. O(a + b) by merging, or O(a log b) by binary search when one list
 * is over 16 times shorter than the other (a rare word within a common one).
 */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(small.length);
  let n = 0;
  if (small.length * 16 < large.length) {
    let at = 0;
    for (const value of small) {
      at = lowerBound(large, value, at);
      if (at === large.length) break;
      if (large[at] === value) out[n++] = value;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < small.length && j < large.length) {
      if (small[i] < large[j]) i++;
      else if (small[i] > large[j]) j++;
      else {
        out[n++] = small[i];
        i++;
        j++;
      }
    }
  }
  return out.slice(0, n);
}

/** The ordinals of `a` absent from `b`. O(a + b). */
export function subtract(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (const value of a) {
    while (j < b.length && b[j] < value) j++;
    if (j === b.length || b[j] !== value) out[n++] = value;
  }
  return out.slice(0, n);
}

/** The ordinals in any of `lists`, every ordinal below `count`. O(count + total length) via a mark per ordinal. */
export function unite(lists: readonly Int32Array[], count: number): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  if (lists.length === 1) return lists[0].slice();
  const mark = new Uint8Array(count);
  let marked = 0;
  for (const list of lists) {
    for (const value of list) {
      if (mark[value] === 0) {
        mark[value] = 1;
        marked++;
      }
    }
  }
  const out = new Int32Array(marked);
  for (let r = 0, n = 0; n < marked; r++) if (mark[r] === 1) out[n++] = r;
  return out;
}

/**
 * For each ordinal of `of` (ascending), its index in `list` (a word's reports) plus `base` (where
 * that list starts in the postings), or -1 when `list` lacks it. O(a + b) by merging, or
 * O(a log b) by binary search when `of` is over 16 times shorter.
 */
export function entriesOf(of: Int32Array, list: Int32Array, base: number): Int32Array {
  const out = new Int32Array(of.length);
  const search = of.length * 16 < list.length;
  let at = 0;
  for (let j = 0; j < of.length; j++) {
    const value = of[j];
    if (search) at = lowerBound(list, value, at);
    else while (at < list.length && list[at] < value) at++;
    out[j] = at < list.length && list[at] === value ? base + at : -1;
  }
  return out;
}

/** The ordinals of `list` that `keep` accepts. */
export function filter(list: Int32Array, keep: (ordinal: number) => boolean): Int32Array {
  const out = new Int32Array(list.length);
  let n = 0;
  for (const value of list) if (keep(value)) out[n++] = value;
  return out.slice(0, n);
}

/** An Int32Array that grows by doubling (building posting lists without a JS array per element). */
export class GrowingInt32 {
  private data = new Int32Array(1 << 16);
  length = 0;

  /** Appends one value. */
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  /** The value at `i` (0 <= i < length). */
  at(i: number): number {
    return this.data[i];
  }
}
