/**
 * Reading a quarterly signals table computed elsewhere (Parquet or CSV), for `import`
 * (docs/design.md "Decisions already taken": the import is a query, not a parser). DuckDB reads the
 * file; callers get each row's values as text (null for SQL NULL), in file order, and do the
 * validation themselves so that errors can name the column and the row.
 */
import { open } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from '../../domain/store-format.js';

/** A table file's format, told by its first bytes (Parquet files start with `PAR1`). */
export type TableFormat = 'parquet' | 'csv';

/** Detects the format of a table file: Parquet by its magic bytes, anything else CSV. */
export async function tableFormat(path: string): Promise<TableFormat> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buffer, 0, 4, 0);
    return bytesRead === 4 && buffer.toString('latin1') === 'PAR1' ? 'parquet' : 'csv';
  } finally {
    await handle.close();
  }
}

/** One side of reading a table: its columns, then its rows. */
export interface TableRows {
  format: TableFormat;
  /** Column names as they appear in the file. */
  columns: string[];
  /**
   * Rows in file order, each as `column -> text` (null for SQL NULL; CSV cells are text as
   * written, Parquet values cast to VARCHAR), in chunks. Only `select` columns are read.
   */
  rows(select: string[]): AsyncIterable<Array<Record<string, string | null>>>;
  close(): void;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Opens a Parquet or CSV table through an in-memory DuckDB.
 * CSV: header row, delimiter sniffed, every cell read as text (`all_varchar`).
 * @throws Error with DuckDB's message when the file cannot be read as a table.
 */
export async function openTable(path: string): Promise<TableRows> {
  const format = await tableFormat(path);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  const literal = sqlString(path);
  const source = format === 'parquet'
    ? `read_parquet(${literal})`
    : `read_csv(${literal}, header = true, all_varchar = true, auto_detect = true)`;
  try {
    await connection.run(`CREATE VIEW source AS SELECT * FROM ${source}`);
    const described = await connection.runAndReadAll('DESCRIBE SELECT * FROM source');
    const columns = described.getRowObjectsJS().map((r) => String(r.column_name));
    return {
      format,
      columns,
      async *rows(select: string[]) {
        const list = select.map((c) => `CAST(${quoteIdent(c)} AS VARCHAR) AS ${quoteIdent(c)}`).join(', ');
        const result = await connection.stream(`SELECT ${list} FROM source`);
        for await (const chunk of result.yieldRowObjectJs()) {
          yield chunk as Array<Record<string, string | null>>;
        }
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}
