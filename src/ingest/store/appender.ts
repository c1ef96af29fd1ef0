/**
 * The one DuckDB appender loop of the store's write side: rows appended to a table column by
 * column (a table of [name, DuckDB type] pairs), null for an absent or non-finite value, one row
 * ended per row, the appender closed whatever happens. Used for the quarterly staging table, the
 * report tables (write.ts) and the interactions table (interactions.ts).
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';

/** A table's columns as the appender fills them: name and DuckDB type (`VARCHAR`, `INTEGER`, `BIGINT`, `DOUBLE`, else `BOOLEAN`). */
export type AppendColumns = ReadonlyArray<readonly [string, string, ...unknown[]]>;

/** Appends one value of DuckDB type `type`: null for null, undefined or a non-finite number. */
export function appendValue(appender: DuckDBAppender, type: string, value: unknown): void {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) {
    appender.appendNull();
  } else if (type === 'VARCHAR') appender.appendVarchar(String(value));
  else if (type === 'INTEGER') appender.appendInteger(Number(value));
  else if (type === 'BIGINT') appender.appendBigInt(BigInt(value as number));
  else if (type === 'DOUBLE') appender.appendDouble(Number(value));
  else appender.appendBoolean(Boolean(value));
}

/** Where and how appendRows appends: the catalog (database) of the table, and a check of each row before it is appended (it throws to stop). */
export interface AppendOptions<R> {
  catalog?: string;
  check?: (row: R) => void;
}

/**
 * Appends `rows` (sync or async) to table `main.table` (of `options.catalog`, else the current
 * database), each row's `columns` in order. Returns the number of rows appended.
 * @throws what `options.check` throws, or DuckDB's error (the appender is closed either way).
 */
export async function appendRows<R extends object>(connection: DuckDBConnection, table: string, columns: AppendColumns, rows: Iterable<R> | AsyncIterable<R>, options: AppendOptions<R> = {}): Promise<number> {
  const appender = await connection.createAppender(table, 'main', options.catalog ?? null);
  let count = 0;
  const append = (row: R): void => {
    options.check?.(row);
    for (const [name, type] of columns) appendValue(appender, type, (row as Record<string, unknown>)[name]);
    appender.endRow();
    count++;
  };
  try {
    if (Symbol.asyncIterator in rows) for await (const row of rows) append(row);
    else for (const row of rows) append(row);
  } finally {
    appender.closeSync();
  }
  return count;
}
