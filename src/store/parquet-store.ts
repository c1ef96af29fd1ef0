/**
 * The Parquet form of a store (see `write.ts`): one Parquet file with the quarterly rows, and
 * the vaccine table, the windows and the metadata as JSON in its key-value metadata. Used for
 * the embedded default (compact: about 27 MB for 1990-2006 where the DuckDB file is about 31 MB).
 * The server reads it without loading it into a database (src/store/serving.ts); the tests' store
 * reader (test/helpers/store.ts) loads it into an in-memory DuckDB.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { parseMetadataJson } from './metadata.js';

/** Prefix of the key-value metadata keys. */
export const KV_PREFIX = 'reporting_signals.';

/**
 * Key of the report tables' tag in the key-value metadata (write.ts): in the main file JSON
 * `{ tables, tag }` (the store has report sidecars), in each sidecar JSON `{ table, tag }`; `tag`
 * is random per write, so that a sidecar is known to belong to its main file.
 */
export const REPORT_TABLES_KEY = `${KV_PREFIX}report_tables`;

/** The sidecar file of report table `table` beside the Parquet store `path`: `X.parquet` -> `X.<table>.parquet`. */
export function reportSidecarPath(path: string, table: string): string {
  return `${path.slice(0, -'.parquet'.length)}.${table}.parquet`;
}

/** Whether a store path names the Parquet form (by its `.parquet` extension). */
export function isParquetPath(path: string): boolean {
  return path.toLowerCase().endsWith('.parquet');
}

/** A SQL string literal (for file paths and JSON text in statements that take no parameters). */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A key of the Parquet store's key-value metadata, and the name the errors give it. */
export interface ParquetPart {
  /** The parsed JSON of the key (unchecked: decode it with metadata.ts). */
  value: unknown;
  /** `<path>: metadata key reporting_signals.<name>`. */
  where: string;
}

/**
 * The key-value metadata of the Parquet store at `path`: `part(name)` is the parsed JSON of key
 * `${KV_PREFIX}name`, with the name that errors give it.
 * @throws Error (from `part`) naming the file when the key is absent (not a reporting-signals
 *   Parquet store) or not JSON.
 */
export async function readParquetKv(connection: DuckDBConnection, path: string): Promise<(name: string) => ParquetPart> {
  const reader = await connection.runAndReadAll(
    `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${sqlString(path)})`,
  );
  const kv = new Map(reader.getRowObjectsJS().map((r) => [String(r.key), String(r.value)]));
  return (name: string): ParquetPart => {
    const text = kv.get(`${KV_PREFIX}${name}`);
    if (text === undefined) throw new Error(`not a reporting-signals Parquet store (no ${KV_PREFIX}${name} metadata): ${path}`);
    const where = `${path}: metadata key ${KV_PREFIX}${name}`;
    return { value: parseMetadataJson(text, where), where };
  };
}
