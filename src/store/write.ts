/**
 * Writing a signal store, atomically: everything goes to `<out>.tmp-<pid>` first and is
 * renamed onto `<out>` only when complete, so a failed build never leaves a half-written
 * store behind (and an existing store stays untouched).
 *
 * Quarterly rows are first appended to a staging database on disk (`<out>.tmp-<pid>.staging`,
 * so a big build does not hold its rows in memory), then copied into the store sorted by
 * (drug, event, quarter): a pair's series is contiguous, which keeps the file compact and lets
 * DuckDB's zone maps find a pair without a separate index.
 *
 * Two formats, chosen by the file name:
 * - `*.parquet`: one Parquet file (zstd) holding the quarterly rows; the vaccine table, the
 *   windows and the metadata ride along as JSON in the file's key-value metadata (keys
 *   `reporting_signals.vaccines`, `.windows`, `.meta`). Compact, for the embedded default;
 *   `Store.open` loads it into memory (see `parquet-store.ts`).
 * - anything else: a DuckDB database file with the tables of `schema.ts`.
 *
 * The report tables (schema.ts `REPORT_TABLES`), when given, are appended in the order given:
 * into the DuckDB store itself, or, for the Parquet form `X.parquet`, through the staging
 * database into three sidecar files `X.reports.parquet`, `X.report_vaccines.parquet` and
 * `X.report_events.parquet` (zstd); the main file and each sidecar carry the same random tag
 * (key `reporting_signals.report_tables`). They are written to temporary names too and renamed
 * just before the main file; a Parquet store written without them removes any old sidecars.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { COLUMNS, finiteOrNull } from '../domain/columns.js';
import { KV_PREFIX, REPORT_TABLES_KEY, isParquetPath, reportSidecarPath, sqlString } from './parquet-store.js';
import {
  QUARTERLY_COLUMNS, REPORT_EVENT_COLUMNS, REPORT_TABLE_COLUMNS, REPORT_TABLES, REPORT_TABLES_SQL, REPORT_VACCINE_COLUMNS, SCHEMA_SQL,
  type QuarterlyRow, type ReportTableColumns, type ReportTableName, type ReportTables, type StoreMeta, type VaccineRow, type WindowRow,
} from './schema.js';

/**
 * What a store holds. `quarterly` may be an async iterable so that big builds can stream.
 * `vaccines`, `windows` and `meta` may also be given as functions: they are called after every
 * quarterly row has been consumed, so a streaming producer can fill them in as it goes.
 */
export interface StoreContent {
  quarterly: Iterable<QuarterlyRow> | AsyncIterable<QuarterlyRow>;
  vaccines: Iterable<VaccineRow> | (() => Iterable<VaccineRow>);
  windows: Iterable<WindowRow> | (() => Iterable<WindowRow>);
  meta: StoreMeta | (() => StoreMeta);
  /** The report tables (absent: none, as in an import); a function is called after the quarterly rows. */
  reports?: ReportTables | (() => ReportTables);
}

function later<T extends object>(value: T | (() => T)): T {
  return typeof value === 'function' ? (value as () => T)() : value;
}

function appendNullable(appender: DuckDBAppender, type: string, value: unknown): void {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) {
    appender.appendNull();
  } else if (type === 'VARCHAR') appender.appendVarchar(String(value));
  else if (type === 'INTEGER') appender.appendInteger(Number(value));
  else if (type === 'BIGINT') appender.appendBigInt(BigInt(value as number));
  else if (type === 'DOUBLE') appender.appendDouble(Number(value));
  else appender.appendBoolean(Boolean(value));
}

/** DuckDB's memory cap while writing (the sort spills to disk beyond it). */
const MEMORY_LIMIT = '1GB';
const QUARTERLY_TABLE_SQL = SCHEMA_SQL.split(';')[0];
const ORDER = 'ORDER BY analysis, drug, event, quarter';
const ORDERED = `SELECT * FROM staging.quarterly ${ORDER}`;
/**
 * The Parquet form keeps the columns the server reads (the row's key and the column table's
 * `served` columns) and drops the rest (counts, EBGM, CIs, chi-square, IC975), which nothing
 * serves: the embedded default stays small. A DuckDB store keeps every column.
 */
