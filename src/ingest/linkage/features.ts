/**
 * The linkage's view of a report: the values its comparisons read, normalised once per report
 * from the build's report columns (ReportDetails, src/ingest/vaers/report-details.ts).
 *
 * - `age`: years (AGE_YRS, else CAGE_YR + CAGE_MO), NaN when unknown;
 * - `sex`: 1 F, 2 M, 0 unknown (U is missing, not a value);
 * - `state`: the STATE string number, -1 when blank;
 * - `vaxDay`, `onsetDay`: days since 1970-01-01 (UTC) of VAX_DATE and ONSET_DATE, -1 when blank;
 * - `receivedDay`: days since 1970-01-01 of RECVDATE, -1 when blank (a report cannot tell of a
 *   vaccination or an onset after the day it was received: issue 43 round 5);
 * - `vaxImputed`, `onsetImputed`: whether that date may be imputed from a month or a year (issue
 *   43: an onset "in 2004" is written 2004-01-01): 2 on the 1st of January (the year alone is
 *   sure), 1 on the 1st of another month (the month is sure), 0 otherwise;
 * - `namedDays`: the sorted distinct days a narrative writes as a date (`06/25/2003`, `6/25/03`,
 *   `25-Jun-2003`, `25JUN03`, `June 25, 2003`, `2003-06-25`): a report may name the other
 *   report's vaccination date (a follow-up correcting it);
 * - `vaccineKinds`: the sorted distinct hashes of the vaccines' kinds (VAX_NAME without its
 *   bracketed brand: `INFLUENZA (SEASONAL) (FLUZONE)` is `INFLUENZA (SEASONAL)`), empty when a
 *   vaccine is not specified: two reports of one vaccination name some kind in common;
 * - `history`, `priorVax`, `writtenDay` (round 9): HISTORY's words as `medicines`, PRIOR_VAX's
 *   as `narrative`, RPT_DATE's day (form-evidence.ts);
 * - `medicines`: the sorted distinct word hashes of OTHER_MEDS (as `narrative`), empty when blank,
 *   the one value NO_MEDICINE when it says none (`none`, `no`, `unknown`, `n/a`, ...):
 *   concomitant medicines, evidence both ways (compare.ts: none against a list disagrees, none
 *   twice says nothing);
 * - `vaccines`: the sorted distinct VAX_NAME string numbers of the report;
 * - `doses`, `sites` (issue 43 round 7): per vaccine row of a known kind (vaccineKindOf: a
 *   manufacturer's copy names its own brand) with VAX_DOSE 1 to 9, the key kind number * 10 +
 *   dose; with a VAX_SITE on one side (LA, RA, LL, RL, LG, RG), the key kind number * 8 + the
 *   side's index in SIDED_SITES; sorted distinct (a dose of 0, `UN`, a site `A`, `OT` and the
 *   like are unknown; kind numbers are per linkage run);
 * - `lots`: the sorted distinct numbers (into `lotNames`) of the normalised lots (upper case,
 *   letters and digits only; blank, `UNK`, `UNKNOWN`, `NA`, `NONE` and lots of one character
 *   are missing);
 * - `events`: the sorted distinct MedDRA term string numbers;
 * - `splttype`: the normalised SPLTTYPE (upper case, letters and digits), '' when blank or when
 *   more than SPLTTYPE_LABEL reports carry it (a label, not a case number: FEDREG2004 on 59 public
 *   comments of one docket; issue 43 round 6);
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
import { ListPacker } from './pack.js';

/**
 * The report columns the linkage reads: a part of the build's ReportDetails (which is one), so
 * that hand-made fixtures and the benchmark's mixed reports need only these.
 */
export type LinkageColumns = Pick<ReportDetails, 'count' | 'id' | 'received' | 'age' | 'sex' | 'state' | 'vaxDate' | 'onsetDate' | 'splttype' | 'narrative' | 'strings'>
  & Partial<Pick<ReportDetails, 'otherMeds' | 'history' | 'priorVax' | 'rptDate'>>
  & { vaccines: Pick<ReportDetails['vaccines'], 'start' | 'name' | 'lot'> & Partial<Pick<ReportDetails['vaccines'], 'dose' | 'site'>>; events: Pick<ReportDetails['events'], 'start' | 'term'> };

/** The text columns the linkage reads: SYMPTOM_TEXT, OTHER_MEDS, and since issue 43 round 9 HISTORY and PRIOR_VAX (form-evidence.ts). */
export const LINKAGE_TEXT = ['narrative', 'otherMeds', 'history', 'priorVax'] as const;
/** One of LINKAGE_TEXT. */
export type LinkageText = (typeof LINKAGE_TEXT)[number];

