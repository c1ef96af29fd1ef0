/**
 * The serving read of a store's report tables (issue 11: the case series behind every signal;
 * schema.ts `REPORT_TABLES`): the kept reports, their VAX rows and their events, read once into
 * columns. Like serving.ts: a small in-memory DuckDB (bounded memory and threads) reads the store
 * (attached read-only), streamed in chunks in stored order, and is closed after. Every value is checked on the way: a store that
 * breaks the shape (write.ts writes it) is an Error naming the file, never a wrong answer.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { parseQuarter, quarterOf } from '../domain/quarter.js';
import { AGE_GROUPS, OUTCOME, SEX_CODES } from '../vaers/report-fields.js';
import { REPORT_OUTCOME_COLUMNS, REPORT_TABLES, type ReportTableName } from './schema.js';
import { vectorNumbers } from './vector-numbers.js';
import { withStore } from './serving.js';

/** The VAX rows of the reports (`report_vaccines`): report i's rows are `start[i] .. start[i + 1] - 1`, in file order. */
export interface ReportVaccines {
  /** Length count + 1. */
  start: Int32Array;
  /** VAX_NAME. */
  name: string[];
  /** VAX_TYPE code. */
  type: Array<string | null>;
  /** VAX_MANU. */
  manufacturer: Array<string | null>;
  /** VAX_LOT. */
  lot: Array<string | null>;
  /** VAX_DOSE or VAX_DOSE_SERIES. */
  dose: Array<string | null>;
  /** VAX_ROUTE. */
  route: Array<string | null>;
  /** VAX_SITE. */
  site: Array<string | null>;
}

/** The distinct events of the reports (`report_events`), runs as in ReportVaccines. */
export interface ReportEvents {
  /** Length count + 1. */
  start: Int32Array;
  /** MedDRA term. */
  term: string[];
  /** Its SYMPTOMVERSIONn. */
  version: Array<string | null>;
}

/** The report tables of a store, as columns (for the /cases service). */
export interface ReportData {
  /** Reports ordered newest RECVDATE first, then VAERS_ID descending; index i below is that order. */
  count: number;
  /** VAERS_ID. */
  id: Float64Array;
  /** RECVDATE, ISO YYYY-MM-DD. */
  received: string[];
  /** Quarter index of RECVDATE, year*4+q-1 (src/domain/quarter.ts). */
  quarter: Uint16Array;
  /** AGE_YRS, NaN when unknown. */
  age: Float64Array;
  /** Index into AGE_GROUPS (src/vaers/report-fields.ts). */
  ageGroup: Uint8Array;
  /** Index into SEX_CODES. */
  sex: Uint8Array;
  state: Array<string | null>;
  /** VAX_DATE, ISO, or null. */
  vaxDate: Array<string | null>;
  /** ONSET_DATE, ISO, or null. */
  onsetDate: Array<string | null>;
  /** NUMDAYS, NaN when unknown. */
  numdays: Float64Array;
  /** OUTCOME bits (report-fields.ts). */
  outcomes: Uint16Array;
  /** OUTCOME bits whose column the report's file had (birth_defect/ofc_visit null otherwise). */
  outcomesKnown: Uint16Array;
  /** RECOVD (Y, N, U) or null. */
  recovd: Array<string | null>;
  /** SYMPTOM_TEXT per report; null when the store has no narratives. */
  narrative: Array<string | null> | null;
  vaccines: ReportVaccines;
  events: ReportEvents;
}


/** Where each report table is read from (a table of the attached store) and the file errors name. */
type Sources = Record<ReportTableName, { from: string; file: string }>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const AGE_GROUP_INDEX = new Map(AGE_GROUPS.map((g, i) => [g.label, i]));
const SEX_INDEX = new Map<string, number>(SEX_CODES.map((s, i) => [s, i]));
const OUTCOMES_SQL = REPORT_OUTCOME_COLUMNS.map(([c, name]) => `if(${c}, ${OUTCOME[name]}, 0)`).join(' + ');
const KNOWN_SQL = REPORT_OUTCOME_COLUMNS.map(([c, name]) => `if(${c} IS NULL, 0, ${OUTCOME[name]})`).join(' + ');
const ID_SQL = `coalesce(vaers_id::DOUBLE, 'NaN'::DOUBLE)`;

/** A store that breaks the report tables' shape: the file and what is wrong. */
function bad(file: string, table: string, what: string): Error {
  return new Error(`not a reporting-signals report table: ${file}: ${table}: ${what}`);
}

