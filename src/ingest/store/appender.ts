/**
 * The one DuckDB appender loop of the store's write side: rows appended to a table column by
 * column (a table of [name, DuckDB type] pairs), null for an absent or non-finite value, the
 * appender closed whatever happens. Used for the quarterly staging table, the report tables
 * (write.ts) and the interactions table (interactions.ts).
 *
 * The rows go to DuckDB a data chunk of 2048 at a time (`DuckDBAppender.appendDataChunk`,
 * @duckdb/node-api): the values are gathered column by column in typed arrays on the JavaScript
 * side and copied into the chunk's vectors with @duckdb/node-bindings' `copy_data_to_vector` and
 * `copy_data_to_vector_validity` (its duckdb.d.ts: "Used to write to data chunks"), one native call
 * per number column and chunk and one per text value, instead of one native call per value and per
 * row end (`appendDouble`, ..., `endRow`): ~60 columns per quarterly row made that the largest cost
 * of the build's main thread (issue 41). The stored values are the same (a store compared with
 * EXCEPT ALL both ways; test/ingest/store/appender.test.ts); a whole number out of its column's
 * range, or a column declared with another type than the table's, is an error as it was. @duckdb/node-bindings is
 * @duckdb/node-api's own binding layer, pinned by it to the same version (loaded from node-api's folder).
 * `appendBatches` takes the rows column by column instead (ColumnBatch: the build's row passes hand
 * the quarterly rows so, one batch per window, the worker's arrays of doubles read in place): no
 * object per row and no property lookup per value (issue 41: those were the main thread's largest
 * cost in the row passes). One data chunk is reused for every flush.
 */
import { createRequire } from 'node:module';
import { DuckDBDataChunk, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

/** @duckdb/node-bindings as @duckdb/node-api itself loads it (resolved from node-api's folder: its dependency, not ours). */
const duckdb = createRequire(createRequire(import.meta.url).resolve('@duckdb/node-api'))('@duckdb/node-bindings') as typeof import('@duckdb/node-bindings');

/** A table's columns as the appender fills them: name and DuckDB type (`VARCHAR`, `INTEGER`, `BIGINT`, `DOUBLE`, else `BOOLEAN`). */
export type AppendColumns = ReadonlyArray<readonly [string, string, ...unknown[]]>;

/** The range of DuckDB's INTEGER (int32) and BIGINT (int64). */
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A value as column type `type` stores it: null for null, undefined or a non-finite number;
 * else text, a number (INTEGER, DOUBLE), a bigint (BIGINT) or a boolean (any other type).
 * @throws RangeError for an INTEGER that is not a whole number within int32, or a BIGINT that is
 * not a whole number within int64 (the per-value appender refused those; a typed array would wrap
 * them silently).
 */
export function storedValue(type: string, value: unknown): DuckDBValue {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return null;
  if (type === 'VARCHAR') return String(value);
  if (type === 'DOUBLE') return Number(value);
  if (type === 'INTEGER') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) throw new RangeError(`not a 32-bit whole number: ${String(value)}`);
    return n;
  }
  if (type === 'BIGINT') {
    let n: bigint;
    try {
      n = BigInt(value as number);
    } catch {
      throw new RangeError(`not a 64-bit whole number: ${String(value)}`);
    }
    if (n < INT64_MIN || n > INT64_MAX) throw new RangeError(`not a 64-bit whole number: ${String(value)}`);
    return n;
  }
  return Boolean(value);
}

/** The DuckDB type a declared column type is appended as (`VARCHAR`, `INTEGER`, `BIGINT`, `DOUBLE`, else `BOOLEAN`). */
function appendedType(type: string): string {
  return type === 'VARCHAR' || type === 'INTEGER' || type === 'BIGINT' || type === 'DOUBLE' ? type : 'BOOLEAN';
}

/** Where and how appendRows appends: the catalog (database) of the table, and a check of each row before it is appended (it throws to stop). */
export interface AppendOptions<R> {
  catalog?: string;
  check?: (row: R) => void;
}

/** Rows per data chunk: DuckDB's vector size (2048), the most a chunk holds. */
const CHUNK_ROWS = duckdb.vector_size();

