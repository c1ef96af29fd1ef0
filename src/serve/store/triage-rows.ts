/**
 * The triage read of a store (GET /triage, src/serve/triage/): for one analysis, every window's
 * flagged quarterly rows (src/domain/floor.ts isFlagged) with their evidence columns
 * (src/domain/columns.ts kind `evidence`, EVIDENCE_COLUMNS), the first quarter each pair was
 * flagged, and each window's MGPS fit (`windows.at_bound`): every window in one read (the
 * evaluation), or one window per read (the server reads a window at its first GET /triage of a
 * store generation and keeps it: src/serve/generation Generation.triageWindow), from the store's
 * `triage_rows` (the flagged rows in quarter order: a window is one stretch of it), or from
 * `quarterly` in a store written before that table. A store without the evidence
 * columns (an import, or one built before them) reads them as null; a store without an
 * `analysis` column holds one analysis.
 */
import { compareText } from '../query/names.js';
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { EVIDENCE_COLUMNS, EVIDENCE_TEXT_COLUMNS, finiteOrNull, type EvidenceValues } from '../../domain/columns.js';
import { SERVING_FLOOR } from '../../domain/floor.js';
import { TRIAGE_ROWS_TABLE, TRIAGE_ROWS_VALUES } from '../../domain/store-schema.js';
import { withStore, type StoreSource } from './serving.js';
import { vectorNumbers } from '../../domain/vector-numbers.js';

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

/** A flagged window row (src/domain/floor.ts isFlagged), in SQL. */
const FLAGGED = `n_methods_flagged >= ${SERVING_FLOOR}`;

/** The text evidence columns (read as strings; the others as numbers). */
const TEXT: ReadonlySet<string> = new Set(EVIDENCE_TEXT_COLUMNS);

/**
 * The columns of the triage read, in its select order: the key, the values (TRIAGE_ROWS_VALUES:
 * n, the statistics, then EVIDENCE_COLUMNS), `first_flagged`; each a text or a number.
 */
const READ_COLUMNS: ReadonlyArray<{ name: string; text: boolean }> = [
  ...['quarter', 'drug', 'event'].map((name) => ({ name, text: true })),
  ...TRIAGE_ROWS_VALUES.map((name) => ({ name, text: TEXT.has(name) })),
  { name: 'first_flagged', text: true },
];

/**
 * The select list of the read over `source` (SQL of a column by name; null: the store lacks it,
 * read as null): a text as VARCHAR, a number as a DOUBLE with NaN for null (so that the chunk's
 * vector is a plain Float64Array: vector-numbers.ts), in READ_COLUMNS order.
 */
function selectList(source: (name: string) => string | null): string {
  return READ_COLUMNS.map(({ name, text }) => {
    const value = source(name) ?? 'NULL';
    return text ? `CAST(${value} AS VARCHAR) AS ${name}` : `coalesce(CAST(${value} AS DOUBLE), 'NaN'::DOUBLE) AS ${name}`;
  }).join(', ');
}

