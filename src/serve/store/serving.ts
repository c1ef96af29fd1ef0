/**
 * The serving read of a store (docs/design.md: the server loads the store once, then answers from
 * memory): metadata, vaccines, the pair list, the columns of the pair aggregate and the spec
 * 2.3 records of every quarterly row (series-store.ts: in memory for small stores, else in an
 * unlinked temporary file), grouped by pair, quarters ascending. After this read the server holds
 * no database: `readServingData(path)` opens a small in-memory DuckDB (bounded memory and
 * threads), reads the store file (a DuckDB database attached read-only; its kind checked by its
 * content first, format.ts), and closes it. Stores written by
 * write.ts (rows ordered by drug, event, quarter) are read in one in-order scan, chunk by chunk,
 * each chunk's records written out at once (peak memory: the aggregate columns, 24 bytes a row,
 * plus DuckDB's 64 MB); other stores by the general read (all columns in memory first).
 *
 * Which columns are loaded, in which encoding, and which of them the pair aggregate reads: the
 * column table (src/domain/columns.ts `served`). Every column is a plain typed array, missing
 * values encoded as the encoding says (NaN for a null or non-finite double, `NULL_INT` for a
 * null `n`, -1 for a null `n_methods_flagged`; a null `is_signal_any` is false). Rows whose drug
 * or event is null, or whose quarter is not `<year>Q<1-4>`, are skipped.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { decodeStoreMeta, parseMetadataJson } from './metadata.js';
import { sqlString } from '../../domain/store-format.js';
import { sourcePath, withStore, type StoreSource } from './store-db.js';

export { withStore, OpenStore, sourcePath, verifyTables, type StoreSource } from './store-db.js';
import { SERVED_COLUMNS, type AggregateColumnEntry, type Encoding, type ServedColumnEntry } from '../../domain/columns.js';
import { NULL_INT, recordViews, SERIES_FIELDS, SERIES_RECORD_BYTES, SeriesStore, writeField, type TypedArrays } from './series-store.js';
import { vectorNumbers } from '../../domain/vector-numbers.js';
import type { StoreMeta, VaccineRow } from '../../domain/store-schema.js';

/**
 * Every column the server loads (src/domain/columns.ts `served`: the spec 2.3 quarter-object
 * columns and `ewma_eb05`), one typed entry per row in its encoding (the general read); an
 * optional column (`ic025`) is null when the store lacks it (meta.has_ic025 false).
 */
export type SeriesColumns = {
  [C in ServedColumnEntry as C['name']]: TypedArrays[C['served']['encoding']] | (C extends { optional: true } ? null : never);
};

/**
 * The columns the pair aggregate reads (src/serve/signals/aggregate.ts; `served.aggregate` in the
 * column table), one entry per row: quarter index, n (`NULL_INT` for null), eb05 and ewma_eb05
 * (NaN for null), n_methods_flagged (-1 for null), is_signal_any (1 or 0).
 */
export type AggregateColumns = { [C in AggregateColumnEntry as C['name']]: TypedArrays[C['served']['encoding']] };

/** What the server reads from a store once. */
export interface ServingRows {
  meta: StoreMeta;
  vaccines: VaccineRow[];
  /** Pair `i` is (drug[i], event[i]); its rows are `start[i] .. start[i + 1] - 1`, quarters ascending. */
  drug: string[];
  event: string[];
  /** Length pairs + 1. */
  start: Int32Array;
  /** Aggregate columns of every row (row indexes as in `start`). */
  rows: AggregateColumns;
  /** The spec 2.3 values of every row, same row indexes (series-store.ts). */
  series: SeriesStore;
}

/** Where the rows come from (a table, or a query over it) and its row-number column. */
interface ServingSource {
  from: string;
  rowNumber: string;
}

/** Options of the serving read. */
export interface ServingOptions {
  /** Series records stay in memory below this many rows (default SERIES_IN_MEMORY_ROWS), else in a temporary file. */
  seriesInMemoryRows?: number;
  /** Read only the rows of this analysis (a store with an `analysis` column); default every row. */
  analysis?: string;
}

