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
 * Rows gathered into data chunks for an appender, column by column in typed arrays: each full
 * chunk (and the last, partial one) copied into DuckDB's vectors with one native call per number
 * column (its data, and its validity when it has a null) and one per text value, then appended.
 */
class ChunkFiller {
  private readonly columns: ColumnBuffer[];
  /** Rows set in the current chunk. */
  private rows = 0;

  constructor(private readonly appender: DuckDBAppender, private readonly table: string, private readonly names: readonly string[], columnTypes: readonly string[], private readonly chunkTypes: readonly DuckDBType[]) {
    this.columns = columnTypes.map(columnBuffer);
  }

  /**
   * Sets column `c` of the current row to `value` (as storedValue gives it).
   * @throws RangeError naming the table and column for a value the column's type cannot hold.
   */
  set(c: number, value: unknown): void {
    const column = this.columns[c];
    const i = this.rows;
    let stored: DuckDBValue;
    try {
      stored = storedValue(column.type, value);
    } catch (error) {
      throw new RangeError(`appendRows: table ${this.table}, column ${this.names[c]}: ${(error as Error).message}`, { cause: error });
    }
    if (stored === null) {
      column.validity[i >>> 5] &= ~(1 << (i & 31));
      column.anyNull = true;
      if (column.text) column.text[i] = null;
    } else if (column.text) column.text[i] = stored as string;
    else if (column.type === 'BOOLEAN') (column.data as Uint8Array)[i] = stored ? 1 : 0;
    else (column.data as Float64Array)[i] = stored as number; // an Int32Array, BigInt64Array or Float64Array of the column's type
  }

  /** Ends the current row (a full chunk is appended). */
  endRow(): void {
    this.rows++;
    if (this.rows === CHUNK_ROWS) this.flush();
  }

  /** Appends the rows set so far (none: nothing). */
  flush(): void {
    const n = this.rows;
    if (n === 0) return;
    const chunk = DuckDBDataChunk.create(this.chunkTypes, n);
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

/**
 * An appender of table `main.table` (of `options.catalog`, else the current database) that takes
 * rows one by one, synchronously (each row's `columns` in order, gathered into data chunks as
 * appendRows does): for a producer that cannot await between rows (the VAERS reader's report
 * text, src/ingest/vaers/report-text.ts). The caller calls `finish()` (or `close()` on failure).
 * @throws Error when the table's columns differ in number or type from `columns` (the appender is closed).
 */
export async function rowAppender<R extends object>(connection: DuckDBConnection, table: string, columns: AppendColumns, options: AppendOptions<R> = {}): Promise<RowAppender<R>> {
  const appender = await connection.createAppender(table, 'main', options.catalog ?? null);
  let filler: ChunkFiller;
  try {
    if (appender.columnCount !== columns.length) throw new Error(`appendRows: table ${table} has ${appender.columnCount} columns, ${columns.length} given`);
    const chunkTypes = columns.map((_, c) => appender.columnType(c));
    // The values are copied into the vectors as raw bytes laid out by the declared type: a table whose
    // column has another type would be written out of bounds, so it is refused here.
    columns.forEach(([name, type], c) => {
      if (chunkTypes[c].toString() !== appendedType(type)) throw new Error(`appendRows: table ${table}, column ${name}: declared ${type}, the table holds ${chunkTypes[c].toString()}`);
    });
    filler = new ChunkFiller(appender, table, columns.map(([name]) => name), columns.map(([, type]) => type), chunkTypes);
  } catch (error) {
    appender.closeSync();
    throw error;
  }
  let count = 0;
  return {
    append(row: R): void {
      options.check?.(row);
      for (let c = 0; c < columns.length; c++) filler.set(c, (row as Record<string, unknown>)[columns[c][0]]);
      filler.endRow();
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
 * Appends `rows` (sync or async) to table `main.table` (of `options.catalog`, else the current
 * database), each row's `columns` in order (the table's columns: the data chunks take the
 * appender's column types). Returns the number of rows appended.
 * @throws what `options.check` throws (the rows before it in its data chunk are not appended; a
 * failed write is discarded: write.ts), or DuckDB's error (the appender is closed either way).
 */
export async function appendRows<R extends object>(connection: DuckDBConnection, table: string, columns: AppendColumns, rows: Iterable<R> | AsyncIterable<R>, options: AppendOptions<R> = {}): Promise<number> {
  const appender = await rowAppender(connection, table, columns, options);
  try {
    if (Symbol.asyncIterator in rows) for await (const row of rows) appender.append(row);
    else for (const row of rows) appender.append(row);
  } catch (error) {
    appender.close();
    throw error;
  }
  return appender.finish();
}
