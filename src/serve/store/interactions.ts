/**
 * The interactions read of a store (docs/interactions.md; the table: src/domain/interactions.ts):
 * the signals of every window (Omega025 > 0: a few thousand rows) read once per store generation,
 * and the series of one triple read at request time. A store built before the table has none:
 * {@link readInteractionSignals} resolves null.
 */
import { compareText } from '../query/names.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { INTERACTION_COLUMNS, INTERACTIONS_TABLE, type InteractionRow } from '../../domain/interactions.js';
import { withStore, type StoreSource } from './serving.js';

/** The signal rows of one analysis, by window, and the range of the windows holding any stored row. */
export interface InteractionSignals {
  /** Signal rows (Omega025 > 0) by window quarter, each list ranked ({@link rankInteractions}). */
  byQuarter: Map<string, InteractionRow[]>;
  /** First and last window with a stored row (null: none). */
  range: { first: string; last: string } | null;
  /** The stored rows of the analysis (signals or not). */
  rows: number;
}

const SELECT = INTERACTION_COLUMNS.map(([name]) => `"${name}"`).join(', ');

/** A row read back as an InteractionRow (INTEGER columns arrive as numbers, VARCHAR as strings). */
function rowOf(r: Record<string, unknown>): InteractionRow {
  return Object.fromEntries(INTERACTION_COLUMNS.map(([name, type]) => [name, type === 'VARCHAR' ? String(r[name]) : Number(r[name])])) as unknown as InteractionRow;
}

/** Whether the store attached as `store` has the interactions table. */
async function hasTable(connection: DuckDBConnection): Promise<boolean> {
  const found = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = 'store' AND schema_name = 'main' AND table_name = '${INTERACTIONS_TABLE}'`);
  return Number(found.getRowObjectsJS()[0].n) > 0;
}

/** Ranks rows in place: Omega025 descending, then n111 descending, then vaccine1, vaccine2, event. */
export function rankInteractions(rows: InteractionRow[]): InteractionRow[] {
  return rows.sort((a, b) => b.omega025 - a.omega025 || b.n111 - a.n111 || compareText(a.vaccine1, b.vaccine1) || compareText(a.vaccine2, b.vaccine2) || compareText(a.event, b.event));
}

/**
 * Every signal row (Omega025 > 0) of `analysis`, by window, ranked; null when the store has no
 * interactions table (built before it, or an import).
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readInteractionSignals(source: StoreSource, analysis: string): Promise<InteractionSignals | null> {
  return withStore(source, async (connection) => {
    if (!(await hasTable(connection))) return null;
    const head = (await connection.runAndReadAll(`SELECT min(quarter) AS first, max(quarter) AS last, count(*)::INTEGER AS n FROM store.${INTERACTIONS_TABLE} WHERE analysis = $analysis`, { analysis })).getRowObjectsJS()[0];
    const rows = (await connection.runAndReadAll(`SELECT ${SELECT} FROM store.${INTERACTIONS_TABLE} WHERE analysis = $analysis AND omega025 > 0`, { analysis })).getRowObjectsJS().map(rowOf);
    const byQuarter = new Map<string, InteractionRow[]>();
    for (const row of rows) {
      const list = byQuarter.get(row.quarter);
      if (list) list.push(row);
      else byQuarter.set(row.quarter, [row]);
    }
    for (const list of byQuarter.values()) rankInteractions(list);
    const range = typeof head?.first === 'string' && typeof head.last === 'string' ? { first: head.first, last: head.last } : null;
    return { byQuarter, range, rows: Number(head?.n ?? 0) };
  });
}

/**
 * The stored rows of one triple over every window, in quarter order (`vaccine1` < `vaccine2` as
 * stored: the caller orders the names); empty when none; null without the table.
 */
export async function readTripleSeries(source: StoreSource, analysis: string, vaccine1: string, vaccine2: string, event: string): Promise<InteractionRow[] | null> {
  return withStore(source, async (connection) => {
    if (!(await hasTable(connection))) return null;
    const sql = `SELECT ${SELECT} FROM store.${INTERACTIONS_TABLE} WHERE analysis = $analysis AND vaccine1 = $vaccine1 AND vaccine2 = $vaccine2 AND event = $event ORDER BY quarter`;
    return (await connection.runAndReadAll(sql, { analysis, vaccine1, vaccine2, event })).getRowObjectsJS().map(rowOf);
  });
}
