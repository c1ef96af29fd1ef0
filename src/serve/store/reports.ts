/**
 * The serving read of a store's report tables (the case series behind every signal;
 * schema.ts `REPORT_TABLES`): the kept reports, their VAX rows and their events, read once into
 * columns. Like serving.ts: a small in-memory DuckDB (bounded memory and threads) reads the store
 * (attached read-only), streamed in chunks in stored order, and is closed after. Every value is checked on the way: a store that
 * breaks the shape (write.ts writes it) is an Error naming the file, never a wrong answer.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { formatQuarter, parseQuarter, quarterOf } from '../../domain/quarter.js';
import { NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type ReportEncoding, type StoredReportColumn, type VaccineColumn } from '../../domain/report-columns.js';
import { OUTCOME } from '../../domain/report-rules.js';
import { REPORT_LINKS_TABLE, REPORT_OUTCOME_COLUMNS, REPORT_TABLES, type ReportTableName } from '../../domain/store-schema.js';
import { vectorNumbers } from '../../domain/vector-numbers.js';
import { withStore } from './serving.js';

/** How the server holds a report column (src/domain/report-columns.ts `ReportEncoding`), one entry per report. */
type ServedArrayOf<C extends StoredReportColumn> =
  C['encoding'] extends 'id' | 'number' ? Float64Array
    : C['encoding'] extends 'quarter' ? Uint16Array
      : C['encoding'] extends 'code' ? Uint8Array
        : C['encoding'] extends 'outcome' ? Uint16Array
          : C['encoding'] extends 'narrative' ? Array<string | null> | null
            : C extends { notNull: true } ? string[] : Array<string | null>;

/**
 * The `reports` table as columns, mapped from src/domain/report-columns.ts: one property per
 * column's `field` (ids and numbers as doubles, NaN for null; dates as ISO strings; quarters as
 * quarter indexes; codes as indexes into the column's codes; the outcome flags as OUTCOME bits
 * in `outcomes`, with `outcomesKnown` the bits whose column the report's file had; a narrative
 * column null when the store has none of its values; a nullable column the store lacks, all null). Index i is report i, newest RECVDATE first, then VAERS_ID descending.
 */
export type ReportColumnData = { -readonly [C in StoredReportColumn as C['field']]: ServedArrayOf<C> } & { count: number; outcomesKnown: Uint16Array };

/**
 * A column of strings held as codes into its distinct values: 4 bytes a row instead of a string
 * reference of 8 (issue 41: the VAX and event rows are 3.2 and 7.5 million at full size). `T`
 * includes null when the column may be blank (code -1).
 */
export class CodedColumn<T extends string | null> {
  constructor(
    /** Per row, an index into `values`, -1 for null. */
    readonly codes: Int32Array,
    /** The distinct values (in no particular order). */
    readonly values: readonly string[],
  ) {}

  /** Rows. */
  get length(): number {
    return this.codes.length;
  }

  /** The value of a row (null: blank). */
  at(row: number): T {
    const code = this.codes[row];
    return (code < 0 ? null : this.values[code]) as T;
  }
}

/** The VAX rows of the reports (`report_vaccines`): report i's rows are `start[i] .. start[i + 1] - 1`, in file order; one property per VACCINE_COLUMNS field. */
export type ReportVaccines = { start: Int32Array } & { -readonly [C in VaccineColumn as C['field']]: CodedColumn<C extends { notNull: true } ? string : string | null> };

/** The distinct events of the reports (`report_events`), runs as in ReportVaccines. */
export interface ReportEvents {
  /** Length count + 1. */
  start: Int32Array;
  /** MedDRA term. */
  term: CodedColumn<string>;
  /** Its SYMPTOMVERSIONn. */
  version: CodedColumn<string | null>;
}

/** A column of strings as codes (-1 for null) into its distinct values, in the order first met. */
function encode(column: ReadonlyArray<string | null>): CodedColumn<string | null> {
  const codes = new Int32Array(column.length);
  const codeOf = new Map<string, number>();
  for (let i = 0; i < column.length; i++) {
    const value = column[i];
    if (value === null) {
      codes[i] = -1;
      continue;
    }
    let code = codeOf.get(value);
    if (code === undefined) codeOf.set(value, (code = codeOf.size));
    codes[i] = code;
  }
  return new CodedColumn(codes, [...codeOf.keys()]);
}

