/**
 * The triage read of a store (GET /triage, src/serve/triage/): for one analysis, every window's
 * flagged quarterly rows (src/domain/floor.ts isFlagged) with their evidence columns
 * (src/domain/columns.ts kind `evidence`, EVIDENCE_COLUMNS), the first quarter each pair was
 * flagged, and each window's MGPS fit (`windows.at_bound`): every window in one read (the
 * evaluation), or one window per read (the server reads a window at its first GET /triage of a
 * store generation and keeps it: src/serve/generation Generation.triageWindow). A store without the evidence
 * columns (an import, or one built before them) reads them as null; a store without an
 * `analysis` column holds one analysis.
 */
import { compareText } from '../query/names.js';
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

/** Every window of one analysis as the triage reads it: the windows by quarter and the range of quarters. */
export interface TriageWindows {
  /** The first and last quarter of the analysis's rows (null: none). */
  range: { first: string; last: string } | null;
  /** The flagged rows of each window with a flagged row, by quarter (`YYYYQn`); a window without one is absent. */
  windows: Map<string, TriageWindow>;
  /** Each fitted window's parameters on a bound of the box, by quarter ('' none; absent: no fit recorded). */
  at_bound: Map<string, string>;
  /** Whether the store holds the build's evidence (as TriageWindow.has_evidence). */
  has_evidence: boolean;
}

/**
 * The flagged rows of every window of `analysis` in one read (the evaluation ranks every window),
 * or, with `quarter`, of that window alone (`last`: the analysis's last quarter; GET /triage reads
 * each window once per store generation, at its first request: at full size the whole analysis
 * is millions of rows), with the evidence, each pair's first flagged quarter and each window's
 * MGPS fit; `range` is always the analysis's.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readTriageWindows(path: StoreSource, analysis: string, quarter?: string): Promise<TriageWindows> {
  return withStore(path, async (connection) => {
    const columns = await columnsOf(connection, 'quarterly');
    const hasAnalysis = columns.has('analysis');
    const of = hasAnalysis ? 'analysis = $analysis' : 'true';
    const params: Record<string, string> = hasAnalysis ? { analysis } : {};
    const bounds = (await connection.runAndReadAll(`SELECT min(quarter) AS first, max(quarter) AS last FROM store.quarterly WHERE ${of}`, params)).getRowObjectsJS()[0];
    const range = typeof bounds?.first === 'string' && typeof bounds.last === 'string' ? { first: bounds.first, last: bounds.last } : null;
    const hasEvidence = EVIDENCE_COLUMNS.every((c) => columns.has(c));
    const evidence = EVIDENCE_COLUMNS.map((c) => (columns.has(c) ? `q.${c}` : `NULL AS ${c}`)).join(', ');
    const ic025 = columns.has('ic025') ? 'q.ic025' : 'NULL AS ic025';
    // One window: its flagged rows, and the first flagged quarter of those pairs only.
    const window = quarter === undefined ? null : quarter === 'last' ? range?.last ?? '' : quarter;
    const sqlParams: Record<string, string> = window === null ? params : { ...params, quarter: window };
    const inWindow = window === null ? '' : ' AND quarter = $quarter';
    const pairs = window === null ? '' : ` AND (drug, event) IN (SELECT drug, event FROM store.quarterly WHERE ${of}${inWindow} AND ${FLAGGED})`;
    const sql = `WITH first AS (SELECT drug, event, min(quarter) AS first_flagged FROM store.quarterly WHERE ${of} AND ${FLAGGED}${pairs} GROUP BY drug, event)
      SELECT q.quarter, q.drug, q.event, q.n, q.eb05, q.prr, ${ic025}, q.n_methods_flagged, f.first_flagged, ${evidence}
      FROM store.quarterly q JOIN first f ON q.drug = f.drug AND q.event = f.event
      WHERE ${of.replace('analysis', 'q.analysis')}${inWindow.replace('quarter', 'q.quarter')} AND ${FLAGGED.replace(/n_methods_flagged/g, 'q.n_methods_flagged')}`;
    const atBound = new Map<string, string>();
    await connection.runAndReadAll(`SELECT quarter, at_bound FROM store.windows WHERE ${of}`, params)
      .then((fits) => { for (const w of fits.getRowObjectsJS()) atBound.set(String(w.quarter), String(w.at_bound ?? '')); })
      .catch(() => undefined); // an import has no windows table
    // Streamed and sorted here, not by DuckDB: at full size (millions of flagged rows) an ORDER BY
    // or a materialised result exceeds the loading database's memory limit (store-db.ts).
    const byQuarter = new Map<string, TriageWindow>();
    let rowCount = 0;
    let anyLag = false;
    for await (const chunk of (await connection.stream(sql, sqlParams)).yieldRowObjectJs()) {
      for (const r of chunk) {
        rowCount++;
        if (r.lag_n !== null && r.lag_n !== undefined) anyLag = true;
        const quarter = String(r.quarter);
        let window = byQuarter.get(quarter);
        if (!window) byQuarter.set(quarter, (window = { quarter, rows: [], at_bound: atBound.get(quarter) ?? null, has_evidence: hasEvidence }));
        const values = Object.fromEntries(EVIDENCE_COLUMNS.map((c) => [c, TEXT.has(c) ? (r[c] === null || r[c] === undefined ? null : String(r[c])) : numberOrNull(r[c])])) as unknown as EvidenceValues;
        window.rows.push({
          vaccine: String(r.drug), event: String(r.event), n: Number(r.n), eb05: numberOrNull(r.eb05), prr: numberOrNull(r.prr),
          ic025: numberOrNull(r.ic025), n_methods_flagged: Number(r.n_methods_flagged ?? 0), first_flagged: String(r.first_flagged), ...values,
        });
      }
    }
    // The windows in quarter order, each's rows by vaccine then event (as an ORDER BY would give them).
    const windows = new Map([...byQuarter.entries()].sort(([a], [b]) => compareText(a, b)));
    for (const window of windows.values()) window.rows.sort((x, y) => compareText(x.vaccine, y.vaccine) || compareText(x.event, y.event));
    // A store written with the columns but without the build's evidence (an import) has lag_n null throughout.
    const filled = hasEvidence && (rowCount === 0 || anyLag);
    for (const window of windows.values()) window.has_evidence = filled;
    return { range, windows, at_bound: atBound, has_evidence: filled };
  });
}

/**
 * The window of `quarter` (null: the analysis's last quarter) from a read of readTriageWindows
 * (every window, or that window alone): its flagged rows, or none (a quarter of the analysis without a flagged row, or no quarter at all).
 */
export function triageWindowOf(all: TriageWindows, quarter: string | null): TriageWindow {
  const at = quarter ?? all.range?.last ?? null;
  if (at === null) return { quarter: null, rows: [], at_bound: null, has_evidence: false };
  return all.windows.get(at) ?? { quarter: at, rows: [], at_bound: all.at_bound.get(at) ?? null, has_evidence: all.has_evidence };
}
