/**
 * Where the server keeps the quarterly rows of `format=series` (spec 2.3) after the load: one
 * fixed-size binary record per row, a pair's rows contiguous (quarters ascending), read back by
 * row range. Small stores (fewer than `SERIES_IN_MEMORY_ROWS` rows, e.g. the embedded default:
 * 218k rows, 14 MB) keep the records in one Buffer; larger ones write them to a temporary file
 * that is unlinked right after it is opened (the open descriptor keeps it; nothing is left
 * behind at exit) and read a pair's slice with one positioned read (`fs.readSync`, well under a
 * millisecond), so the series stay out of the process's memory (2.8M rows: 180 MB).
 *
 * Record layout (little-endian, `SERIES_RECORD_BYTES` = 64): quarter index u16 @0 (src/quarter.ts),
 * n_methods_flagged i8 @2 (-1: null), is_signal_any u8 @3, n i32 @4 (`NULL_INT`: null), then
 * the doubles eb05 @8, eb50 @16, eb95 @24, prr @32, ror @40, ic @48, ic025 @56 (NaN: null).
 */
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Bytes of one row record. */
export const SERIES_RECORD_BYTES = 64;
/** Stores with fewer rows keep their series in memory; larger ones in an unlinked temporary file. */
export const SERIES_IN_MEMORY_ROWS = 500_000;
/** Sentinel of a null integer `n`. */
export const NULL_INT = -2147483648;

/** Row records of every pair, appended once at load time, then read by row range. */
export class SeriesStore {
  private written = 0;
  private scratch = Buffer.alloc(0);

  private constructor(private readonly memory: Buffer | null, private fd: number | null, readonly rows: number) {}

  /**
   * A store for `rows` records: in memory below `inMemoryRows`, else in a temporary file
   * (under os.tmpdir(), unlinked at once).
   */
  static create(rows: number, inMemoryRows: number = SERIES_IN_MEMORY_ROWS): SeriesStore {
    if (rows < inMemoryRows) return new SeriesStore(Buffer.alloc(rows * SERIES_RECORD_BYTES), null, rows);
    const dir = mkdtempSync(path.join(tmpdir(), 'reporting-signals-series-'));
    const file = path.join(dir, 'series.bin');
    const fd = openSync(file, 'w+', 0o600);
    unlinkSync(file);
    rmdirSync(dir);
    return new SeriesStore(null, fd, rows);
  }

  /** Whether the records live in a temporary file. */
  get onDisk(): boolean {
    return this.memory === null;
  }

  /** Appends whole records (`records.length` a multiple of SERIES_RECORD_BYTES). @throws past `rows`. */
  append(records: Buffer): void {
    const count = records.length / SERIES_RECORD_BYTES;
    if (this.written + count > this.rows) throw new Error(`series store overflow: ${this.written + count} > ${this.rows} rows`);
    const at = this.written * SERIES_RECORD_BYTES;
    if (this.memory) records.copy(this.memory, at);
    else {
      for (let done = 0; done < records.length;) done += writeSync(this.fd!, records, done, records.length - done, at + done);
    }
    this.written += count;
  }

  /**
   * Records `from .. from + count - 1` as one Buffer (record i at byte i * SERIES_RECORD_BYTES).
   * The Buffer is valid until the next `read` (a reused scratch buffer for the file form).
   */
  read(from: number, count: number): Buffer {
    const bytes = count * SERIES_RECORD_BYTES;
    if (this.memory) return this.memory.subarray(from * SERIES_RECORD_BYTES, from * SERIES_RECORD_BYTES + bytes);
    if (this.fd === null) throw new Error('series store closed');
    if (this.scratch.length < bytes) this.scratch = Buffer.alloc(Math.max(bytes, 64 * SERIES_RECORD_BYTES));
    for (let done = 0; done < bytes;) {
      const got = readSync(this.fd, this.scratch, done, bytes - done, from * SERIES_RECORD_BYTES + done);
      if (got === 0) throw new Error('series store truncated');
      done += got;
    }
    return this.scratch.subarray(0, bytes);
  }

  /** Releases the temporary file (idempotent). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Typed views of a record buffer (native byte order; the records never leave the process). */
export interface RecordViews {
  /** quarter of record r: u16[r * 32]. */
  u16: Uint16Array;
  /** n_methods_flagged of record r: i8[r * 64 + 2]. */
  i8: Int8Array;
  /** is_signal_any of record r: u8[r * 64 + 3]. */
  u8: Uint8Array;
  /** n of record r: i32[r * 16 + 1]. */
  i32: Int32Array;
  /** Double k (0 eb05 .. 6 ic025) of record r: f64[r * 8 + 1 + k]. */
  f64: Float64Array;
}

/** Views of `records` (its byteOffset a multiple of 8, as every Buffer this module hands out). */
export function recordViews(records: Buffer): RecordViews {
  const { buffer, byteOffset, length } = records;
  return {
    u16: new Uint16Array(buffer, byteOffset, length >> 1), i8: new Int8Array(buffer, byteOffset, length), u8: new Uint8Array(buffer, byteOffset, length),
    i32: new Int32Array(buffer, byteOffset, length >> 2), f64: new Float64Array(buffer, byteOffset, length >> 3),
  };
}