/** A suspected duplicate of a report (a row of `report_links`, seen from either end): the other report, the match weight (log2 units; null when not finite) and the fields that agreed. */
export interface ReportDuplicate {
  vaers_id: number;
  weight: number | null;
  agreed: string[];
}

/**
 * The report tables of a store, as columns (for the /cases service); satisfies the rules'
 * RuleColumns. `duplicates`: per VAERS_ID, its suspected duplicates (heaviest link first, then
 * VAERS_ID ascending); empty when the store has no `report_links`.
 */
export type ReportData = ReportColumnData & { vaccines: ReportVaccines; events: ReportEvents; duplicates: Map<number, ReportDuplicate[]> };

/** Where each report table is read from (a table of the attached store) and the file errors name. */
type Sources = Record<ReportTableName, { from: string; file: string }>;

/** DuckDB's memory limit while the report tables are read (the narratives' row groups need more than serving.ts's 64 MB). */
const REPORTS_MEMORY_LIMIT = '256MB';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const OUTCOMES_SQL = REPORT_OUTCOME_COLUMNS.map(([c, name]) => `if(${c}, ${OUTCOME[name]}, 0)`).join(' + ');
const KNOWN_SQL = REPORT_OUTCOME_COLUMNS.map(([c, name]) => `if(${c} IS NULL, 0, ${OUTCOME[name]})`).join(' + ');
const ID_SQL = `coalesce(vaers_id::DOUBLE, 'NaN'::DOUBLE)`;
/** The columns of `reports` read one by one (by name); the outcome columns are read as two sums of bits after them. */
const SCALAR_COLUMNS = STORED_REPORT_COLUMNS.filter((c) => c.encoding !== 'outcome');
const NUMERIC: ReadonlySet<ReportEncoding> = new Set(['id', 'number']);
const CODE_INDEX = new Map(SCALAR_COLUMNS.flatMap((c) => ('codes' in c && c.encoding === 'code' ? [[c.store, new Map(c.codes.map((code, i) => [code, i]))] as const] : [])));
/**
 * The select list of `reports`, given the columns the store has: a nullable column that a store
 * written before it lacks reads as NULL (so such a store stays readable, without those fields).
 */
function reportsSelect(present: ReadonlySet<string>, skipped: ReadonlySet<string>, dictionaries: ReadonlyMap<string, Dictionary>): string {
  const absent = (c: StoredReportColumn): boolean => (!present.has(c.store) || skipped.has(c.store)) && !('notNull' in c);
  return [
    ...SCALAR_COLUMNS.map((c) => (c.encoding === 'id' ? ID_SQL
      : c.encoding === 'number' ? `coalesce(${absent(c) ? 'NULL::DOUBLE' : c.store}, 'NaN'::DOUBLE)`
        : absent(c) ? 'NULL::VARCHAR' : dictionaries.get(c.store)?.sql ?? c.store)),
    `(${OUTCOMES_SQL})::INTEGER`, `(${KNOWN_SQL})::INTEGER`,
  ].join(', ');
}

