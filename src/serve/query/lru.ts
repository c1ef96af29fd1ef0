/**
 * A least-recently-used map bounded by a total size (bytes of rendered answers, or pair ids of
 * cached matches), for the answer caches of /signals and /cases, and their hit counts. The store is read-only, so a cached value never
 * goes stale while the process lives; the bound only keeps memory flat.
 */

/** Lookups of an answer cache, counted over every store the process served (metrics). */
export interface CacheStats {
  /** Answers served from a cache. */
  hits: number;
  /** Answers rendered (not cached yet, or evicted). */
  misses: number;
}

/** LRU map from string keys to values of a given size. */
export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  /**
   * @param maxSize upper bound of the sum of entry sizes (same unit as `set`'s `size`).
   * @param maxEntrySize entries larger than this are not kept (default: maxSize / 8).
   */
  constructor(readonly maxSize: number, readonly maxEntrySize: number = Math.floor(maxSize / 8)) {}

  /** The value of `key` (marked most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` of `size` units, evicting the least recently used entries past the bound. */
  set(key: string, value: V, size: number): void {
    if (size > this.maxEntrySize) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [k, entry] of this.entries) {
      if (this.total <= this.maxSize) break;
      this.entries.delete(k);
      this.total -= entry.size;
    }
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Sum of entry sizes held. */
  get totalSize(): number {
    return this.total;
  }
}

/**
 * The UTF-8 bytes of `text` in a Buffer of their own. `Buffer.from(text)` of a short text is a
 * slice of Node's shared 8 KB allocation pool, and a cached slice keeps the whole pool chunk
 * alive: a cache of small answers bounded by their byte length then held up to 8 times more
 * memory (RSS kept rising under the 10-minute soak, bench/soak.ts). Cached bodies use this instead.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}