/** Streams `sql` chunk by chunk to `onChunk(chunk, firstRow)`; a failing query is an Error naming the file. */
async function stream(connection: DuckDBConnection, sql: string, file: string, table: string, onChunk: (chunk: DuckDBDataChunk, at: number) => void): Promise<number> {
  const failed = (error: unknown): Error => bad(file, table, (error as Error).message.split('\n')[0]);
  const result = await connection.stream(sql).catch((error: unknown) => Promise.reject(failed(error)));
  let at = 0;
  for (;;) {
    const chunk = await result.fetchChunk().catch((error: unknown) => Promise.reject(failed(error)));
    if (!chunk || chunk.rowCount === 0) break;
    onChunk(chunk, at);
    at += chunk.rowCount;
  }
  return at;
}

/**
 * The strings of column `k` of a chunk (null for NULL). With `pool`, equal strings are shared
 * (interned): the repeated values of the report tables (names, codes, manufacturers, terms,
 * dates, states) then cost one string each, not one per row (serving memory).
 */
function strings(chunk: DuckDBDataChunk, k: number, pool?: Map<string, string>): Array<string | null> {
  const vector = chunk.getColumnVector(k);
  const out = new Array<string | null>(chunk.rowCount);
  for (let i = 0; i < chunk.rowCount; i++) {
    const value = vector.getItem(i);
    if (value === null) out[i] = null;
    else if (pool) {
      const text = String(value);
      let shared = pool.get(text);
      if (shared === undefined) pool.set(text, (shared = text));
      out[i] = shared;
    } else out[i] = String(value);
  }
  return out;
}


async function rowCount(connection: DuckDBConnection, from: string, file: string, table: string): Promise<number> {
  try {
    return Number((await connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from}`)).getRowObjectsJS()[0].n);
  } catch (error) {
    throw bad(file, table, (error as Error).message.split('\n')[0]);
  }
}

type ReportColumns = Omit<ReportData, 'vaccines' | 'events'>;

/** Reads `reports`, checking every value and the order (newest RECVDATE first, then VAERS_ID descending). */
async function readReports(connection: DuckDBConnection, { from, file }: Sources['reports'], pool: Map<string, string>): Promise<ReportColumns> {
  const count = await rowCount(connection, from, file, 'reports');
  const r: ReportColumns = {
    count, id: new Float64Array(count), received: new Array<string>(count), quarter: new Uint16Array(count), age: new Float64Array(count),
    ageGroup: new Uint8Array(count), sex: new Uint8Array(count), state: new Array<string | null>(count), vaxDate: new Array<string | null>(count),
    onsetDate: new Array<string | null>(count), numdays: new Float64Array(count), outcomes: new Uint16Array(count),
    outcomesKnown: new Uint16Array(count), recovd: new Array<string | null>(count), narrative: new Array<string | null>(count),
  };
  let narratives = false;
  const sql = `SELECT ${ID_SQL}, received, quarter, coalesce(age_yrs, 'NaN'::DOUBLE), age_group, sex, state, vax_date, onset_date,
    coalesce(numdays, 'NaN'::DOUBLE), (${OUTCOMES_SQL})::INTEGER, (${KNOWN_SQL})::INTEGER, recovd, narrative FROM ${from}`;
  const read = await stream(connection, sql, file, 'reports', (chunk, at) => {
    if (at + chunk.rowCount > count) throw bad(file, 'reports', 'more rows than counted');
    const [id, age, numdays, outcomes, known] = [0, 3, 9, 10, 11].map((k) => vectorNumbers(chunk.getColumnVector(k), chunk.rowCount));
    const [received, quarter, ageGroup, sex, state, vaxDate, onsetDate, recovd, narrative] = [1, 2, 4, 5, 6, 7, 8, 12, 13].map((k) => strings(chunk, k, k === 13 ? undefined : pool));
    for (let i = 0; i < chunk.rowCount; i++) {
      const row = at + i;
      const where = (what: string): Error => bad(file, 'reports', `row ${row + 1}: ${what}`);
      const day = received[i];
      if (!Number.isInteger(id[i])) throw where('vaers_id is not an integer');
      if (day === null || !ISO_DATE.test(day)) throw where(`received '${day}' is not YYYY-MM-DD`);
      if (row > 0 && (day > r.received[row - 1] || (day === r.received[row - 1] && id[i] >= r.id[row - 1]))) {
        throw where('not in store order (newest RECVDATE first, then VAERS_ID descending)');
      }
      const q = parseQuarter(quarter[i] ?? '');
      if (q === null || q !== quarterOf(Number(day.slice(0, 4)), Number(day.slice(5, 7)))) throw where(`quarter '${quarter[i]}' is not the quarter of ${day}`);
      const group = AGE_GROUP_INDEX.get(ageGroup[i] ?? '');
      const sexIndex = SEX_INDEX.get(sex[i] ?? '');
      if (group === undefined) throw where(`age_group '${ageGroup[i]}' is not a CDC WONDER group`);
      if (sexIndex === undefined) throw where(`sex '${sex[i]}' is not F, M or U`);
      for (const date of [vaxDate[i], onsetDate[i]]) if (date !== null && !ISO_DATE.test(date)) throw where(`date '${date}' is not YYYY-MM-DD`);
      r.id[row] = id[i];
      r.received[row] = day;
      r.quarter[row] = q;
      r.age[row] = age[i];
      r.ageGroup[row] = group;
      r.sex[row] = sexIndex;
      r.state[row] = state[i];
      r.vaxDate[row] = vaxDate[i];
      r.onsetDate[row] = onsetDate[i];
      r.numdays[row] = numdays[i];
      r.outcomes[row] = outcomes[i];
      r.outcomesKnown[row] = known[i];
      r.recovd[row] = recovd[i];
      r.narrative![row] = narrative[i];
      if (narrative[i] !== null) narratives = true;
    }
  });
  if (read !== count) throw bad(file, 'reports', `${read} rows read of ${count}`);
  if (!narratives) r.narrative = null;
  return r;
}

/**
 * Reads a table of per-report rows (`vaers_id`, then the string `columns`, the first never null)
 * whose rows follow the reports' order (`id`); returns each report's first row and the columns.
 */
async function readRuns(
  connection: DuckDBConnection, { from, file }: { from: string; file: string }, table: string, columns: string[], id: Float64Array, pool: Map<string, string>,
): Promise<{ start: Int32Array; values: Array<Array<string | null>> }> {
  const count = id.length;
  const start = new Int32Array(count + 1);
  const values = columns.map((): Array<string | null> => []);
  let report = 0;
  const rows = await stream(connection, `SELECT ${ID_SQL}, ${columns.join(', ')} FROM ${from}`, file, table, (chunk, at) => {
    const ids = vectorNumbers(chunk.getColumnVector(0), chunk.rowCount);
    const text = columns.map((_, k) => strings(chunk, 1 + k, pool));
    for (let i = 0; i < chunk.rowCount; i++) {
      while (report < count && id[report] !== ids[i]) start[++report] = at + i;
      if (report === count) throw bad(file, table, `row ${at + i + 1}: vaers_id ${ids[i]} is not a report, or the rows are not in the reports' order`);
      if (text[0][i] === null) throw bad(file, table, `row ${at + i + 1}: ${columns[0]} is null`);
      for (let k = 0; k < columns.length; k++) values[k].push(text[k][i]);
    }
  });
  while (report < count) start[++report] = rows;
  return { start, values };
}

