/**
 * The serving read of a store (DESIGN.md: the server loads the store once, then answers from
 * memory): metadata, vaccines, the pair list, the columns of the pair aggregate and the spec
 * 2.3 records of every quarterly row (series-store.ts: in memory for small stores, else in an
 * unlinked temporary file), grouped by pair, quarters ascending. After this read the server holds
 * no database: `readServingData(path)` opens a small in-memory DuckDB (bounded memory and
 * threads), reads the store file (Parquet through `read_parquet`, streamed in chunks, never
 * copied into tables; a DuckDB store file attached read-only), and closes it. Stores written by
 * write.ts (rows ordered by drug, event, quarter) are read in one in-order scan, chunk by chunk,
 * each chunk's records written out at once (peak memory: the aggregate columns, 24 bytes a row,
 * plus DuckDB's 64 MB); other stores by the general read (all columns in memory first).
 *
 * Encoding of missing values, so that every column is a plain typed array: NaN for a null or
 * non-finite double, `NULL_INT` for a null `n`, -1 for a null `n_methods_flagged`; a null
 * `is_signal_any` is false. Rows whose drug or event is null, or whose quarter is not
 * `<year>Q<1-4>`, are skipped.
 */
import { access } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import { decodeStoreMeta, decodeVaccineRows, parseMetadataJson } from './metadata.js';
import { isParquetPath, readParquetKv, sqlString } from './parquet-store.js';
import { NULL_INT, recordViews, SERIES_RECORD_BYTES, SeriesStore } from './series-store.js';
import { vectorNumbers } from './vector-numbers.js';
import type { StoreMeta, VaccineRow } from './schema.js';

/** Every per-quarter column of spec 2.3 plus `ewma_eb05`, one entry per row (the fallback read). */
export interface SeriesColumns {
  /** Quarter index `year * 4 + (q - 1)` (src/quarter.ts). */
  quarter: Uint16Array;
  /** Observed count; `NULL_INT` when null. */
  n: Int32Array;
  eb05: Float64Array;
  eb50: Float64Array;
  eb95: Float64Array;
  prr: Float64Array;
  ror: Float64Array;
  ic: Float64Array;
  /** Present only when the store has `ic025` (meta.has_ic025 not false). */
  ic025: Float64Array | null;
  ewma_eb05: Float64Array;
  /** -1 when null. */
  n_methods_flagged: Int8Array;
  /** 1 when is_signal_any, else 0. */
  is_signal_any: Uint8Array;
}

/** The columns the pair aggregate reads (src/signals/aggregate.ts), one entry per row. */
export type AggregateColumns = Pick<SeriesColumns, 'quarter' | 'n' | 'eb05' | 'ewma_eb05' | 'n_methods_flagged' | 'is_signal_any'>;

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

/** Where the rows come from: a table or `read_parquet(...)`, and its row-number column. */
interface ServingSource {
  from: string;
  rowNumber: string;
}

/** Options of the serving read. */
export interface ServingOptions {
  /** Series records stay in memory below this many rows (default SERIES_IN_MEMORY_ROWS), else in a temporary file. */
  seriesInMemoryRows?: number;
}

const VALID_ROW = `drug IS NOT NULL AND event IS NOT NULL AND regexp_full_match(quarter, '[0-9]{4}Q[1-4]')`;
const DOUBLE_COLUMNS = ['eb05', 'eb50', 'eb95', 'prr', 'ror', 'ic', 'ic025', 'ewma_eb05'] as const;
const finite = (c: string) => `if(isfinite(${c}), ${c}, 'NaN'::DOUBLE) AS ${c}`;
const VALUES = `(left(quarter, 4)::INTEGER * 4 + right(quarter, 1)::INTEGER - 1)::INTEGER AS quarter,
      coalesce(n, ${NULL_INT})::INTEGER AS n, ${DOUBLE_COLUMNS.map(finite).join(', ')},
      coalesce(n_methods_flagged, -1)::INTEGER AS n_methods_flagged, coalesce(is_signal_any, false)::INTEGER AS is_signal_any`;

