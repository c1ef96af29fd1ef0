/**
 * The bulk export's files (issue 36: "getting all the data out" took 147 requests): one table of
 * the store, or of one analysis, written by DuckDB in a writer process (src/serve/export/copy.ts)
 * to a path the export's file cache gives (src/serve/export/files.ts). No table is held in memory
 * as one string: DuckDB writes the store's rows straight from the file it reads (its memory
 * capped), and the pairs, which the server holds as objects (the /signals rows), go to a
 * newline-delimited JSON file one line at a time before DuckDB converts them with their declared
 * types.
 *
 * Tables: `pairs` (spec 2.1 Pair, the columns of src/serve/signals/pair.ts, every pair of the analysis,
 * the /signals order by default: peak EB05 descending), `quarterly` (the store's quarterly rows of
 * the analysis, the columns of src/domain/columns.ts, in store order: vaccine (`drug`), event,
 * quarter), and the report tables `reports`, `report_vaccines` (one row per report and vaccine),
 * `report_events` (one row per report and event), in store order.
 * CSV: a header line, comma-separated, `"` quoting where needed, empty cells for null, `true`/`false`,
 * text cells neutralised as every CSV of the program (src/domain/csv-cell.ts: `'+swelling`).
 * Parquet: zstd-compressed, the column types of the store (VARCHAR, INTEGER or BIGINT, DOUBLE, BOOLEAN).
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { PAIR_COLUMNS, type Pair } from '../signals/pair.js';
import { QUARTERLY_COLUMNS } from '../../domain/store-schema.js';
import { sqlString } from '../../domain/store-format.js';
import type { OpenStore } from '../store/serving.js';
import { ExportCancelled, runCopy } from './copy.js';
import type { ExportFormat } from './params.js';

/** The store file at the generation's path was replaced (a swap under way): the export is asked again after it. */
export class StoreReplaced extends Error {
  constructor(path: string) {
    super(`the store file ${path} was replaced while it is served (a store swap): retry in a few seconds`);
    this.name = 'StoreReplaced';
  }
}

/** DuckDB type of a Pair field. */
const PAIR_SQL_TYPES = { string: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN' } as const;

/**
 * Writes `pairs` (every field of spec 2.1, in PAIR_COLUMNS order) as CSV or Parquet to `out`.
 * @throws ExportCancelled when `signal` aborts
 */
export async function writePairs(pairs: Iterable<Pair>, format: ExportFormat, out: string, signal: AbortSignal): Promise<void> {
  const json = `${out}.ndjson`;
  try {
    const stream = createWriteStream(json);
    try {
      for (const pair of pairs) {
        if (signal.aborted) throw new ExportCancelled();
        if (!stream.write(`${JSON.stringify(pair)}\n`)) await once(stream, 'drain');
      }
    } finally {
      stream.end();
      await once(stream, 'close');
    }
    const columns = PAIR_COLUMNS.map((c) => `${sqlString(c.name)}: ${sqlString(PAIR_SQL_TYPES[c.type])}`).join(', ');
    const names = PAIR_COLUMNS.map((c) => `"${c.name}"`).join(', ');
    const select = `SELECT ${names} FROM read_json(${sqlString(json)}, format = 'newline_delimited', columns = {${columns}})`;
    await runCopy({ attach: null, select, format, out, temp: path.dirname(out) }, signal);
  } finally {
    await rm(json, { force: true });
  }
}

/**
 * Copies a query over the store (attached read-only as `store` in the writer's own database) to `out`.
 * @throws StoreReplaced when the file at the store's path is no longer the one the generation opened (a swap under way)
 */
async function copyFromStore(store: OpenStore, select: string, format: ExportFormat, out: string, signal: AbortSignal): Promise<void> {
  if (!(await store.sameFile())) throw new StoreReplaced(store.path);
  await runCopy({ attach: store.path, select, format, out, temp: path.dirname(out) }, signal);
}

/** Writes the quarterly rows of `analysis` (the store's columns, QUARTERLY_COLUMNS) in store order to `out`. */
export function writeQuarterly(store: OpenStore, analysis: string, format: ExportFormat, out: string, signal: AbortSignal): Promise<void> {
  const names = QUARTERLY_COLUMNS.map(([column]) => `"${column}"`).join(', ');
  return copyFromStore(store, `SELECT ${names} FROM store.quarterly WHERE analysis = ${sqlString(analysis)}`, format, out, signal);
}

/** Writes a report table of the store (`reports`, `report_vaccines`, `report_events`) whole, in store order, to `out`. */
export function writeReportTable(store: OpenStore, table: 'reports' | 'report_vaccines' | 'report_events', format: ExportFormat, out: string, signal: AbortSignal): Promise<void> {
  return copyFromStore(store, `SELECT * FROM store.${table}`, format, out, signal);
}