/** One column of a data chunk being filled: its values in a typed array (text: strings) and its validity bits. */
interface ColumnBuffer {
  type: string;
  /** Numbers as the vector holds them (INTEGER int32, BIGINT int64, DOUBLE float64, BOOLEAN one byte); null for text. */
  data: Int32Array | BigInt64Array | Float64Array | Uint8Array | null;
  text: Array<string | null> | null;
  /** DuckDB's validity mask (bit i of the 64-bit words, little-endian: bit i & 31 of 32-bit word i >> 5), 1 valid. */
  validity: Uint32Array;
  anyNull: boolean;
}

function columnBuffer(type: string): ColumnBuffer {
  const data = type === 'VARCHAR' ? null : type === 'INTEGER' ? new Int32Array(CHUNK_ROWS) : type === 'BIGINT' ? new BigInt64Array(CHUNK_ROWS)
    : type === 'DOUBLE' ? new Float64Array(CHUNK_ROWS) : new Uint8Array(CHUNK_ROWS);
  return { type, data, text: data === null ? new Array<string | null>(CHUNK_ROWS).fill(null) : null, validity: new Uint32Array(Math.ceil(CHUNK_ROWS / 32)).fill(0xffffffff), anyNull: false };
}

/**
 * The values of one column of a {@link ColumnBatch}, row i of the batch being:
 * - `constant`: `value` for every row;
 * - `numbers`: `values[at + i * stride]` (a non-finite number stored as null): a column of a
 *   row-major table of doubles, such as the worker's statistics (src/ingest/mining/protocol.ts);
 * - `values`: `values[i]`, any value storedValue takes.
 */
export type ColumnValues =
  | { readonly kind: 'constant'; readonly value: unknown }
  | { readonly kind: 'numbers'; readonly values: ArrayLike<number>; readonly at: number; readonly stride: number }
  | { readonly kind: 'values'; readonly values: ArrayLike<unknown> };

/** `rows` rows given column by column (`columns[c]` the values of the table's column c): what appendBatches appends. */
export interface ColumnBatch {
  rows: number;
  columns: readonly ColumnValues[];
}

/**
 * Rows gathered into data chunks for an appender, column by column in typed arrays: each full
 * chunk (and the last, partial one) copied into DuckDB's vectors with one native call per number
 * column (its data, and its validity when it has a null) and one per text value, then appended.
 * One data chunk is created and reused (reset before each fill): the appender copies a chunk's
 * values when it is appended (DuckDB's C API duckdb_append_data_chunk).
 */
class ChunkFiller {
  private readonly columns: ColumnBuffer[];
  /** Rows set in the current chunk. */
  private rows = 0;
  private readonly chunk: DuckDBDataChunk;

  constructor(private readonly appender: DuckDBAppender, private readonly table: string, private readonly names: readonly string[], columnTypes: readonly string[], chunkTypes: readonly DuckDBType[]) {
    this.columns = columnTypes.map(columnBuffer);
    this.chunk = DuckDBDataChunk.create(chunkTypes);
  }

  /** Rows the current chunk can still take. */
  get room(): number {
    return CHUNK_ROWS - this.rows;
  }

  /** The error of a value column `c` cannot hold. */
  private refused(c: number, error: unknown): RangeError {
    return new RangeError(`appendRows: table ${this.table}, column ${this.names[c]}: ${(error as Error).message}`, { cause: error });
  }

  /** Marks row `i` of column `column` null. */
  private static setNull(column: ColumnBuffer, i: number): void {
    column.validity[i >>> 5] &= ~(1 << (i & 31));
    column.anyNull = true;
    if (column.text) column.text[i] = null;
  }

  /** Sets row `i` of column `c` to `stored` (a value as storedValue gives it). */
  private put(c: number, i: number, stored: DuckDBValue): void {
    const column = this.columns[c];
    if (stored === null) ChunkFiller.setNull(column, i);
    else if (column.text) column.text[i] = stored as string;
    else if (column.type === 'BOOLEAN') (column.data as Uint8Array)[i] = stored ? 1 : 0;
    else (column.data as Float64Array)[i] = stored as number; // an Int32Array, BigInt64Array or Float64Array of the column's type
  }

  /**
   * Sets column `c` of the current row to `value` (as storedValue gives it).
   * @throws RangeError naming the table and column for a value the column's type cannot hold.
   */
  set(c: number, value: unknown): void {
    let stored: DuckDBValue;
    try {
      stored = storedValue(this.columns[c].type, value);
    } catch (error) {
      throw this.refused(c, error);
    }
    this.put(c, this.rows, stored);
  }

