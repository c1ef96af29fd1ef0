/**
 * The build's read of the official VAERS files through DuckDB (issue 41, "DuckDB reads and joins";
 * docs/architecture.md "Scale"): the files go through DuckDB's `read_csv` (duckdb-load.ts: zips,
 * gzip, cp1252 decoded on the way in, each record's line), the latest follow-up version is chosen
 * and the three files joined in SQL (duckdb-join.ts), and the build's `VaersData` is read from
 * DuckDB's vectors: the report lists (duckdb-reports.ts), the skips (duckdb-skips.ts), the report
 * details (duckdb-details.ts). The narratives never reach the V8 heap: DuckDB copies them into the
 * build's scratch text file (report-text.ts). The same answers as read.ts readVaers, which stays
 * the reader of the tests, benches and tools that want the narratives on the heap.
 *
 * The read's own DuckDB database is a file in the scratch folder `scratch` (with its spill and the
 * transcoded CSVs), its memory capped at READ_MEMORY_LIMIT (the full download's raw tables do not
 * fit: an in-memory database ran out at the cap); the folder is created (an older one removed) and
 * removed whatever happens. Should DuckDB still run out of memory, the UserError says so
 * (readMemoryError; in `read_csv`, duckdb-load.ts names the files).
 */
import { mkdir, rm } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { UserError } from '../../domain/user-error.js';
import { insertReportText, vaersReportDetails } from './duckdb-details.js';
import { joinVaersTables } from './duckdb-join.js';
import { isOutOfMemory, loadVaersTables } from './duckdb-load.js';
import { vaersReportLists } from './duckdb-reports.js';
import { vaersSkipped } from './duckdb-skips.js';
import type { ReadVaersOptions, VaersData } from './read.js';
import { scanFolder, SourceHashes } from './sources.js';

/**
 * DuckDB's memory cap for the read's database (it spills into the scratch folder beyond it): a
 * quarter of the machine's memory, at least 2 GiB and at most 4 GiB (os.totalmem). 2 GiB was too
 * little for the full download (2.1 million reports): `vaers_reports`'s lists ran out of it
 * (bench/read-duckdb.ts --mode build, 2026-11-29; the details' ordered query before it was batched).
 */
export const READ_MEMORY_LIMIT = `${Math.round(Math.min(4 * 2 ** 10, Math.max(2 * 2 ** 10, totalmem() / 4 / 2 ** 20)))}MiB`;

/**
 * Options of `readVaersWithDuckdb`: those of readVaers, where `narratives` needs `text` (the
 * build's scratch text file, empty: it is filled in SQL), and `scratch`, the path of the read's
 * scratch folder (the build's: `<out>.tmp-<pid>.read`).
 */
export type DuckdbReadOptions = ReadVaersOptions & {
  scratch: string;
  /** Reports whose rows the details query sorts at once (duckdb-details.ts DETAILS_BATCH; tests give a small one). */
  detailsBatch?: number;
  /** Hears each step's seconds (transcoding and read_csv per kind, the join's tables, lists, skips, details, text): bench/read-duckdb.ts. */
  onStep?: (step: string, seconds: number) => void;
  /** Hears each of those steps as it begins (the build's progress shows it). */
  onStepStart?: (step: string) => void;
};

/**
 * Reads the official VAERS files in `dir` as readVaers does (the same `VaersData`, string numbers
 * of `details.strings` aside: they follow this reader's order), through DuckDB.
 * @throws UserError as readVaers (the file, and the line where it applies); Error when
 *   `narratives` is asked without `text`.
 */
export async function readVaersWithDuckdb(dir: string, options: DuckdbReadOptions): Promise<VaersData> {
  if (options.narratives && !options.text) throw new Error('readVaersWithDuckdb: narratives go to a scratch text file (options.text)');
  const folder = await scanFolder(dir, options.includeNondomestic ?? false);
  const hashes = new SourceHashes(folder);
  let instance: DuckDBInstance | null = null;
  let connection: DuckDBConnection | null = null;
  try {
    await rm(options.scratch, { recursive: true, force: true });
    await mkdir(options.scratch);
    // A database file in the scratch folder, not ':memory:', and its intermediate tables plain tables, not TEMP ones: the
    // full download's raw and intermediate tables (2.1 million reports) outgrow the memory cap, and a file's blocks can be
    // evicted and read again where an in-memory or temporary table's could not (DuckDB ran out at the cap).
    instance = await DuckDBInstance.create(join(options.scratch, 'read.duckdb'), { memory_limit: READ_MEMORY_LIMIT, temp_directory: join(options.scratch, 'spill') });
    connection = await instance.connect();
    const c = connection;
    const step = options.onStep;
    const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      options.onStepStart?.(name);
      const t0 = performance.now();
      const result = await run();
      step?.(name, (performance.now() - t0) / 1000);
      return result;
    };
    const headers = await loadVaersTables(folder, c, options.scratch, step, {
      hashes, ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.onStepStart ? { onStepStart: options.onStepStart } : {}),
    });
    await joinVaersTables(c, step, options.onStepStart);
    // The narratives are copied by DuckDB's threads on a connection of their own (the raw tables and
    // vaers_reports are the database's) while this thread reads the lists, skips and details.
    const text = options.narratives ? options.text ?? null : null;
    const textConnection = text ? await instance.connect() : null;
    const copying = text && textConnection ? timed('text', () => text.fill((path) => insertReportText(textConnection, headers, path))) : null;
    const reading = (async () => {
      const lists = await timed('report lists', () => vaersReportLists(c));
      const { reportsRead, skipped } = await timed('skips', () => vaersSkipped(c, folder));
      return { lists, reportsRead, skipped, details: await timed('details', () => vaersReportDetails(c, folder, headers, lists, options.detailsBatch)) };
    })();
    const [read, copied] = await Promise.allSettled([reading, copying]);
    textConnection?.closeSync();
    if (read.status === 'rejected') throw read.reason;
    if (copied.status === 'rejected') throw copied.reason;
    const { lists, reportsRead, skipped, details } = read.value;
    if (text) details.text = text;
    return { ...lists, reportsRead, skipped, details, sources: await hashes.list() };
  } catch (error) {
    hashes.cancel();
    throw isOutOfMemory(error) ? readMemoryError(dir, error) : error;
  } finally {
    connection?.closeSync();
    instance?.closeSync();
    folder.close();
    await rm(options.scratch, { recursive: true, force: true });
  }
}

/**
 * The UserError of DuckDB running out of memory in the read's SQL steps (after `read_csv`, whose
 * error names the files: duckdb-load.ts): the folder, the cap and DuckDB's first line.
 */
function readMemoryError(dir: string, error: unknown): UserError {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new UserError(`${dir}: out of memory while joining the VAERS files in DuckDB (memory_limit ${READ_MEMORY_LIMIT}; ${message})`);
}
