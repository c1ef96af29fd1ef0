/**
 * What a store file is, read from its content (a store is one file whatever its name,
 * never judged by its extension): a DuckDB database file has the magic `DUCK` at byte offset 8
 * of its header (after an 8-byte checksum); a Parquet file starts with `PAR1`. Every store this
 * version writes is a DuckDB database (report tables inside it), so one `rename(2)` replaces a
 * whole store. The Parquet form that earlier versions wrote (a main file plus three report
 * sidecars) is refused with a message saying how to rebuild it.
 */
import { open } from 'node:fs/promises';

/** The kind of a file by its first bytes: `duckdb`, `parquet` (an earlier version's store form) or `other`. */
export type StoreFileKind = 'duckdb' | 'parquet' | 'other';

/** Bytes at the start of a DuckDB database file: `DUCK` at offset 8. */
const DUCKDB_MAGIC = { offset: 8, text: 'DUCK' } as const;
/** Bytes at the start of a Parquet file. */
const PARQUET_MAGIC = 'PAR1';

/** A SQL string literal (for file paths and JSON text in statements that take no parameters). */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The kind of the file at `path` by its first 12 bytes (a shorter file is `other`).
 * @throws the file system's Error (ENOENT, EACCES, EISDIR...) when it cannot be read.
 */
export async function storeFileKind(path: string): Promise<StoreFileKind> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(12);
    const { bytesRead } = await handle.read(buffer, 0, 12, 0);
    const head = buffer.subarray(0, bytesRead).toString('latin1');
    if (head.slice(DUCKDB_MAGIC.offset, DUCKDB_MAGIC.offset + 4) === DUCKDB_MAGIC.text) return 'duckdb';
    if (head.startsWith(PARQUET_MAGIC)) return 'parquet';
    return 'other';
  } finally {
    await handle.close();
  }
}

/** The message for a store in the Parquet form of earlier versions: what it is and how to rebuild it. */
export function legacyParquetMessage(path: string): string {
  return `${path} is a Parquet store written by an earlier version of reporting-signals; a store is now one DuckDB database file ` +
    `(any name): rebuild it with "reporting-signals build --vaers DIR --out ${path}" (or "reporting-signals import --quarterly FILE --out ${path}")`;
}

/**
 * Checks that `path` is a store file this version reads: a DuckDB database by its content.
 * @throws Error `store not found: PATH` when it is missing or unreadable; the legacy message
 *   (legacyParquetMessage) for a Parquet store; `not a reporting-signals store (not a DuckDB
 *   database file): PATH` for anything else (an empty, truncated or foreign file).
 */
export async function checkStoreFile(path: string): Promise<void> {
  let kind: StoreFileKind;
  try {
    kind = await storeFileKind(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `store not found: ${path}` : `store not readable: ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (kind === 'parquet') throw new Error(legacyParquetMessage(path));
  if (kind !== 'duckdb') throw new Error(`not a reporting-signals store (not a DuckDB database file): ${path}`);
}
