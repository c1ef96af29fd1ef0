/**
 * An independent oracle over the raw VAERS files, for tests only.
 *
 * Written from the official file format (../shared/data/vaers/SOURCES.md) and the "Statistics,
 * precisely" section of docs/design.md, without any project code under src/, so that the project's
 * reader (src/ingest/vaers) and counting (src/ingest/mining) can be checked against it. Deliberately plain:
 * whole files in memory, one loop per statistic, a Map per stratum; nothing is optimised.
 */
import path from 'node:path';
import { cachedForRun, fileDigest, rawCsvRecords as readCsvGz } from './raw-csv.js';

/** A received date as written in RECVDATE (MM/DD/YYYY), already checked to be a real calendar date. */
export interface RawDate { year: number; month: number; day: number }

/** One kept report: a DATA row joined with its VAX and SYMPTOMS rows by VAERS_ID. */
export interface RawReport {
  id: number;
  recvdate: RawDate | null;
  ageYrs: number | null;
  /** The age used: AGE_YRS, else CAGE_YR + CAGE_MO (a fraction of a year) when AGE_YRS is blank; null without one. */
  age: number | null;
  /** Where `age` comes from. */
  ageSource: 'AGE_YRS' | 'CAGE' | null;
  sex: 'F' | 'M' | 'U';
  died: boolean; lThreat: boolean; erVisit: boolean; hospital: boolean; xStay: boolean;
  disable: boolean; birthDefect: boolean; ofcVisit: boolean;
  /** Distinct trimmed non-empty VAX_NAME values, in file order. */
  vaccines: string[];
  /** Distinct trimmed non-empty VAX_TYPE codes, in file order. */
  vaxTypes: string[];
  /** Distinct trimmed non-empty VAX_MANU values, in file order. */
  manufacturers: string[];
  /** Distinct trimmed non-empty dose cells (VAX_DOSE, or VAX_DOSE_SERIES in the current layout). */
  doses: string[];
  /** Distinct trimmed non-empty SYMPTOM1..SYMPTOM5 terms, in file order. */
  events: string[];
  /** NUMDAYS (onset interval in days) when a non-negative number, else null. */
  numdays: number | null;
  state: string;
  /** The DATA file the row came from, e.g. `1999VAERSDATA.csv.gz`. */
  file: string;
}

/** Why DATA rows were not kept (each row counted once, under the first reason that applies, in this order). */
export interface RawDrops {
  /** VAERS_ID blank or not an integer. */
  badId: number;
  /** A later DATA row with a VAERS_ID already seen (the first row is kept). */
  duplicateId: number;
  /** RECVDATE blank, not MM/DD/YYYY, or not a real calendar date. */
  badRecvdate: number;
  /** No VAX row with a non-empty VAX_NAME. */
  noVaccine: number;
  /** No SYMPTOMS row with a non-empty term. */
  noEvent: number;
  /** VAX / SYMPTOMS rows whose VAERS_ID is not in any DATA file read (not reports; counted for information). */
  orphanVaxRows: number;
  orphanSymptomRows: number;
}

/** The result of {@link loadRawReports}. */
export interface RawLoad { reports: RawReport[]; dataRows: number; drops: RawDrops; dropExamples: string[] }

/**
 * Every distinct trimmed non-empty SYMPTOM1..SYMPTOM5 term of `<YEAR>VAERSSYMPTOMS.csv.gz` for each
 * of `years` in `folder`, whatever report its row belongs to (the SYMPTOMS files alone: no DATA file read).
 */
export function rawSymptomTerms(folder: string, years: number[]): Set<string> {
  const terms = new Set<string>();
  for (const year of years) {
    for (const row of readCsvGz(path.join(folder, `${year}VAERSSYMPTOMS.csv.gz`))) {
      for (let i = 1; i <= 5; i++) {
        const term = (row[`SYMPTOM${i}`] ?? '').trim();
        if (term !== '') terms.add(term);
      }
    }
  }
  return terms;
}

/** VAERS_ID as an integer (leading zeros ignored), or null. */
function parseId(cell: string | undefined): number | null {
  const s = (cell ?? '').trim();
  return /^\d+$/.test(s) ? Number(s) : null;
}

/** A MM/DD/YYYY date that exists on the calendar, or null. */
export function parseRecvdate(cell: string | undefined): RawDate | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec((cell ?? '').trim());
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** A non-negative number, or null for blank, non-numeric or negative cells. */
function parseNonNegative(cell: string | undefined): number | null {
  const s = (cell ?? '').trim();
  if (s === '') return null;
  const v = Number(s);
  return Number.isFinite(v) && v >= 0 ? v : null;
}

