/**
 * The store's `interactions` table (src/domain/interactions.ts; docs/interactions.md): created and
 * filled by the build's writer (write.ts), and by bench/interactions.ts to measure its size alone.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './appender.js';
import { INTERACTION_COLUMNS, INTERACTIONS_SQL, INTERACTIONS_TABLE, type InteractionRow } from '../../domain/interactions.js';

/**
 * Creates `interactions` on `connection` (schema `main` of the database being written) and appends `rows`.
 * @throws Error when a value is not finite (the build computes every one: a gap is a bug) or DuckDB fails.
 */
export async function appendInteractions(connection: DuckDBConnection, rows: Iterable<InteractionRow>): Promise<number> {
  await connection.run(INTERACTIONS_SQL);
  return appendRows(connection, INTERACTIONS_TABLE, INTERACTION_COLUMNS, rows, {
    check: (row) => {
      for (const [name, type] of INTERACTION_COLUMNS) {
        const value = row[name];
        if (type !== 'VARCHAR' && (typeof value !== 'number' || !Number.isFinite(value))) throw new Error(`interactions: ${name} of ${row.vaccine1} + ${row.vaccine2} x ${row.event} (${row.quarter}) is not a finite number: ${String(value)}`);
      }
    },
  });
}
