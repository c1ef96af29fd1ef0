/**
 * A memo of exact two-sample KS probabilities shared by the build's worker threads (the onset
 * tests of the triage evidence, evidence.ts): one table in a SharedArrayBuffer, so that a test
 * computed by one worker is found by the other (the same test recurs across windows and across
 * analyses over the same reports, such as `all` and `stratified`).
 *
 * Key: (n1, n2, h) of src/stats/ks.ts `exactTwoSided` (h = round(D lcm(n1, n2))), packed in one
 * 64-bit integer (n1 and n2 <= MAX_AUTO_N < 2^14, h <= n1 n2 < 2^27). Value: the probability
 * P(D >= h / lcm) as computed. Open addressing with linear probing over a fixed number of
 * slots; an insertion reserves its slot with a compare-and-exchange, writes the value, then
 * publishes the key (Atomics.store: a reader that sees the key sees the value). A full probe
 * sequence stores nothing. A memo only saves time: the value is the same whoever computes it.
 */
import { MAX_AUTO_N, type ExactMemo } from '../../stats/ks.js';

/** Slots of the table (a power of 2): 16 bytes each, 32 MiB. */
export const KS_MEMO_SLOTS = 1 << 21;
/** Slots looked at before giving up. */
const PROBES = 32;
/** A slot being written. */
const RESERVED = -1n;

/** The shared memo; `buffer` is passed to each worker, which wraps it in its own KsMemo. */
export class KsMemo implements ExactMemo {
  private readonly keys: BigInt64Array;
  private readonly values: Float64Array;

  /** Wraps `buffer` (from another KsMemo's `buffer`), or allocates a new table. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(KS_MEMO_SLOTS * 16)) {
    const slots = buffer.byteLength / 16;
    this.keys = new BigInt64Array(buffer, 0, slots);
    this.values = new Float64Array(buffer, slots * 8, slots);
  }

  /** The packed key (the probability is symmetric in n1 and n2: the smaller first), or null outside the exact branch. */
  private static key(n1: number, n2: number, h: number): bigint | null {
    if (n1 > MAX_AUTO_N || n2 > MAX_AUTO_N || h < 0 || h >= 2 ** 27) return null;
    const [a, b] = n1 <= n2 ? [n1, n2] : [n2, n1];
    return (BigInt(a) << 41n) | (BigInt(b) << 27n) | BigInt(h);
  }

  private static start(key: bigint, mask: number): number {
    // Fibonacci hashing of the key's two halves.
    const lo = Number(key & 0xffffffffn), hi = Number(key >> 32n);
    return (Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0) & mask;
  }

  /** The memoised probability of (n1, n2, h), or undefined. */
  get(n1: number, n2: number, h: number): number | undefined {
    const key = KsMemo.key(n1, n2, h);
    if (key === null) return undefined;
    const mask = this.keys.length - 1;
    for (let k = 0, i = KsMemo.start(key, mask); k < PROBES; k++, i = (i + 1) & mask) {
      const found = Atomics.load(this.keys, i);
      if (found === key) return this.values[i];
      if (found === 0n) return undefined;
    }
    return undefined;
  }

  /** Stores the probability of (n1, n2, h) (nothing when a copy is there or the probes are full). */
  set(n1: number, n2: number, h: number, p: number): void {
    const key = KsMemo.key(n1, n2, h);
    if (key === null) return;
    const mask = this.keys.length - 1;
    for (let k = 0, i = KsMemo.start(key, mask); k < PROBES; k++, i = (i + 1) & mask) {
      const found = Atomics.load(this.keys, i);
      if (found === key) return;
      if (found === 0n && Atomics.compareExchange(this.keys, i, 0n, RESERVED) === 0n) {
        this.values[i] = p;
        Atomics.store(this.keys, i, key);
        return;
      }
    }
  }
}
