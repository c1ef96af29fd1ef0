/**
 * The kept reports' own values, column by column (the case series behind
 * every signal): what the store's report tables are written from. One entry per kept report, in
 * the order of `VaersData.reports`, plus each report's VAX rows and distinct events as runs of a
 * flat table (`start[i] .. start[i + 1] - 1`, as the file listed them).
 *
 * Memory: typed arrays and interned strings (a VAERS release repeats its states, lots,
 * manufacturers, terms and versions endlessly), about 60 bytes a report, 30 a VAX row and 8 an
 * event, plus the narratives when they are kept. The reports are the real ones, read once:
 * `--scale` replays only the counts.
 */
import { CHECKED_FIELDS, NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type ReportEncoding, type StoredReportColumn, type VaccineColumn } from '../../domain/report-columns.js';
import type { BadCell, DataDetails, ReadValueOf, VaxRowValues } from './rows.js';
import type { ReportFields } from './report-fields.js';
import { SEX_CODES } from '../../domain/report-rules.js';
import type { QuarterIndex } from '../../domain/quarter.js';
import type { DateNumber } from './values.js';
import { ValueTally, type UnparseableValues } from './skips.js';
import type { ReportText } from './report-text.js';

/**
 * `value` as a string of its own: a field read from the file is a slice of the decoded chunk, and V8
 * keeps the whole chunk alive while a slice of 13 or more characters is (shorter slices are copies).
 * Concatenating makes a new string, which V8 flattens (copies) when the slice of it is taken.
 */
function ownString(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

/** Interned strings: each distinct value once (a string of its own), numbered in order of first appearance. */
export class Interner {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  /** The number of `value`, adding it when new. */
  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.push(ownString(value)) - 1;
      this.index.set(value, i);
    }
    return i;
  }

  /** The number of `value`, or -1 for null. */
  ofNullable(value: string | null): number {
    return value === null ? -1 : this.of(value);
  }

  /** `ofNullable`, remembering the last value of one column in `recent` (columns often repeat a value row after row). */
  ofRecent(value: string | null, recent: { value: string | null; number: number }): number {
    if (value !== recent.value) {
      recent.value = value;
      recent.number = this.ofNullable(value);
    }
    return recent.number;
  }
}

/** The last value of a column and its number (Interner.ofRecent). */
type Recent = { value: string | null; number: number };
const recent = (): Recent => ({ value: null, number: -1 });

type Typed = Int32Array | Float64Array | Uint16Array | Uint8Array;

/** A typed array that grows by doubling; `done()` gives an exact-size copy. */
export class Growable<T extends Typed> {
  private data: T;
  length = 0;

