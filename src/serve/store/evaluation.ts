/**
 * The store reads of the evaluation harness (src/serve/evaluate): the quarterly rows of a few
 * (vaccine, event) pairs of one analysis with the columns the flags read (src/stats/flags.ts
 * `FlagInput`, plus `n_methods_flagged`), and which of those columns the store keeps (an imported
 * store may hold `prr_chisq` and `ror_lci` as NULL). A column the store lacks reads as null.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FlagInput } from '../../stats/flags.js';
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import { sqlString } from '../../domain/store-format.js';
import { readStoreHead, withStore } from './serving.js';
import { hyperparametersOf, numberOrNull, storeWindowRows } from './windows.js';
import type { StoreMeta, VaccineRow } from '../../domain/store-schema.js';

/** The statistic columns the flags read (FlagInput without `n`). */
export const FLAG_COLUMNS = ['eb05', 'prr', 'prr_chisq', 'ror_lci', 'ic025'] as const;
/** A statistic column the flags read. */
export type FlagColumn = (typeof FLAG_COLUMNS)[number];

/** One quarterly row of a reference pair: its key, the flags' inputs and `n_methods_flagged`. */
export interface FlagRow extends FlagInput {
  drug: string;
  event: string;
  /** `<year>Q<1-4>`, the last quarter of the window. */
  quarter: string;
  /** 0..4, or null when the store holds NULL. */
  n_methods_flagged: number | null;
}

/** The rows of the asked pairs in one analysis, and which flag columns the analysis keeps. */
export interface FlagRows {
  /** Every quarter of the asked pairs (any quarter), ordered by drug, event, quarter. */
  rows: FlagRow[];
  /** Per flag column: whether the analysis has at least one non-null value of it. */
  present: Record<FlagColumn, boolean>;
  /** The MGPS prior fitted in each window of the analysis (`<year>Q<1-4>` -> hyperparameters); a skipped window has none. */
  priors: Map<string, Hyperparameters>;
}

/** The fitted priors of `analysis` (the `windows` table). */
async function readPriors(connection: DuckDBConnection, analysis: string): Promise<Map<string, Hyperparameters>> {
  const rows = await storeWindowRows(connection);
  const priors = new Map<string, Hyperparameters>();
  for (const r of rows) {
    if ((r.analysis ?? 'all') !== analysis) continue;
    const theta = hyperparametersOf(r);
    if (Object.values(theta).every((x) => x !== null)) priors.set(String(r.quarter), theta as Hyperparameters);
  }
  return priors;
}

/**
 * Meta and vaccine table of a store, without its rows.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readStoreVocabulary(path: string): Promise<{ meta: StoreMeta; vaccines: VaccineRow[] }> {
  return withStore(path, (connection) => readStoreHead(connection, path));
}

/** Column names of the quarterly rows. */
async function columnNames(connection: DuckDBConnection, from: string): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
  return new Set(reader.getRowObjectsJS().map((r) => String(r.column_name)));
}

/**
 * The quarterly rows of analysis `analysis` whose drug is one of `drugs` and whose event is one
 * of `events` (every quarter), and which flag columns the analysis keeps. A store written
 * before analyses existed has only `all`.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readFlagRows(path: string, analysis: string, drugs: readonly string[], events: readonly string[]): Promise<FlagRows> {
  return withStore(path, async (connection) => {
    const from = 'store.quarterly';
    const names = await columnNames(connection, from);
    const pick = (c: string): string => (names.has(c) ? c : `NULL AS ${c}`);
    const where = `${names.has('analysis') ? 'analysis' : `'all'`} = ${sqlString(analysis)}`;
    const counts = (await connection.runAndReadAll(
      `SELECT ${FLAG_COLUMNS.map((c) => `count(${names.has(c) ? c : 'NULL'}) AS ${c}`).join(', ')} FROM ${from} WHERE ${where}`,
    )).getRowObjectsJS()[0];
    const present = Object.fromEntries(FLAG_COLUMNS.map((c) => [c, Number(counts[c]) > 0])) as Record<FlagColumn, boolean>;
    const priors = await readPriors(connection, analysis);
    if (drugs.length === 0 || events.length === 0) return { rows: [], present, priors };
    const list = (values: readonly string[]): string => [...new Set(values)].map(sqlString).join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT drug, event, quarter, n, ${FLAG_COLUMNS.map(pick).join(', ')}, n_methods_flagged FROM ${from}
       WHERE ${where} AND drug IN (${list(drugs)}) AND event IN (${list(events)}) ORDER BY drug, event, quarter`,
    );
    const rows = reader.getRowObjectsJS().map((r): FlagRow => ({
      drug: String(r.drug), event: String(r.event), quarter: String(r.quarter), n: Number(r.n),
      eb05: numberOrNull(r.eb05), prr: numberOrNull(r.prr), prr_chisq: numberOrNull(r.prr_chisq),
      ror_lci: numberOrNull(r.ror_lci), ic025: numberOrNull(r.ic025), n_methods_flagged: numberOrNull(r.n_methods_flagged),
    }));
    return { rows, present, priors };
  });
}
