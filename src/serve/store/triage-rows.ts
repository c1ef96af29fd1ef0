/**
 * The triage read of a store (GET /triage, src/serve/triage/): for one analysis and one window, the
 * quarterly rows the analysis flags (`eb05 >= 2` or `n_methods_flagged >= 2`) with their
 * evidence columns (src/domain/columns.ts kind `evidence`, EVIDENCE_COLUMNS), the first quarter
 * each pair was flagged, and the window's MGPS fit (`windows.at_bound`). Read on demand from the
 * store file (withStore), as the fitted windows are (windows.ts). A store without the evidence
 * columns (an import, or one built before them) reads them as null; a store without an
 * `analysis` column holds one analysis.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { EVIDENCE_COLUMNS, EVIDENCE_TEXT_COLUMNS, type EvidenceValues } from '../../domain/columns.js';
import { SERVING_FLOOR } from '../../domain/floor.js';
import { withStore, type StoreSource } from './serving.js';
import { numberOrNull } from './windows.js';

/** One flagged row of a window with its evidence. */
export interface TriageRow extends EvidenceValues {
  vaccine: string;
  event: string;
  n: number;
  eb05: number | null;
  prr: number | null;
  ic025: number | null;
  n_methods_flagged: number;
  /** First quarter (`YYYYQn`) in which the analysis flags the pair. */
  first_flagged: string;
}

/** What the triage read returns for one window. */
export interface TriageWindow {
  /** The window's quarter; null when the analysis has no row at all. */
  quarter: string | null;
  rows: TriageRow[];
  /** Parameters of the window's MGPS fit on a bound of the box ('' none; null: no fit recorded). */
  at_bound: string | null;
  /** Whether the store holds the build's evidence (the columns, filled: an import has them null). */
  has_evidence: boolean;
}

/** The text evidence columns (read as strings; the others as numbers). */
const TEXT: ReadonlySet<string> = new Set(EVIDENCE_TEXT_COLUMNS);

/** A flagged window row (src/domain/floor.ts isFlagged), in SQL. */
const FLAGGED = `n_methods_flagged >= ${SERVING_FLOOR}`;

async function columnsOf(connection: DuckDBConnection, table: string): Promise<Set<string>> {
  return new Set((await connection.runAndReadAll(`SELECT * FROM store.${table} LIMIT 0`)).columnNames());
}

/**
 * The first and last quarter (`YYYYQn`) of the quarterly rows of `analysis` (of every row for a
 * store without analyses), or null when it has none: the windows GET /triage can rank.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readQuarterRange(path: StoreSource, analysis: string): Promise<{ first: string; last: string } | null> {
  return withStore(path, async (connection) => {
    const hasAnalysis = (await columnsOf(connection, 'quarterly')).has('analysis');
    const row = (await connection.runAndReadAll(`SELECT min(quarter) AS first, max(quarter) AS last FROM store.quarterly${hasAnalysis ? ' WHERE analysis = $analysis' : ''}`,
      hasAnalysis ? { analysis } : {})).getRowObjectsJS()[0];
    return typeof row?.first === 'string' && typeof row.last === 'string' ? { first: row.first, last: row.last } : null;
  });
}

/**
 * The flagged rows of `analysis` in the window ending at `quarter` (null: the analysis's latest
 * quarter), with the evidence and each pair's first flagged quarter.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readTriageWindow(path: StoreSource, analysis: string, quarter: string | null): Promise<TriageWindow> {
  return withStore(path, async (connection) => {
    const columns = await columnsOf(connection, 'quarterly');
    const hasAnalysis = columns.has('analysis');
    const of = hasAnalysis ? 'analysis = $analysis' : 'true';
    const params: Record<string, string> = hasAnalysis ? { analysis } : {};
    const latest = quarter ?? (await connection.runAndReadAll(`SELECT max(quarter) AS q FROM store.quarterly WHERE ${of}`, params)).getRowObjectsJS()[0]?.q;
    if (typeof latest !== 'string') return { quarter: null, rows: [], at_bound: null, has_evidence: false };
    const hasEvidence = EVIDENCE_COLUMNS.every((c) => columns.has(c));
    const evidence = EVIDENCE_COLUMNS.map((c) => (columns.has(c) ? `q.${c}` : `NULL AS ${c}`)).join(', ');
    const ic025 = columns.has('ic025') ? 'q.ic025' : 'NULL AS ic025';
    const sql = `WITH first AS (SELECT drug, event, min(quarter) AS first_flagged FROM store.quarterly WHERE ${of} AND ${FLAGGED} GROUP BY drug, event)
      SELECT q.drug, q.event, q.n, q.eb05, q.prr, ${ic025}, q.n_methods_flagged, f.first_flagged, ${evidence}
      FROM store.quarterly q JOIN first f ON q.drug = f.drug AND q.event = f.event
      WHERE ${of.replace('analysis', 'q.analysis')} AND q.quarter = $quarter AND ${FLAGGED.replace(/eb05|n_methods_flagged/g, (c) => `q.${c}`)}`;
    const raw = (await connection.runAndReadAll(sql, { ...params, quarter: latest })).getRowObjectsJS();
    const atBound = await connection.runAndReadAll(`SELECT at_bound FROM store.windows WHERE ${of} AND quarter = $quarter`, { ...params, quarter: latest })
      .then((fit) => fit.getRowObjectsJS().map((w) => String(w.at_bound ?? ''))[0] ?? null)
      .catch(() => null); // an import has no windows table
    const rows = raw.map((r): TriageRow => {
      const values = Object.fromEntries(EVIDENCE_COLUMNS.map((c) => [c, TEXT.has(c) ? (r[c] === null || r[c] === undefined ? null : String(r[c])) : numberOrNull(r[c])])) as unknown as EvidenceValues;
      return {
        vaccine: String(r.drug), event: String(r.event), n: Number(r.n), eb05: numberOrNull(r.eb05), prr: numberOrNull(r.prr),
        ic025: numberOrNull(r.ic025), n_methods_flagged: Number(r.n_methods_flagged ?? 0), first_flagged: String(r.first_flagged), ...values,
      };
    });
    // A store written with the columns but without the build's evidence (an import) has lag_n null throughout.
    return { quarter: latest, rows, at_bound: atBound, has_evidence: hasEvidence && (rows.length === 0 || rows.some((r) => r.lag_n !== null)) };
  });
}
