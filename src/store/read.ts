/**
 * Reading a signal store, read-only (DESIGN.md: "The server opens it read-only"). Queries are
 * parameterised; callers get typed rows and never see SQL.
 */
import { access } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk, type DuckDBListVector, type DuckDBVector } from '@duckdb/node-api';
import { isParquetPath, loadParquetStore } from './parquet-store.js';
import { QUARTERLY_COLUMNS, type QuarterlyRow, type StoreMeta, type VaccineRow, type WindowRow } from './schema.js';

const QUARTERLY_SELECT = `SELECT ${QUARTERLY_COLUMNS.map(([name]) => name).join(', ')} FROM quarterly`;

function toNumberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'bigint' ? Number(value) : Number(value);
  return Number.isFinite(n) ? n : null;
}

function toQuarterlyRow(raw: Record<string, unknown>): QuarterlyRow {
  const row: Record<string, unknown> = {};
  for (const [name, type] of QUARTERLY_COLUMNS) {
    const value = raw[name];
    if (type === 'VARCHAR') row[name] = value === null || value === undefined ? null : String(value);
    else if (type === 'BOOLEAN') row[name] = Boolean(value);
    else row[name] = toNumberOrNull(value);
  }
  return row as unknown as QuarterlyRow;
}

/**
 * A chunk of pairs with their quarterly values for the pair aggregate (see
 * `Store.forEachPairChunk`). Rows of pair `i` are `start[i] .. start[i + 1] - 1` of the flat
 * columns. Missing values are encoded so that every column is a plain typed array: NaN for a
 * null double, -1 for a null integer.
 */
export interface PairChunk {
  pairCount: number;
  drug: string[];
  event: string[];
  /** Length pairCount + 1. */
  start: Int32Array;
  /** Quarter index `year * 4 + (q - 1)` (src/quarter.ts). */
  quarter: Int32Array;
  n: Int32Array;
  eb05: Float64Array;
  ewma_eb05: Float64Array;
  n_methods_flagged: Int32Array;
  /** 1 when is_signal_any, else 0. */
  is_signal_any: Int32Array;
}

const PAIR_CHUNK_SQL = `SELECT drug, event,
  list(TRY_CAST(left(quarter, 4) AS INTEGER) * 4 + TRY_CAST(right(quarter, 1) AS INTEGER) - 1) AS quarter,
  list(coalesce(n, 0)::INTEGER) AS n, list(coalesce(eb05, 'NaN'::DOUBLE)) AS eb05,
  list(coalesce(ewma_eb05, 'NaN'::DOUBLE)) AS ewma_eb05, list(coalesce(n_methods_flagged, -1)::INTEGER) AS n_methods_flagged,
  list(coalesce(is_signal_any, false)::INTEGER) AS is_signal_any
FROM quarterly WHERE TRY_CAST(left(quarter, 4) AS INTEGER) IS NOT NULL AND TRY_CAST(right(quarter, 1) AS INTEGER) BETWEEN 1 AND 4
  AND drug IS NOT NULL AND event IS NOT NULL
GROUP BY drug, event`;

/** The flat values of a list column, as a typed array (the vector's own buffer when it exposes one). */
function flatValues<T extends Int32Array | Float64Array>(child: DuckDBVector, make: (n: number) => T, nullValue: number): T {
  const items = (child as unknown as { items?: unknown }).items;
  if (items && Object.getPrototypeOf(items) === Object.getPrototypeOf(make(0)) && (items as T).length === child.itemCount) return items as T;
  const out = make(child.itemCount);
  for (let i = 0; i < child.itemCount; i++) {
    const v = child.getItem(i);
    out[i] = typeof v === 'number' ? v : nullValue;
  }
  return out;
}

/** Copies list column `index` of a chunk into one flat array laid out by `start`. */
function listColumn<T extends Int32Array | Float64Array>(chunk: DuckDBDataChunk, index: number, start: Int32Array, make: (n: number) => T, nullValue: number): T {
  const vector = chunk.getColumnVector(index) as DuckDBListVector;
  const values = flatValues(vector.childVector, make, nullValue);
  const out = make(start[chunk.rowCount]);
  for (let i = 0; i < chunk.rowCount; i++) {
    const from = vector.getEntryOffset(i);
    out.set(values.subarray(from, from + vector.getEntryLength(i)), start[i]);
  }
  return out;
}

/** An open, read-only signal store. */
export class Store {
  private constructor(private readonly instance: DuckDBInstance, private readonly connection: DuckDBConnection) {}

