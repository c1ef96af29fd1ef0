/**
 * Opening a store file for reading: `withStore` (a small in-memory DuckDB with the file attached
 * READ_ONLY as `store`, for one read) and `OpenStore` (the same, held open for the life of a served
 * generation) and `verifyTables`, the full read that checks every block's checksum.
 */
import { stat } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { checkStoreFile, sqlString } from '../../domain/store-format.js';

/**
 * Limits of the loading database (the process's peak memory includes it). Insertion order is
 * kept: the in-order read streams the rows as stored.
 */
const LOAD_SETTINGS = { threads: '2', memory_limit: '64MB', preserve_insertion_order: 'true' } as const;

async function attachStore(connection: DuckDBConnection, path: string): Promise<void> {
  try {
    await connection.run(`ATTACH ${sqlString(path)} AS store (READ_ONLY)`);
  } catch (error) {
    throw new Error(`not a reporting-signals store: ${path}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

/**
 * A store file held open read-only for the life of a served generation (src/http/live-store.ts):
 * a loading database (LOAD_SETTINGS) with the file attached as `store`. Reads through it see the
 * file as it was opened even after another file is renamed onto its path (the weekly swap's `mv`:
 * the open file keeps its inode), so a generation never reads the next store's rows.
 */
export class OpenStore {
  private constructor(
    /** The path the store was opened at (for messages; the file there may since have been replaced). */
    readonly path: string,
    /** The file's inode and device when opened (`sameFile` compares them with the path's now). */
    private readonly identity: string,
    private readonly instance: DuckDBInstance,
  ) {}

  /**
   * Opens the store at `path` (checked as `withStore` checks it).
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(path: string): Promise<OpenStore> {
    await checkStoreFile(path);
    const identity = await fileIdentity(path);
    const instance = await DuckDBInstance.create(':memory:', { ...LOAD_SETTINGS });
    const connection = await instance.connect();
    try {
      await attachStore(connection, path);
    } catch (error) {
      instance.closeSync();
      throw error;
    } finally {
      connection.closeSync();
    }
    return new OpenStore(path, identity, instance);
  }

  /** Runs `read` on a new connection of the open store (`store` attached). */
  async run<T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.instance.connect();
    try {
      return await read(connection);
    } finally {
      connection.closeSync();
    }
  }

  /** Whether the file now at `path` is still the file this store opened (not replaced, not removed). */
  async sameFile(): Promise<boolean> {
    return (await fileIdentity(this.path).catch(() => null)) === this.identity;
  }

  /** Closes the database (the file is released). */
  close(): void {
    this.instance.closeSync();
  }
}

/**
 * Reads every row of every table of the store attached as `store` on `connection`, so that DuckDB
 * checks the checksum of every data block (a block is checked when it is read): a store with a
 * corrupt block fails here, at load, instead of at the request that first reads the block. About
 * a second per 100 MB of store.
 * @throws Error naming the file (`path`) and the table when a block is corrupt or unreadable.
 */
export async function verifyTables(connection: DuckDBConnection, path: string): Promise<void> {
  const tables = (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'store' ORDER BY table_name"))
    .getRowObjectsJS().map((r) => String(r.table_name));
  for (const table of tables) {
    try {
      // hash() of the whole row reads every column of every row group.
      await connection.runAndReadAll(`SELECT count(*), bit_xor(hash(t)) FROM store.${sqlIdentifier(table)} AS t`);
    } catch (error) {
      throw new Error(`store ${path}: table ${table} cannot be read whole: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
  }
}

/** The device and inode of the file at `path` (a rename onto the path changes them). */
async function fileIdentity(path: string): Promise<string> {
  const s = await stat(path);
  return `${s.dev}:${s.ino}`;
}

function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Where a read finds the store: a path (opened for that read) or a store held open. */
export type StoreSource = string | OpenStore;

/**
 * Runs `read` over a fresh loading database (LOAD_SETTINGS) with the store at `source` attached
 * READ_ONLY as `store`; closes it after. An `OpenStore` runs it on its own database instead.
 * @throws Error naming the file when it is missing or not a store (format.ts `checkStoreFile`:
 *   a Parquet store of an earlier version is refused with how to rebuild it).
 */
export async function withStore<T>(source: StoreSource, read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  if (source instanceof OpenStore) return source.run(read);
  const path = source;
  await checkStoreFile(path);
  const instance = await DuckDBInstance.create(':memory:', { ...LOAD_SETTINGS });
  const connection = await instance.connect();
  try {
    await attachStore(connection, path);
    return await read(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The path of a store source (for messages). */
export function sourcePath(source: StoreSource): string {
  return typeof source === 'string' ? source : source.path;
}

