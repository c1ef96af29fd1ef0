/**
 * The bulk export's files (issue 36: "getting all the data out" took 147 requests): one table of
 * the store, or of one analysis, written by DuckDB to a file in a fresh temporary folder, which the
 * route then streams and removes. No table is held in memory as one string: DuckDB writes the
 * store's rows straight from the file it reads (its memory capped), and the pairs, which the
 * server holds as objects (the /signals rows), go to a newline-delimited JSON file one line at a
 * time before DuckDB converts them with their declared types.
 *
 * Tables: `pairs` (spec 2.1 Pair, the columns of src/serve/signals/pair.ts, every pair of the analysis,
 * the /signals order by default: peak EB05 descending), `quarterly` (the store's quarterly rows of
 * the analysis, the columns of src/domain/columns.ts, in store order: vaccine (`drug`), event,
 * quarter), and the report tables `reports`, `report_vaccines` (one row per report and vaccine),
 * `report_events` (one row per report and event), in store order.
 * CSV: a header line, comma-separated, `"` quoting where needed, empty cells for null, `true`/`false`.
 * Parquet: zstd-compressed, the column types of the store (VARCHAR, INTEGER or BIGINT, DOUBLE, BOOLEAN).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { PAIR_COLUMNS, type Pair } from '../signals/pair.js';
import { QUARTERLY_COLUMNS } from '../../domain/store-schema.js';
import { sqlString } from '../../domain/store-format.js';
import type { OpenStore } from '../store/serving.js';
import type { ExportFormat } from './params.js';

/** The store file at the generation's path was replaced (a swap under way): the export is asked again after it. */
export class StoreReplaced extends Error {
  constructor(path: string) {
    super(`the store file ${path} was replaced while it is served (a store swap): retry in a few seconds`);
    this.name = 'StoreReplaced';
  }
}

/** A written export: its file (inside `dir`, which `remove()` deletes with it). */
export interface ExportFile {
  readonly file: string;
  readonly dir: string;
  remove(): Promise<void>;
}

/**
 * DuckDB's limits while writing an export (its own small database; one thread: the Parquet writer
 * of a 45-column table with two threads and insertion order kept ran out of 64 MB).
 */
const EXPORT_SETTINGS = { threads: '1', memory_limit: '128MB', preserve_insertion_order: 'true' } as const;

/** Runs `work` on a connection of a new small database (EXPORT_SETTINGS), closed after it. */
async function withExportDatabase<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:', { ...EXPORT_SETTINGS });
  try {
    const connection = await instance.connect();
    try {
      return await work(connection);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The COPY options of a format (Parquet row groups kept small, so the writer's buffer stays within the store reader's memory limit). */
function copyOptions(format: ExportFormat): string {
  return format === 'csv' ? '(FORMAT csv, HEADER true)' : '(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)';
}

/** A fresh temporary folder and the export file's path in it. */
async function exportFile(name: string, format: ExportFormat): Promise<ExportFile> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reporting-signals-export-'));
  return { file: path.join(dir, `${name}.${format}`), dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `write` for a new export file; the folder is removed when it fails. */
async function writing(name: string, format: ExportFormat, write: (out: ExportFile) => Promise<void>): Promise<ExportFile> {
  const out = await exportFile(name, format);
  try {
    await write(out);
    return out;
  } catch (error) {
    await out.remove();
    throw error;
  }
}

/** DuckDB type of a Pair field. */
const PAIR_SQL_TYPES = { string: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN' } as const;

/**
 * Writes `pairs` (every field of spec 2.1, in PAIR_COLUMNS order) as CSV or Parquet.
 * @param name the file's base name (e.g. `all-pairs`)
 */
export function writePairs(pairs: Iterable<Pair>, format: ExportFormat, name: string): Promise<ExportFile> {
  return writing(name, format, async (out) => {
    const json = path.join(out.dir, 'pairs.ndjson');
    const stream = createWriteStream(json);
    for (const pair of pairs) {
      if (!stream.write(`${JSON.stringify(pair)}\n`)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'finish');
    const columns = PAIR_COLUMNS.map((c) => `${sqlString(c.name)}: ${sqlString(PAIR_SQL_TYPES[c.type])}`).join(', ');
    const names = PAIR_COLUMNS.map((c) => `"${c.name}"`).join(', ');
    try {
      await withExportDatabase((connection) => connection.run(`COPY (SELECT ${names} FROM read_json(${sqlString(json)}, format = 'newline_delimited', columns = {${columns}}))
          TO ${sqlString(out.file)} ${copyOptions(format)}`));
    } finally {
      await rm(json, { force: true });
    }
  });
}

/**
 * Copies a query over the store (attached read-only as `store` in an export database of its own,
 * so the served database's settings stay as they are) into the export file.
 * @throws Error when the file at the store's path is no longer the one the generation opened (a swap under way)
 */
function copyFromStore(store: OpenStore, select: string, format: ExportFormat, name: string): Promise<ExportFile> {
  return writing(name, format, async (out) => {
    if (!(await store.sameFile())) throw new StoreReplaced(store.path);
    await withExportDatabase(async (connection) => {
      await connection.run(`ATTACH ${sqlString(store.path)} AS store (READ_ONLY)`);
      await connection.run(`COPY (${select}) TO ${sqlString(out.file)} ${copyOptions(format)}`);
    });
  });
}

/** Writes the quarterly rows of `analysis` (the store's columns, QUARTERLY_COLUMNS) in store order. */
export function writeQuarterly(store: OpenStore, analysis: string, format: ExportFormat, name: string): Promise<ExportFile> {
  const names = QUARTERLY_COLUMNS.map(([column]) => `"${column}"`).join(', ');
  return copyFromStore(store, `SELECT ${names} FROM store.quarterly WHERE analysis = ${sqlString(analysis)}`, format, name);
}

/** Writes a report table of the store (`reports`, `report_vaccines`, `report_events`) whole, in store order. */
export function writeReportTable(store: OpenStore, table: 'reports' | 'report_vaccines' | 'report_events', format: ExportFormat, name: string): Promise<ExportFile> {
  return copyFromStore(store, `SELECT * FROM store.${table}`, format, name);
}