  constructor(private readonly make: (length: number) => T) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

const int32 = (n: number): Int32Array => new Int32Array(n);
const float64 = (n: number): Float64Array => new Float64Array(n);

/** How the build holds a report column (src/domain/report-columns.ts `ReportEncoding`), one entry per report. */
type BuiltArrayOf<C extends StoredReportColumn> =
  C['encoding'] extends 'id' | 'number' ? Float64Array
    : C['encoding'] extends 'date' | 'text' ? Int32Array
      : C['encoding'] extends 'quarter' | 'outcome' ? Uint16Array
        : C['encoding'] extends 'code' ? Uint8Array : Array<string | null> | null;

/** The `reports` columns as the build holds them, one property per REPORT_COLUMNS field. */
export type ReportDetailColumns = { -readonly [C in StoredReportColumn as C['field']]: BuiltArrayOf<C> };

/** A kept report's values (src/ingest/vaers/read.ts computes them), one per REPORT_COLUMNS field, plus the OUTCOME bits whose column its file had. */
export type ReportValues = { -readonly [C in StoredReportColumn as C['field']]: ReadValueOf<C> } & { outcomesKnown: number };

/**
 * The kept reports' values as columns, mapped from src/domain/report-columns.ts. Index `i` is
 * `VaersData.reports[i]`. Ids and numbers are doubles (NaN: unknown); dates `yyyymmdd` (0:
 * null); text columns hold indexes into `strings` (-1: null); codes are indexes into the
 * column's codes; the outcome flags are OUTCOME bits; each narrative column is null when not read.
 * Satisfies the rules' RuleColumns (src/domain/report-rules.ts).
 */
export type ReportDetails = ReportDetailColumns & {
  count: number;
  /** OUTCOME bits whose column the report's file had. */
  outcomesKnown: Uint16Array;
  /** VAX rows with a VAX_NAME, per report in file order: report i's rows are start[i] .. start[i + 1] - 1; string numbers per VACCINE_COLUMNS field. */
  vaccines: { start: Int32Array } & { -readonly [C in VaccineColumn as C['field']]: Int32Array };
  /** Distinct terms per report in file order (the first SYMPTOMVERSIONn seen with each), as runs like `vaccines`. */
  events: { start: Int32Array; term: Int32Array; version: Int32Array };
  /** The values of the string columns. */
  strings: string[];
  /** Cells of the kept reports that could not be read (kept as unknown), per field with examples. */
  unparseable: UnparseableValues[];
  /**
   * The narrative columns kept in a scratch DuckDB file instead (a build's read, ReadVaersOptions.text;
   * report-text.ts): then every narrative field here is null and the text is read back with
   * report-text.ts `textChunks`. Absent or null: the narrative fields hold the text (or were not read).
   */
  text?: ReportText | null;
};

/**
 * A kept report's values (every REPORT_COLUMNS field): its DATA row's `details` (rows.ts dataDetails)
 * completed in place with its id, RECVDATE (`yyyymmdd`) and quarter, the report-level `fields`
 * (report-fields.ts) and the OUTCOME bits its file has (a copy of its two dozen fields per report
 * cost 14% of the read: profiled). `cluster` is null: the build's duplicate-report linkage sets it
 * after reading (src/ingest/mining/linkage-step.ts). Both readers (read.ts, duckdb-details.ts) use it.
 */
export function reportValues(id: number, received: DateNumber, quarter: QuarterIndex, fields: ReportFields, details: DataDetails, outcomesKnown: number): ReportValues {
  const values = details as unknown as ReportValues;
  values.id = id;
  values.received = received;
  values.quarter = quarter;
  values.age = fields.age;
  values.ageSource = fields.ageSource;
  values.ageGroup = fields.ageGroup;
  values.sex = SEX_CODES.indexOf(fields.sex);
  values.outcomes = fields.outcomes;
  values.outcomesKnown = outcomesKnown;
  values.cluster = null;
  return values;
}

/** A VAX row of a pending report, as string numbers, one per VACCINE_COLUMNS column (the name first). */
export const VAX_ROW_WIDTH = VACCINE_COLUMNS.length;

/** The report columns the builder holds in typed arrays (all but the outcome bits and the narrative), with their arrays. */
const TYPED_COLUMNS = STORED_REPORT_COLUMNS.filter((c) => c.encoding !== 'outcome' && c.encoding !== 'narrative');
const ARRAY_OF: Record<Exclude<ReportEncoding, 'outcome' | 'narrative'>, (n: number) => Typed> = {
  id: float64, number: float64, date: int32, text: int32, quarter: (n) => new Uint16Array(n), code: (n) => new Uint8Array(n),
};

/** The reader's side: collects kept reports one by one into columns (see ReportDetails). */
export class ReportDetailsBuilder {
  /** The strings of every string column (and of the pending rows). */
  readonly strings = new Interner();
  private readonly tally = new ValueTally(CHECKED_FIELDS);
  private readonly columns = new Map(TYPED_COLUMNS.map((c) => [c.field, new Growable(ARRAY_OF[c.encoding as keyof typeof ARRAY_OF])] as const));
  private readonly outcomes = new Growable((n) => new Uint16Array(n));
  private readonly outcomesKnown = new Growable((n) => new Uint16Array(n));
  /** Per narrative column (NARRATIVE_REPORT_COLUMNS order), its values; null when not read. */
  private readonly narratives: Array<Array<string | null>> | null;
  private readonly vaxStart = new Growable(int32);
  private readonly vax = Array.from({ length: VAX_ROW_WIDTH }, () => new Growable(int32));
  private readonly eventStart = new Growable(int32);
  private readonly term = new Growable(int32);
  private readonly version = new Growable(int32);
  /** Per column of the VAX rows after the name, and for versions, the last value seen. */
  private readonly recentVax = Array.from({ length: VAX_ROW_WIDTH - 1 }, recent);
  private readonly recentVersion = recent();
  /** The string number of each vaccine and event index of the reader (its interners), once known. */
  private readonly vaccineString: number[] = [];
  private readonly eventString: number[] = [];

  /**
   * `narratives`: keep each report's narrative columns; in `text` (a scratch DuckDB file, off the
   * V8 heap) when given, else in arrays of `finish()`'s columns.
   */
  constructor(narratives: boolean, private readonly text: ReportText | null = null) {
    this.narratives = narratives && text === null ? NARRATIVE_REPORT_COLUMNS.map(() => []) : null;
    this.vaxStart.push(0);
    this.eventStart.push(0);
  }