/** The column names of a table or `read_parquet(...)` (an Error naming the file when it cannot be read). */
async function columnNames(connection: DuckDBConnection, from: string, file: string, table: string): Promise<Set<string>> {
  try {
    return new Set((await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`)).columnNames());
  } catch (error) {
    throw bad(file, table, (error as Error).message.split('\n')[0]);
  }
}

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
  // rowCount is a getter that calls into DuckDB: read once (profiled: 9% of a cached start).
  const rows = chunk.rowCount;
  const out = new Array<string | null>(rows);
  for (let i = 0; i < rows; i++) {
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

/**
 * A string column read as codes into its distinct values: a DuckDB ENUM of the column's distinct
 * values (as VARCHAR) is made in the reading database, and the column is selected as its code
 * (`sql`, -1 for NULL), so no string is decoded per row (decoding every row's strings through the
 * node API was about half of a cached start's CPU: profiled on the default store). `values[k]` is
 * the string of code k (interned through `pool`, as `strings` does).
 */
interface Dictionary {
  sql: string;
  values: string[];
}

let dictionaryTypes = 0;

/**
 * The table's row count and the Dictionary of each of `columns` of `from`, from one scan of the table (the distinct values
 * of every column gathered at once into a temporary table, then one ENUM type per column made
 * from it; a scan per column was a third of the report tables' read on a cached start), or null
 * for a column of mostly distinct values (more than one row in HIGH_CARDINALITY has its own value,
 * e.g. SPLTTYPE: 101,299 values in 203,445 reports), which is read as plain strings (a dictionary
 * would cost more than it shares). An Error naming the file when the table cannot be read.
 */
async function readDictionaries(
  connection: DuckDBConnection, from: string, columns: readonly string[], file: string, table: string, pool: Map<string, string>,
): Promise<{ rows: number; dictionaries: Array<Dictionary | null> }> {
  const distinct = `rs_distinct_${dictionaryTypes++}`;
  try {
    await connection.run(`CREATE TEMP TABLE ${distinct} AS SELECT ${['count(*)::DOUBLE AS n', ...columns.map((c, k) => `list(DISTINCT ${c}::VARCHAR) FILTER (WHERE ${c} IS NOT NULL) AS d${k}`)].join(', ')} FROM ${from}`);
    const [sizes] = (await connection.runAndReadAll(`SELECT [${['n', ...columns.map((_, k) => `coalesce(len(d${k}), 0)`)].join(', ')}]::DOUBLE[] AS sizes FROM ${distinct}`)).getColumnsJS()[0] as number[][];
    const out: Array<Dictionary | null> = [];
    for (const [k, column] of columns.entries()) {
      if (sizes[1 + k] * HIGH_CARDINALITY > sizes[0]) {
        out.push(null);
        continue;
      }
      const type = `rs_dictionary_${dictionaryTypes++}`;
      await connection.run(`CREATE TYPE ${type} AS ENUM (SELECT unnest(d${k}) FROM ${distinct})`);
      const [list] = (await connection.runAndReadAll(`SELECT unnest(enum_range(NULL::${type}))::VARCHAR AS v`)).getColumnsJS();
      const values = (list ?? []).map((v) => {
        const text = String(v);
        let shared = pool.get(text);
        if (shared === undefined) pool.set(text, (shared = text));
        return shared;
      });
      out.push({ sql: `coalesce(enum_code(${column}::VARCHAR::${type})::INTEGER, -1)`, values });
    }
    await connection.run(`DROP TABLE ${distinct}`);
    return { rows: sizes[0], dictionaries: out };
  } catch (error) {
    throw bad(file, table, (error as Error).message.split('\n')[0]);
  }
}

/** A column with more than one distinct value in this many rows is read as plain strings, not through a Dictionary. */
const HIGH_CARDINALITY = 4;

/** The strings of a Dictionary column of a chunk (its codes at `k`; null for -1) into `into` from `at`. */
function decodeInto(chunk: DuckDBDataChunk, k: number, rows: number, values: readonly string[], into: Array<string | null>, at: number): void {
  const codes = vectorNumbers(chunk.getColumnVector(k), rows);
  for (let i = 0; i < rows; i++) into[at + i] = codes[i] < 0 ? null : values[codes[i]];
}

async function rowCount(connection: DuckDBConnection, from: string, file: string, table: string): Promise<number> {
  try {
    return Number((await connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from}`)).getRowObjectsJS()[0].n);
  } catch (error) {
    throw bad(file, table, (error as Error).message.split('\n')[0]);
  }
}

/** An empty column of `count` reports for a `reports` column, as ReportColumnData holds it. */
function allocate(encoding: ReportEncoding, count: number): Float64Array | Uint16Array | Uint8Array | Array<string | null> {
  if (NUMERIC.has(encoding)) return new Float64Array(count);
  if (encoding === 'quarter' || encoding === 'outcome') return new Uint16Array(count);
  return encoding === 'code' ? new Uint8Array(count) : new Array<string | null>(count);
}

/**
 * Reads `reports` by column name (src/domain/report-columns.ts), checking every value (ids are
 * integers, dates ISO, codes among the column's codes, each quarter that of its RECVDATE) and
 * the order (newest RECVDATE first, then VAERS_ID descending).
 */
