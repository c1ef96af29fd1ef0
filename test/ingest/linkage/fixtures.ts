/**
 * Hand-written reports as the linkage's columns (src/ingest/linkage/features.ts LinkageColumns), for the
 * linkage tests and bench/linkage.ts: each report a plain object, dates as `yyyymmdd` numbers.
 */
import { SEX_CODES } from '../../../src/domain/report-rules.js';
import type { LinkageColumns } from '../../../src/ingest/linkage/features.js';

/** One report as written by hand (missing values: null, 0 for dates). */
export interface FixtureReport {
  id: number;
  /** RECVDATE, yyyymmdd (default 0: blank, so that no hand-made report is received before its vaccination). */
  received?: number;
  age?: number | null;
  sex?: 'F' | 'M' | 'U';
  state?: string | null;
  /** VAX_DATE, yyyymmdd (0: blank). */
  vaxDate?: number;
  onsetDate?: number;
  /** Each vaccine row: VAX_NAME, VAX_LOT, VAX_DOSE and VAX_SITE as written. */
  vaccines: Array<{ name: string; lot?: string | null; dose?: string | null; site?: string | null }>;
  events: string[];
  splttype?: string | null;
  narrative?: string | null;
  /** OTHER_MEDS as written. */
  otherMeds?: string | null;
  /** HISTORY and PRIOR_VAX as written (issue 43 round 9). */
  history?: string | null;
  priorVax?: string | null;
  /** RPT_DATE, yyyymmdd (0: blank). */
  rptDate?: number;
}

/** The linkage's columns of `reports` (index i: reports[i]). */
export function columnsOf(reports: readonly FixtureReport[]): LinkageColumns {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const of = (s: string | null | undefined): number => {
    if (s === null || s === undefined) return -1;
    let i = index.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      index.set(s, i);
    }
    return i;
  };
  const vaxStart = [0];
  const name: number[] = [];
  const lot: number[] = [];
  const dose: number[] = [];
  const site: number[] = [];
  const eventStart = [0];
  const term: number[] = [];
  for (const r of reports) {
    for (const v of r.vaccines) {
      name.push(of(v.name));
      lot.push(of(v.lot ?? null));
      dose.push(of(v.dose ?? null));
      site.push(of(v.site ?? null));
    }
    vaxStart.push(name.length);
    for (const e of r.events) term.push(of(e));
    eventStart.push(term.length);
  }
  return {
    count: reports.length,
    id: Float64Array.from(reports, (r) => r.id),
    received: Int32Array.from(reports, (r) => r.received ?? 0),
    age: Float64Array.from(reports, (r) => r.age ?? NaN),
    sex: Uint8Array.from(reports, (r) => SEX_CODES.indexOf(r.sex ?? 'U')),
    state: Int32Array.from(reports, (r) => of(r.state ?? null)),
    vaxDate: Int32Array.from(reports, (r) => r.vaxDate ?? 0),
    onsetDate: Int32Array.from(reports, (r) => r.onsetDate ?? 0),
    splttype: Int32Array.from(reports, (r) => of(r.splttype ?? null)),
    narrative: reports.map((r) => r.narrative ?? null),
    otherMeds: reports.map((r) => r.otherMeds ?? null),
    history: reports.map((r) => r.history ?? null),
    priorVax: reports.map((r) => r.priorVax ?? null),
    rptDate: Int32Array.from(reports, (r) => r.rptDate ?? 0),
    vaccines: { start: Int32Array.from(vaxStart), name: Int32Array.from(name), lot: Int32Array.from(lot), dose: Int32Array.from(dose), site: Int32Array.from(site) },
    events: { start: Int32Array.from(eventStart), term: Int32Array.from(term) },
    strings,
  };
}

/** Report `i` of `columns` as a plain object (the inverse of columnsOf, for copying real reports). */
export function reportOf(columns: LinkageColumns, i: number): FixtureReport {
  const s = (k: number): string | null => (k >= 0 ? columns.strings[k] : null);
  const vaccines: FixtureReport['vaccines'] = [];
  for (let k = columns.vaccines.start[i]; k < columns.vaccines.start[i + 1]; k++) {
    const { dose, site } = columns.vaccines;
    vaccines.push({ name: s(columns.vaccines.name[k])!, lot: s(columns.vaccines.lot[k]), dose: dose ? s(dose[k]) : null, site: site ? s(site[k]) : null });
  }
  const events: string[] = [];
  for (let k = columns.events.start[i]; k < columns.events.start[i + 1]; k++) events.push(s(columns.events.term[k])!);
  return {
    id: columns.id[i], received: columns.received[i], age: Number.isNaN(columns.age[i]) ? null : columns.age[i],
    sex: SEX_CODES[columns.sex[i]] as 'F' | 'M' | 'U', state: s(columns.state[i]), vaxDate: columns.vaxDate[i], onsetDate: columns.onsetDate[i],
    vaccines, events, splttype: s(columns.splttype[i]), narrative: columns.narrative?.[i] ?? null,
  };
}