/** The per-report values of the comparisons, column by column (index i: report row i). */
export interface LinkageFeatures {
  count: number;
  /** VAERS_ID per report (the columns' own array): IDs are given in order of entry, so near IDs were entered in one batch. */
  vaersId: ArrayLike<number>;
  age: Float64Array;
  sex: Uint8Array;
  state: Int32Array;
  vaxDay: Int32Array;
  onsetDay: Int32Array;
  /** Days since 1970-01-01 of RECVDATE, -1 when blank. */
  receivedDay: Int32Array;
  /** 2: VAX_DATE on the 1st of January, 1: on the 1st of another month, 0: otherwise or unknown (possibly imputed). */
  vaxImputed: Uint8Array;
  /** As vaxImputed, for ONSET_DATE. */
  onsetImputed: Uint8Array;
  /** The days the narrative writes as dates, sorted distinct. */
  namedDays: Int32Array[];
  /** The hashes of the vaccines' kinds (VAX_NAME without its brand), sorted distinct; empty when a vaccine is not specified. */
  vaccineKinds: Int32Array[];
  /** The word hashes of OTHER_MEDS, sorted distinct; empty when none is stated. */
  medicines: Int32Array[];
  /** The word hashes of HISTORY (as `medicines`: [NO_MEDICINE] when it says none), sorted distinct; empty when blank (round 9, form-evidence.ts). */
  history: Int32Array[];
  /** The word hashes of PRIOR_VAX (as `narrative`), sorted distinct; empty when blank (round 9, form-evidence.ts citesReaction). */
  priorVax: Int32Array[];
  /** Days since 1970-01-01 of RPT_DATE (the day the form was written), -1 when blank (round 9: a form cannot tell of an onset after it). */
  writtenDay: Int32Array;
  vaccines: Int32Array[];
  /** Vaccine kind number * 10 + VAX_DOSE (1-9) per vaccine row giving one, sorted distinct (see the module header). */
  doses: Int32Array[];
  /** Vaccine kind number * 8 + the index of VAX_SITE in SIDED_SITES per vaccine row giving one, sorted distinct. */
  sites: Int32Array[];
  lots: Int32Array[];
  /** The normalised lots, each once. */
  lotNames: string[];
  events: Int32Array[];
  splttype: string[];
  narrative: Int32Array[];
  /** 1 when the report has at least one identifying field (see the module header). */
  identifiable: Uint8Array;
  /** Number of identifying fields known (the completeness of the representative rule). */
  completeness: Uint8Array;
}

/** The sites of VAX_SITE that name a side (left or right arm, leg, gluteus): two of them, other, name two limbs. */
export const SIDED_SITES = ['LA', 'RA', 'LL', 'RL', 'LG', 'RG'] as const;

/** A SPLTTYPE carried by more reports than this is a label (a docket, a programme), not a case number (see the module header). */
export const SPLTTYPE_LABEL = 20;

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

