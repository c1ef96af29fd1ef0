/**
 * The report-level values of one row of each VAERS file, for the report tables of the store
 * (issue 11 section 1): the extra VAERSDATA fields (state, dates, onset interval, recovery,
 * narrative, which outcome columns the file has), every VAERSVAX row's vaccine fields, and each
 * VAERSSYMPTOMS term with its MedDRA version.
 *
 * Columns are found by header name (both layouts: `VAX_DOSE` or `VAX_DOSE_SERIES`; `ER_VISIT`
 * and/or `ER_ED_VISIT`; `BIRTH_DEFECT` and `OFC_VISIT` only in the current layout; other columns
 * such as the 2025 release's trailing `ORDER` are ignored). Cells are trimmed; a blank cell is
 * null. A cell that is not blank but cannot be read (a date that is not a real `MM/DD/YYYY`, an
 * `AGE_YRS` or `NUMDAYS` that is not a number, a `SEX` or `RECOVD` code outside the data use
 * guide's) reads as unknown and is reported in `bad`, never thrown.
 */
import { requireColumns, type ColumnIndex } from './csv.js';
import { parseAge, SEX_CODES, type Sex } from '../domain/report-rules.js';
import { reportFieldColumns } from './report-fields.js';
import { parseDecimal, parseVaersDate, parseVaersId, type DateNumber } from './values.js';

/** Codes of `RECOVD` (recovered: yes, no, unknown). */
export const RECOVD_CODES: readonly string[] = ['Y', 'N', 'U'];

/** The report fields whose cells are checked, in the order the build summary lists them. */
export const CHECKED_FIELDS = ['AGE_YRS', 'SEX', 'VAX_DATE', 'ONSET_DATE', 'NUMDAYS', 'RECOVD'] as const;

/** A checked field (see CHECKED_FIELDS). */
export type CheckedField = (typeof CHECKED_FIELDS)[number];

/** A cell that could not be read: the field and the cell as written. */
export interface BadCell {
  field: CheckedField;
  cell: string;
}

/** Where the extra VAERSDATA fields sit in a header (-1: column absent). */
export interface DataDetailColumns {
  state: number;
  age: number;
  sex: number;
  vaxDate: number;
  onsetDate: number;
  numdays: number;
  recovd: number;
  text: number;
  /** OUTCOME bits (report-fields.ts) whose column the header has. */
  outcomesKnown: number;
}

/** The extra fields of one VAERSDATA row (dates as `yyyymmdd`; null: blank or unreadable). */
export interface DataDetails {
  state: string | null;
  vaxDate: DateNumber | null;
  onsetDate: DateNumber | null;
  numdays: number | null;
  recovd: string | null;
  /** `SYMPTOM_TEXT`, only when narratives are read (else null). */
  narrative: string | null;
  /** The unreadable cells of the row (null when none). */
  bad: BadCell[] | null;
}

const col = (columns: ColumnIndex, name: string): number => columns.get(name) ?? -1;
const cellAt = (fields: readonly string[], at: number): string => (at >= 0 ? (fields[at] ?? '').trim() : '');
const orNull = (text: string): string | null => (text === '' ? null : text);

/** Finds the extra VAERSDATA columns in a header (each optional: a missing one reads as unknown). */
export function dataDetailColumns(columns: ColumnIndex): DataDetailColumns {
  let outcomesKnown = 0;
  for (const [bit] of reportFieldColumns(columns).outcomes) outcomesKnown |= bit;
  return {
    state: col(columns, 'STATE'), age: col(columns, 'AGE_YRS'), sex: col(columns, 'SEX'), vaxDate: col(columns, 'VAX_DATE'),
    onsetDate: col(columns, 'ONSET_DATE'), numdays: col(columns, 'NUMDAYS'), recovd: col(columns, 'RECOVD'),
    text: col(columns, 'SYMPTOM_TEXT'), outcomesKnown,
  };
}

