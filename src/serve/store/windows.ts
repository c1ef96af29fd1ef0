/**
 * The fitted windows of a store: per analysis and window, the MGPS prior's hyperparameters
 * (DuMouchel 1999), its negative log-likelihood, convergence and the parameters on a bound of
 * openEBGM's box, with the window's pairs and reports, read from the store's `windows` table.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { finiteOrNull } from '../../domain/columns.js';
import { HYPER_NAMES, type HyperName } from '../../domain/mgps-prior.js';
import type { StoredWindowRow } from './metadata.js';
import { withStore, type StoreSource } from './serving.js';

/**
 * The window rows of the store opened by `withStore`, as stored; a store written before analyses
 * existed has `analysis` null or absent (its one analysis, `all`).
 */
export async function storeWindowRows(connection: DuckDBConnection): Promise<Array<Record<string, unknown>>> {
  return (await connection.runAndReadAll('SELECT * FROM store.windows ORDER BY quarter')).getRowObjectsJS();
}

/** A stored numeric cell as a number: NULL, a missing column or a non-finite value read as null. */
export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : finiteOrNull(Number(value));
}

/** A stored window's hyperparameters (HYPER_NAMES; null where not a finite number), from a row of the `windows` table. */
export function hyperparametersOf(r: Record<string, unknown>): { [K in HyperName]: number | null } {
  return Object.fromEntries(HYPER_NAMES.map((name) => [name, numberOrNull(r[name])])) as { [K in HyperName]: number | null };
}

/**
 * Every fitted window of a store file, by analysis (`all` for a store without analyses), in
 * quarter order; `at_bound` lists the parameters on a bound (null: none). A store without a
 * window table (an import) has none.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readStoreWindows(path: StoreSource): Promise<Map<string, StoredWindowRow[]>> {
  const rows = await withStore(path, async (connection) => {
    try {
      return await storeWindowRows(connection);
    } catch (error) {
      if (/windows/.test((error as Error).message)) return [];
      throw error;
    }
  });
  const byAnalysis = new Map<string, StoredWindowRow[]>();
  for (const r of rows) {
    const analysis = typeof r.analysis === 'string' ? r.analysis : 'all';
    const row: StoredWindowRow = {
      analysis, quarter: String(r.quarter), ...hyperparametersOf(r), neg_log_lik: numberOrNull(r.neg_log_lik), converged: Boolean(r.converged),
      at_bound: String(r.at_bound ?? ''), n_pairs: numberOrNull(r.n_pairs), n_reports: numberOrNull(r.n_reports),
    };
    byAnalysis.set(analysis, [...(byAnalysis.get(analysis) ?? []), row]);
  }
  for (const list of byAnalysis.values()) list.sort((a, b) => (a.quarter < b.quarter ? -1 : a.quarter > b.quarter ? 1 : 0));
  return byAnalysis;
}