  /**
   * Appends the string numbers of a VAX row (VAX_ROW_WIDTH of them) to `into` (its pending
   * report's rows); `vaccine` is the reader's index of its name.
   */
  pushVaxRow(into: number[], row: VaxRowValues, vaccine: number): void {
    into.push(this.known(this.vaccineString, vaccine, row.name));
    for (let k = 1; k < VAX_ROW_WIDTH; k++) into.push(this.strings.ofRecent(row[VACCINE_COLUMNS[k].field] as string | null, this.recentVax[k - 1]));
  }

  /**
   * pushVaxRow with the row's other cells given as string numbers of `strings` (VAX_ROW_WIDTH - 1 of
   * them, -1 for null): `name` is the VAX_NAME, `vaccine` the reader's index of it.
   */
  pushVaxNumbers(into: number[], name: string, vaccine: number, numbers: readonly number[]): void {
    into.push(this.known(this.vaccineString, vaccine, name));
    for (let k = 0; k < numbers.length; k++) into.push(numbers[k]);
  }

  /** pushEventRow with the version given as a string number of `strings` (-1: null). */
  pushEventNumbers(into: number[], term: string, event: number, version: number): void {
    into.push(this.known(this.eventString, event, term), version);
  }

  /** Appends an event row ([term, version] string numbers) to `into`; `event` is the reader's index of the term. */
  pushEventRow(into: number[], term: string, version: string | null, event: number): void {
    into.push(this.known(this.eventString, event, term), this.strings.ofRecent(version, this.recentVersion));
  }

  /** The string number of `value`, whose reader index is `index` (cached in `numbers`). */
  private known(numbers: number[], index: number, value: string): number {
    if (index < numbers.length && numbers[index] >= 0) return numbers[index];
    const number = this.strings.of(value);
    while (numbers.length <= index) numbers.push(-1);
    numbers[index] = number;
    return number;
  }

  /**
   * Adds one kept report: its values (one per REPORT_COLUMNS field), its unreadable cells
   * (counted now, with `where` naming the file and line), its VAX rows (VAX_ROW_WIDTH string
   * numbers each) and events ([term, version] string numbers each).
   */
  add(report: ReportValues, bad: readonly BadCell[] | null, vaxRows: readonly number[], eventRows: readonly number[], where: { file: string; line: number }): void {
    for (const c of TYPED_COLUMNS) {
      const value = report[c.field];
      this.columns.get(c.field)!.push(c.encoding === 'text' ? this.strings.ofNullable(value as string | null)
        : value === null ? (c.encoding === 'date' ? 0 : NaN) : (value as number));
    }
    this.outcomes.push(report.outcomes);
    this.outcomesKnown.push(report.outcomesKnown);
    this.narratives?.forEach((into, k) => into.push(report[NARRATIVE_REPORT_COLUMNS[k].field]));
    this.text?.add(report);
    for (const b of bad ?? []) this.tally.add(b.field, { vaers_id: report.id, file: where.file, line: where.line, cell: b.cell });
    for (let k = 0; k < vaxRows.length; k++) this.vax[k % VAX_ROW_WIDTH].push(vaxRows[k]);
    this.vaxStart.push(this.vax[0].length);
    for (let k = 0; k < eventRows.length; k += 2) {
      this.term.push(eventRows[k]);
      this.version.push(eventRows[k + 1]);
    }
    this.eventStart.push(this.term.length);
  }

  /** The columns (exact-size copies). */
  finish(): ReportDetails {
    const columns = Object.fromEntries([...this.columns].map(([field, c]) => [field, c.done()]));
    const vaccines = Object.fromEntries(VACCINE_COLUMNS.map((c, k) => [c.field, this.vax[k].done()]));
    return {
      ...columns, ...Object.fromEntries(NARRATIVE_REPORT_COLUMNS.map((c, k) => [c.field, this.narratives?.[k] ?? null])),
      count: this.vaxStart.length - 1, outcomes: this.outcomes.done(), outcomesKnown: this.outcomesKnown.done(),
      vaccines: { start: this.vaxStart.done(), ...vaccines },
      events: { start: this.eventStart.done(), term: this.term.done(), version: this.version.done() },
      strings: this.strings.values, unparseable: this.tally.list(), ...(this.text ? { text: this.text } : {}),
    } as ReportDetails;
  }
}