  /**
   * Sets column `c` of the next `count` rows (from the current one; count <= room) to rows
   * `from`..`from + count - 1` of `source`, each stored as storedValue stores it.
   * @throws RangeError naming the table and column for a value the column's type cannot hold.
   */
  setColumn(c: number, source: ColumnValues, from: number, count: number): void {
    const column = this.columns[c];
    const first = this.rows;
    if (source.kind === 'numbers' && (column.type === 'DOUBLE' || column.type === 'INTEGER')) {
      // The common case, without a storedValue call per value: a non-finite number is null, an
      // INTEGER must be a whole number within int32 (storedValue's rules).
      const { values, at, stride } = source;
      const data = column.data as Float64Array | Int32Array;
      const whole = column.type === 'INTEGER';
      for (let i = 0; i < count; i++) {
        const v = values[at + (from + i) * stride];
        if (!Number.isFinite(v)) ChunkFiller.setNull(column, first + i);
        else if (whole && !(Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX)) throw this.refused(c, new RangeError(`not a 32-bit whole number: ${String(v)}`));
        else data[first + i] = v;
      }
      return;
    }
    let stored: DuckDBValue = null;
    try {
      if (source.kind === 'constant') stored = storedValue(column.type, source.value);
      for (let i = 0; i < count; i++) {
        if (source.kind === 'numbers') stored = storedValue(column.type, source.values[source.at + (from + i) * source.stride]);
        else if (source.kind === 'values') stored = storedValue(column.type, source.values[from + i]);
        this.put(c, first + i, stored);
      }
    } catch (error) {
      throw this.refused(c, error);
    }
  }

  /** Ends the current row (a full chunk is appended). */
  endRow(): void {
    this.endRows(1);
  }

  /** Ends the next `count` rows (count <= room; a full chunk is appended). */
  endRows(count: number): void {
    this.rows += count;
    if (this.rows === CHUNK_ROWS) this.flush();
  }

  /** Appends the rows set so far (none: nothing). */
  flush(): void {
    const n = this.rows;
    if (n === 0) return;
    const { chunk } = this;
    chunk.reset(); // every vector valid again, its strings released
    chunk.rowCount = n;
    this.columns.forEach((column, c) => {
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
      if (column.text) {
        for (let i = 0; i < n; i++) if (column.text[i] !== null) duckdb.vector_assign_string_element(vector, i, column.text[i]!);
      } else {
        const data = column.data!;
        duckdb.copy_data_to_vector(vector, 0, data.buffer as ArrayBuffer, 0, n * data.BYTES_PER_ELEMENT);
      }
      if (column.anyNull) {
        duckdb.vector_ensure_validity_writable(vector);
        duckdb.copy_data_to_vector_validity(vector, 0, column.validity.buffer as ArrayBuffer, 0, Math.ceil(n / 64) * 8);
        column.validity.fill(0xffffffff);
        column.anyNull = false;
      }
    });
    this.rows = 0;
    this.appender.appendDataChunk(chunk);
  }
}

/** A table's appender taking one row at a time, synchronously (rowAppender). */
export interface RowAppender<R> {
  /** Appends one row (a full data chunk goes to DuckDB). @throws what `options.check` throws, or RangeError naming table and column. */
  append(row: R): void;
  /** Appends the last rows and closes the appender; returns the number of rows appended. */
  finish(): number;
  /** Closes the appender without appending the rows of the current data chunk (after a failure). */
  close(): void;
}

/** Checks `row` (`check`, when given) and puts its `columns` into the filler's next row. */
function appendRow<R extends object>(filler: ChunkFiller, columns: AppendColumns, row: R, check?: (row: R) => void): void {
  check?.(row);
  for (let c = 0; c < columns.length; c++) filler.set(c, (row as Record<string, unknown>)[columns[c][0]]);
  filler.endRow();
}

/**
 * Opens an appender on `table` (of `catalog`, else the current database) and checks `columns`
 * against it: the appender and its chunk filler.
 * @throws Error when the table's columns differ in number or type from `columns` (the appender is closed).
 */
async function openFiller(connection: DuckDBConnection, table: string, columns: AppendColumns, catalog: string | null): Promise<{ appender: DuckDBAppender; filler: ChunkFiller }> {
  const appender = await connection.createAppender(table, 'main', catalog);
  try {
    if (appender.columnCount !== columns.length) throw new Error(`appendRows: table ${table} has ${appender.columnCount} columns, ${columns.length} given`);
    const chunkTypes = columns.map((_, c) => appender.columnType(c));
    // The values are copied into the vectors as raw bytes laid out by the declared type: a table whose
    // column has another type would be written out of bounds, so it is refused here.
    columns.forEach(([name, type], c) => {
      if (chunkTypes[c].toString() !== appendedType(type)) throw new Error(`appendRows: table ${table}, column ${name}: declared ${type}, the table holds ${chunkTypes[c].toString()}`);
    });
    return { appender, filler: new ChunkFiller(appender, table, columns.map(([name]) => name), columns.map(([, type]) => type), chunkTypes) };
  } catch (error) {
    appender.closeSync();
    throw error;
  }
}

