/**
 * The narrative fields of every report, held compactly: one UTF-8 buffer and the end offset of
 * each field in it (slot = ordinal * fields + field). On 1990-2006 this is 58 MB of bytes and 5 MB
 * of offsets, where the same texts as JS strings took about 105 MB of heap (string headers and
 * the arrays holding them). A field is decoded when read (a fresh string per call). Both arrays
 * live in shared memory, so a worker thread can read the same texts (`share`, `fromShared`).
 */
import type { NarrativeRecord } from './records.js';

/** The arrays of a NarrativeTexts, in shared memory (for a worker thread). */
export interface SharedTexts {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** A zeroed Int32Array of `length` over a SharedArrayBuffer (postable to a worker thread without a copy). */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}

/** The fields of a list of records; immutable. */
export class NarrativeTexts {
  private constructor(
    private readonly bytes: Buffer,
    /** End of slot s in `bytes`; slot s starts where slot s - 1 ends (0 for the first). */
    private readonly ends: Uint32Array,
  ) {}

  /**
   * Copies the first `fields` fields of each record (missing, null or empty: blank).
   * @throws RangeError when the texts exceed 4 GiB (the offsets are 32-bit).
   */
  static of(records: readonly NarrativeRecord[], fields: number): NarrativeTexts {
    let total = 0;
    for (const record of records) for (let f = 0; f < fields; f++) total += Buffer.byteLength(record.fields[f] ?? '', 'utf8');
    if (total > 0xffffffff) throw new RangeError(`NarrativeTexts.of: ${total} bytes of text, more than 4 GiB`);
    const bytes = Buffer.from(new SharedArrayBuffer(total));
    const ends = new Uint32Array(new SharedArrayBuffer(records.length * fields * 4));
    let at = 0;
    let slot = 0;
    for (const record of records) {
      for (let f = 0; f < fields; f++) {
        at += bytes.write(record.fields[f] ?? '', at, 'utf8');
        ends[slot++] = at;
      }
    }
    return new NarrativeTexts(bytes, ends);
  }

  /** The arrays, in shared memory (no copy), for {@link fromShared} in another thread. */
  share(): SharedTexts {
    return { bytes: new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length), ends: this.ends };
  }

  /** The texts over the arrays of {@link share} (no copy). */
  static fromShared(shared: SharedTexts): NarrativeTexts {
    return new NarrativeTexts(Buffer.from(shared.bytes.buffer, shared.bytes.byteOffset, shared.bytes.length), shared.ends);
  }

  /** Bytes of text held. */
  get byteLength(): number {
    return this.bytes.length;
  }

  /** The text of a slot, or null when blank. */
  get(slot: number): string | null {
    const start = slot === 0 ? 0 : this.ends[slot - 1];
    const end = this.ends[slot];
    return start === end ? null : this.bytes.toString('utf8', start, end);
  }
}