function pushDistinct(list: string[], cell: string | undefined): void {
  const s = (cell ?? '').trim();
  if (s !== '' && !list.includes(s)) list.push(s);
}

/**
 * Reads `<YEAR>VAERSDATA.csv.gz`, `<YEAR>VAERSVAX.csv.gz` and `<YEAR>VAERSSYMPTOMS.csv.gz` for each
 * year from `folder` (Windows-1252, header row; old 2014 layout or current layout, columns mapped
 * by header name) and joins them by VAERS_ID read as an integer. Keeps a report only when it has a
 * valid RECVDATE, at least one vaccine and at least one event; a VAERS_ID seen twice in DATA keeps
 * its first row. Returns the kept reports in DATA file order and the counts of what was dropped.
 */
export async function loadRawReports(folder: string, years: number[]): Promise<RawLoad> {
  // Once per test run for the same files (test/helpers/raw-csv.ts): several test files load all seventeen years.
  const files = years.flatMap((year) => ['DATA', 'VAX', 'SYMPTOMS'].map((kind) => path.join(folder, `${year}VAERS${kind}.csv.gz`)));
  return cachedForRun('raw-reports', files.map(fileDigest), () => joinRawReports(folder, years));
}

/** loadRawReports's work: the files read and joined. */
function joinRawReports(folder: string, years: number[]): RawLoad {
  const drops: RawDrops = { badId: 0, duplicateId: 0, badRecvdate: 0, noVaccine: 0, noEvent: 0, orphanVaxRows: 0, orphanSymptomRows: 0 };
  const dropExamples: string[] = [];
  const note = (what: string): void => { if (dropExamples.length < 20) dropExamples.push(what); };
  const byId = new Map<number, RawReport>();
  let dataRows = 0;
  for (const year of years) {
    const file = `${year}VAERSDATA.csv.gz`;
    for (const row of readCsvGz(path.join(folder, file))) {
      dataRows++;
      const id = parseId(row.VAERS_ID);
      if (id === null) { drops.badId++; note(`${file}: bad VAERS_ID ${JSON.stringify(row.VAERS_ID)}`); continue; }
      if (byId.has(id)) { drops.duplicateId++; note(`${file}: duplicate VAERS_ID ${id}`); continue; }
      const flag = (col: string): boolean => (row[col] ?? '').trim() === 'Y';
      const sex = (row.SEX ?? '').trim();
      const ageYrs = parseNonNegative(row.AGE_YRS);
      const cageYr = parseNonNegative(row.CAGE_YR);
      const cageMo = (row.CAGE_MO ?? '').trim() === '' ? 0 : parseNonNegative(row.CAGE_MO);
      const calculated = (row.AGE_YRS ?? '').trim() === '' && cageYr !== null && cageMo !== null && cageMo < 1 ? cageYr + cageMo : null;
      byId.set(id, {
        id,
        recvdate: parseRecvdate(row.RECVDATE),
        ageYrs,
        age: ageYrs ?? calculated,
        ageSource: ageYrs !== null ? 'AGE_YRS' : calculated !== null ? 'CAGE' : null,
        sex: sex === 'F' || sex === 'M' ? sex : 'U',
        died: flag('DIED'), lThreat: flag('L_THREAT'), erVisit: flag('ER_VISIT') || flag('ER_ED_VISIT'),
        hospital: flag('HOSPITAL'), xStay: flag('X_STAY'), disable: flag('DISABLE'),
        birthDefect: flag('BIRTH_DEFECT'), ofcVisit: flag('OFC_VISIT'),
        vaccines: [], vaxTypes: [], manufacturers: [], doses: [], events: [],
        numdays: parseNonNegative(row.NUMDAYS),
        state: (row.STATE ?? '').trim(),
        file,
      });
    }
  }
  for (const year of years) {
    for (const row of readCsvGz(path.join(folder, `${year}VAERSVAX.csv.gz`))) {
      const r = byId.get(parseId(row.VAERS_ID) ?? -1);
      if (!r) { drops.orphanVaxRows++; continue; }
      pushDistinct(r.vaccines, row.VAX_NAME);
      pushDistinct(r.vaxTypes, row.VAX_TYPE);
      pushDistinct(r.manufacturers, row.VAX_MANU);
      pushDistinct(r.doses, row.VAX_DOSE_SERIES ?? row.VAX_DOSE);
    }
    for (const row of readCsvGz(path.join(folder, `${year}VAERSSYMPTOMS.csv.gz`))) {
      const r = byId.get(parseId(row.VAERS_ID) ?? -1);
      if (!r) { drops.orphanSymptomRows++; continue; }
      for (let i = 1; i <= 5; i++) pushDistinct(r.events, row[`SYMPTOM${i}`]);
    }
  }
  const reports: RawReport[] = [];
  for (const r of byId.values()) {
    if (r.recvdate === null) { drops.badRecvdate++; note(`${r.file}: VAERS_ID ${r.id} has no valid RECVDATE`); continue; }
    if (r.vaccines.length === 0) { drops.noVaccine++; note(`${r.file}: VAERS_ID ${r.id} names no vaccine`); continue; }
    if (r.events.length === 0) { drops.noEvent++; note(`${r.file}: VAERS_ID ${r.id} names no event`); continue; }
    reports.push(r);
  }
  return { reports, dataRows, drops, dropExamples };
}

