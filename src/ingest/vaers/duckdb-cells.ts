/**
 * A kept report's VAERSDATA cells read in SQL (issue 41, "DuckDB does the relational work"):
 * duckdb-details.ts streams typed values, not the cells as strings for JavaScript to parse again.
 *
 * Exact by construction, in two paths. SQL reads only the plain forms, whose reading JavaScript's
 * rules cannot differ on:
 * - a cell is trimmed as JavaScript trims it (duckdb-join.ts jsTrim), '' when absent or NULL; each
 *   field's cell is the one its group's file has, the current layout's source field first (rows.ts);
 * - a date `M/D/YYYY` that is a real date of 1900-2999 (values.ts parseVaersDate) as `yyyymmdd`;
 * - a number of 1-15 digits with an optional fraction of 1-15 digits (no sign, no exponent) as a
 *   DOUBLE (DuckDB's cast and JavaScript's Number both round to the nearest double);
 * - a code (SEX, RECOVD, the outcome flags) written in upper or in lower case as its index, `Y`
 *   (or `y`) setting an outcome bit, anything else none (no other code point upper-cases to a code);
 * - the age (report-rules.ts ageOf: AGE_YRS, else CAGE_YR + CAGE_MO below 1) from plain numbers.
 * A row holding any other non-blank cell of these fields (an unreadable one, `1e3`, `-2`, `Yes`)
 * is `odd`: its cells come as strings (`cells`, one per name of CellLayout.names) and JavaScript
 * reads it with the streaming reader's functions (report-fields.ts reportFields, rows.ts
 * dataDetails), which also name its unreadable cells. Free text (STATE, SPLTTYPE, ...) comes
 * trimmed, NULL when blank.
 */
import { sourceFieldsOf, type SourceFields } from '../../domain/report-columns.js';
import { OUTCOME, SEX_CODES, type OutcomeName } from '../../domain/report-rules.js';
import type { ColumnIndex } from './csv.js';
import { column, jsTrim } from './duckdb-join.js';
import { OUTCOME_COLUMNS } from './report-fields.js';
import { CELL_COLUMNS } from './rows.js';

/** A plain number: what SQL reads (anything else non-blank goes to JavaScript). */
const PLAIN_NUMBER = String.raw`\d{1,15}(\.\d{1,15})?`;

/** SQL of `x` (a trimmed cell) as a VAERS date `yyyymmdd` (values.ts parseVaersDate), NULL when not one. */
const dateNumber = (x: string): string => {
  const [m, d, y] = [1, 2, 3].map((k) => `TRY_CAST(split_part(${x}, '/', ${k}) AS INTEGER)`);
  const real = `TRY_CAST(printf('%04d-%02d-%02d', ${y}, ${m}, ${d}) AS DATE) IS NOT NULL`;
  return `CASE WHEN regexp_full_match(${x}, '\\d{1,2}/\\d{1,2}/\\d{4}') AND ${y} BETWEEN 1900 AND 2999 AND ${real} THEN ${y} * 10000 + ${m} * 100 + ${d} END`;
};
const plain = (x: string): string => `regexp_full_match(${x}, '${PLAIN_NUMBER}')`;
const number = (x: string): string => `TRY_CAST(${x} AS DOUBLE)`;
/** SQL of a code cell `x` as the index of its code in `codes`, written upper- or lower-case (else NULL). */
const codeIndex = (x: string, codes: readonly string[]): string =>
  `CASE ${codes.map((code, k) => `WHEN ${x} IN ('${code}', '${code.toLowerCase()}') THEN ${k}`).join(' ')} END`;

/**
 * SQL of the cell a group's file has for the first of `names` its header holds (rows.ts: the current
 * layout's source field first), trimmed as JavaScript trims, '' when its file has none or DuckDB read
 * NULL: `raw` the raw table's columns, `headers` each group's header, `alias` the raw table's (with `grp`).
 */
export function groupCell(raw: readonly string[], headers: readonly ColumnIndex[], names: readonly string[], alias: string): string {
  const chosen = headers.map((header) => {
    const name = names.find((n) => header.has(n));
    return name === undefined ? null : column(raw, name);
  });
  const distinct = [...new Set(chosen)];
  const cell = distinct.length === 1
    ? (distinct[0] === null ? 'NULL::VARCHAR' : `${alias}.${distinct[0]}`)
    : `CASE ${alias}.grp ${chosen.map((c, g) => (c === null ? '' : `WHEN ${g} THEN ${alias}.${c}`)).join(' ')} END`;
  return `coalesce(${jsTrim(cell)}, '')`;
}

/** Where a DATA row's cells are, per group: the names whose cells an odd row brings, and per group their positions (csv.ts ColumnIndex). */
export interface CellLayout {
  names: string[];
  groups: ColumnIndex[];
}

/** The SQL of one DATA row's values (see the file's comment). */
export interface CellSql {
  /** Select items over the raw table aliased `t` (with `grp`): the trimmed cells, named `x0`.. */
  cells: string[];
  /** Select items over those cells: `odd` (INTEGER: 1 odd, 0 not; read whole as numbers), `cells` (VARCHAR[] when odd), `sex`, `age`, `age_source`, `outcomes`, then per CELL_COLUMNS column `v0`.. */
  select: string[];
  layout: CellLayout;
}

