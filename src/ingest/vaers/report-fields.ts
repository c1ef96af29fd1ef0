/**
 * Reading the report-level fields of a VAERSDATA row (sex, age, age group, outcome flags) by
 * the domain rules of src/domain/report-rules.ts (the age: AGE_YRS, else CAGE_YR + CAGE_MO): which header columns hold them, and their
 * values in one record.
 */
import { OUTCOME_REPORT_COLUMNS, sourceFieldsOf } from '../../domain/report-columns.js';
import { ageGroupOf, ageOf, isYes, OUTCOME, sexOf, type AgeSource, type OutcomeName, type Sex } from '../../domain/report-rules.js';

/** The VAERSDATA columns read for each outcome flag (both layouts; src/domain/report-columns.ts). */
export const OUTCOME_COLUMNS: Readonly<Record<OutcomeName, readonly string[]>> =
  Object.fromEntries(OUTCOME_REPORT_COLUMNS.map((c) => [c.outcome, sourceFieldsOf(c)])) as unknown as Record<OutcomeName, readonly string[]>;

/** The report-level fields the analyses group by, read from one VAERSDATA row. */
export interface ReportFields {
  sex: Sex;
  /** Age in years (`AGE_YRS`, else `CAGE_YR` + `CAGE_MO`; src/domain/report-rules.ts ageOf), or null when unknown. */
  age: number | null;
  /** Where `age` comes from, or null without an age. */
  ageSource: AgeSource | null;
  /** Index into AGE_GROUPS. */
  ageGroup: number;
  /** Calendar year of RECVDATE. */
  year: number;
  /** Outcome bits (OUTCOME). */
  outcomes: number;
}

/** Where the report-level fields sit in a VAERSDATA header (-1: column absent). */
export interface ReportFieldColumns {
  sex: number;
  age: number;
  /** `CAGE_YR` and `CAGE_MO` (the calculated age, read when AGE_YRS is blank). */
  cageYr: number;
  cageMo: number;
  outcomes: Array<[bit: number, column: number]>;
}

/** Finds the report-level columns in a VAERSDATA header (each optional: a missing one reads as unknown). */
export function reportFieldColumns(columns: ReadonlyMap<string, number>): ReportFieldColumns {
  const outcomes: Array<[number, number]> = [];
  for (const [name, candidates] of Object.entries(OUTCOME_COLUMNS) as Array<[OutcomeName, readonly string[]]>) {
    for (const column of candidates) {
      const index = columns.get(column);
      if (index !== undefined) outcomes.push([OUTCOME[name], index]);
    }
  }
  return { sex: columns.get('SEX') ?? -1, age: columns.get('AGE_YRS') ?? -1, cageYr: columns.get('CAGE_YR') ?? -1, cageMo: columns.get('CAGE_MO') ?? -1, outcomes };
}

/** The report-level fields of one VAERSDATA record (`year` from its RECVDATE). */
export function reportFields(fields: readonly string[], at: ReportFieldColumns, year: number): ReportFields {
  const cell = (column: number): string => (column >= 0 ? (fields[column] ?? '') : '');
  const { age, source } = ageOf(cell(at.age), cell(at.cageYr), cell(at.cageMo));
  let outcomes = 0;
  for (const [bit, column] of at.outcomes) if (isYes(fields[column])) outcomes |= bit;
  return { sex: at.sex >= 0 ? sexOf(fields[at.sex] ?? '') : 'U', age, ageSource: source, ageGroup: ageGroupOf(age), year, outcomes };
}
