/**
 * Hand-written reports as the linkage's columns (src/linkage/features.ts LinkageColumns), for the
 * linkage tests and bench/linkage.ts: each report a plain object, dates as `yyyymmdd` numbers.
 */
import { SEX_CODES } from '../../src/domain/report-rules.js';
import type { LinkageColumns } from '../../src/linkage/features.js';

/** One report as written by hand (missing values: null, 0 for dates). */
export interface FixtureReport {
  id: number;
  /** RECVDATE, yyyymmdd. */
  received?: number;
  age?: number | null;
  sex?: 'F' | 'M' | 'U';
  state?: string | null;
  /** VAX_DATE, yyyymmdd (0: blank). */
  vaxDate?: number;
  onsetDate?: number;
  vaccines: Array<{ name: string; lot?: string | null }>;
  events: string[];
  splttype?: string | null;
  narrative?: string | null;
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
  const eventStart = [0];
  const term: number[] = [];
  for (const r of reports) {
    for (const v of r.vaccines) {
      name.push(of(v.name));
      lot.push(of(v.lot ?? null));
    }
    vaxStart.push(name.length);
    for (const e of r.events) term.push(of(e));
    eventStart.push(term.length);
  }
  return {
    count: reports.length,
    id: Float64Array.from(reports, (r) => r.id),
    received: Int32Array.from(reports, (r) => r.received ?? 20000101),
    age: Float64Array.from(reports, (r) => r.age ?? NaN),
    sex: Uint8Array.from(reports, (r) => SEX_CODES.indexOf(r.sex ?? 'U')),
    state: Int32Array.from(reports, (r) => of(r.state ?? null)),
    vaxDate: Int32Array.from(reports, (r) => r.vaxDate ?? 0),
    onsetDate: Int32Array.from(reports, (r) => r.onsetDate ?? 0),
    splttype: Int32Array.from(reports, (r) => of(r.splttype ?? null)),
    narrative: reports.map((r) => r.narrative ?? null),
    vaccines: { start: Int32Array.from(vaxStart), name: Int32Array.from(name), lot: Int32Array.from(lot) },
    events: { start: Int32Array.from(eventStart), term: Int32Array.from(term) },
    strings,
  };
}

/** Report `i` of `columns` as a plain object (the inverse of columnsOf, for copying real reports). */
export function reportOf(columns: LinkageColumns, i: number): FixtureReport {
  const s = (k: number): string | null => (k >= 0 ? columns.strings[k] : null);
  const vaccines: FixtureReport['vaccines'] = [];
  for (let k = columns.vaccines.start[i]; k < columns.vaccines.start[i + 1]; k++) {
    vaccines.push({ name: s(columns.vaccines.name[k])!, lot: s(columns.vaccines.lot[k]) });
  }
  const events: string[] = [];
  for (let k = columns.events.start[i]; k < columns.events.start[i + 1]; k++) events.push(s(columns.events.term[k])!);
  return {
    id: columns.id[i], received: columns.received[i], age: Number.isNaN(columns.age[i]) ? null : columns.age[i],
    sex: SEX_CODES[columns.sex[i]] as 'F' | 'M' | 'U', state: s(columns.state[i]), vaxDate: columns.vaxDate[i], onsetDate: columns.onsetDate[i],
    vaccines, events, splttype: s(columns.splttype[i]), narrative: columns.narrative?.[i] ?? null,
  };
}