const VALID_ROW = `drug IS NOT NULL AND event IS NOT NULL AND regexp_full_match(quarter, '[0-9]{4}Q[1-4]')`;
/** SQL of each encoding (src/domain/columns.ts `Encoding`): a column's value as the server holds it. */
const LOAD_SQL: { readonly [E in Encoding]: (c: string) => string } = {
  u16: (c) => `(left(${c}, 4)::INTEGER * 4 + right(${c}, 1)::INTEGER - 1)::INTEGER AS ${c}`,
  i32: (c) => `coalesce(${c}, ${NULL_INT})::INTEGER AS ${c}`,
  i8: (c) => `coalesce(${c}, -1)::INTEGER AS ${c}`,
  u8: (c) => `coalesce(${c}, false)::INTEGER AS ${c}`,
  f64: (c) => `if(isfinite(${c}), ${c}, 'NaN'::DOUBLE) AS ${c}`,
};
/** The loaded columns as a select list, in SERVED_COLUMNS order. */
const VALUES = SERVED_COLUMNS.map((c) => LOAD_SQL[c.served.encoding](c.name)).join(', ');
/** Position of each loaded column in VALUES. */
const POSITION = Object.fromEntries(SERVED_COLUMNS.map((c, k) => [c.name, k])) as { [K in ServedColumnEntry['name']]: number };
const AGGREGATE_COLUMNS = SERVED_COLUMNS.filter((c): c is AggregateColumnEntry => 'aggregate' in c.served);
const TYPED_ARRAY: { readonly [E in Encoding]: new (length: number) => TypedArrays[E] } = {
  u16: Uint16Array, i32: Int32Array, i8: Int8Array, u8: Uint8Array, f64: Float64Array,
};
/** Any of the typed arrays of the encodings. */
type TypedArray = TypedArrays[Encoding];

/** Whether the store carries `column` (an optional column only when meta.has_ic025 is not false). */
function present(column: ServedColumnEntry, hasIc025: boolean): boolean {
  return hasIc025 || !('optional' in column);
}

/** Numbers of column `index` of a chunk (vector-numbers.ts: the vector's own typed array when it exposes one). */
function numbers(chunk: DuckDBDataChunk, index: number): ArrayLike<number> {
  return vectorNumbers(chunk.getColumnVector(index), chunk.rowCount);
}

function aggregateColumns(total: number): AggregateColumns {
  return Object.fromEntries(AGGREGATE_COLUMNS.map((c) => [c.name, new TYPED_ARRAY[c.served.encoding](total)])) as AggregateColumns;
}

/**
 * Encodes rows `0 .. count - 1` of the loaded columns (`column(k)`: the k-th of SERVED_COLUMNS,
 * as VALUES selects it) into fresh records; `into` receives the aggregate columns at `at + i`.
 */
function encode(count: number, column: (k: number) => ArrayLike<number>, hasIc025: boolean, into: AggregateColumns, at: number): Buffer {
  const records = Buffer.alloc(count * SERIES_RECORD_BYTES);
  const views = recordViews(records);
  for (const field of SERIES_FIELDS) {
    const k = POSITION[field.name];
    writeField(views, field, count, present(SERVED_COLUMNS[k], hasIc025) ? column(k) : null);
  }
  for (const c of AGGREGATE_COLUMNS) (into[c.name] as TypedArray).set(column(POSITION[c.name]), at);
  return records;
}

/**
 * The pair list of a query whose columns are drug, event, then `width` numbers per pair, in
 * the query's order.
 */
async function readPairList(connection: DuckDBConnection, sql: string, width: number): Promise<{ drug: string[]; event: string[]; numbers: number[][] }> {
  const result = await connection.stream(sql);
  const drug: string[] = [];
  const event: string[] = [];
  const values = Array.from({ length: width }, (): number[] => []);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const drugs = chunk.getColumnVector(0);
    const events = chunk.getColumnVector(1);
    const columns = values.map((_, k) => numbers(chunk, 2 + k));
    const rows = chunk.rowCount; // a getter that calls into DuckDB: read once
    for (let i = 0; i < rows; i++) {
      drug.push(String(drugs.getItem(i)));
      event.push(String(events.getItem(i)));
      for (let k = 0; k < width; k++) values[k].push(columns[k][i]);
    }
  }
  return { drug, event, numbers: values };
}

/** First row of each pair from its row count (length pairs + 1; the last entry is the total). */
function pairStarts(counts: number[]): Int32Array {
  const start = new Int32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
  return start;
}

/** The in-order read found rows not grouped by pair or quarters not ascending: use the general read. */
class NotInOrder extends Error {}

/**
 * The fast read, for stores written by this project (write.ts: rows ordered by drug, event,
 * quarter): pairs are runs of consecutive row numbers, so the rows stream in store order (one
 * scan, no join, no sort) straight into the series store. @throws NotInOrder otherwise.
 */
