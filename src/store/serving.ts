/**
 * The serving read of a store (DESIGN.md: the server loads the store once, then answers from
 * memory): metadata, vaccines, the pair list and every quarterly row the server needs, as
 * compact typed columns grouped by pair, quarters ascending. After this read the server holds
 * no database: `readServingData(path)` opens a small in-memory DuckDB (bounded memory and
 * threads), reads the store file (Parquet through `read_parquet`, streamed in chunks, never
 * copied into tables; a DuckDB store file attached read-only), and closes it.
 *
 * Encoding of missing values, so that every column is a plain typed array: NaN for a null or
 * non-finite double, `NULL_INT` for a null `n`, -1 for a null `n_methods_flagged`; a null
 * `is_signal_any` is false. Rows whose drug or event is null, or whose quarter is not
 * `<year>Q<1-4>`, are skipped.
 */
import { access } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import { isParquetPath, KV_PREFIX, sqlString } from './parquet-store.js';
import type { StoreMeta, VaccineRow } from './schema.js';

/** Sentinel of a null integer `n` in `SeriesColumns.n`. */
export const NULL_INT = -2147483648;

/** The per-quarter values of spec 2.3 plus `ewma_eb05` (for the aggregate), one entry per row. */
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

/** What the server reads from a store once. */
export interface ServingRows {
  meta: StoreMeta;
  vaccines: VaccineRow[];
  /** Pair `i` is (drug[i], event[i]); its rows are `start[i] .. start[i + 1] - 1`, quarters ascending. */
  drug: string[];
  event: string[];
  /** Length pairs + 1. */
  start: Int32Array;
  rows: SeriesColumns;
}

const VALID_ROW = `drug IS NOT NULL AND event IS NOT NULL AND regexp_full_match(quarter, '[0-9]{4}Q[1-4]')`;
const DOUBLE_COLUMNS = ['eb05', 'eb50', 'eb95', 'prr', 'ror', 'ic', 'ic025', 'ewma_eb05'] as const;
const finite = (c: string) => `if(isfinite(${c}), ${c}, 'NaN'::DOUBLE) AS ${c}`;

/** Numbers of column `index` of a chunk, as the vector's own typed array when it exposes one. */
function numbers(chunk: DuckDBDataChunk, index: number): ArrayLike<number> {
  const vector = chunk.getColumnVector(index);
  const items = (vector as unknown as { items?: unknown }).items;
  if ((items instanceof Float64Array || items instanceof Int32Array) && items.length === chunk.rowCount) return items;
  return Array.from({ length: chunk.rowCount }, (_, i) => Number(vector.getItem(i)));
}