/** The report tables of an attached DuckDB store, or null when it has none; an Error when only some are there. */
async function duckdbSources(connection: DuckDBConnection, path: string): Promise<Sources | null> {
  const found = new Set((await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = 'store' AND schema_name = 'main'`))
    .getRowObjectsJS().map((r) => String(r.table_name)));
  const present = REPORT_TABLES.filter((t) => found.has(t));
  if (present.length === 0) return null;
  if (present.length < REPORT_TABLES.length) throw new Error(`incomplete report tables: ${path}: has ${present.join(', ')}, lacks ${REPORT_TABLES.filter((t) => !found.has(t)).join(', ')}`);
  return Object.fromEntries(REPORT_TABLES.map((t) => [t, { from: `store.${t}`, file: path }])) as Sources;
}

/**
 * Reads the report tables of the store at `storePath` into columns, in store order.
 * @returns null when the store has no report tables (an import, a store written before them).
 * @throws Error naming the file when the store is missing, only some tables exist, or a value or
 *   the row order breaks the shape.
 */
export async function readReportData(storePath: string): Promise<ReportData | null> {
  return withStore(storePath, async (connection) => {
    const sources = await duckdbSources(connection, storePath);
    if (!sources) return null;
    // One pool of shared strings for the three tables (narratives are not interned).
    const pool = new Map<string, string>();
    const reports = await readReports(connection, sources.reports, pool);
    const vax = await readRuns(connection, sources.report_vaccines, 'report_vaccines',
      ['vax_name', 'vax_type', 'vax_manu', 'vax_lot', 'vax_dose', 'vax_route', 'vax_site'], reports.id, pool);
    const [name, type, manufacturer, lot, dose, route, site] = vax.values;
    const ev = await readRuns(connection, sources.report_events, 'report_events', ['term', 'version'], reports.id, pool);
    return {
      ...reports,
      vaccines: { start: vax.start, name: name as string[], type, manufacturer, lot, dose, route, site },
      events: { start: ev.start, term: ev.values[0] as string[], version: ev.values[1] },
    };
  });
}