/** Numbers of column `index` of a chunk (vector-numbers.ts: the vector's own typed array when it exposes one). */
function numbers(chunk: DuckDBDataChunk, index: number): ArrayLike<number> {
  return vectorNumbers(chunk.getColumnVector(index), chunk.rowCount);
}

function aggregateColumns(total: number): AggregateColumns {
  return {
    quarter: new Uint16Array(total), n: new Int32Array(total), eb05: new Float64Array(total), ewma_eb05: new Float64Array(total),
    n_methods_flagged: new Int8Array(total), is_signal_any: new Uint8Array(total),
  };
}

/**
 * Encodes rows `0 .. count - 1` of the value columns (in VALUES order, `column(k)` the k-th
 * after the quarter) into fresh records; `into` (when given) receives the aggregate columns at
 * `at + i`.
 */
function encode(count: number, column: (k: number) => ArrayLike<number>, hasIc025: boolean, into: AggregateColumns, at: number): Buffer {
  const records = Buffer.alloc(count * SERIES_RECORD_BYTES);
  const { u16, i8, u8, i32, f64 } = recordViews(records);
  const quarter = column(0);
  const n = column(1);
  for (let i = 0; i < count; i++) {
    u16[i * 32] = quarter[i];
    i32[i * 16 + 1] = n[i];
    into.quarter[at + i] = quarter[i];
    into.n[at + i] = n[i];
  }
  for (let k = 0; k < 7; k++) {
    const values = k === 6 && !hasIc025 ? null : column(2 + k);
    for (let i = 0; i < count; i++) f64[i * 8 + 1 + k] = values ? values[i] : NaN;
  }
  into.eb05.set(column(2) as Float64Array, at);
  into.ewma_eb05.set(column(9) as Float64Array, at);
  const nmf = column(10);
  const signal = column(11);
  for (let i = 0; i < count; i++) {
    i8[i * 64 + 2] = nmf[i];
    u8[i * 64 + 3] = signal[i];
    into.n_methods_flagged[at + i] = nmf[i];
    into.is_signal_any[at + i] = signal[i];
  }
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
    for (let i = 0; i < chunk.rowCount; i++) {
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
      const quarter = numbers(chunk, 1);
      for (let i = 0; i < count; i++) {
        const row = at + i;
        while (row >= start[pair + 1]) pair++;
        // Row `row` must be the (row - start)-th of its pair's run, quarters ascending.
        if (rowNumber[i] !== first[pair] + row - start[pair] || (row > start[pair] && quarter[i] < (i > 0 ? quarter[i - 1] : rows.quarter[row - 1]))) {
          throw new NotInOrder();
        }
      }
      series.append(encode(count, (k) => numbers(chunk, 1 + k), hasIc025, rows, at));
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

/** `column[at[i]] = values[i]` (one monomorphic loop for every double column). */
function scatterDoubles(column: Float64Array, at: Int32Array, values: Float64Array): void {
  for (let i = 0; i < at.length; i++) column[at[i]] = values[i];
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
  const all: SeriesColumns = {
    quarter: new Uint16Array(total), n: new Int32Array(total),
    eb05: new Float64Array(total), eb50: new Float64Array(total), eb95: new Float64Array(total), prr: new Float64Array(total),
    ror: new Float64Array(total), ic: new Float64Array(total), ic025: hasIc025 ? new Float64Array(total) : null,
    ewma_eb05: new Float64Array(total), n_methods_flagged: new Int8Array(total), is_signal_any: new Uint8Array(total),
  };
  // Rows arrive in any order (parallel join): each goes to the next free slot of its pair.
  const fill = start.slice(0, drug.length);
  const result = await connection.stream(`WITH pairs AS (
      SELECT drug, event, (row_number() OVER (ORDER BY drug, event) - 1)::INTEGER AS id
      FROM (SELECT DISTINCT drug, event FROM ${source} WHERE ${VALID_ROW}))
    SELECT p.id, ${VALUES}
    FROM (SELECT * FROM ${source} WHERE ${VALID_ROW}) s JOIN pairs p ON s.drug = p.drug AND s.event = p.event`);
  const doubles = DOUBLE_COLUMNS.map((name) => all[name]);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    const id = numbers(chunk, 0);
    const at = new Int32Array(count);
    for (let i = 0; i < count; i++) at[i] = fill[id[i]]++;
    const quarter = numbers(chunk, 1);
    const n = numbers(chunk, 2);
    for (let i = 0; i < count; i++) {
      all.quarter[at[i]] = quarter[i];
      all.n[at[i]] = n[i];
    }
    for (let c = 0; c < doubles.length; c++) {
      const column = doubles[c];
      if (column) scatterDoubles(column, at, numbers(chunk, 3 + c) as Float64Array);
    }
    const nmf = numbers(chunk, 3 + DOUBLE_COLUMNS.length);
    const signal = numbers(chunk, 4 + DOUBLE_COLUMNS.length);
    for (let i = 0; i < count; i++) {
      all.n_methods_flagged[at[i]] = nmf[i];
      all.is_signal_any[at[i]] = signal[i];
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
  const columns = [all.quarter, all.n, all.eb05, all.eb50, all.eb95, all.prr, all.ror, all.ic, all.ic025 ?? all.eb05, all.ewma_eb05, all.n_methods_flagged, all.is_signal_any];
  const BATCH = 4096;
  for (let at = 0; at < total; at += BATCH) {
    const to = Math.min(total, at + BATCH);
    series.append(encode(to - at, (k) => columns[k].subarray(at, to), hasIc025, rows, at));
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

/** Meta and vaccines of a Parquet store, from its key-value metadata (parquet-store.ts), checked (metadata.ts). */
async function parquetParts(connection: DuckDBConnection, path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  const part = await readParquetKv(connection, path);
  const meta = part('meta');
  const vaccines = part('vaccines');
  return { meta: decodeStoreMeta(meta.value, meta.where), vaccines: decodeVaccineRows(vaccines.value, vaccines.where) };
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

/**
 * The `meta` table of a DuckDB store (`schema` the database it is attached as), values parsed
 * from JSON and checked; `store` names the store file in errors.
 * @throws Error when the table is missing, or naming the store and key when a value is not of its shape.
 */
export async function readMetaTable(connection: DuckDBConnection, store: string, schema = 'main'): Promise<StoreMeta> {
  return decodeMetaRows(await metaTableRows(connection, schema), store);
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
 * Limits of the loading database (the process's peak memory includes it). Insertion order is
 * kept: the in-order read streams the rows as stored.
 */
const LOAD_SETTINGS = { threads: '2', memory_limit: '64MB', preserve_insertion_order: 'true' } as const;

/**
 * Reads a store file (DuckDB store, or the Parquet form by its `.parquet` extension) once into
 * `ServingRows`, then closes the database. Read-only: a DuckDB file is attached READ_ONLY, a
 * Parquet file is only scanned.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readServingData(path: string, options: ServingOptions = {}): Promise<ServingRows> {
  try {
    await access(path);
  } catch {
    throw new Error(`store not found: ${path}`);
  }
  const instance = await DuckDBInstance.create(':memory:', { ...LOAD_SETTINGS });
  const connection = await instance.connect();
  try {
    if (isParquetPath(path)) {
      const { meta, vaccines } = await parquetParts(connection, path);
      return await readServingRows(connection, { from: `read_parquet(${sqlString(path)}, file_row_number = true)`, rowNumber: 'file_row_number' }, meta, vaccines, options);
    }
    try {
      await connection.run(`ATTACH ${sqlString(path)} AS store (READ_ONLY)`);
    } catch (error) {
      throw new Error(`not a reporting-signals store: ${path}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    const { meta, vaccines } = await duckdbParts(connection, path);
    return await readServingRows(connection, { from: 'store.quarterly', rowNumber: 'rowid' }, meta, vaccines, options);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