/**
 * An appender of table `main.table` (of `options.catalog`, else the current database) that takes
 * rows one by one, synchronously (each row's `columns` in order, gathered into data chunks as
 * appendRows does): for a producer that cannot await between rows (the VAERS reader's report
 * text, src/ingest/vaers/report-text.ts). The caller calls `finish()` (or `close()` on failure).
 * @throws Error when the table's columns differ in number or type from `columns` (the appender is closed).
 */
export async function rowAppender<R extends object>(connection: DuckDBConnection, table: string, columns: AppendColumns, options: AppendOptions<R> = {}): Promise<RowAppender<R>> {
  const { appender, filler } = await openFiller(connection, table, columns, options.catalog ?? null);
  let count = 0;
  return {
    append(row: R): void {
      appendRow(filler, columns, row, options.check);
      count++;
    },
    finish(): number {
      try {
        filler.flush();
      } finally {
        appender.closeSync();
      }
      return count;
    },
    close(): void {
      appender.closeSync();
    },
  };
}

/**
 * Opens an appender on `table` (of `catalog`, else the current database), checks `columns`
 * against it, gives each of `items` (sync or async) to `add` with the chunk filler, appends the
 * last partial chunk and closes the appender whatever happens. Returns the rows `add` counted.
 */
async function appendItems<T>(connection: DuckDBConnection, table: string, columns: AppendColumns, catalog: string | null, items: Iterable<T> | AsyncIterable<T>, add: (filler: ChunkFiller, item: T) => number): Promise<number> {
  const { appender, filler } = await openFiller(connection, table, columns, catalog);
  let count = 0;
  try {
    if (Symbol.asyncIterator in items) for await (const item of items) count += add(filler, item);
    else for (const item of items) count += add(filler, item);
    filler.flush();
  } finally {
    appender.closeSync();
  }
  return count;
}

/**
 * Appends `rows` (sync or async) to table `main.table` (of `options.catalog`, else the current
 * database), each row's `columns` in order (the table's columns: the data chunks take the
 * appender's column types). Returns the number of rows appended.
 * @throws what `options.check` throws (the rows before it in its data chunk are not appended; a
 * failed write is discarded: write.ts), or DuckDB's error (the appender is closed either way).
 */
export async function appendRows<R extends object>(connection: DuckDBConnection, table: string, columns: AppendColumns, rows: Iterable<R> | AsyncIterable<R>, options: AppendOptions<R> = {}): Promise<number> {
  return appendItems(connection, table, columns, options.catalog ?? null, rows, (filler, row) => {
    appendRow(filler, columns, row, options.check);
    return 1;
  });
}

/**
 * Appends `batches` (sync or async) to table `main.table` (of `catalog`, else the current
 * database) as appendRows appends rows, each batch's `columns[c]` the values of `columns[c]`
 * (the table's columns in order), stored as storedValue stores them: no object per row. Returns
 * the number of rows appended.
 * @throws Error when a batch has another number of columns; RangeError naming table and column for a
 * value its column cannot hold (the rows before it in its data chunk are not appended; a failed
 * write is discarded: write.ts), or DuckDB's error (the appender is closed either way).
 */
export async function appendBatches(connection: DuckDBConnection, table: string, columns: AppendColumns, batches: Iterable<ColumnBatch> | AsyncIterable<ColumnBatch>, catalog?: string): Promise<number> {
  return appendItems(connection, table, columns, catalog ?? null, batches, (filler, batch) => {
    if (batch.columns.length !== columns.length) throw new Error(`appendBatches: table ${table} has ${columns.length} columns, a batch gives ${batch.columns.length}`);
    for (let from = 0; from < batch.rows;) {
      const take = Math.min(filler.room, batch.rows - from);
      for (let c = 0; c < columns.length; c++) filler.setColumn(c, batch.columns[c], from, take);
      filler.endRows(take);
      from += take;
    }
    return batch.rows;
  });
}