async function readReports(connection: DuckDBConnection, { from, file }: Sources['reports'], pool: Map<string, string>, skipped: ReadonlySet<string>): Promise<ReportColumnData> {
  const count = await rowCount(connection, from, file, 'reports');
  const columns: Record<string, Float64Array | Uint16Array | Uint8Array | Array<string | null>> = {};
  for (const c of SCALAR_COLUMNS) columns[c.field] = allocate(c.encoding, count);
  const outcomes = new Uint16Array(count);
  const outcomesKnown = new Uint16Array(count);
  const r = { ...columns, count, outcomes, outcomesKnown } as unknown as ReportColumnData;
  const kept = new Set<string>();
  const present = await columnNames(connection, from, file, 'reports');
  const coded = SCALAR_COLUMNS.filter((c) => !NUMERIC.has(c.encoding) && c.encoding !== 'narrative' && present.has(c.store) && !skipped.has(c.store)).map((c) => c.store);
  const { dictionaries: made } = await readDictionaries(connection, from, coded, file, 'reports', pool);
  const dictionaries = new Map(coded.flatMap((store, k) => (made[k] ? [[store, made[k]] as const] : [])));
  // Columns of mostly distinct values (no Dictionary): their strings are not shared through the pool.
  const unshared = new Set(coded.filter((_, k) => made[k] === null));
  const select = reportsSelect(present, skipped, dictionaries);
  // Each distinct value of a Dictionary column is converted and checked once (its quarter, code index, ISO form), not once per row.
  const prepared = SCALAR_COLUMNS.map((c) => {
    const d = dictionaries.get(c.store);
    if (!d) return null;
    const byCode = Int32Array.from(d.values, (v) => (c.encoding === 'quarter' ? parseQuarter(v) ?? -1
      : c.encoding === 'code' ? CODE_INDEX.get(c.store)!.get(v) ?? -1
        : c.encoding === 'date' ? (ISO_DATE.test(v) ? 1 : -1) : 0));
    const ofNull = c.encoding === 'code' ? CODE_INDEX.get(c.store)!.get('') ?? -1 : c.encoding === 'date' && !('notNull' in c) ? 1 : -1;
    return { values: d.values, byCode, ofNull };
  });
  // A column the store lacks, or one skipped, is null in every row: not decoded row by row.
  const absent = SCALAR_COLUMNS.map((c) => !NUMERIC.has(c.encoding) && !('notNull' in c) && (!present.has(c.store) || skipped.has(c.store)));
  SCALAR_COLUMNS.forEach((c, k) => { if (absent[k]) (columns[c.field] as Array<string | null>).fill(null); });
  // Quarter of each distinct RECVDATE (a date Dictionary), checked against the row's quarter.
  const receivedK = SCALAR_COLUMNS.findIndex((c) => c.field === 'received');
  const quarterOfReceived = prepared[receivedK]
    ? Int32Array.from(prepared[receivedK].values, (day) => quarterOf(Number(day.slice(0, 4)), Number(day.slice(5, 7))))
    : null;
  const read = await stream(connection, `SELECT ${select} FROM ${from}`, file, 'reports', (chunk, at) => {
    const rows = chunk.rowCount;
    if (at + rows > count) throw bad(file, 'reports', 'more rows than counted');
    const where = (row: number, what: string): Error => bad(file, 'reports', `row ${row + 1}: ${what}`);
    // Column by column (one kind of value per loop); the rows' own checks after.
    for (let k = 0; k < SCALAR_COLUMNS.length; k++) {
      if (absent[k]) continue;
      const c = SCALAR_COLUMNS[k];
      const into = columns[c.field];
      const dictionary = prepared[k];
      if (dictionary || NUMERIC.has(c.encoding)) {
        const codes = vectorNumbers(chunk.getColumnVector(k), rows);
        if (c.encoding === 'id' || c.encoding === 'number') {
          if (c.encoding === 'id') for (let i = 0; i < rows; i++) if (!Number.isInteger(codes[i])) throw where(at + i, `${c.store} is not an integer`);
          (into as Float64Array).set(codes, at);
          continue;
        }
        const { values, byCode, ofNull } = dictionary!;
        for (let i = 0; i < rows; i++) {
          const code = codes[i];
          const checked = code < 0 ? ofNull : byCode[code];
          if (c.encoding === 'quarter' || c.encoding === 'code') {
            if (checked < 0) throw where(at + i, c.encoding === 'quarter' ? `${c.store} '${code < 0 ? null : values[code]}' is not a quarter YYYYQn` : `${c.store} '${code < 0 ? null : values[code]}' is not one of ${c.codes.join(', ')}`);
            into[at + i] = checked;
          } else {
            if (c.encoding === 'date' && checked < 0) throw where(at + i, `${c.store} '${code < 0 ? null : values[code]}' is not YYYY-MM-DD`);
            into[at + i] = code < 0 ? null : values[code];
          }
        }
        continue;
      }
      const texts = strings(chunk, k, c.encoding === 'narrative' || unshared.has(c.store) ? undefined : pool);
      for (let i = 0; i < rows; i++) {
        const value = texts[i];
        if (c.encoding === 'quarter') {
          const q = parseQuarter(String(value ?? ''));
          if (q === null) throw where(at + i, `${c.store} '${value}' is not a quarter YYYYQn`);
          into[at + i] = q;
        } else if (c.encoding === 'code') {
          const index = CODE_INDEX.get(c.store)!.get(String(value ?? ''));
          if (index === undefined) throw where(at + i, `${c.store} '${value}' is not one of ${c.codes.join(', ')}`);
          into[at + i] = index;
        } else {
          if (c.encoding === 'date' && (value === null ? 'notNull' in c : !ISO_DATE.test(String(value)))) throw where(at + i, `${c.store} '${value}' is not YYYY-MM-DD`);
          if (c.encoding === 'narrative' && value !== null) kept.add(c.field);
          into[at + i] = value;
        }
      }
    }
    const received = quarterOfReceived ? vectorNumbers(chunk.getColumnVector(receivedK), rows) : null;
    const [bits, known] = [0, 1].map((k) => vectorNumbers(chunk.getColumnVector(SCALAR_COLUMNS.length + k), rows));
    for (let i = 0; i < rows; i++) {
      const row = at + i;
      const day = r.received[row];
      if (row > 0 && (day > r.received[row - 1] || (day === r.received[row - 1] && r.id[row] >= r.id[row - 1]))) {
        throw where(row, 'not in store order (newest RECVDATE first, then VAERS_ID descending)');
      }
      const quarter = received ? quarterOfReceived![received[i]] : quarterOf(Number(day.slice(0, 4)), Number(day.slice(5, 7)));
      if (r.quarter[row] !== quarter) throw where(row, `quarter '${formatQuarter(r.quarter[row])}' is not the quarter of ${day}`);
      outcomes[row] = bits[i];
      outcomesKnown[row] = known[i];
    }
  });
  if (read !== count) throw bad(file, 'reports', `${read} rows read of ${count}`);
  const columnsOf = r as unknown as Record<string, unknown>;
  for (const c of NARRATIVE_REPORT_COLUMNS) if (!kept.has(c.field)) columnsOf[c.field] = null;
  return r;
}