async function readInOrder(connection: DuckDBConnection, source: ServingSource, meta: StoreMeta, vaccines: VaccineRow[], options: ServingOptions): Promise<ServingRows> {
  const valid = `(SELECT *, ${source.rowNumber}::DOUBLE AS row_number FROM ${source.from} WHERE ${VALID_ROW})`;
  const { drug, event, numbers: [counts, first, last] } = await readPairList(connection,
    `SELECT drug, event, count(*)::DOUBLE AS rows, min(row_number) AS first, max(row_number) AS last FROM ${valid} GROUP BY drug, event ORDER BY first`, 3);
  for (let i = 0; i < drug.length; i++) if (last[i] - first[i] + 1 !== counts[i]) throw new NotInOrder();
  const start = pairStarts(counts);
  const total = start[drug.length];
  const hasIc025 = meta.has_ic025 !== false;
  const rows = aggregateColumns(total);
  const series = SeriesStore.create(total, options.seriesInMemoryRows);
  try {
    const result = await connection.stream(`SELECT row_number, ${VALUES} FROM ${valid}`);
    let at = 0;
    let pair = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const count = chunk.rowCount;
      if (at + count > total) throw new NotInOrder();
      const rowNumber = numbers(chunk, 0);
      const values = SERVED_COLUMNS.map((_, k) => numbers(chunk, 1 + k));
      const quarter = values[POSITION.quarter];
      for (let i = 0; i < count; i++) {
        const row = at + i;
        while (row >= start[pair + 1]) pair++;
        // Row `row` must be the (row - start)-th of its pair's run, quarters ascending.
        if (rowNumber[i] !== first[pair] + row - start[pair] || (row > start[pair] && quarter[i] < (i > 0 ? quarter[i - 1] : rows.quarter[row - 1]))) {
          throw new NotInOrder();
        }
      }
      series.append(encode(count, (k) => values[k], hasIc025, rows, at));
      at += count;
    }
    if (at !== total) throw new NotInOrder();
  } catch (error) {
    series.close();
    throw error;
  }
  return { meta, vaccines, drug, event, start, rows, series };
}

/** Reorders rows `from .. to - 1` of every column by ascending quarter (stable). */
function sortByQuarter(rows: SeriesColumns, from: number, to: number): void {
  const order = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => rows.quarter[a] - rows.quarter[b] || a - b);
  for (const column of Object.values(rows) as Array<Uint16Array | Int32Array | Float64Array | Int8Array | Uint8Array | null>) {
    if (!column) continue;
    const values = order.map((i) => column[i]);
    for (let i = 0; i < values.length; i++) column[from + i] = values[i];
  }
}

/**
 * `column[at[i]] = values[i]`, one loop per encoding (each stores into one kind of typed array).
 */
function scatter(column: TypedArray, encoding: Encoding, at: Int32Array, values: ArrayLike<number>): void {
  const n = at.length;
  switch (encoding) {
    case 'u16': { const c = column as Uint16Array; for (let i = 0; i < n; i++) c[at[i]] = values[i]; return; }
    case 'i32': { const c = column as Int32Array; for (let i = 0; i < n; i++) c[at[i]] = values[i]; return; }
    case 'i8': { const c = column as Int8Array; for (let i = 0; i < n; i++) c[at[i]] = values[i]; return; }
    case 'u8': { const c = column as Uint8Array; for (let i = 0; i < n; i++) c[at[i]] = values[i]; return; }
    case 'f64': { const c = column as Float64Array; for (let i = 0; i < n; i++) c[at[i]] = values[i]; return; }
  }
}

/**
 * The general read (rows in any order): pairs ordered by DuckDB's `ORDER BY drug, event`, each
 * row scattered to the next free slot of its pair in memory, then sorted by quarter per pair.
 */
async function readScattered(connection: DuckDBConnection, source: string, meta: StoreMeta, vaccines: VaccineRow[], options: ServingOptions): Promise<ServingRows> {
  const { drug, event, numbers: [counts] } = await readPairList(connection,
    `SELECT drug, event, count(*)::INTEGER AS rows FROM ${source} WHERE ${VALID_ROW} GROUP BY drug, event ORDER BY drug, event`, 1);
  const start = pairStarts(counts);
  const total = start[drug.length];
  const hasIc025 = meta.has_ic025 !== false;
  const columns = SERVED_COLUMNS.map((c): TypedArray | null => (present(c, hasIc025) ? new TYPED_ARRAY[c.served.encoding](total) : null));
  const all = Object.fromEntries(SERVED_COLUMNS.map((c, k) => [c.name, columns[k]])) as SeriesColumns;
  // Rows arrive in any order (parallel join): each goes to the next free slot of its pair.
  const fill = start.slice(0, drug.length);
  const result = await connection.stream(`WITH pairs AS (
      SELECT drug, event, (row_number() OVER (ORDER BY drug, event) - 1)::INTEGER AS id
      FROM (SELECT DISTINCT drug, event FROM ${source} WHERE ${VALID_ROW}))
    SELECT p.id, ${VALUES}
    FROM (SELECT * FROM ${source} WHERE ${VALID_ROW}) s JOIN pairs p ON s.drug = p.drug AND s.event = p.event`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    const id = numbers(chunk, 0);
    const at = new Int32Array(count);
    for (let i = 0; i < count; i++) at[i] = fill[id[i]]++;
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k];
      if (column) scatter(column, SERVED_COLUMNS[k].served.encoding, at, numbers(chunk, 1 + k));
    }
  }
  for (let p = 0; p < drug.length; p++) {
    for (let i = start[p] + 1; i < start[p + 1]; i++) {
      if (all.quarter[i] < all.quarter[i - 1]) {
        sortByQuarter(all, start[p], start[p + 1]);
        break;
      }
    }
  }
  const rows = aggregateColumns(total);
  const series = SeriesStore.create(total, options.seriesInMemoryRows);
  const BATCH = 4096;
  for (let at = 0; at < total; at += BATCH) {
    const to = Math.min(total, at + BATCH);
    // encode reads only the columns the store has (an absent one is null).
    series.append(encode(to - at, (k) => columns[k]!.subarray(at, to), hasIc025, rows, at));
  }
  return { meta, vaccines, drug, event, start, rows, series };
}