const PARQUET_COLUMNS = COLUMNS.filter((c) => c.kind === 'key' || 'served' in c).map((c) => c.name);
const ORDERED_PARQUET = `SELECT ${PARQUET_COLUMNS.join(', ')} FROM staging.quarterly ${ORDER}`;

async function stageQuarterly(connection: DuckDBConnection, rows: StoreContent['quarterly']): Promise<number> {
  await connection.run(QUARTERLY_TABLE_SQL.replace('CREATE TABLE quarterly', 'CREATE TABLE staging.quarterly'));
  const appender = await connection.createAppender('quarterly', 'main', 'staging');
  let count = 0;
  try {
    for await (const row of rows) {
      for (const [name, type] of QUARTERLY_COLUMNS) appendNullable(appender, type, row[name]);
      appender.endRow();
      count++;
    }
  } finally {
    appender.closeSync();
  }
  return count;
}

function windowValues(w: WindowRow): Array<[string, unknown]> {
  return [
    ['VARCHAR', w.analysis ?? 'all'], ['VARCHAR', w.quarter], ['DOUBLE', w.alpha1], ['DOUBLE', w.beta1], ['DOUBLE', w.alpha2], ['DOUBLE', w.beta2],
    ['DOUBLE', w.p], ['DOUBLE', w.neg_log_lik], ['BOOLEAN', w.converged], ['VARCHAR', w.at_bound],
    ['INTEGER', w.n_pairs], ['INTEGER', w.n_reports],
  ];
}

/** Creates the report tables in database `catalog` (the store itself, or `staging`) and appends their rows. */
async function appendReportTables(connection: DuckDBConnection, catalog: 'store' | 'staging', tables: ReportTables): Promise<void> {
  await connection.run(catalog === 'staging' ? REPORT_TABLES_SQL.replaceAll('CREATE TABLE ', 'CREATE TABLE staging.') : REPORT_TABLES_SQL);
  const parts: Array<[ReportTableName, ReportTableColumns, Iterable<object>]> = [
    ['reports', REPORT_TABLE_COLUMNS, tables.reports], ['report_vaccines', REPORT_VACCINE_COLUMNS, tables.vaccines],
    ['report_events', REPORT_EVENT_COLUMNS, tables.events],
  ];
  for (const [table, columns, rows] of parts) {
    const appender = await connection.createAppender(table, 'main', catalog === 'staging' ? 'staging' : undefined);
    try {
      for (const row of rows) {
        for (const [name, type] of columns) appendNullable(appender, type, (row as Record<string, unknown>)[name]);
        appender.endRow();
      }
    } finally {
      appender.closeSync();
    }
  }
}

/** A report sidecar of a Parquet store: where it goes and its temporary name. */
interface Sidecar {
  table: ReportTableName;
  path: string;
  tmpPath: string;
}

async function writeSidecars(connection: DuckDBConnection, sidecars: Sidecar[], tag: string): Promise<void> {
  for (const { table, tmpPath } of sidecars) {
    const kv = `${sqlString(REPORT_TABLES_KEY)}: ${sqlString(JSON.stringify({ table, tag }))}`;
    await connection.run(`COPY (SELECT * FROM staging.${table}) TO ${sqlString(tmpPath)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA {${kv}})`);
  }
}

async function writeDuckDb(connection: DuckDBConnection, content: StoreContent, meta: StoreMeta): Promise<void> {
  await connection.run(SCHEMA_SQL);
  await connection.run(`INSERT INTO quarterly ${ORDERED}`);
  for (const v of later(content.vaccines)) {
    await connection.run('INSERT INTO vaccines VALUES ($1, $2, $3::VARCHAR[])', [v.vax_name, v.vax_type, JSON.stringify(v.vax_type_codes)]);
  }
  const windows = await connection.createAppender('windows');
  for (const w of later(content.windows)) {
    for (const [type, value] of windowValues(w)) appendNullable(windows, type, value);
    windows.endRow();
  }
  windows.closeSync();
  for (const [key, value] of Object.entries(meta)) {
    await connection.run('INSERT INTO meta VALUES ($1, $2)', [key, JSON.stringify(value ?? null)]);
  }
  await connection.run('CHECKPOINT');
}

