/**
 * The kept reports' own values, column by column (issue 11 section 1: the case series behind
 * every signal): what the store's report tables are written from. One entry per kept report, in
 * the order of `VaersData.reports`, plus each report's VAX rows and distinct events as runs of a
 * flat table (`start[i] .. start[i + 1] - 1`, as the file listed them).
 *
 * Memory: typed arrays and interned strings (a VAERS release repeats its states, lots,
 * manufacturers, terms and versions endlessly), about 60 bytes a report, 30 a VAX row and 8 an
 * event, plus the narratives when they are kept. The reports are the real ones, read once:
 * `--scale` replays only the counts.
 */
import type { QuarterIndex } from '../domain/quarter.js';
import { SEX_CODES } from '../domain/report-rules.js';
import type { ReportFields } from './report-fields.js';
import { CHECKED_FIELDS, type DataDetails, type VaxRowValues } from './rows.js';
import { ValueTally, type UnparseableValues } from './skips.js';
import type { DateNumber } from './values.js';

/** Interned strings: each distinct value once, numbered in order of first appearance. */
export class Interner {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  /** The number of `value`, adding it when new. */
  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.push(value) - 1;
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
class Growable<T extends Typed> {
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

/**
 * The kept reports' values as columns. Index `i` is `VaersData.reports[i]`. String columns hold
 * indexes into `strings` (-1: null); dates are `yyyymmdd` (0: null); `age` and `numdays` are NaN
 * when unknown.
 */
export interface ReportDetails {
  count: number;
  /** VAERS_ID. */
  id: Float64Array;
  /** RECVDATE. */
  received: Int32Array;
  /** Quarter of RECVDATE (src/domain/quarter.ts index). */
  quarter: Uint16Array;
  /** AGE_YRS. */
  age: Float64Array;
  /** Index into AGE_GROUPS (report-fields.ts). */
  ageGroup: Uint8Array;
  /** Index into SEX_CODES. */
  sex: Uint8Array;
  state: Int32Array;
  vaxDate: Int32Array;
  onsetDate: Int32Array;
  numdays: Float64Array;
  /** OUTCOME bits set (report-fields.ts). */
  outcomes: Uint16Array;
  /** OUTCOME bits whose column the report's file had. */
  outcomesKnown: Uint16Array;
  recovd: Int32Array;
  /** SYMPTOM_TEXT per report (null when blank), or null when narratives were not read. */
  narrative: Array<string | null> | null;
  /** VAX rows with a VAX_NAME, per report in file order: report i's rows are start[i] .. start[i + 1] - 1. */
  vaccines: { start: Int32Array; name: Int32Array; type: Int32Array; manufacturer: Int32Array; lot: Int32Array; dose: Int32Array; route: Int32Array; site: Int32Array };
  /** Distinct terms per report in file order (the first SYMPTOMVERSIONn seen with each), as runs like `vaccines`. */
  events: { start: Int32Array; term: Int32Array; version: Int32Array };
  /** The values of the string columns. */
  strings: string[];
  /** Cells of the kept reports that could not be read (kept as unknown), per field with examples. */
  unparseable: UnparseableValues[];
}

/** A VAX row of a pending report, as string numbers: name, type, manufacturer, lot, dose, route, site. */
export const VAX_ROW_WIDTH = 7;

/** The reader's side: collects kept reports one by one into columns (see ReportDetails). */
export class ReportDetailsBuilder {
  /** The strings of every string column (and of the pending rows). */
  readonly strings = new Interner();
  private readonly tally = new ValueTally(CHECKED_FIELDS);
  private readonly id = new Growable(float64);
  private readonly received = new Growable(int32);
  private readonly quarter = new Growable((n) => new Uint16Array(n));
  private readonly age = new Growable(float64);
  private readonly ageGroup = new Growable((n) => new Uint8Array(n));
  private readonly sex = new Growable((n) => new Uint8Array(n));
  private readonly state = new Growable(int32);
  private readonly vaxDate = new Growable(int32);
  private readonly onsetDate = new Growable(int32);
  private readonly numdays = new Growable(float64);
  private readonly outcomes = new Growable((n) => new Uint16Array(n));
  private readonly outcomesKnown = new Growable((n) => new Uint16Array(n));
  private readonly recovd = new Growable(int32);
  private readonly narrative: Array<string | null> | null;
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

  constructor(narratives: boolean) {
    this.narrative = narratives ? [] : null;
    this.vaxStart.push(0);
    this.eventStart.push(0);
  }

  /**
   * Appends the string numbers of a VAX row (VAX_ROW_WIDTH of them) to `into` (its pending
   * report's rows); `vaccine` is the reader's index of its name.
   */
  pushVaxRow(into: number[], row: VaxRowValues, vaccine: number): void {
    const s = this.strings;
    const r = this.recentVax;
    into.push(this.known(this.vaccineString, vaccine, row.name), s.ofRecent(row.type, r[0]), s.ofRecent(row.manufacturer, r[1]),
      s.ofRecent(row.lot, r[2]), s.ofRecent(row.dose, r[3]), s.ofRecent(row.route, r[4]), s.ofRecent(row.site, r[5]));
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
   * Adds one kept report: its id, received date and quarter, report fields, DATA details (whose
   * unreadable cells are counted now, with `where` naming the file and line), its VAX rows
   * (VAX_ROW_WIDTH string numbers each) and events ([term, version] string numbers each).
   */
  add(
    report: { id: number; received: DateNumber; quarter: QuarterIndex; fields: ReportFields; details: DataDetails; outcomesKnown: number },
    vaxRows: readonly number[], eventRows: readonly number[], where: { file: string; line: number },
  ): void {
    const { fields, details } = report;
    this.id.push(report.id);
    this.received.push(report.received);
    this.quarter.push(report.quarter);
    this.age.push(fields.age ?? NaN);
    this.ageGroup.push(fields.ageGroup);
    this.sex.push(SEX_CODES.indexOf(fields.sex));
    this.state.push(this.strings.ofNullable(details.state));
    this.vaxDate.push(details.vaxDate ?? 0);
    this.onsetDate.push(details.onsetDate ?? 0);
    this.numdays.push(details.numdays ?? NaN);
    this.outcomes.push(fields.outcomes);
    this.outcomesKnown.push(report.outcomesKnown);
    this.recovd.push(this.strings.ofNullable(details.recovd));
    this.narrative?.push(details.narrative);
    for (const bad of details.bad ?? []) this.tally.add(bad.field, { vaers_id: report.id, file: where.file, line: where.line, cell: bad.cell });
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
    const [name, type, manufacturer, lot, dose, route, site] = this.vax.map((c) => c.done());
    return {
      count: this.id.length, id: this.id.done(), received: this.received.done(), quarter: this.quarter.done(), age: this.age.done(),
      ageGroup: this.ageGroup.done(), sex: this.sex.done(), state: this.state.done(), vaxDate: this.vaxDate.done(),
      onsetDate: this.onsetDate.done(), numdays: this.numdays.done(), outcomes: this.outcomes.done(),
      outcomesKnown: this.outcomesKnown.done(), recovd: this.recovd.done(), narrative: this.narrative,
      vaccines: { start: this.vaxStart.done(), name, type, manufacturer, lot, dose, route, site },
      events: { start: this.eventStart.done(), term: this.term.done(), version: this.version.done() },
      strings: this.strings.values, unparseable: this.tally.list(),
    };
  }
}
