/**
 * Where the server keeps the quarterly rows of `format=series` (spec 2.3) after the load: one
 * fixed-size binary record per row, a pair's rows contiguous (quarters ascending), read back by
 * row range. Small stores (fewer than `SERIES_IN_MEMORY_ROWS` rows, e.g. the embedded default:
 * 218k rows, 14 MB) keep the records in one Buffer; larger ones write them to a temporary file
 * that is unlinked right after it is opened (the open descriptor keeps it; nothing is left
 * behind at exit) and read a pair's slice with one positioned read (`fs.readSync`, well under a
 * millisecond), so the series stay out of the process's memory (2.8M rows: 180 MB).
 *
 * Record layout (native byte order: the records never leave the process): the columns with a
 * `served.record` offset in the column table (src/domain/columns.ts), each at its offset in its
 * encoding (`SERIES_FIELDS`): today quarter index u16 @0, n_methods_flagged i8 @2,
 * is_signal_any u8 @3, n i32 @4, then the doubles eb05 @8 .. ic025 @56. The record size
 * (`SERIES_RECORD_BYTES`, today 64) derives from them: the end of the last field, rounded up to
 * the largest encoding so that every record starts aligned (`seriesRecordLayout`).
 * Nulls as the encoding says (`Encoding`: NaN, `NULL_INT`, -1).
 */
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatQuarter } from '../../domain/quarter.js';
import { finiteOrNull, SERVED_COLUMNS, type Encoding, type ServedColumn, type ServedColumnEntry } from '../../domain/columns.js';

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

/** The typed array of each encoding. */
export interface TypedArrays {
  u16: Uint16Array;
  i32: Int32Array;
  i8: Int8Array;
  u8: Uint8Array;
  f64: Float64Array;
}

/** Bytes of one value of each encoding. */
export const ENCODING_BYTES: { readonly [E in Encoding]: number } = { u16: 2, i32: 4, i8: 1, u8: 1, f64: 8 };

/** The value each encoding stores for null (src/domain/columns.ts `Encoding`; a quarter is never null). */
export const NULL_VALUE: { readonly [E in Encoding]: number } = { u16: 0, i32: NULL_INT, i8: -1, u8: 0, f64: Number.NaN };

/** A column of the series record: its name, encoding and place in the record. */
export interface SeriesField<N extends string = ServedColumnEntry['name']> {
  name: N;
  encoding: Encoding;
  /** Byte offset in the record. */
  offset: number;
  /** Values of this encoding per record (`SERIES_RECORD_BYTES / ENCODING_BYTES[encoding]`). */
  stride: number;
  /** Index of the field of record 0 in its encoding's view (`offset / ENCODING_BYTES[encoding]`). */
  index: number;
}

/**
 * The series record of `columns`: the fields of those with a `served.record` offset, in table
 * order, and the record's size in bytes: the end of the last field rounded up to the largest
 * encoding of the record (so that record r of a buffer aligned to 8 keeps every field aligned).
 * @throws Error when a field is misaligned (its offset not a multiple of its size) or overlaps
 * another.
 */
export function seriesRecordLayout<N extends string>(columns: ReadonlyArray<{ readonly name: N; readonly served: ServedColumn }>): { fields: SeriesField<N>[]; bytes: number } {
  const placed = columns.flatMap((column) => {
    const { encoding, record: offset } = column.served;
    return offset === undefined ? [] : [{ name: column.name, encoding, offset, size: ENCODING_BYTES[encoding] }];
  });
  const align = Math.max(1, ...placed.map((f) => f.size));
  const end = Math.max(0, ...placed.map((f) => f.offset + f.size));
  const bytes = Math.ceil(end / align) * align;
  const used = new Uint8Array(bytes);
  for (const { name, encoding, offset, size } of placed) {
    if (offset % size !== 0 || used.subarray(offset, offset + size).some((b) => b)) {
      throw new Error(`series record: ${name} (${encoding} @${offset}) is misaligned or overlaps another field`);
    }
    used.fill(1, offset, offset + size);
  }
  const fields = placed.map(({ name, encoding, offset, size }) => ({ name, encoding, offset, stride: bytes / size, index: offset / size }));
  return { fields, bytes };
}

const LAYOUT = seriesRecordLayout(SERVED_COLUMNS);

/** Bytes of one row record, from the columns the record carries (64 today). */
export const SERIES_RECORD_BYTES = LAYOUT.bytes;

/**
 * The fields of the series record, in column-table order, from the `served.record` offsets of
 * src/domain/columns.ts (checked by `seriesRecordLayout`).
 */
export const SERIES_FIELDS: readonly SeriesField[] = LAYOUT.fields;

/** Typed views of a record buffer, one per encoding (field f of record r: `views[f.encoding][r * f.stride + f.index]`). */
export type RecordViews = TypedArrays;

/** Views of `records` (its byteOffset a multiple of 8, as every Buffer this module hands out). */
export function recordViews(records: Buffer): RecordViews {
  const { buffer, byteOffset, length } = records;
  return {
    u16: new Uint16Array(buffer, byteOffset, length >> 1), i8: new Int8Array(buffer, byteOffset, length), u8: new Uint8Array(buffer, byteOffset, length),
    i32: new Int32Array(buffer, byteOffset, length >> 2), f64: new Float64Array(buffer, byteOffset, length >> 3),
  };
}

/**
 * Writes `values[i]` (or the encoding's null for every record when `values` is null) into
 * field `field` of records `0 .. count - 1` of `views`. One loop per encoding, so that each
 * loop stores into one kind of typed array (the load writes millions of values).
 */
export function writeField(views: RecordViews, field: SeriesField, count: number, values: ArrayLike<number> | null): void {
  const { stride, index } = field;
  const from = values ?? new Float64Array(count).fill(NULL_VALUE[field.encoding]);
  switch (field.encoding) {
    case 'u16': { const view = views.u16; for (let i = 0; i < count; i++) view[i * stride + index] = from[i]; return; }
    case 'i32': { const view = views.i32; for (let i = 0; i < count; i++) view[i * stride + index] = from[i]; return; }
    case 'i8': { const view = views.i8; for (let i = 0; i < count; i++) view[i * stride + index] = from[i]; return; }
    case 'u8': { const view = views.u8; for (let i = 0; i < count; i++) view[i * stride + index] = from[i]; return; }
    case 'f64': { const view = views.f64; for (let i = 0; i < count; i++) view[i * stride + index] = from[i]; return; }
  }
}

/**
 * The value of field `field` of record `r`, decoded: a quarter as `<year>Q<1-4>`, a boolean
 * as true or false, a number or null for the encoding's null.
 */
export function readField(views: RecordViews, field: SeriesField, r: number): string | number | boolean | null {
  const value = views[field.encoding][r * field.stride + field.index];
  switch (field.encoding) {
    case 'u16': return formatQuarter(value);
    case 'u8': return value === 1;
    case 'i8': return value < 0 ? null : value;
    case 'i32': return value === NULL_INT ? null : value;
    case 'f64': return finiteOrNull(value);
  }
}