/**
 * Reads the pairs and their rows from `source` over `connection`: the in-order read when the
 * store's rows are grouped by pair with quarters ascending (every store write.ts writes), else
 * the general read. Pair order: store order (in-order read) or `ORDER BY drug, event`; the
 * catalog sorts pairs itself.
 */
async function readServingRows(
  connection: DuckDBConnection, source: ServingSource, meta: StoreMeta, vaccines: VaccineRow[], options: ServingOptions = {},
): Promise<ServingRows> {
  try {
    return await readInOrder(connection, source, meta, vaccines, options);
  } catch (error) {
    if (!(error instanceof NotInOrder)) throw error;
    return readScattered(connection, source.from, meta, vaccines, options);
  }
}

/** A vaccine row as DuckDB gives it (the column types of schema.ts; null codes read as none). */
function vaccineRow(r: Record<string, unknown>): VaccineRow {
  return { vax_name: String(r.vax_name), vax_type: String(r.vax_type), vax_type_codes: ((r.vax_type_codes as unknown[] | null) ?? []).map(String) };
}

/**
 * The rows of the `meta` table of a DuckDB store (`schema` the database it is attached as).
 * @throws Error when the table is missing (the query fails).
 */
async function metaTableRows(connection: DuckDBConnection, schema: string): Promise<Array<Record<string, unknown>>> {
  return (await connection.runAndReadAll(`SELECT key, value FROM ${schema}.meta`)).getRowObjectsJS();
}

/** Build metadata from the rows of a `meta` table (key -> JSON text), checked (metadata.ts); `store` names the file. */
function decodeMetaRows(rows: Array<Record<string, unknown>>, store: string): StoreMeta {
  const where = `${store}: meta table`;
  return decodeStoreMeta(Object.fromEntries(rows.map((r) => [String(r.key), parseMetadataJson(String(r.value), `${where}: key ${String(r.key)}`)])), where);
}

/** The `vaccines` table of a DuckDB store (`schema` the database it is attached as), ordered by name. */
export async function readVaccineTable(connection: DuckDBConnection, schema = 'main'): Promise<VaccineRow[]> {
  return (await connection.runAndReadAll(`SELECT vax_name, vax_type, vax_type_codes FROM ${schema}.vaccines ORDER BY vax_name`)).getRowObjectsJS().map(vaccineRow);
}

/** Meta and vaccines of an attached DuckDB store (schema `store`). */
async function duckdbParts(connection: DuckDBConnection, path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await metaTableRows(connection, 'store');
  } catch {
    throw new Error(`not a reporting-signals store (no meta table): ${path}`);
  }
  return { meta: decodeMetaRows(rows, path), vaccines: await readVaccineTable(connection, 'store') };
}

/**
 * The metadata of a store file, without its rows: cheap, for knowing the analyses before loading them.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readStoreMeta(source: StoreSource): Promise<StoreMeta> {
  return withStore(source, async (connection) => (await duckdbParts(connection, sourcePath(source))).meta);
}

/**
 * Reads a store file once into `ServingRows`, then closes the database. Read-only: the file is
 * attached READ_ONLY. With `options.analysis`, only that analysis's rows.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readServingData(path: string, options: ServingOptions = {}): Promise<ServingRows> {
  const only = options.analysis === undefined ? '' : ` WHERE analysis = ${sqlString(options.analysis)}`;
  return withStore(path, async (connection) => {
    const { meta, vaccines } = await duckdbParts(connection, path);
    return readServingRows(connection, { from: `(SELECT *, rowid AS store_row FROM store.quarterly${only})`, rowNumber: 'store_row' }, meta, vaccines, options);
  });
}

/**
 * Meta and vaccines of the store opened by {@link withStore}: the store's head, for readers that
 * query the rows themselves (src/serve/store/evaluation.ts).
 * @throws Error naming the file when it is not a store, or a metadata value is not of its shape.
 */
export async function readStoreHead(connection: DuckDBConnection, path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  return duckdbParts(connection, path);
}
