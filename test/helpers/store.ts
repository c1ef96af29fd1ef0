/**
 * Reading a store table by table in tests, read-only: what a build or an import wrote (`Store`),
 * and a store's own rows, the reference the serving read (src/store/serving.ts) is checked
 * against (`storeSeries`). The server does not use this reader: it reads a store once through
 * src/store/serving.ts `readServingData`. Queries are parameterised; callers get typed rows.
 */
import { access } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { finiteOrNull } from '../../src/domain/columns.js';
import { decodeStoreMeta, decodeVaccineRows, decodeWindowRows } from '../../src/store/metadata.js';
import { isParquetPath, readParquetKv, sqlString } from '../../src/store/parquet-store.js';
import { QUARTERLY_COLUMNS, SCHEMA_SQL, type QuarterlyRow, type StoreMeta, type VaccineRow, type WindowRow } from '../../src/store/schema.js';
import { readStoreMeta, readVaccineTable } from '../../src/store/serving.js';

/**
 * Creates the store tables in `connection` (an in-memory database) and loads them from the
 * Parquet store at `path`.
 * @throws Error naming the file when it is not a reporting-signals Parquet store, or naming the
 *   file and key when a metadata key is not of its shape (metadata.ts).
 */
async function loadParquetStore(connection: DuckDBConnection, path: string): Promise<void> {
  const part = await readParquetKv(connection, path);
  const vaccinesPart = part('vaccines');
  const vaccines = decodeVaccineRows(vaccinesPart.value, vaccinesPart.where);
  const windowsPart = part('windows');
  const windows = decodeWindowRows(windowsPart.value, windowsPart.where);
  const metaPart = part('meta');
  const meta = decodeStoreMeta(metaPart.value, metaPart.where);
  await connection.run(SCHEMA_SQL);
  // BY NAME: the Parquet form keeps only the served columns (write.ts), the others read as NULL;
  // a store written before analyses existed has no `analysis` column: its rows are `all`.
  await connection.run(`INSERT INTO quarterly BY NAME SELECT * FROM read_parquet(${sqlString(path)})`);
  await connection.run(`UPDATE quarterly SET analysis = 'all' WHERE analysis IS NULL`);
  for (const v of vaccines) {
    await connection.run('INSERT INTO vaccines VALUES ($1, $2, $3::VARCHAR[])', [v.vax_name, v.vax_type, JSON.stringify(v.vax_type_codes)]);
  }
  for (const w of windows) {
    await connection.run('INSERT INTO windows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)', [
      w.analysis ?? 'all', w.quarter, w.alpha1, w.beta1, w.alpha2, w.beta2, w.p, w.neg_log_lik, w.converged, w.at_bound, w.n_pairs, w.n_reports,
    ]);
  }
  for (const [key, value] of Object.entries(meta)) {
    await connection.run('INSERT INTO meta VALUES ($1, $2)', [key, JSON.stringify(value ?? null)]);
  }
}

const QUARTERLY_SELECT = `SELECT ${QUARTERLY_COLUMNS.map(([name]) => name).join(', ')} FROM quarterly`;

function toNumberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : finiteOrNull(Number(value));
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

/** An open, read-only signal store, for inspecting a store table by table. */
export class Store {
  private constructor(
    /** The store file, for error messages. */
    private readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /**
   * Opens the store file read-only: a DuckDB store file, or the Parquet form (`*.parquet`,
   * see src/store/parquet-store.ts), which is loaded into memory.
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(path: string): Promise<Store> {
    try {
      await access(path);
    } catch {
      throw new Error(`store not found: ${path}`);
    }
    if (isParquetPath(path)) {
      // The Parquet form (src/store/write.ts): loaded into an in-memory database, then served alike.
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      try {
        await loadParquetStore(connection, path);
      } catch (error) {
        connection.closeSync();
        instance.closeSync();
        throw new Error(`not a reporting-signals store: ${path}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
      return new Store(path, instance, connection);
    }
    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const store = new Store(path, instance, connection);
    try {
      await connection.runAndReadAll('SELECT 1 FROM meta LIMIT 1');
    } catch {
      store.close();
      throw new Error(`not a reporting-signals store (no meta table): ${path}`);
    }
    return store;
  }

  /**
   * Build metadata, checked (src/store/metadata.ts), read as the server reads it (src/store/serving.ts `readStoreMeta`).
   * @throws Error naming the store and key when a value is not of its shape.
   */
  async meta(): Promise<StoreMeta> {
    return readStoreMeta(this.path);
  }

  /** Every vaccine, ordered by name. */
  async vaccines(): Promise<VaccineRow[]> {
    return readVaccineTable(this.connection);
  }

  /** Per-window hyperparameters, by analysis then quarter. */
  async windows(): Promise<WindowRow[]> {
    const reader = await this.connection.runAndReadAll('SELECT * FROM windows ORDER BY analysis, quarter');
    return reader.getRowObjectsJS().map((r) => ({
      analysis: String(r.analysis),
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

  /** Closes the database. */
  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** The quarterly rows of the pair (drug, event) as the store holds them, quarters ascending (spec 2.3). */
export async function storeSeries(store: Store, drug: string, event: string): Promise<QuarterlyRow[]> {
  const rows: QuarterlyRow[] = [];
  await store.forEachQuarterlyRow((row) => {
    if (row.drug === drug && row.event === event) rows.push(row);
  });
  return rows;
}