/**
 * The select lists reading a DATA row (the raw table `t`, with `grp`) as typed values; `raw` the raw
 * table's columns, `headers` each group's header (duckdb-load.ts).
 * - `sex` INTEGER (SEX_CODES index), `age` DOUBLE (NaN: none), `age_source` INTEGER (AGE_SOURCES
 *   index, -1: none), `outcomes` INTEGER (OUTCOME bits);
 * - per CELL_COLUMNS column `vK`: a date INTEGER `yyyymmdd` (0: null), a number DOUBLE (NaN: null),
 *   a code INTEGER (its index, -1: null), free text VARCHAR (NULL: blank).
 * These hold for rows not `odd`; an odd row's values are read from `cells` in JavaScript.
 */
export function dataCellSql(raw: readonly string[], headers: readonly ColumnIndex[]): CellSql {
  /** The trimmed cells (SQL -> its name in the inner select). */
  const trimmed = new Map<string, string>();
  /** The trimmed cell of the first of `names` a group's header holds, per group ('' when none): its name in the inner select. */
  const cellOf = (names: readonly string[]): string => {
    const sql = groupCell(raw, headers, names, 't');
    if (!trimmed.has(sql)) trimmed.set(sql, `x${trimmed.size}`);
    return trimmed.get(sql) as string;
  };
  const source = (s: SourceFields): string => cellOf([...s.current, ...s.older]);
  const [sex, age, cageYr, cageMo] = ['SEX', 'AGE_YRS', 'CAGE_YR', 'CAGE_MO'].map((n) => cellOf([n]));
  const odd: string[] = [`${sex} NOT IN ('', ${SEX_CODES.flatMap((c) => [`'${c}'`, `'${c.toLowerCase()}'`]).join(', ')})`];
  for (const x of [age, cageYr, cageMo]) odd.push(`(${x} <> '' AND NOT ${plain(x)})`);
  const values = CELL_COLUMNS.map((c, k) => {
    const x = source(c.source);
    if (c.encoding === 'date') {
      odd.push(`(${x} <> '' AND ${dateNumber(x)} IS NULL)`);
      return `coalesce(${dateNumber(x)}, 0)::INTEGER AS v${k}`;
    }
    if (c.encoding === 'number') {
      odd.push(`(${x} <> '' AND NOT ${plain(x)})`);
      return `coalesce(${number(x)}, 'nan'::DOUBLE) AS v${k}`;
    }
    if ('codes' in c) {
      odd.push(`(${x} <> '' AND ${codeIndex(x, c.codes)} IS NULL)`);
      return `coalesce(${codeIndex(x, c.codes)}, -1)::INTEGER AS v${k}`;
    }
    return `nullif(${x}, '') AS v${k}`;
  });
  // The age as report-rules.ts ageOf reads plain numbers (CAGE_MO blank is 0; 1 or more: no age).
  const cage = `${cageYr} <> '' AND (${cageMo} = '' OR ${number(cageMo)} < 1)`;
  const outcomes = (Object.entries(OUTCOME_COLUMNS) as Array<[OutcomeName, readonly string[]]>).flatMap(([name, columns]) => columns.map((n) =>
    `CASE WHEN ${cellOf([n])} IN ('Y', 'y') THEN ${OUTCOME[name]} ELSE 0 END`));
  const names = [...new Set(['SEX', 'AGE_YRS', 'CAGE_YR', 'CAGE_MO', ...Object.values(OUTCOME_COLUMNS).flat(), ...CELL_COLUMNS.flatMap((c) => sourceFieldsOf(c))])];
  const groups = headers.map((header) => new Map(names.flatMap((n, k) => (header.has(n) ? [[n, k] as const] : []))));
  const isOdd = odd.join(' OR ');
  return {
    cells: [...trimmed].map(([sql, name]) => `${sql} AS ${name}`),
    select: [
      `(${isOdd})::INTEGER AS odd`, `CASE WHEN ${isOdd} THEN [${names.map((n) => cellOf([n])).join(', ')}] END AS cells`,
      `coalesce(${codeIndex(sex, SEX_CODES)}, ${SEX_CODES.indexOf('U')})::INTEGER AS sex`,
      `CASE WHEN ${age} <> '' THEN ${number(age)} WHEN ${cage} THEN ${number(cageYr)} + coalesce(${number(`nullif(${cageMo}, '')`)}, 0) ELSE 'nan'::DOUBLE END AS age`,
      `CASE WHEN ${age} <> '' THEN 0 WHEN ${cage} THEN 1 ELSE -1 END AS age_source`,
      `(${outcomes.length ? outcomes.join(' | ') : '0'})::INTEGER AS outcomes`,
      ...values,
    ],
    layout: { names, groups },
  };
}

/** Whether a CELL_COLUMNS column is free text (no codes): dataCellSql reads it as trimmed text, NULL when blank. */
export function isFreeText(c: (typeof CELL_COLUMNS)[number]): boolean {
  return c.encoding === 'text' && !('codes' in c);
}

/**
 * SQL of a free-text cell of a raw table aliased `t` (with `grp`) as the build reads it: the cell of
 * the first of `source`'s names (current layout first) its group's header holds, trimmed, NULL when
 * blank (groupCell); `raw` and `headers` as groupCell's.
 */
export function textCell(raw: readonly string[], headers: readonly ColumnIndex[], source: SourceFields): string {
  return `nullif(${groupCell(raw, headers, [...source.current, ...source.older], 't')}, '')`;
}

/**
 * SQL of the free-text CELL_COLUMNS values of a DATA row (raw table aliased `t`, with `grp`; one per
 * isFreeText column, in CELL_COLUMNS order), the same SQL as dataCellSql's `vK` of those columns.
 */
export function dataTextCells(raw: readonly string[], headers: readonly ColumnIndex[]): string[] {
  return CELL_COLUMNS.filter(isFreeText).map((c) => textCell(raw, headers, c.source));
}