  /**
   * Opens the store file read-only: a DuckDB store file, or the Parquet form (`*.parquet`,
   * see parquet-store.ts), which is loaded into memory.
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(path: string): Promise<Store> {
    try {
      await access(path);
    } catch {
      throw new Error(`store not found: ${path}`);
    }
    if (isParquetPath(path)) {
      // The Parquet form (write.ts): loaded into an in-memory database, then served alike.
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      try {
        await loadParquetStore(connection, path);
      } catch (error) {
        connection.closeSync();
        instance.closeSync();
        throw new Error(`not a reporting-signals store: ${path}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
      return new Store(instance, connection);
    }
    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const store = new Store(instance, connection);
    try {
      await connection.runAndReadAll('SELECT 1 FROM meta LIMIT 1');
    } catch {
      store.close();
      throw new Error(`not a reporting-signals store (no meta table): ${path}`);
    }
    return store;
  }

  /** Build metadata. */
  async meta(): Promise<StoreMeta> {
    const reader = await this.connection.runAndReadAll('SELECT key, value FROM meta');
    const meta: Record<string, unknown> = {};
    for (const row of reader.getRowObjectsJS()) meta[String(row.key)] = JSON.parse(String(row.value));
    return meta as unknown as StoreMeta;
  }

  /** Every vaccine, ordered by name. */
  async vaccines(): Promise<VaccineRow[]> {
    const reader = await this.connection.runAndReadAll('SELECT vax_name, vax_type, vax_type_codes FROM vaccines ORDER BY vax_name');
    return reader.getRowObjectsJS().map((r) => ({
      vax_name: String(r.vax_name),
      vax_type: String(r.vax_type),
      vax_type_codes: (r.vax_type_codes as unknown[]).map(String),
    }));
  }

  /** Per-window hyperparameters, in quarter order. */
  async windows(): Promise<WindowRow[]> {
    const reader = await this.connection.runAndReadAll('SELECT * FROM windows ORDER BY quarter');
    return reader.getRowObjectsJS().map((r) => ({
      quarter: String(r.quarter),
      alpha1: Number(r.alpha1), beta1: Number(r.beta1), alpha2: Number(r.alpha2), beta2: Number(r.beta2), p: Number(r.p),
      neg_log_lik: Number(r.neg_log_lik), converged: Boolean(r.converged), at_bound: String(r.at_bound ?? ''),
      n_pairs: Number(r.n_pairs), n_reports: Number(r.n_reports),
    }));
  }

  /**
   * Streams every quarterly row ordered by (drug, event, quarter) to `onRow`, chunk by chunk,
   * so that a large store need not fit in memory at once.
   */
  async forEachQuarterlyRow(onRow: (row: QuarterlyRow) => void): Promise<void> {
    const result = await this.connection.stream(`${QUARTERLY_SELECT} ORDER BY drug, event, quarter`);
    for await (const rows of result.yieldRowObjectJs()) {
      for (const raw of rows) onRow(toQuarterlyRow(raw as Record<string, unknown>));
    }
  }

  /**
   * Streams every pair with the quarterly values the pair aggregate (spec 2.1) reads, in no
   * particular order, one chunk (up to ~2048 pairs) at a time, numbers as typed arrays (see
   * `PairChunk`): the grouping runs in DuckDB, so a full-history store loads in well under a
   * second. Rows whose quarter is not `<year>Q<1-4>` are skipped.
   */
  async forEachPairChunk(onChunk: (chunk: PairChunk) => void): Promise<void> {
    const result = await this.connection.stream(PAIR_CHUNK_SQL);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const pairCount = chunk.rowCount;
      const lists = chunk.getColumnVector(2) as DuckDBListVector;
      const start = new Int32Array(pairCount + 1);
      for (let i = 0; i < pairCount; i++) start[i + 1] = start[i] + lists.getEntryLength(i);
      const ints = (n: number) => new Int32Array(n);
      const doubles = (n: number) => new Float64Array(n);
      onChunk({
        pairCount,
        drug: chunk.getColumnValues(0).map(String),
        event: chunk.getColumnValues(1).map(String),
        start,
        quarter: listColumn(chunk, 2, start, ints, -1),
        n: listColumn(chunk, 3, start, ints, 0),
        eb05: listColumn(chunk, 4, start, doubles, NaN),
        ewma_eb05: listColumn(chunk, 5, start, doubles, NaN),
        n_methods_flagged: listColumn(chunk, 6, start, ints, -1),
        is_signal_any: listColumn(chunk, 7, start, ints, 0),
      });
    }
  }

  /** Quarterly rows of one pair, quarters ascending (spec 2.3). */
  async series(drug: string, event: string): Promise<QuarterlyRow[]> {
    const reader = await this.connection.runAndReadAll(`${QUARTERLY_SELECT} WHERE drug = $1 AND event = $2 ORDER BY quarter`, [drug, event]);
    return reader.getRowObjectsJS().map((r) => toQuarterlyRow(r as Record<string, unknown>));
  }

  /** Closes the database. */
  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
