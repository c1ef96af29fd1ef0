/**
 * The store's `interactions` table (src/domain/interactions.ts; docs/interactions.md): created and
 * filled by the build's writer (write.ts), and by bench/interactions.ts to measure its size alone.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { INTERACTION_COLUMNS, INTERACTIONS_SQL, INTERACTIONS_TABLE, type InteractionRow } from '../../domain/interactions.js';

/**
 * Creates `interactions` on `connection` (schema `main` of the database being written) and appends `rows`.
 * @throws Error when a value is not finite (the build computes every one: a gap is a bug) or DuckDB fails.
 */
export async function appendInteractions(connection: DuckDBConnection, rows: Iterable<InteractionRow>): Promise<number> {
  await connection.run(INTERACTIONS_SQL);
  const appender = await connection.createAppender(INTERACTIONS_TABLE, 'main');
  let count = 0;
  try {
    for (const row of rows) {
      for (const [name, type] of INTERACTION_COLUMNS) {
        const value = row[name];
        if (type === 'VARCHAR') appender.appendVarchar(String(value));
        else if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`interactions: ${name} of ${row.vaccine1} + ${row.vaccine2} x ${row.event} (${row.quarter}) is not a finite number: ${String(value)}`);
        else if (type === 'INTEGER') appender.appendInteger(value);
        else appender.appendDouble(value);
      }
      appender.endRow();
      count++;
    }
  } finally {
    appender.closeSync();
  }
  return count;
}