/** The extra fields of one VAERSDATA record; `narratives` keeps `SYMPTOM_TEXT` (as written, untrimmed). */
export function dataDetails(fields: readonly string[], at: DataDetailColumns, narratives: boolean): DataDetails {
  const age = cellAt(fields, at.age);
  const sex = cellAt(fields, at.sex);
  const vaxCell = cellAt(fields, at.vaxDate);
  const onsetCell = cellAt(fields, at.onsetDate);
  const numdaysCell = cellAt(fields, at.numdays);
  const recovdCell = cellAt(fields, at.recovd);
  const vaxDate = vaxCell === '' ? null : parseVaersDate(vaxCell);
  const onsetDate = onsetCell === '' ? null : parseVaersDate(onsetCell);
  const numdays = numdaysCell === '' ? null : parseDecimal(numdaysCell);
  const recovdCode = recovdCell.toUpperCase();
  const recovd = RECOVD_CODES.includes(recovdCode) ? recovdCode : null;
  let bad: BadCell[] | null = null;
  if (age !== '' && parseAge(age) === null) (bad ??= []).push({ field: 'AGE_YRS', cell: age });
  if (sex !== '' && !SEX_CODES.includes(sex.toUpperCase() as Sex)) (bad ??= []).push({ field: 'SEX', cell: sex });
  if (vaxCell !== '' && vaxDate === null) (bad ??= []).push({ field: 'VAX_DATE', cell: vaxCell });
  if (onsetCell !== '' && onsetDate === null) (bad ??= []).push({ field: 'ONSET_DATE', cell: onsetCell });
  if (numdaysCell !== '' && numdays === null) (bad ??= []).push({ field: 'NUMDAYS', cell: numdaysCell });
  if (recovdCell !== '' && recovd === null) (bad ??= []).push({ field: 'RECOVD', cell: recovdCell });
  const text = narratives && at.text >= 0 ? (fields[at.text] ?? '') : '';
  return { state: orNull(cellAt(fields, at.state)), vaxDate, onsetDate, numdays, recovd, narrative: text.trim() === '' ? null : text, bad };
}

/** Where the fields of a VAERSVAX row sit (-1: column absent). */
export interface VaxRowColumns {
  id: number;
  name: number;
  type: number;
  manufacturer: number;
  lot: number;
  /** `VAX_DOSE` (2014 release) or `VAX_DOSE_SERIES` (current layout). */
  dose: number;
  route: number;
  site: number;
}

/** One VAERSVAX row: the id (null when not an integer) and the trimmed fields (null when blank). */
export interface VaxRowValues {
  id: number | null;
  /** `VAX_NAME` ('' when blank: such a row names no vaccine). */
  name: string;
  type: string | null;
  manufacturer: string | null;
  lot: string | null;
  dose: string | null;
  route: string | null;
  site: string | null;
}

/**
 * Finds the VAERSVAX columns in a header.
 * @throws UserError naming the file and line when `VAERS_ID` or `VAX_NAME` is missing.
 */
export function vaxRowColumns(columns: ColumnIndex, label: string, line: number): VaxRowColumns {
  const [id, name] = requireColumns(columns, ['VAERS_ID', 'VAX_NAME'], label, line);
  return {
    id, name, type: col(columns, 'VAX_TYPE'), manufacturer: col(columns, 'VAX_MANU'), lot: col(columns, 'VAX_LOT'),
    dose: columns.get('VAX_DOSE_SERIES') ?? col(columns, 'VAX_DOSE'), route: col(columns, 'VAX_ROUTE'), site: col(columns, 'VAX_SITE'),
  };
}

/** The values of one VAERSVAX record. */
export function vaxRow(fields: readonly string[], at: VaxRowColumns): VaxRowValues {
  const value = (k: number): string | null => orNull(cellAt(fields, k));
  return {
    id: parseVaersId(fields[at.id] ?? ''), name: cellAt(fields, at.name), type: value(at.type), manufacturer: value(at.manufacturer),
    lot: value(at.lot), dose: value(at.dose), route: value(at.route), site: value(at.site),
  };
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