/**
 * Reads a table of per-report rows (`vaers_id`, then the string `columns`, the first never null)
 * whose rows follow the reports' order (`id`); returns each report's first row and the columns.
 */
async function readRuns(
  connection: DuckDBConnection, { from, file }: { from: string; file: string }, table: string, columns: string[], id: Float64Array, pool: Map<string, string>,
  coded = false,
): Promise<{ start: Int32Array; values: Array<Array<string | null>>; coded: Array<CodedColumn<string | null>> }> {
  const count = id.length;
  const start = new Int32Array(count + 1);
  let report = 0;
  const { rows: total, dictionaries } = await readDictionaries(connection, from, columns, file, table, pool);
  const hasDictionary = (k: number): boolean => dictionaries[k] !== null;
  // With `coded`, a column read through a Dictionary keeps DuckDB's codes (no string per row); the others are encoded after.
  const values = columns.map((_, k) => (coded && hasDictionary(k) ? [] : new Array<string | null>(total)));
  const codes = columns.map((_, k) => (coded && hasDictionary(k) ? new Int32Array(total) : null));
  const rows = await stream(connection, `SELECT ${ID_SQL}, ${dictionaries.map((d, k) => d?.sql ?? columns[k]).join(', ')} FROM ${from}`, file, table, (chunk, at) => {
    const rows = chunk.rowCount;
    if (at + rows > total) throw bad(file, table, 'more rows than counted');
    const ids = vectorNumbers(chunk.getColumnVector(0), rows);
    for (let i = 0; i < rows; i++) {
      while (report < count && id[report] !== ids[i]) start[++report] = at + i;
      if (report === count) throw bad(file, table, `row ${at + i + 1}: vaers_id ${ids[i]} is not a report, or the rows are not in the reports' order`);
    }
    dictionaries.forEach((d, k) => {
      const into = codes[k];
      if (into) into.set(vectorNumbers(chunk.getColumnVector(1 + k), rows).subarray(0, rows), at);
      else if (d) decodeInto(chunk, 1 + k, rows, d.values, values[k], at);
      else strings(chunk, 1 + k).forEach((text, i) => { values[k][at + i] = text; });
    });
    for (let i = 0; i < rows; i++) if (codes[0] ? codes[0][at + i] < 0 : values[0][at + i] === null) throw bad(file, table, `row ${at + i + 1}: ${columns[0]} is null`);
  });
  if (rows !== total) throw bad(file, table, `${rows} rows read of ${total}`);
  while (report < count) start[++report] = rows;
  return {
    start, values,
    coded: coded ? columns.map((_, k) => {
      const into = codes[k];
      return into ? new CodedColumn<string | null>(into, dictionaries[k]!.values) : encode(values[k]);
    }) : [],
  };
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
 * Reads `report_links` of the attached store (when it has one) as each report's suspected
 * duplicates, both ends of each link, checking that both VAERS_IDs are reports of `id`.
 */
async function readLinks(connection: DuckDBConnection, path: string, id: Float64Array): Promise<Map<number, ReportDuplicate[]>> {
  const duplicates = new Map<number, ReportDuplicate[]>();
  const present = (await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = 'store' AND schema_name = 'main' AND table_name = '${REPORT_LINKS_TABLE}'`))
    .getRowObjectsJS()[0].n;
  if (Number(present) === 0) return duplicates;
  const ids = new Set(id);
  let rows;
  try {
    rows = (await connection.runAndReadAll(`SELECT vaers_id::DOUBLE AS a, linked_vaers_id::DOUBLE AS b, weight, agreed FROM store.${REPORT_LINKS_TABLE}`)).getRowObjectsJS();
  } catch (error) {
    throw bad(path, REPORT_LINKS_TABLE, (error as Error).message.split('\n')[0]);
  }
  rows.forEach((row, k) => {
    const [a, b] = [Number(row.a), Number(row.b)];
    if (!ids.has(a) || !ids.has(b)) throw bad(path, REPORT_LINKS_TABLE, `row ${k + 1}: ${ids.has(a) ? b : a} is not a report`);
    if (!Array.isArray(row.agreed) || row.agreed.some((f) => typeof f !== 'string')) throw bad(path, REPORT_LINKS_TABLE, `row ${k + 1}: agreed is not a list of field names`);
    const weight = row.weight === null ? null : Number(row.weight);
    const agreed = row.agreed as string[];
    for (const [from, to] of [[a, b], [b, a]]) {
      const list = duplicates.get(from);
      if (list) list.push({ vaers_id: to, weight, agreed });
      else duplicates.set(from, [{ vaers_id: to, weight, agreed }]);
    }
  });
  for (const list of duplicates.values()) list.sort((x, y) => (y.weight ?? -Infinity) - (x.weight ?? -Infinity) || x.vaers_id - y.vaers_id);
  return duplicates;
}

/** Options of {@link readReportData}. */
export interface ReadReportOptions {
  /**
   * Nullable `reports` columns (store names) not to read: they read as null, as in a store that
   * lacks them (the narratives that a stored index already holds: src/serve/cases/narratives.ts).
   */
  skip?: ReadonlySet<string>;
}

/**
 * Reads the report tables of the store at `storePath` into columns, in store order.
 * @returns null when the store has no report tables (an import, a store written before them).
 * @throws Error naming the file when the store is missing, only some tables exist, or a value or
 *   the row order breaks the shape.
 */
export async function readReportData(storePath: string, options: ReadReportOptions = {}): Promise<ReportData | null> {
  return withStore(storePath, async (connection) => {
    const sources = await duckdbSources(connection, storePath);
    if (!sources) return null;
    // One pool of shared strings for the three tables (narratives are not interned).
    const pool = new Map<string, string>();
    // The narratives make row groups of tens of MB: one thread, and room for a few of them (freed after the load).
    await connection.run(`SET threads = 1; SET memory_limit = '${REPORTS_MEMORY_LIMIT}'`);
    const reports = await readReports(connection, sources.reports, pool, options.skip ?? new Set());
    const vax = await readRuns(connection, sources.report_vaccines, 'report_vaccines', VACCINE_COLUMNS.map((c) => c.store), reports.id, pool, true);
    // The notNull columns (VAX_NAME, the term) were checked non-null row by row in readRuns (the first column) or by the store's NOT NULL.
    const vaccines = { start: vax.start, ...Object.fromEntries(VACCINE_COLUMNS.map((c, k) => [c.field, vax.coded[k]])) } as ReportVaccines;
    const ev = await readRuns(connection, sources.report_events, 'report_events', ['term', 'version'], reports.id, pool, true);
    return {
      ...reports,
      vaccines,
      events: { start: ev.start, term: ev.coded[0] as CodedColumn<string>, version: ev.coded[1] },
      duplicates: await readLinks(connection, storePath, reports.id),
    };
  });
}