/** Whether a `yyyymmdd` date may be imputed: 2 on 1 January, 1 on the 1st of another month, 0 otherwise (see the module header). */
export function imputedLevel(date: number): number {
  if (!(date > 0) || date % 100 !== 1) return 0;
  return Math.floor(date / 100) % 100 === 1 ? 2 : 1;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?`;
const DATE_FORMS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => [number, number, number]]> = [
  [/\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g, (m) => [Number(m[3]), Number(m[1]), Number(m[2])]],
  [/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => [Number(m[1]), Number(m[2]), Number(m[3])]],
  [new RegExp(String.raw`\b(\d{1,2})[- ]?${MONTH}[- ,]*(\d{4}|\d{2})\b`, 'gi'), (m) => [Number(m[3]), MONTHS.indexOf(m[2].toLowerCase()) + 1, Number(m[1])]],
  [new RegExp(String.raw`\b${MONTH} (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`, 'gi'), (m) => [Number(m[3]), MONTHS.indexOf(m[1].toLowerCase()) + 1, Number(m[2])]],
];

/** The days a narrative writes as dates (see the module header), sorted distinct; a two-digit year is 19yy above 50, else 20yy. */
export function namedDaysOf(text: string | null): Int32Array {
  if (!text) return EMPTY;
  const days: number[] = [];
  for (const [form, parts] of DATE_FORMS) {
    for (const m of text.matchAll(form)) {
      const [written, month, day] = parts(m);
      const year = written < 100 ? written + (written > 50 ? 1900 : 2000) : written;
      if (month < 1 || month > 12 || day < 1 || day > 31) continue;
      const d = dayNumber(year * 10000 + month * 100 + day);
      if (d !== null && d !== undefined) days.push(d);
    }
  }
  return days.length === 0 ? EMPTY : sortedDistinct(days);
}

/** The kind of a VAX_NAME: without its last bracketed part (the brand), '' when not specified. */
export function vaccineKindOf(name: string): string {
  const upper = name.toUpperCase().trim();
  if (upper === '' || upper.includes('NOT SPECIFIED') || upper.startsWith('UNKNOWN')) return '';
  const cut = upper.lastIndexOf(' (');
  return cut > 0 ? upper.slice(0, cut) : upper;
}

/** The sorted distinct hashes of the kinds of `names` (see vaccineKindOf); empty when one is not specified. */
function vaccineKindsOf(names: string[]): Int32Array {
  const kinds = names.map(vaccineKindOf);
  return kinds.length === 0 || kinds.includes('') ? EMPTY : sortedDistinct(kinds.map(fnv1a));
}

/** OTHER_MEDS saying there is none (the whole cell, lower case, letters only). */
const NO_MEDICINES = /^(?:none|no|non|nonw|na|n a|nka|nkda|unk|unknown|nil|see above)$|\b(?:none|unknown|unk|not reported|not provided|unspecified|not known|no other|no meds)\b/;

/** The hash standing for an OTHER_MEDS cell saying there is none (a value: none against a list disagrees). */
export const NO_MEDICINE = fnv1a('(none)');

/** The word hashes of an OTHER_MEDS cell (see the module header); [NO_MEDICINE] when it says none. */
export function medicineTokens(text: string | null | undefined): Int32Array {
  if (!text) return EMPTY;
  const plain = text.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
  if (plain === '') return EMPTY;
  if (NO_MEDICINES.test(plain) && plain.split(' ').length <= 5) return Int32Array.of(NO_MEDICINE);
  return narrativeTokens(text);
}

/** 32-bit FNV-1a hash of a string (its UTF-16 code units). */
export function fnv1a(s: string): number {
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

/** The values of LinkageFeatures read from the text (LINKAGE_TEXT), per report. */
export type LinkageTextValues = Pick<LinkageFeatures, 'namedDays' | 'medicines' | 'history' | 'priorVax' | 'narrative'>;

/** The text values of `count` reports without text (every list empty), to be read row by row (readTextValues). */
export function emptyTextValues(count: number): LinkageTextValues {
  const none = (): Int32Array[] => new Array<Int32Array>(count).fill(EMPTY);
  return { namedDays: none(), medicines: none(), history: none(), priorVax: none(), narrative: none() };
}

/** Sets row i of `v` from that report's text (null or undefined: blank), its lists packed by `lists`. */
export function readTextValues(v: LinkageTextValues, lists: ListPacker, i: number, text: Partial<Record<LinkageText, string | null>>): void {
  v.namedDays[i] = lists.pack(namedDaysOf(text.narrative ?? null));
  v.medicines[i] = lists.packShared(medicineTokens(text.otherMeds));
  v.history[i] = lists.packShared(medicineTokens(text.history));
  v.priorVax[i] = lists.pack(narrativeTokens(text.priorVax ?? null));
  v.narrative[i] = lists.pack(narrativeTokens(text.narrative ?? null));
}

/**
 * The linkage's values of every report of `details` (see LinkageFeatures); `text`: the values of
 * its text when they were read already (readTextValues, a chunk at a time as the build's linkage
 * thread receives the text: linkage-text.ts), the text columns of `details` then unread.
 */
export function linkageFeatures(details: LinkageColumns, text?: LinkageTextValues): LinkageFeatures {
  const n = details.count;
  const strings = details.strings;
  // The lists as views into shared chunks (pack.ts: a small typed array each costs twice the memory).
  const lists = new ListPacker();
  const read = text ?? emptyTextValues(n);
  if (!text) {
    for (let i = 0; i < n; i++) {
      readTextValues(read, lists, i, { narrative: details.narrative?.[i], otherMeds: details.otherMeds?.[i], history: details.history?.[i], priorVax: details.priorVax?.[i] });
    }
  }
  const f: LinkageFeatures = {
    count: n, vaersId: details.id, age: new Float64Array(n), sex: new Uint8Array(n), state: new Int32Array(n), vaxDay: new Int32Array(n),
    onsetDay: new Int32Array(n), receivedDay: new Int32Array(n), writtenDay: new Int32Array(n), vaxImputed: new Uint8Array(n), onsetImputed: new Uint8Array(n),
    ...read,
    vaccineKinds: new Array<Int32Array>(n),
    vaccines: new Array<Int32Array>(n), doses: new Array<Int32Array>(n), sites: new Array<Int32Array>(n), lots: new Array<Int32Array>(n), lotNames: [], events: new Array<Int32Array>(n),
    splttype: new Array<string>(n), identifiable: new Uint8Array(n), completeness: new Uint8Array(n),
  };
  const sexCode = (code: number): number => (SEX_CODES[code] === 'F' ? 1 : SEX_CODES[code] === 'M' ? 2 : 0);
  const { start: vaxStart, name, lot, dose, site } = details.vaccines;
  const cell = (column: Int32Array | undefined, k: number): string => (column && column[k] >= 0 ? strings[column[k]].trim().toUpperCase() : '');
  const kindNumbers = new Map<string, number>();
  const kindNumber = (k: number): number => {
    const kind = vaccineKindOf(name[k] >= 0 ? strings[name[k]] : '');
    if (kind === '') return -1;
    let number = kindNumbers.get(kind);
    if (number === undefined) kindNumbers.set(kind, (number = kindNumbers.size));
    return number;
  };
  const lotNumbers = new Map<string, number>();
  const lotNumber = (l: string): number => {
    let k = lotNumbers.get(l);
    if (k === undefined) {
      lotNumbers.set(l, (k = f.lotNames.push(l) - 1));
    }
    return k;
  };
  for (let i = 0; i < n; i++) {
    f.age[i] = details.age[i];
    f.sex[i] = sexCode(details.sex[i]);
    f.state[i] = details.state[i];
    f.vaxDay[i] = dayOf(details.vaxDate[i]);
    f.onsetDay[i] = dayOf(details.onsetDate[i]);
    f.receivedDay[i] = dayOf(details.received[i]);
    f.writtenDay[i] = details.rptDate ? dayOf(details.rptDate[i]) : -1;
    f.vaxImputed[i] = imputedLevel(details.vaxDate[i]);
    f.onsetImputed[i] = imputedLevel(details.onsetDate[i]);
    f.vaccines[i] = lists.packShared(runOf(vaxStart, name, i));
    f.vaccineKinds[i] = lists.packShared(vaccineKindsOf(Array.from(f.vaccines[i], (k) => (k >= 0 ? strings[k] : ''))));
    const lots: number[] = [];
    const doses: number[] = [];
    const sites: number[] = [];
    for (let k = vaxStart[i]; k < vaxStart[i + 1]; k++) {
      const l = normaliseLot(lot[k] >= 0 ? strings[lot[k]] : null);
      if (l !== '') lots.push(lotNumber(l));
      const d = cell(dose, k);
      const side = SIDED_SITES.indexOf(cell(site, k) as (typeof SIDED_SITES)[number]);
      const kind = /^[1-9]$/.test(d) || side >= 0 ? kindNumber(k) : -1;
      if (kind < 0) continue;
      if (/^[1-9]$/.test(d)) doses.push(kind * 10 + Number(d));
      if (side >= 0) sites.push(kind * 8 + side);
    }
    f.doses[i] = doses.length === 0 ? EMPTY : lists.packShared(sortedDistinct(doses));
    f.sites[i] = sites.length === 0 ? EMPTY : lists.packShared(sortedDistinct(sites));
    f.lots[i] = lots.length === 0 ? EMPTY : lists.packShared(sortedDistinct(lots));
    f.events[i] = lists.packShared(runOf(details.events.start, details.events.term, i));
    const splt = details.splttype[i];
    f.splttype[i] = splt >= 0 ? strings[splt].toUpperCase().replace(/[^A-Z0-9]/g, '') : '';
    const known = (Number.isNaN(f.age[i]) ? 0 : 1) + (f.sex[i] > 0 ? 1 : 0) + (f.state[i] >= 0 ? 1 : 0) + (f.vaxDay[i] >= 0 ? 1 : 0)
      + (f.onsetDay[i] >= 0 ? 1 : 0) + (f.lots[i].length > 0 ? 1 : 0) + (f.splttype[i] !== '' ? 1 : 0) + (f.narrative[i].length > 0 ? 1 : 0);
    f.completeness[i] = known;
    f.identifiable[i] = known > 0 ? 1 : 0;
  }
  // A SPLTTYPE on more than SPLTTYPE_LABEL reports names no case (round 6): dropped, as blank.
  const carriers = new Map<string, number>();
  for (const s of f.splttype) if (s !== '') carriers.set(s, (carriers.get(s) ?? 0) + 1);
  for (let i = 0; i < n; i++) {
    if (f.splttype[i] === '' || carriers.get(f.splttype[i])! <= SPLTTYPE_LABEL) continue;
    f.splttype[i] = '';
    f.completeness[i]--;
    f.identifiable[i] = f.completeness[i] > 0 ? 1 : 0;
  }
  return f;
}
