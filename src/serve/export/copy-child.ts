/**
 * The export's writer process (issue 45): one `COPY` of a query to a CSV or Parquet file, run in a
 * child process of the server (src/serve/export/copy.ts), so that DuckDB's work and its file
 * writes use the child's own threads and memory, never the server's thread pool (which static
 * files, /interactions/series and the /triage reads need), and so that killing the child stops
 * the work at once when the export's clients leave.
 *
 * Input: the job as JSON in argv[2] ({@link CopyJob}). The file is written as `out.part` and
 * renamed to `out` when complete. A CSV's text columns pass through the CSV cell rule
 * (src/domain/csv-cell.ts csvTextSql: a cell starting `=`, `+`, `-`, `@`, tab or CR gets a `'`),
 * numbers and booleans as DuckDB writes them. Exit 0 when written; else the message on stderr
 * and exit 1. The child ends when its parent goes (the IPC channel closes).
 */
import { rename } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { csvTextSql } from '../../domain/csv-cell.js';
import { sqlString } from '../../domain/store-format.js';
import type { CopyJob } from './copy.js';

/**
 * DuckDB's limits while writing an export (one thread: the Parquet writer of a 45-column table with
 * two threads and insertion order kept ran out of 64 MB); spills go to the export's own folder.
 */
const EXPORT_SETTINGS = { threads: '1', memory_limit: '128MB', preserve_insertion_order: 'true' } as const;

/** The COPY options of a format (Parquet row groups kept small, so the writer's buffer stays within the memory limit). */
function copyOptions(format: CopyJob['format']): string {
  return format === 'csv' ? '(FORMAT csv, HEADER true)' : '(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)';
}

async function main(job: CopyJob): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { ...EXPORT_SETTINGS, temp_directory: job.temp });
  const connection = await instance.connect();
  try {
    if (job.attach !== null) await connection.run(`ATTACH ${sqlString(job.attach)} AS store (READ_ONLY)`);
    let select = job.select;
    if (job.format === 'csv') {
      const columns = (await connection.runAndReadAll(`DESCRIBE ${select}`)).getRowObjectsJS() as Array<{ column_name: string; column_type: string }>;
      const cells = columns.map(({ column_name: name, column_type: type }) => {
        const quoted = `"${name.replace(/"/g, '""')}"`;
        return type === 'VARCHAR' ? `${csvTextSql(quoted)} AS ${quoted}` : quoted;
      });
      select = `SELECT ${cells.join(', ')} FROM (${select})`;
    }
    const part = `${job.out}.part`;
    await connection.run(`COPY (${select}) TO ${sqlString(part)} ${copyOptions(job.format)}`);
    await rename(part, job.out);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

process.once('disconnect', () => process.exit(1));
main(JSON.parse(process.argv[2]) as CopyJob).then(() => process.exit(0), (error: unknown) => {
  process.stderr.write(`${(error as Error).message.split('\n')[0]}\n`);
  process.exit(1);
});
