/**
 * Reading a store table by table in tests, read-only: what a build or an import wrote (`Store`),
 * and a store's own rows, the reference the serving read (src/serve/store/serving.ts) is checked
 * against (`storeSeries`). The server does not use this reader: it reads a store once through
 * src/serve/store/serving.ts `readServingData`. Queries are parameterised; callers get typed rows.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { finiteOrNull } from '../../src/domain/columns.js';
import { checkStoreFile } from '../../src/domain/store-format.js';
import { QUARTERLY_COLUMNS, type QuarterlyRow, type StoreMeta, type VaccineRow, type WindowRow } from '../../src/domain/store-schema.js';
import { readStoreMeta, readVaccineTable } from '../../src/serve/store/serving.js';

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
   * Opens the store file (a DuckDB database, by its content: src/domain/store-format.ts) read-only.
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(path: string): Promise<Store> {
    await checkStoreFile(path);
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
   * Build metadata, checked (src/serve/store/metadata.ts), read as the server reads it (src/serve/store/serving.ts `readStoreMeta`).
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
   * Streams every quarterly row (of `analysis` only, when given) ordered by (drug, event, quarter) to `onRow`,
   * chunk by chunk, so that a large store need not fit in memory at once.
   */
  async forEachQuarterlyRow(onRow: (row: QuarterlyRow) => void, analysis?: string): Promise<void> {
    const where = analysis === undefined ? '' : ' WHERE analysis = $analysis';
    const result = await this.connection.stream(`${QUARTERLY_SELECT}${where} ORDER BY drug, event, quarter`, analysis === undefined ? undefined : { analysis });
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
