/**
 * The report-level values of one row of each VAERS file, for the report tables of the store
 * (the case series' data): the extra VAERSDATA fields (state, dates, onset interval, recovery,
 * narrative, which outcome columns the file has), every VAERSVAX row's vaccine fields, and each
 * VAERSSYMPTOMS term with its MedDRA version.
 *
 * Columns are found by header name (both layouts: `VAX_DOSE` or `VAX_DOSE_SERIES`; `ER_VISIT`
 * and/or `ER_ED_VISIT`; `BIRTH_DEFECT` and `OFC_VISIT` only in the current layout; other columns
 * such as the 2025 release's trailing `ORDER` are not read here: the reader reads `ORDER` for the follow-up versions, versions.ts). Cells are trimmed; a blank cell is
 * null. A cell that is not blank but cannot be read (a date that is not a real `MM/DD/YYYY`, an
 * `AGE_YRS` or `NUMDAYS` that is not a number, a `SEX` or `RECOVD` code outside the data use
 * guide's) reads as unknown and is reported in `bad`, never thrown.
 */
import { requireColumns, type ColumnIndex } from './csv.js';
import { NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, sourceFieldsOf, type NarrativeReportColumn, type SourceFields, type StoredReportColumn, type VaccineColumn } from '../../domain/report-columns.js';
import { parseAge, SEX_CODES, type Sex } from '../../domain/report-rules.js';
import { reportFieldColumns } from './report-fields.js';
import { parseDecimal, parseVaersDate, parseVaersId, type DateNumber } from './values.js';

/** A cell that could not be read: the field (src/domain/report-columns.ts CHECKED_FIELDS) and the cell as written. */
export interface BadCell {
  field: string;
  cell: string;
}

/**
 * A report column's value as the reader gives it to the build's columns (report-details.ts):
 * ids and quarters as numbers, numbers or null, dates as `yyyymmdd` or null, codes as indexes,
 * text and narratives as strings or null, the outcome flags as OUTCOME bits.
 */
export type ReadValueOf<C extends StoredReportColumn> =
  C['encoding'] extends 'date' ? DateNumber | null
    : C['encoding'] extends 'text' | 'narrative' ? string | null
      : C['encoding'] extends 'number' ? number | null : number;

/** A `cell` column of REPORT_COLUMNS: read from its source cell by its encoding. */
export type CellColumn = Extract<StoredReportColumn, { read: 'cell' }>;
/** The `cell` columns of REPORT_COLUMNS, in table order (dataDetails reads them; duckdb-cells.ts reads their plain cells in SQL). */
export const CELL_COLUMNS = STORED_REPORT_COLUMNS.filter((c): c is CellColumn => 'read' in c && c.read === 'cell');

/** The values of the `cell` columns of one VAERSDATA row, by field. */
export type CellValues = { -readonly [C in CellColumn as C['field']]: ReadValueOf<C> };

/** Where the extra VAERSDATA fields sit in a header (-1: column absent). */
export interface DataDetailColumns {
  /** Per `cell` column (table order), its column. */
  cells: number[];
  age: number;
  sex: number;
  /** Per narrative column (NARRATIVE_REPORT_COLUMNS order), its column. */
  narratives: number[];
  /** OUTCOME bits (src/domain/report-rules.ts) whose column the header has. */
  outcomesKnown: number;
}

/** The narratives of one VAERSDATA row by field (as written, untrimmed; null when blank or not read). */
export type NarrativeValues = { -readonly [C in NarrativeReportColumn as C['field']]: string | null };

/** The `cell` columns of one VAERSDATA row (dates as `yyyymmdd`; null: blank or unreadable), its narratives and its unreadable cells. */
export type DataDetails = CellValues & NarrativeValues & {
  /** The unreadable cells of the row (null when none). */
  bad: BadCell[] | null;
};

const col = (columns: ColumnIndex, name: string): number => columns.get(name) ?? -1;
/** The header column of a field: its current layout's source field, else its older one (-1: absent). */
const sourceColumn = (columns: ColumnIndex, source: SourceFields): number =>
  [...source.current, ...source.older].map((name) => columns.get(name)).find((at) => at !== undefined) ?? -1;
const cellAt = (fields: readonly string[], at: number): string => (at >= 0 ? (fields[at] ?? '').trim() : '');
const orNull = (text: string): string | null => (text === '' ? null : text);

/** Finds the extra VAERSDATA columns in a header (each optional: a missing one reads as unknown). */
export function dataDetailColumns(columns: ColumnIndex): DataDetailColumns {
  let outcomesKnown = 0;
  for (const [bit] of reportFieldColumns(columns).outcomes) outcomesKnown |= bit;
  return {
    cells: CELL_COLUMNS.map((c) => sourceColumn(columns, c.source)), age: col(columns, 'AGE_YRS'), sex: col(columns, 'SEX'),
    narratives: NARRATIVE_REPORT_COLUMNS.map((c) => sourceColumn(columns, c.source)), outcomesKnown,
  };
}

