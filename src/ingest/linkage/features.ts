/**
 * The linkage's view of a report: the values its comparisons read, normalised once per report
 * from the build's report columns (ReportDetails, src/ingest/vaers/report-details.ts).
 *
 * - `age`: years (AGE_YRS, else CAGE_YR + CAGE_MO), NaN when unknown;
 * - `sex`: 1 F, 2 M, 0 unknown (U is missing, not a value);
 * - `state`: the STATE string number, -1 when blank;
 * - `vaxDay`, `onsetDay`: days since 1970-01-01 (UTC) of VAX_DATE and ONSET_DATE, -1 when blank;
 * - `vaccines`: the sorted distinct VAX_NAME string numbers of the report;
 * - `lots`: the sorted distinct numbers (into `lotNames`) of the normalised lots (upper case,
 *   letters and digits only; blank, `UNK`, `UNKNOWN`, `NA`, `NONE` and lots of one character
 *   are missing);
 * - `events`: the sorted distinct MedDRA term string numbers;
 * - `splttype`: the normalised SPLTTYPE (upper case, letters and digits), '' when blank;
 * - `narrative`: the sorted distinct 32-bit FNV-1a hashes of SYMPTOM_TEXT's words (lower case,
 *   letters and digits, two characters or more), empty when there is none.
 *
 * A report is **identifiable** when at least one of age, sex, state, vaccination date, onset
 * date, lot, SPLTTYPE or narrative is known: vaccines and events alone (which every kept report
 * has) cannot tell two patients apart, so a report with nothing else is never linked
 * (LinkageSummary.unlinkable).
 */
import { SEX_CODES } from '../../domain/report-rules.js';
import type { ReportDetails } from '../vaers/report-details.js';
import { dayNumber } from '../../domain/report-days.js';

/**
 * The report columns the linkage reads: a part of the build's ReportDetails (which is one), so
 * that hand-made fixtures and the benchmark's mixed reports need only these.
 */
export type LinkageColumns = Pick<ReportDetails, 'count' | 'id' | 'received' | 'age' | 'sex' | 'state' | 'vaxDate' | 'onsetDate' | 'splttype' | 'narrative' | 'strings'>
  & { vaccines: Pick<ReportDetails['vaccines'], 'start' | 'name' | 'lot'>; events: Pick<ReportDetails['events'], 'start' | 'term'> };

/** The per-report values of the comparisons, column by column (index i: report row i). */
export interface LinkageFeatures {
  count: number;
  age: Float64Array;
  sex: Uint8Array;
  state: Int32Array;
  vaxDay: Int32Array;
  onsetDay: Int32Array;
  vaccines: Int32Array[];
  lots: Int32Array[];
  /** The normalised lots, each once. */
  lotNames: string[];
  /** Each lot of `lotNames` as its characters (what the Jaro-Winkler of compare.ts reads). */
  lotChars: string[][];
  events: Int32Array[];
  splttype: string[];
  narrative: Int32Array[];
  /** 1 when the report has at least one identifying field (see the module header). */
  identifiable: Uint8Array;
  /** Number of identifying fields known (the completeness of the representative rule). */
  completeness: Uint8Array;
}

const MISSING_LOTS = new Set(['UNK', 'UNKNOWN', 'NA', 'NONE', 'UNKN', 'NK']);
const EMPTY = new Int32Array(0);

/** Days since 1970-01-01 of a `yyyymmdd` date number (0: unknown -> -1). */
export function dayOf(date: number): number {
  return dayNumber(date) ?? -1;
}

/** A lot as compared: upper case, letters and digits only; '' when missing (see the module header). */
export function normaliseLot(lot: string | null): string {
  const s = (lot ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return s.length < 2 || MISSING_LOTS.has(s) ? '' : s;
}

/** 32-bit FNV-1a hash of a string (its UTF-16 code units). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** The sorted distinct word hashes of a narrative (see the module header); empty for null or blank text. */
export function narrativeTokens(text: string | null): Int32Array {
  if (text === null) return EMPTY;
  const words = text.toLowerCase().match(/[a-z0-9]{2,}/g);
  if (words === null) return EMPTY;
  return sortedDistinct(words.map(fnv1a));
}

/** The sorted distinct values of `values`. */
function sortedDistinct(values: number[]): Int32Array {
  const sorted = Int32Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i];
  return sorted.slice(0, n);
}

/** The run `start[i] .. start[i + 1] - 1` of `values`, sorted and distinct. */
function runOf(start: Int32Array, values: Int32Array, i: number): Int32Array {
  const from = start[i];
  const to = start[i + 1];
  if (to === from) return EMPTY;
  return sortedDistinct(Array.from(values.subarray(from, to)));
}

/** The linkage's values of every report of `details` (see LinkageFeatures). */
export function linkageFeatures(details: LinkageColumns): LinkageFeatures {
  const n = details.count;
  const strings = details.strings;
  const f: LinkageFeatures = {
    count: n, age: new Float64Array(n), sex: new Uint8Array(n), state: new Int32Array(n), vaxDay: new Int32Array(n),
    onsetDay: new Int32Array(n), vaccines: new Array<Int32Array>(n), lots: new Array<Int32Array>(n), lotNames: [], lotChars: [], events: new Array<Int32Array>(n),
    splttype: new Array<string>(n), narrative: new Array<Int32Array>(n), identifiable: new Uint8Array(n), completeness: new Uint8Array(n),
  };
  const sexCode = (code: number): number => (SEX_CODES[code] === 'F' ? 1 : SEX_CODES[code] === 'M' ? 2 : 0);
  const { start: vaxStart, name, lot } = details.vaccines;
  const lotNumbers = new Map<string, number>();
  const lotNumber = (l: string): number => {
    let k = lotNumbers.get(l);
    if (k === undefined) {
      lotNumbers.set(l, (k = f.lotNames.push(l) - 1));
      f.lotChars.push([...l]);
    }
    return k;
  };
  for (let i = 0; i < n; i++) {
    f.age[i] = details.age[i];
    f.sex[i] = sexCode(details.sex[i]);
    f.state[i] = details.state[i];
    f.vaxDay[i] = dayOf(details.vaxDate[i]);
    f.onsetDay[i] = dayOf(details.onsetDate[i]);
    f.vaccines[i] = runOf(vaxStart, name, i);
    const lots: number[] = [];
    for (let k = vaxStart[i]; k < vaxStart[i + 1]; k++) {
      const l = normaliseLot(lot[k] >= 0 ? strings[lot[k]] : null);
      if (l !== '') lots.push(lotNumber(l));
    }
    f.lots[i] = lots.length === 0 ? EMPTY : sortedDistinct(lots);
    f.events[i] = runOf(details.events.start, details.events.term, i);
    const splt = details.splttype[i];
    f.splttype[i] = splt >= 0 ? strings[splt].toUpperCase().replace(/[^A-Z0-9]/g, '') : '';
    f.narrative[i] = narrativeTokens(details.narrative?.[i] ?? null);
    const known = (Number.isNaN(f.age[i]) ? 0 : 1) + (f.sex[i] > 0 ? 1 : 0) + (f.state[i] >= 0 ? 1 : 0) + (f.vaxDay[i] >= 0 ? 1 : 0)
      + (f.onsetDay[i] >= 0 ? 1 : 0) + (f.lots[i].length > 0 ? 1 : 0) + (f.splttype[i] !== '' ? 1 : 0) + (f.narrative[i].length > 0 ? 1 : 0);
    f.completeness[i] = known;
    f.identifiable[i] = known > 0 ? 1 : 0;
  }
  return f;
}
