/**
 * Writing a signal store, atomically: everything goes to `<out>.tmp-<pid>` first and is
 * renamed onto `<out>` only when complete, so a failed build never leaves a half-written
 * store behind (and an existing store stays untouched).
 *
 * Quarterly rows are first appended to a staging database on disk (`<out>.tmp-<pid>.staging`,
 * so a big build does not hold its rows in memory), then copied into the store sorted by
 * (drug, event, quarter): a pair's series is contiguous, which keeps the file compact and lets
 * DuckDB's zone maps find a pair without a separate index. The triage read's index of the flagged
 * rows, in quarter order (`triage_rows`, store-schema.ts TRIAGE_ROWS_SQL), is then derived from
 * them by SQL.
 *
 * A full store that follows its first analysis's store (StoreContent.copyFrom, the default store's
 * first start) starts as a copy of that file when its analyses sort first, and the other analyses'
 * rows are appended after its own (appendToCopy): its report tables are not written twice.
 *
 * The store is one DuckDB database file (the tables of `schema.ts`), whatever its name (
 * the format of a store is read from its content, format.ts): the report tables (schema.ts
 * `REPORT_TABLES`), when given, are appended into it, so one rename replaces a whole store.
 */
import { copyFile, rename, rm } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { appendBatches, appendRows, type AppendColumns, type ColumnBatch } from './appender.js';
import { sqlString } from '../../domain/store-format.js';
import {
  QUARTERLY_COLUMNS, REPORT_EVENT_COLUMNS, REPORT_LINKS_SQL, REPORT_LINKS_TABLE, REPORT_TABLE_COLUMNS, REPORT_TABLES_SQL, REPORT_VACCINE_COLUMNS, SCHEMA_SQL, TRIAGE_ROWS_SQL, TRIAGE_ROWS_TABLE, triageRowsSelect,
  type QuarterlyRow, type ReportLinkRow, type ReportTableColumns, type ReportTableName, type ReportTables, type StoreMeta, type VaccineRow, type WindowRow,
} from '../../domain/store-schema.js';
import { INTERACTIONS_SQL, INTERACTIONS_TABLE, type InteractionRow } from '../../domain/interactions.js';
import { appendInteractions } from './interactions.js';

/**
 * What a store holds. `quarterly` may be an async iterable so that big builds can stream, and
 * may be given as batches of columns (`{ batches }`, appender.ts ColumnBatch: the columns of
 * QUARTERLY_COLUMNS in order), as the build's row passes give them, without an object per row.
 * `vaccines`, `windows` and `meta` may also be given as functions: they are called after every
 * quarterly row has been consumed, so a streaming producer can fill them in as it goes.
 */
export interface StoreContent {
  quarterly: Iterable<QuarterlyRow> | AsyncIterable<QuarterlyRow> | { batches: Iterable<ColumnBatch> | AsyncIterable<ColumnBatch> };
  vaccines: Iterable<VaccineRow> | (() => Iterable<VaccineRow>);
  windows: Iterable<WindowRow> | (() => Iterable<WindowRow>);
  meta: StoreMeta | (() => StoreMeta);
  /** The report tables (absent: none, as in an import); a function is called after the quarterly rows. */
  reports?: ReportTablesInput | (() => ReportTablesInput);
  /** The Omega rows of co-reported vaccines (docs/interactions.md; absent: no table); a function is called after the quarterly rows. */
  interactions?: InteractionRow[] | (() => InteractionRow[]);
  /**
   * A complete store written earlier by the same build (its first analysis alone: build.ts
   * `firstAnalysis`) whose quarterly rows join `quarterly`, and whose report tables, links and
   * interactions are copied as they are (then `reports` and `interactions` are not read). When
   * each of its analyses sorts before each analysis of `quarterly` (the default store's `all`
   * does), the file itself is copied and the new rows appended after its own, which is where the
   * sort puts them (appendToCopy); its `vaccines` and its analyses' `windows` rows are then kept.
   */
  copyFrom?: string;
}

/** A table's rows: objects (a property per column), or batches of columns (appender.ts ColumnBatch: the table's columns in order). */
export type TableRows = Iterable<object> | { batches: Iterable<ColumnBatch> };