/** One `cell` column's value from its trimmed cell (non-blank), or undefined when the cell cannot be read. */
function cellValue(c: CellColumn, cell: string): DateNumber | number | string | undefined {
  if (c.encoding === 'date') return parseVaersDate(cell) ?? undefined;
  if (c.encoding === 'number') return parseDecimal(cell) ?? undefined;
  if (!('codes' in c)) return cell;
  const code = cell.toUpperCase();
  return c.codes.includes(code) ? code : undefined;
}

/** The extra fields of one VAERSDATA record; `narratives` keeps the narrative columns (as written, untrimmed). */
export function dataDetails(fields: readonly string[], at: DataDetailColumns, narratives: boolean): DataDetails {
  const age = cellAt(fields, at.age);
  const sex = cellAt(fields, at.sex);
  let bad: BadCell[] | null = null;
  if (age !== '' && parseAge(age) === null) (bad ??= []).push({ field: 'AGE_YRS', cell: age });
  if (sex !== '' && !SEX_CODES.includes(sex.toUpperCase() as Sex)) (bad ??= []).push({ field: 'SEX', cell: sex });
  const values: Record<string, unknown> = { bad: null };
  CELL_COLUMNS.forEach((c, k) => {
    const cell = cellAt(fields, at.cells[k]);
    const value = cell === '' ? null : cellValue(c, cell);
    if (value === undefined) (bad ??= []).push({ field: sourceFieldsOf(c)[0], cell });
    values[c.field] = value ?? null;
  });
  NARRATIVE_REPORT_COLUMNS.forEach((c, k) => {
    const text = narratives && at.narratives[k] >= 0 ? (fields[at.narratives[k]] ?? '') : '';
    values[c.field] = text.trim() === '' ? null : text;
  });
  values.bad = bad;
  return values as DataDetails;
}

/** Where the fields of a VAERSVAX row sit: the id, and per VACCINE_COLUMNS column its column (-1: absent). */
export interface VaxRowColumns {
  id: number;
  columns: number[];
}

/** One VAERSVAX row: the id (null when not an integer) and the trimmed VACCINE_COLUMNS fields (null when blank; the name '' when blank: such a row names no vaccine). */
export type VaxRowValues = { id: number | null } & { -readonly [C in VaccineColumn as C['field']]: C extends { notNull: true } ? string : string | null };

/**
 * Finds the VAERSVAX columns in a header by their source fields (src/domain/report-columns.ts).
 * @throws UserError naming the file and line when `VAERS_ID` or `VAX_NAME` is missing.
 */
export function vaxRowColumns(columns: ColumnIndex, label: string, line: number): VaxRowColumns {
  const [id] = requireColumns(columns, ['VAERS_ID', ...VACCINE_COLUMNS.filter((c) => 'notNull' in c).flatMap((c) => c.source.current)], label, line);
  return { id, columns: VACCINE_COLUMNS.map((c) => sourceColumn(columns, c.source)) };
}

/** The values of one VAERSVAX record. */
export function vaxRow(fields: readonly string[], at: VaxRowColumns): VaxRowValues {
  const row: Record<string, string | number | null> = { id: parseVaersId(fields[at.id] ?? '') };
  VACCINE_COLUMNS.forEach((c, k) => {
    const cell = cellAt(fields, at.columns[k]);
    row[c.field] = 'notNull' in c ? cell : orNull(cell);
  });
  return row as VaxRowValues;
}

/** Where the terms of a VAERSSYMPTOMS row sit: each `SYMPTOMn` with its `SYMPTOMVERSIONn` (-1: absent), n ascending. */
export interface SymptomsRowColumns {
  id: number;
  terms: Array<[term: number, version: number]>;
}

/** One VAERSSYMPTOMS row: the id (null when not an integer) and its non-blank terms in column order. */
export interface SymptomsRowValues {
  id: number | null;
  terms: Array<{ term: string; version: string | null }>;
}

/**
 * Finds the VAERSSYMPTOMS columns in a header.
 * @throws UserError naming the file and line when `VAERS_ID` or `SYMPTOM1` is missing.
 */
export function symptomsRowColumns(columns: ColumnIndex, label: string, line: number): SymptomsRowColumns {
  const [id] = requireColumns(columns, ['VAERS_ID', 'SYMPTOM1'], label, line);
  const terms = [...columns]
    .map(([name, index]) => [/^SYMPTOM(\d+)$/.exec(name), index] as const)
    .filter((entry): entry is readonly [RegExpExecArray, number] => entry[0] !== null)
    .sort((a, b) => Number(a[0][1]) - Number(b[0][1]))
    .map(([m, index]): [number, number] => [index, col(columns, `SYMPTOMVERSION${m[1]}`)]);
  return { id, terms };
}

/** The values of one VAERSSYMPTOMS record. */
export function symptomsRow(fields: readonly string[], at: SymptomsRowColumns): SymptomsRowValues {
  const terms: SymptomsRowValues['terms'] = [];
  for (const [termAt, versionAt] of at.terms) {
    const term = cellAt(fields, termAt);
    if (term !== '') terms.push({ term, version: orNull(cellAt(fields, versionAt)) });
  }
  return { id: parseVaersId(fields[at.id] ?? ''), terms };
}