/** `column[at[i]] = values[i]` (one monomorphic loop for every double column). */
function scatterDoubles(column: Float64Array, at: Int32Array, values: Float64Array): void {
  for (let i = 0; i < at.length; i++) column[at[i]] = values[i];
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
 * Reads the pairs and their rows from `source` (a table name or a `read_parquet(...)` call)
 * over `connection`. Pair order is DuckDB's `ORDER BY drug, event`.
 */
export async function readServingRows(connection: DuckDBConnection, source: string, meta: StoreMeta, vaccines: VaccineRow[]): Promise<ServingRows> {
  const pairResult = await connection.stream(
    `SELECT drug, event, count(*)::INTEGER AS rows FROM ${source} WHERE ${VALID_ROW} GROUP BY drug, event ORDER BY drug, event`,
  );
  const drug: string[] = [];
  const event: string[] = [];
  const counts: number[] = [];
  for (;;) {
    const chunk = await pairResult.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const drugs = chunk.getColumnVector(0);
    const events = chunk.getColumnVector(1);
    const rowCounts = numbers(chunk, 2);
    for (let i = 0; i < chunk.rowCount; i++) {
      drug.push(String(drugs.getItem(i)));
      event.push(String(events.getItem(i)));
      counts.push(rowCounts[i]);
    }
  }
  const start = new Int32Array(drug.length + 1);
  for (let i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
  const total = start[drug.length];
  const hasIc025 = meta.has_ic025 !== false;
  const rows: SeriesColumns = {
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
    SELECT p.id, (left(quarter, 4)::INTEGER * 4 + right(quarter, 1)::INTEGER - 1)::INTEGER AS quarter,
      coalesce(n, ${NULL_INT})::INTEGER AS n, ${DOUBLE_COLUMNS.map(finite).join(', ')},
      coalesce(n_methods_flagged, -1)::INTEGER AS n_methods_flagged, coalesce(is_signal_any, false)::INTEGER AS is_signal_any
    FROM (SELECT * FROM ${source} WHERE ${VALID_ROW}) s JOIN pairs p ON s.drug = p.drug AND s.event = p.event`);
  const doubles = DOUBLE_COLUMNS.map((name) => rows[name]);
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
      rows.quarter[at[i]] = quarter[i];
      rows.n[at[i]] = n[i];
    }
    for (let c = 0; c < doubles.length; c++) {
      const column = doubles[c];
      if (column) scatterDoubles(column, at, numbers(chunk, 3 + c) as Float64Array);
    }
    const nmf = numbers(chunk, 3 + DOUBLE_COLUMNS.length);
    const signal = numbers(chunk, 4 + DOUBLE_COLUMNS.length);
    for (let i = 0; i < count; i++) {
      rows.n_methods_flagged[at[i]] = nmf[i];
      rows.is_signal_any[at[i]] = signal[i];
    }
  }
  for (let p = 0; p < drug.length; p++) {
    for (let i = start[p] + 1; i < start[p + 1]; i++) {
      if (rows.quarter[i] < rows.quarter[i - 1]) {
        sortByQuarter(rows, start[p], start[p + 1]);
        break;
      }
    }
  }
  return { meta, vaccines, drug, event, start, rows };
}

function vaccineRow(r: Record<string, unknown>): VaccineRow {
  return { vax_name: String(r.vax_name), vax_type: String(r.vax_type), vax_type_codes: ((r.vax_type_codes as unknown[] | null) ?? []).map(String) };
}

/** Meta and vaccines of a Parquet store, from its key-value metadata (parquet-store.ts). */
async function parquetParts(connection: DuckDBConnection, path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  const reader = await connection.runAndReadAll(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${sqlString(path)})`);
  const kv = new Map(reader.getRowObjectsJS().map((r) => [String(r.key), String(r.value)]));
  const part = (name: string): unknown => {
    const text = kv.get(`${KV_PREFIX}${name}`);
    if (text === undefined) throw new Error(`not a reporting-signals Parquet store (no ${KV_PREFIX}${name} metadata): ${path}`);
    return JSON.parse(text);
  };
  return { meta: part('meta') as StoreMeta, vaccines: (part('vaccines') as Array<Record<string, unknown>>).map(vaccineRow) };
}

/** Meta and vaccines of an attached DuckDB store (schema `store`). */
async function duckdbParts(connection: DuckDBConnection, path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  let metaRows: Array<Record<string, unknown>>;
  try {
    metaRows = (await connection.runAndReadAll('SELECT key, value FROM store.meta')).getRowObjectsJS();
  } catch {
    throw new Error(`not a reporting-signals store (no meta table): ${path}`);
  }
  const meta = Object.fromEntries(metaRows.map((r) => [String(r.key), JSON.parse(String(r.value))])) as unknown as StoreMeta;
  const vaccines = (await connection.runAndReadAll('SELECT vax_name, vax_type, vax_type_codes FROM store.vaccines ORDER BY vax_name')).getRowObjectsJS().map(vaccineRow);
  return { meta, vaccines };
}

/** Limits of the loading database (the process's peak memory includes it). */
export const LOAD_SETTINGS = { threads: '2', memory_limit: '256MB', preserve_insertion_order: 'false' } as const;

/**
 * Reads a store file (DuckDB store, or the Parquet form by its `.parquet` extension) once into
 * `ServingRows`, then closes the database. Read-only: a DuckDB file is attached READ_ONLY, a
 * Parquet file is only scanned.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readServingData(path: string): Promise<ServingRows> {
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
      return await readServingRows(connection, `read_parquet(${sqlString(path)})`, meta, vaccines);
    }
    try {
      await connection.run(`ATTACH ${sqlString(path)} AS store (READ_ONLY)`);
    } catch (error) {
      throw new Error(`not a reporting-signals store: ${path}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    const { meta, vaccines } = await duckdbParts(connection, path);
    return await readServingRows(connection, 'store.quarterly', meta, vaccines);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