/** Writes the main Parquet file; `reportTag` (the sidecars' tag) when the store has report sidecars. */
async function writeParquet(connection: DuckDBConnection, content: StoreContent, meta: StoreMeta, tmpPath: string, reportTag: string | null): Promise<void> {
  const windows = [...later(content.windows)].map((w) => Object.fromEntries(Object.entries(w).map(([k, v]) => [k, typeof v === 'number' ? finiteOrNull(v) : v])));
  const kv = {
    [`${KV_PREFIX}vaccines`]: JSON.stringify([...later(content.vaccines)]),
    [`${KV_PREFIX}windows`]: JSON.stringify(windows),
    [`${KV_PREFIX}meta`]: JSON.stringify(meta),
    ...(reportTag === null ? {} : { [REPORT_TABLES_KEY]: JSON.stringify({ tables: REPORT_TABLES, tag: reportTag }) }),
  };
  const kvSql = Object.entries(kv).map(([key, value]) => `${sqlString(key)}: ${sqlString(value)}`).join(', ');
  await connection.run(`COPY (${ORDERED_PARQUET}) TO ${sqlString(tmpPath)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA {${kvSql}})`);
}

/**
 * Writes a complete store to `outPath` (atomic: temporary files, then rename): a Parquet store
 * (with its report sidecars when `content.reports` is given) when the name ends in `.parquet`,
 * else a DuckDB database file. Non-finite numbers are stored as NULL (DESIGN.md: never Infinity
 * or NaN).
 * @returns the number of quarterly rows written.
 * @throws the producer's error, or an Error when the file cannot be written; the temporary
 * files are removed either way, and an existing store (with its sidecars) stays untouched.
 */
export async function writeStore(outPath: string, content: StoreContent): Promise<number> {
  const tmpPath = `${outPath}.tmp-${process.pid}`;
  const stagingPath = `${tmpPath}.staging`;
  const parquet = isParquetPath(outPath);
  const sidecars: Sidecar[] = parquet
    ? REPORT_TABLES.map((table) => ({ table, path: reportSidecarPath(outPath, table), tmpPath: `${reportSidecarPath(outPath, table)}.tmp-${process.pid}` }))
    : [];
  const cleanup = async (): Promise<void> => {
    for (const path of [tmpPath, stagingPath, ...sidecars.map((s) => s.tmpPath)]) {
      await rm(path, { force: true });
      await rm(`${path}.wal`, { force: true });
    }
  };
  await cleanup();
  const instance = await DuckDBInstance.create(parquet ? ':memory:' : tmpPath);
  const connection = await instance.connect();
  let rows: number;
  let withReports = false;
  try {
    await connection.run(`SET memory_limit = '${MEMORY_LIMIT}'`);
    await connection.run(`ATTACH ${sqlString(stagingPath)} AS staging`);
    rows = await stageQuarterly(connection, content.quarterly);
    if (content.reports !== undefined) {
      withReports = true;
      await appendReportTables(connection, parquet ? 'staging' : 'store', later(content.reports));
    }
    const meta = later(content.meta);
    if (parquet) {
      const tag = withReports ? randomUUID() : null;
      await writeParquet(connection, content, meta, tmpPath, tag);
      if (tag !== null) await writeSidecars(connection, sidecars, tag);
    } else await writeDuckDb(connection, content, meta);
    await connection.run('DETACH staging');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    await cleanup();
    throw error;
  }
  connection.closeSync();
  instance.closeSync();
  await rm(stagingPath, { force: true });
  await rm(`${stagingPath}.wal`, { force: true });
  await rm(`${tmpPath}.wal`, { force: true });
  for (const sidecar of sidecars) {
    if (withReports) await rename(sidecar.tmpPath, sidecar.path);
    else await rm(sidecar.path, { force: true }); // an old store's: they would not belong to this one
  }
  await rename(tmpPath, outPath);
  return rows;
}