/** The quarter of a received date, as `YYYYQn`. */
export function quarterOf(recvdate: RawDate): string {
  return `${recvdate.year}Q${Math.floor((recvdate.month - 1) / 3) + 1}`;
}

/** The 4 quarters q-3..q of the window ending at `q` (`YYYYQn`), oldest first. */
export function windowQuarters(q: string): string[] {
  const m = /^(\d{4})Q([1-4])$/.exec(q);
  if (!m) throw new Error(`not a quarter: ${q}`);
  const index = Number(m[1]) * 4 + Number(m[2]) - 1;
  const out: string[] = [];
  for (let i = index - 3; i <= index; i++) out.push(`${Math.floor(i / 4)}Q${(i % 4) + 1}`);
  return out;
}

/** CDC WONDER's VAERS age groups, in order. */
export const AGE_GROUPS = [
  '<6 months', '6-11 months', '1-2 years', '3-5 years', '6-17 years', '18-29 years', '30-39 years',
  '40-49 years', '50-59 years', '60-64 years', '65-79 years', '80+ years', 'Unknown',
] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

/** The CDC WONDER VAERS age group of an age in years (intervals closed on the left); `Unknown` for null. */
export function ageGroup(ageYrs: number | null): AgeGroup {
  if (ageYrs === null || !Number.isFinite(ageYrs) || ageYrs < 0) return 'Unknown';
  const bounds: [number, AgeGroup][] = [
    [0.5, '<6 months'], [1, '6-11 months'], [3, '1-2 years'], [6, '3-5 years'], [18, '6-17 years'],
    [30, '18-29 years'], [40, '30-39 years'], [50, '40-49 years'], [60, '50-59 years'], [65, '60-64 years'],
    [80, '65-79 years'],
  ];
  for (const [upper, group] of bounds) if (ageYrs < upper) return group;
  return '80+ years';
}

/** Serious as in VAERS: died, life-threatening, hospitalised, prolonged stay, disability or birth defect (not ER alone). */
export function isSerious(r: RawReport): boolean {
  return r.died || r.lThreat || r.hospital || r.xStay || r.disable || r.birthDefect;
}

/** Empirica Signal's AGE_GROUP_6 of an age (whole years: 1.9 is `00_01`); `unknown` for null. */
export function ageGroup6(age: number | null): string {
  if (age === null) return 'unknown';
  const whole = Math.floor(age);
  return whole < 2 ? '00_01' : whole < 6 ? '02_05' : whole < 18 ? '06_17' : whole < 65 ? '18_64' : '65_above';
}

/**
 * Options of {@link pairStatistics}: `keep` restricts the computation to a subset of the reports;
 * `ages` the age groups of the strata (`age13`, CDC WONDER's, by default; `age6`, Empirica's
 * AGE_GROUP_6); `items` counts VAX_TYPE codes (`types`) instead of VAX_NAME (`names`, the default).
 */
export interface PairOptions {
  keep?: (r: RawReport) => boolean; ages?: 'age13' | 'age6'; items?: 'names' | 'types';
  /** An event group's terms: a report names the event when it carries any of them (the `event` argument is then only a name). */
  eventTerms?: readonly string[];
}

/** The counts and expected values of one vaccine x event pair in one window. */
export interface PairStats {
  n: number; n_vaccine: number; n_event: number; N: number;
  /** Crude expected count n_vaccine * n_event / N (null when N is 0). */
  E: number | null;
  /** Stratified expected count, sum over sex x age group (`ages`) x RECVDATE year strata (null when N is 0). */
  E_strat: number | null;
  /** Number of non-empty strata in the window. */
  strata: number;
}