/** Whether the store holds `table`. */
async function hasTable(connection: DuckDBConnection, table: string): Promise<boolean> {
  const found = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = 'store' AND schema_name = 'main' AND table_name = '${table}'`);
  return Number(found.getRowObjectsJS()[0]?.n) > 0;
}

/**
 * The read from `triage_rows` (store-schema.ts TRIAGE_ROWS_SQL: the flagged rows with their first
 * flagged quarter, in quarter order within each analysis: one window's rows are one stretch of it).
 */
function indexSql(oneWindow: boolean): string {
  return `SELECT ${selectList((name) => name)} FROM store.${TRIAGE_ROWS_TABLE}
    WHERE analysis = $analysis${oneWindow ? ' AND quarter = $quarter' : ''}`;
}

/**
 * The same read from `quarterly` (a store written before `triage_rows`): the first flagged
 * quarters by a grouping of the analysis's flagged rows (with one window, of its pairs only);
 * columns the store lacks read as null.
 */
function quarterlySql(columns: ReadonlySet<string>, of: string, oneWindow: boolean): string {
  const inWindow = oneWindow ? ' AND quarter = $quarter' : '';
  const pairs = oneWindow ? ` AND (drug, event) IN (SELECT drug, event FROM store.quarterly WHERE ${of}${inWindow} AND ${FLAGGED})` : '';
  return `WITH first AS (SELECT drug, event, min(quarter) AS first_flagged FROM store.quarterly WHERE ${of} AND ${FLAGGED}${pairs} GROUP BY drug, event)
      SELECT ${selectList((name) => (name === 'first_flagged' ? 'f.first_flagged' : columns.has(name) ? `q.${name}` : null))}
      FROM store.quarterly q JOIN first f ON q.drug = f.drug AND q.event = f.event
      WHERE ${of.replace('analysis', 'q.analysis')}${inWindow.replace('quarter', 'q.quarter')} AND ${FLAGGED.replace(/n_methods_flagged/g, 'q.n_methods_flagged')}`;
}

/** How a TriageRow property reads its column: a text, a count (NaN, a null, reads 0) or a number (finiteOrNull). */
type ReadAs = 'text' | 'count' | 'number';

/** Every property of a TriageRow: its column (READ_COLUMNS) and how it reads it. */
const ROW_PROPERTIES: ReadonlyArray<{ property: string; column: string; as: ReadAs }> = READ_COLUMNS.flatMap(({ name, text }): Array<{ property: string; column: string; as: ReadAs }> => (
  name === 'quarter' ? [] : [{ property: name === 'drug' ? 'vaccine' : name, column: name, as: text ? 'text' : name === 'n' || name === 'n_methods_flagged' ? 'count' : 'number' }]));

/** The property names of a TriageRow read from the store, in select order (vaccine, event, n, the statistics, the evidence, first_flagged). */
export const TRIAGE_ROW_PROPERTIES: readonly string[] = ROW_PROPERTIES.map((p) => p.property);

/**
 * The values of one result chunk: each number column copied out of DuckDB's vector (NaN for
 * null), each text column as strings (the key columns' nulls as the text "null", the evidence
 * texts' as null), both in READ_COLUMNS order of their kind.
 */
interface ChunkValues {
  numbers: Float64Array[];
  texts: Array<Array<string | null>>;
}

/**
 * A flagged row read from the store: a view of one row of its chunk's columns (ChunkValues),
 * each TriageRow property a getter on the prototype (ROW_PROPERTIES). A window of the full store
 * holds tens of thousands of rows: as objects of some 45 properties (their doubles boxed) they
 * were most of a cold read's time and garbage (issue 41); as views, two fields and typed arrays.
 * Its properties are not its own: compare rows by plainTriageRow.
 */
class StoredTriageRow {
  constructor(
    readonly values: ChunkValues,
    readonly at: number,
  ) {}
}
for (const { property, column, as } of ROW_PROPERTIES) {
  const k = READ_COLUMNS.filter((c) => c.text === (as === 'text')).findIndex((c) => c.name === column);
  const get = as === 'text'
    ? function (this: StoredTriageRow): string | null { return this.values.texts[k][this.at]; }
    : as === 'count'
      ? function (this: StoredTriageRow): number { const x = this.values.numbers[k][this.at]; return Number.isNaN(x) ? 0 : x; }
      : function (this: StoredTriageRow): number | null { return finiteOrNull(this.values.numbers[k][this.at]); };
  Object.defineProperty(StoredTriageRow.prototype, property, { get, enumerable: true });
}

/** A row as a plain object of its TriageRow properties (TRIAGE_ROW_PROPERTIES): to compare rows or hand one on whole. */
export function plainTriageRow(row: TriageRow): TriageRow {
  return Object.fromEntries(TRIAGE_ROW_PROPERTIES.map((name) => [name, (row as unknown as Record<string, unknown>)[name]])) as unknown as TriageRow;
}

/**
 * The rows of one result chunk (columns in READ_COLUMNS order) and each row's quarter: the
 * numbers copied from the vectors' typed arrays (vector-numbers.ts), the texts item by item, and
 * one view (StoredTriageRow) per row.
 */
function chunkRows(chunk: DuckDBDataChunk): { quarters: string[]; rows: TriageRow[] } {
  const count = chunk.rowCount;
  const values: ChunkValues = { numbers: [], texts: [] };
  READ_COLUMNS.forEach(({ name, text }, k) => {
    const vector = chunk.getColumnVector(k);
    if (!text) {
      values.numbers.push(Float64Array.from(vectorNumbers(vector, count)));
      return;
    }
    // The key texts (quarter, drug, event, first_flagged) as strings; an evidence text keeps its null.
    const key = !TEXT.has(name);
    const items: Array<string | null> = new Array<string | null>(count);
    for (let i = 0; i < count; i++) {
      const v = vector.getItem(i);
      items[i] = v === null || v === undefined ? (key ? 'null' : null) : String(v);
    }
    values.texts.push(items);
  });
  const rows: TriageRow[] = new Array<TriageRow>(count);
  for (let i = 0; i < count; i++) rows[i] = new StoredTriageRow(values, i) as unknown as TriageRow;
  return { quarters: values.texts[0] as string[], rows };
}

async function columnsOf(connection: DuckDBConnection, table: string): Promise<Set<string>> {
  return new Set((await connection.runAndReadAll(`SELECT * FROM store.${table} LIMIT 0`)).columnNames());
}

/**
 * What every triage read of one analysis needs besides its rows, read once per served store
 * (src/serve/generation Generation.triageWindow holds it): at full size the range alone scans
 * the analysis's millions of quarterly rows, a cold window's largest fixed cost.
 */
export interface TriageFrame {
  /** The columns of the store's `quarterly`. */
  columns: ReadonlySet<string>;
  /** Whether the store holds `triage_rows` (store-schema.ts TRIAGE_ROWS_SQL). */
  hasTriageRows: boolean;
  /** As TriageWindows.range. */
  range: { first: string; last: string } | null;
  /** As TriageWindows.at_bound. */
  atBound: Map<string, string>;
}

async function frameOf(connection: DuckDBConnection, analysis: string): Promise<TriageFrame> {
  const columns = await columnsOf(connection, 'quarterly');
  const hasAnalysis = columns.has('analysis');
  const of = hasAnalysis ? 'analysis = $analysis' : 'true';
  const params: Record<string, string> = hasAnalysis ? { analysis } : {};
  const bounds = (await connection.runAndReadAll(`SELECT min(quarter) AS first, max(quarter) AS last FROM store.quarterly WHERE ${of}`, params)).getRowObjectsJS()[0];
  const range = typeof bounds?.first === 'string' && typeof bounds.last === 'string' ? { first: bounds.first, last: bounds.last } : null;
  const atBound = new Map<string, string>();
  await connection.runAndReadAll(`SELECT quarter, at_bound FROM store.windows WHERE ${of}`, params)
    .then((fits) => { for (const w of fits.getRowObjectsJS()) atBound.set(String(w.quarter), String(w.at_bound ?? '')); })
    .catch(() => undefined); // an import has no windows table
  return { columns, hasTriageRows: await hasTable(connection, TRIAGE_ROWS_TABLE), range, atBound };
}

/**
 * The frame of the triage reads of `analysis` (TriageFrame), for readTriageWindows.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readTriageFrame(path: StoreSource, analysis: string): Promise<TriageFrame> {
  return withStore(path, (connection) => frameOf(connection, analysis));
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
 * MGPS fit; `range` is always the analysis's. `frame`: the analysis's readTriageFrame, when held
 * (else read here).
 * @throws Error naming the file when it is missing or not a store.
 */
export async function readTriageWindows(path: StoreSource, analysis: string, quarter?: string, frame?: TriageFrame): Promise<TriageWindows> {
  return withStore(path, async (connection) => {
    const { columns, hasTriageRows, range, atBound } = frame ?? await frameOf(connection, analysis);
    const hasAnalysis = columns.has('analysis');
    const of = hasAnalysis ? 'analysis = $analysis' : 'true';
    const params: Record<string, string> = hasAnalysis ? { analysis } : {};
    const hasEvidence = EVIDENCE_COLUMNS.every((c) => columns.has(c));
    // One window: its flagged rows (the first flagged quarter is the pair's in the whole analysis).
    const window = quarter === undefined ? null : quarter === 'last' ? range?.last ?? '' : quarter;
    const sqlParams: Record<string, string> = window === null ? params : { ...params, quarter: window };
    const sql = hasAnalysis && hasTriageRows ? indexSql(window !== null) : quarterlySql(columns, of, window !== null);
    // Streamed and sorted here, not by DuckDB: at full size (millions of flagged rows) an ORDER BY
    // or a materialised result exceeds the loading database's memory limit (store-db.ts).
    const byQuarter = new Map<string, TriageWindow>();
    let rowCount = 0;
    let anyLag = false;
    const result = await connection.stream(sql, sqlParams);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const { quarters, rows } = chunkRows(chunk);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i], quarter = quarters[i];
        rowCount++;
        if (r.lag_n !== null) anyLag = true;
        let window = byQuarter.get(quarter);
        if (!window) byQuarter.set(quarter, (window = { quarter, rows: [], at_bound: atBound.get(quarter) ?? null, has_evidence: hasEvidence }));
        window.rows.push(r);
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