/**
 * The report tables as the writer takes them: ReportTables (store-schema.ts), each of whose three
 * tables may also be given as batches of columns (the build's: report-tables.ts), the `reports`
 * batches then with the text's key as their last column when `text` is given.
 */
export type ReportTablesInput = Omit<ReportTables, 'reports' | 'vaccines' | 'events'> & { reports: TableRows; vaccines: TableRows; events: TableRows };

/** Appends `rows` to `table` (of `catalog`, else the store) as appendRows or appendBatches does. */
function appendTable(connection: DuckDBConnection, table: string, columns: AppendColumns, rows: TableRows, catalog?: string): Promise<number> {
  return 'batches' in rows ? appendBatches(connection, table, columns, rows.batches, catalog) : appendRows(connection, table, columns, rows, { catalog });
}

/** The tables copied whole from `copyFrom`: each statement that creates tables, with the tables it creates. */
const COPIED_TABLES: ReadonlyArray<[string, readonly string[]]> = [
  [REPORT_TABLES_SQL, ['reports', 'report_vaccines', 'report_events']], [REPORT_LINKS_SQL, [REPORT_LINKS_TABLE]], [INTERACTIONS_SQL, [INTERACTIONS_TABLE]],
];

/** Copies the quarterly rows of store `from` into the staging table, and its report tables, links and interactions into the store being written. */
async function copyStore(connection: DuckDBConnection, from: string): Promise<void> {
  await connection.run(`ATTACH ${sqlString(from)} AS earlier (READ_ONLY)`);
  try {
    await connection.run('INSERT INTO staging.quarterly SELECT * FROM earlier.quarterly');
    const present = new Set((await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'earlier'")).getRowObjectsJS().map((r) => String(r.table_name)));
    for (const [create, tables] of COPIED_TABLES) {
      if (!present.has(tables[0])) continue;
      await connection.run(create);
      for (const table of tables) await connection.run(`INSERT INTO main.${table} SELECT * FROM earlier.${table}`);
    }
  } finally {
    await connection.run('DETACH earlier');
  }
}

function later<T extends object>(value: T | (() => T)): T {
  return typeof value === 'function' ? (value as () => T)() : value;
}

/** DuckDB's memory cap while writing (the sort spills to disk beyond it). */
const MEMORY_LIMIT = '1GB';
const QUARTERLY_TABLE_SQL = SCHEMA_SQL.split(';')[0];
const ORDER = 'ORDER BY analysis, drug, event, quarter';
const ORDERED = `SELECT * FROM staging.quarterly ${ORDER}`;
async function stageQuarterly(connection: DuckDBConnection, rows: StoreContent['quarterly']): Promise<number> {
  await connection.run(QUARTERLY_TABLE_SQL.replace('CREATE TABLE quarterly', 'CREATE TABLE staging.quarterly'));
  if ('batches' in rows) return appendBatches(connection, 'quarterly', QUARTERLY_COLUMNS, rows.batches, 'staging');
  return appendRows(connection, 'quarterly', QUARTERLY_COLUMNS, rows, { catalog: 'staging' });
}

/** The `windows` table's columns as appendRows fills them (store-schema.ts, in table order). */
const WINDOW_COLUMNS: AppendColumns = [
  ['analysis', 'VARCHAR'], ['quarter', 'VARCHAR'], ['alpha1', 'DOUBLE'], ['beta1', 'DOUBLE'], ['alpha2', 'DOUBLE'], ['beta2', 'DOUBLE'],
  ['p', 'DOUBLE'], ['neg_log_lik', 'DOUBLE'], ['converged', 'BOOLEAN'], ['at_bound', 'VARCHAR'],
  ['n_pairs', 'INTEGER'], ['n_reports', 'INTEGER'],
];

/**
 * Appends the `reports` rows whose text is in `text`'s file (ReportTables.text): the rows go to a
 * staging table with their key, then into `reports` joined with the file's text, in the rows' order.
 */
async function appendReportsWithText(connection: DuckDBConnection, rows: TableRows, text: NonNullable<ReportTables['text']>): Promise<void> {
  const columns: AppendColumns = [...REPORT_TABLE_COLUMNS.map(([name, type]) => [name, type] as const), [text.key, 'INTEGER']];
  await connection.run(`CREATE TABLE staging.report_rows (${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`);
  await appendTable(connection, 'report_rows', columns, rows, 'staging');
  await connection.run(`ATTACH ${sqlString(text.file)} AS report_text (READ_ONLY)`);
  try {
    const fromText = new Set(text.columns);
    const select = REPORT_TABLE_COLUMNS.map(([name]) => (fromText.has(name) ? `t.${name}` : `r.${name}`)).join(', ');
    await connection.run(`INSERT INTO main.reports SELECT ${select} FROM staging.report_rows r LEFT JOIN report_text.${text.table} t ON t.${text.key} = r.${text.key} ORDER BY r.rowid`);
  } finally {
    await connection.run('DETACH report_text');
  }
  await connection.run('DROP TABLE staging.report_rows');
}

/** Creates the report tables in the store and appends their rows (the reports' text joined from `tables.text` when given). */
async function appendReportTables(connection: DuckDBConnection, tables: ReportTablesInput): Promise<void> {
  await connection.run(REPORT_TABLES_SQL);
  const parts: Array<[ReportTableName, ReportTableColumns, TableRows]> = [
    ['reports', REPORT_TABLE_COLUMNS, tables.reports], ['report_vaccines', REPORT_VACCINE_COLUMNS, tables.vaccines],
    ['report_events', REPORT_EVENT_COLUMNS, tables.events],
  ];
  for (const [table, columns, rows] of parts) {
    if (table === 'reports' && tables.text) await appendReportsWithText(connection, rows, tables.text);
    else await appendTable(connection, table, columns, rows);
  }
  if (tables.links !== undefined) await insertLinks(connection, tables.links);
}

/** Rows of `report_links` per INSERT statement. */
const LINKS_BATCH = 1000;

/** Creates `report_links` and inserts the links (in batches; a non-finite weight is stored as NULL). */
async function insertLinks(connection: DuckDBConnection, links: Iterable<ReportLinkRow>): Promise<void> {
  await connection.run(REPORT_LINKS_SQL);
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length > 0) await connection.run(`INSERT INTO ${REPORT_LINKS_TABLE} VALUES ${batch.join(', ')}`);
    batch = [];
  };
  for (const l of links) {
    if (!Number.isInteger(l.vaers_id) || !Number.isInteger(l.linked_vaers_id)) throw new Error(`report link ${l.vaers_id} -> ${l.linked_vaers_id}: VAERS_IDs must be integers`);
    const weight = Number.isFinite(l.weight) ? String(l.weight) : 'NULL';
    batch.push(`(${l.vaers_id}, ${l.linked_vaers_id}, ${weight}, [${l.agreed.map(sqlString).join(', ')}]::VARCHAR[])`);
    if (batch.length >= LINKS_BATCH) await flush();
  }
  await flush();
}