/**
 * Counts, over the reports whose RECVDATE quarter lies in the window ending at `windowEnd`, the
 * distinct reports naming both `vaccine` and `event` (n), each of them (margins) and all (N), and
 * the crude and stratified expected counts (docs/design.md "Statistics, precisely").
 */
export function pairStatistics(reports: RawReport[], windowEnd: string, vaccine: string, event: string, options: PairOptions = {}): PairStats {
  const quarters = new Set(windowQuarters(windowEnd));
  let n = 0; let nVaccine = 0; let nEvent = 0; let total = 0;
  const strata = new Map<string, { nv: number; ne: number; all: number }>();
  for (const r of reports) {
    if (r.recvdate === null || !quarters.has(quarterOf(r.recvdate))) continue;
    if (options.keep && !options.keep(r)) continue;
    const hasV = (options.items === 'types' ? r.vaxTypes : r.vaccines).includes(vaccine);
    const hasE = options.eventTerms ? r.events.some((t) => options.eventTerms!.includes(t)) : r.events.includes(event);
    total++;
    if (hasV) nVaccine++;
    if (hasE) nEvent++;
    if (hasV && hasE) n++;
    const key = `${r.sex}|${options.ages === 'age6' ? ageGroup6(r.age) : ageGroup(r.age)}|${r.recvdate.year}`;
    let s = strata.get(key);
    if (!s) { s = { nv: 0, ne: 0, all: 0 }; strata.set(key, s); }
    s.all++;
    if (hasV) s.nv++;
    if (hasE) s.ne++;
  }
  let eStrat = 0;
  for (const s of strata.values()) eStrat += (s.nv * s.ne) / s.all;
  return {
    n, n_vaccine: nVaccine, n_event: nEvent, N: total,
    E: total === 0 ? null : (nVaccine * nEvent) / total,
    E_strat: total === 0 ? null : eStrat,
    strata: strata.size,
  };
}

/** Selection of {@link caseCounts}; `from` / `to` are inclusive quarters `YYYYQn`. */
export interface CaseQuery { vaccines?: string[]; events?: string[]; from?: string; to?: string }

/** The reports behind a query and their breakdowns (counts of reports). */
export interface CaseCounts {
  reports: number;
  ids: number[];
  bySex: Record<'F' | 'M' | 'U', number>;
  byAgeGroup: Record<AgeGroup, number>;
  byYear: Record<number, number>;
  serious: number; nonSerious: number; died: number;
}

/** `YYYYQn` as a sortable number (year * 4 + quarter - 1). */
function quarterIndex(q: string): number {
  const m = /^(\d{4})Q([1-4])$/.exec(q);
  if (!m) throw new Error(`not a quarter: ${q}`);
  return Number(m[1]) * 4 + Number(m[2]) - 1;
}

/**
 * The distinct reports naming a listed vaccine AND a listed event (a list left out does not
 * restrict), received in quarters `from`..`to`, with breakdowns by sex, age group, year and seriousness.
 */
export function caseCounts(reports: RawReport[], query: CaseQuery): CaseCounts {
  const from = query.from === undefined ? -Infinity : quarterIndex(query.from);
  const to = query.to === undefined ? Infinity : quarterIndex(query.to);
  const out: CaseCounts = {
    reports: 0, ids: [], bySex: { F: 0, M: 0, U: 0 },
    byAgeGroup: Object.fromEntries(AGE_GROUPS.map((g) => [g, 0])) as Record<AgeGroup, number>,
    byYear: {}, serious: 0, nonSerious: 0, died: 0,
  };
  for (const r of reports) {
    if (r.recvdate === null) continue;
    const q = quarterIndex(quarterOf(r.recvdate));
    if (q < from || q > to) continue;
    if (query.vaccines && !r.vaccines.some((v) => query.vaccines?.includes(v))) continue;
    if (query.events && !r.events.some((e) => query.events?.includes(e))) continue;
    out.reports++;
    out.ids.push(r.id);
    out.bySex[r.sex]++;
    out.byAgeGroup[ageGroup(r.age)]++;
    out.byYear[r.recvdate.year] = (out.byYear[r.recvdate.year] ?? 0) + 1;
    if (isSerious(r)) out.serious++; else out.nonSerious++;
    if (r.died) out.died++;
  }
  out.ids.sort((a, b) => a - b);
  return out;
}
