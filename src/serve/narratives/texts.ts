/**
 * The narrative fields of every report, held compactly: one UTF-8 buffer and the end offset of
 * each field in it (slot = ordinal * fields + field). On 1990-2006 this is 58 MB of bytes and 5 MB
 * of offsets, where the same texts as JS strings took about 105 MB of heap (string headers and
 * the arrays holding them). A field is decoded when read (a fresh string per call).
 *
 * The bytes are either in memory (`of`: an index just built) or left in the index file beside
 * the store (`fromFile`: the index read back from that file, file-range.ts), where a read takes
 * one pread per field or per report's run of fields: at 2.1 million reports that keeps 0.9 GB of
 * text out of the process (issue 41). The offsets are always in memory (4 bytes per field). The
 * arrays live in shared memory and a descriptor is the process's, so a worker thread reads the
 * same texts (`share`, `fromShared`).
 */
import type { NarrativeRecord } from './records.js';
import { readRange, type FileRange } from './file-range.js';

/** The arrays of a NarrativeTexts, in shared memory (for a worker thread): the bytes in memory, or where they lie in the index file. */
export interface SharedTexts {
  bytes: Uint8Array | null;
  file: FileRange | null;
  ends: Uint32Array;
}

/** A zeroed Int32Array of `length` over a SharedArrayBuffer (postable to a worker thread without a copy). */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}

/** The fields of a list of records; immutable. */
export class NarrativeTexts {
  private constructor(
    /** The bytes in memory, or null when they are read from `file`. */
    private readonly bytes: Buffer | null,
    /** Where the bytes lie in the index file (when `bytes` is null). */
    private readonly file: FileRange | null,
    /** End of slot s in the bytes; slot s starts where slot s - 1 ends (0 for the first). */
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
    return new NarrativeTexts(bytes, null, ends);
  }

  /**
   * The texts whose bytes lie in an index file held open (`file`: file-range.ts), read when asked;
   * `ends` as {@link share} gives them. The caller checked that the last end is `file.bytes`.
   */
  static fromFile(file: FileRange, ends: Uint32Array): NarrativeTexts {
    return new NarrativeTexts(null, file, ends);
  }

  /** The arrays, in shared memory (no copy), for {@link fromShared} in another thread. */
  share(): SharedTexts {
    const bytes = this.bytes === null ? null : new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    return { bytes, file: this.file, ends: this.ends };
  }

  /** The texts over the arrays of {@link share} (no copy). */
  static fromShared(shared: SharedTexts): NarrativeTexts {
    const bytes = shared.bytes === null ? null : Buffer.from(shared.bytes.buffer, shared.bytes.byteOffset, shared.bytes.length);
    return new NarrativeTexts(bytes, shared.file, shared.ends);
  }

  /** Bytes of text (held in memory, or in the file). */
  get byteLength(): number {
    return this.ends.length === 0 ? 0 : this.ends[this.ends.length - 1];
  }

  /** Bytes of text held in this process's memory (0 when they are read from the file). */
  get heldBytes(): number {
    return this.bytes?.length ?? 0;
  }

  /** The file the bytes are read from (null: held in memory). */
  get source(): FileRange | null {
    return this.file;
  }

  /**
   * The text of a slot, or null when blank.
   * @throws StoreReadError (file-range.ts) when the bytes are read from a file that is now shorter or unreadable.
   */
  get(slot: number): string | null {
    return this.run(slot, 1)[0];
  }

  /**
   * The texts of `count` consecutive slots from `first` (null: blank), read at once (one pread
   * for a file).
   * @throws StoreReadError (file-range.ts) as {@link get}.
   */
  run(first: number, count: number): Array<string | null> {
    const from = first === 0 ? 0 : this.ends[first - 1];
    const to = this.ends[first + count - 1];
    const bytes = this.bytes ?? (to > from ? readRange(this.file!, from, to) : Buffer.alloc(0));
    const base = this.bytes ? 0 : from;
    const texts = new Array<string | null>(count);
    let start = from;
    for (let i = 0; i < count; i++) {
      const end = this.ends[first + i];
      texts[i] = start === end ? null : bytes.toString('utf8', start - base, end - base);
      start = end;
    }
    return texts;
  }
}