async function writeDuckDb(connection: DuckDBConnection, content: StoreContent, meta: StoreMeta): Promise<void> {
  await connection.run(SCHEMA_SQL);
  await connection.run(`INSERT INTO quarterly ${ORDERED}`);
  await connection.run(TRIAGE_ROWS_SQL);
  for (const v of later(content.vaccines)) {
    await connection.run('INSERT INTO vaccines VALUES ($1, $2, $3::VARCHAR[])', [v.vax_name, v.vax_type, JSON.stringify(v.vax_type_codes)]);
  }
  await writeWindowsAndMeta(connection, later(content.windows), meta);
}

/** Appends the `windows` rows (an analysis absent: `all`) but those of the analyses in `kept`, and the metadata, then checkpoints. */
async function writeWindowsAndMeta(connection: DuckDBConnection, windows: Iterable<WindowRow>, meta: StoreMeta, kept: ReadonlySet<string> = new Set()): Promise<void> {
  const rows = [...windows].map((w) => ({ ...w, analysis: w.analysis ?? 'all' })).filter((w) => !kept.has(w.analysis));
  await appendRows(connection, 'windows', WINDOW_COLUMNS, rows);
  for (const [key, value] of Object.entries(meta)) {
    await connection.run('INSERT INTO meta VALUES ($1, $2)', [key, JSON.stringify(value ?? null)]);
  }
  await connection.run('CHECKPOINT');
}

/**
 * Whether the staged rows can follow the rows of the store open as `main` (a copy of the earlier
 * store) in the order the full sort gives (ORDER): each analysis of `main` sorts before each staged one.
 */