const STATES = ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'OH', 'MI', 'GA', 'NC', 'WA', 'AZ'];
const VACCINES = ['DTAP', 'HEPB', 'IPV', 'MMR', 'VARICELLA', 'FLU3', 'PNC', 'HIBV', 'HEPA', 'TD'];
const TERMS = Array.from({ length: 80 }, (_, k) => `Term ${k}`);
const WORDS = Array.from({ length: 400 }, (_, k) => `w${k.toString(36)}x`);

/** `yyyymmdd` of the day `days` after 2000-01-01. */
export function dateAfter(days: number): number {
  return shift(20000101, days);
}

/**
 * `count` distinct synthetic reports from the generator `uniform` (bench/prng.ts): ages 0-80,
 * 12 states, vaccination over 2 years with onset 0-14 days later, 1-3 of 10 vaccines with one of
 * 40 lots each, 1-4 of 80 terms, a SPLTTYPE on one in five, a narrative of 12-30 of 400 words.
 * Ids from `firstId` on.
 */
export function syntheticReports(uniform: () => number, count: number, firstId = 1): FixtureReport[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(uniform() * list.length)];
  const some = <T>(list: readonly T[], min: number, max: number): T[] => {
    const n = min + Math.floor(uniform() * (max - min + 1));
    const chosen = new Set<T>();
    while (chosen.size < n) chosen.add(pick(list));
    return [...chosen];
  };
  return Array.from({ length: count }, (_, k) => {
    const vaxDay = Math.floor(uniform() * 730);
    return {
      id: firstId + k, received: dateAfter(vaxDay + 20), age: Math.floor(uniform() * 80), sex: uniform() < 0.5 ? 'F' : 'M', state: pick(STATES),
      vaxDate: dateAfter(vaxDay), onsetDate: dateAfter(vaxDay + Math.floor(uniform() * 15)),
      vaccines: some(VACCINES, 1, 3).map((name) => ({ name, lot: `${name.slice(0, 2)}${100 + Math.floor(uniform() * 40)}A` })),
      events: some(TERMS, 1, 4), splttype: uniform() < 0.2 ? `WAES${1_000_000 + k}` : null, narrative: some(WORDS, 12, 30).join(' '),
    } satisfies FixtureReport;
  });
}

/** `yyyymmdd` moved by `days`. */
export function shift(date: number, days: number): number {
  if (!(date > 0)) return date;
  const d = new Date(Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, (date % 100) + days));
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/**
 * A perturbed copy of `r` under id `id`, with every perturbation at once: the vaccination date
 * kept or (a quarter) not given, the onset moved by 0-3 days, age kept or removed, one event
 * dropped or one of `terms` added, every lot written otherwise (lower case and a dash: the same
 * lot once normalised) or (3 in 10) not given, about a tenth of the narrative's words replaced,
 * no SPLTTYPE, received 0-60 days later (the duplicate of another reporter). Since issue 43 a
 * vaccination date moved, an age a year off between two direct reports, or a lot one character
 * apart are evidence of two patients, so the copies no longer carry them. `uniform`: bench/prng.ts.
 */
export function perturb(r: FixtureReport, id: number, uniform: () => number, terms: readonly string[]): FixtureReport {
  const days = Math.floor(uniform() * 4) * (uniform() < 0.5 ? -1 : 1);
  const age = r.age === null || r.age === undefined || uniform() < 0.5 ? null : r.age;
  const events = r.events.length > 1 && uniform() < 0.5 ? r.events.filter((_, k) => k !== Math.floor(uniform() * r.events.length))
    : [...r.events, terms[Math.floor(uniform() * terms.length)]];
  // A lot written otherwise (lower case, a dash: the same lot once normalised) or not given.
  const rewrite = (lot: string): string | null => (uniform() < 0.3 ? null : `${lot.slice(0, 2).toLowerCase()}-${lot.slice(2)}`);
  const words = r.narrative?.split(/\s+/) ?? null;
  const narrative = words?.map((w) => (uniform() < 0.1 ? 'edited' : w)).join(' ') ?? null;
  return {
    ...r, id, received: shift(r.received ?? 0, Math.floor(uniform() * 61)), vaxDate: uniform() < 0.25 ? undefined : r.vaxDate, onsetDate: shift(r.onsetDate ?? 0, days),
    age, events: [...new Set(events)], vaccines: r.vaccines.map((v) => ({ ...v, lot: v.lot ? rewrite(v.lot) : v.lot })), narrative, splttype: null,
  };
}