async function appendsInOrder(connection: DuckDBConnection): Promise<boolean> {
  const result = await connection.runAndReadAll('SELECT (SELECT max(analysis) FROM main.quarterly) < (SELECT min(analysis) FROM staging.quarterly) OR NOT EXISTS (SELECT 1 FROM staging.quarterly)');
  return result.getRows()[0][0] === true;
}

/**
 * Completes the store open as `main`, a copy of the earlier store (StoreContent.copyFrom) whose
 * analyses all sort before the staged ones (appendsInOrder): the staged rows sorted and appended
 * after its own, their `triage_rows` after its own (the same rows and order as a whole rewrite:
 * both tables are sorted by analysis first), the new analyses' `windows` rows appended and the
 * metadata replaced. Its report tables, links, interactions and vaccines stay as they are.
 */
async function appendToCopy(connection: DuckDBConnection, content: StoreContent, meta: StoreMeta): Promise<void> {
  await connection.run(`INSERT INTO quarterly ${ORDERED}`);
  await connection.run(`INSERT INTO ${TRIAGE_ROWS_TABLE} ${triageRowsSelect('staging.quarterly')}`);
  const kept = new Set((await connection.runAndReadAll('SELECT DISTINCT analysis FROM windows')).getRows().map((r) => String(r[0])));
  await connection.run('DELETE FROM meta');
  await writeWindowsAndMeta(connection, later(content.windows), meta, kept);
}

/**
 * Writes a complete store to `outPath` (atomic: a temporary DuckDB file `<out>.tmp-<pid>` in the
 * same folder, renamed onto `outPath` when complete), whatever the name. Non-finite numbers are
 * stored as NULL (docs/design.md: never Infinity or NaN).
 * @returns the number of quarterly rows written.
 * @throws the producer's error, or an Error when the file cannot be written; the temporary
 * files are removed either way, and an existing store stays untouched.
 */
export async function writeStore(outPath: string, content: StoreContent): Promise<number> {
  const tmpPath = `${outPath}.tmp-${process.pid}`;
  const stagingPath = `${tmpPath}.staging`;
  const cleanup = async (): Promise<void> => {
    for (const path of [tmpPath, stagingPath]) {
      await rm(path, { force: true });
      await rm(`${path}.wal`, { force: true });
    }
  };
  await cleanup();
  const { copyFrom } = content;
  // With an earlier store, its file is the start of this one (appendToCopy), unless its analyses do not sort first (then it is removed and written anew).
  let db: OpenedStore | null = null;
  let rows: number;
  try {
    if (copyFrom !== undefined) await copyFile(copyFrom, tmpPath);
    db = await openStore(tmpPath, stagingPath);
    rows = await stageQuarterly(db.connection, content.quarterly);
    if (copyFrom !== undefined && (await appendsInOrder(db.connection))) await appendToCopy(db.connection, content, later(content.meta));
    else {
      if (copyFrom !== undefined) {
        db.close();
        db = null;
        await rm(tmpPath, { force: true });
        await rm(`${tmpPath}.wal`, { force: true });
        db = await openStore(tmpPath, stagingPath);
        await copyStore(db.connection, copyFrom);
      } else {
        if (content.reports !== undefined) await appendReportTables(db.connection, later(content.reports));
        if (content.interactions !== undefined) await appendInteractions(db.connection, later(content.interactions));
      }
      await writeDuckDb(db.connection, content, later(content.meta));
    }
    await db.connection.run('DETACH staging');
  } catch (error) {
    db?.close();
    await cleanup();
    throw error;
  }
  db.close();
  await rm(stagingPath, { force: true });
  await rm(`${stagingPath}.wal`, { force: true });
  await rm(`${tmpPath}.wal`, { force: true });
  await rename(tmpPath, outPath);
  return rows;
}

/** The store file being written, open, and how to close it. */
interface OpenedStore {
  connection: DuckDBConnection;
  close: () => void;
}

/** Opens the store file being written (DuckDB's memory cap set) with the staging database attached as `staging`; `close` closes both. */
async function openStore(path: string, stagingPath: string): Promise<OpenedStore> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run(`SET memory_limit = '${MEMORY_LIMIT}'`);
    await connection.run(`ATTACH ${sqlString(stagingPath)} AS staging`);
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}
