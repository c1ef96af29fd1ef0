/**
 * Breakdowns of a case series: counts of distinct reports by sex, CDC
 * WONDER age group, onset interval (NUMDAYS), seriousness (21 CFR 600.80, src/domain/report-rules.ts)
 * and each outcome flag, dose of the matched vaccine, year received, state and manufacturer (top
 * 20 and the rest), and the 20 other vaccines and events most often named on the same reports;
 * then the lag from vaccination to receipt and, for a vaccine x event pair, the time to onset
 * against the same event after other vaccines (./timing.ts).
 * Counts of reports, never rates: VAERS has no denominator of doses.
 */
import { AGE_GROUPS, isSerious, OUTCOME, SEX_CODES, type OutcomeName } from '../../domain/report-rules.js';
import type { ReportIndex } from './index.js';
import { runAll, type Steps } from './slices.js';
import { formatQuarter } from '../../domain/quarter.js';
import { lagSteps, onsetSteps, STEP_REPORTS, type LagSummary, type OnsetComparison } from './timing.js';

/** How many entries the ranked breakdowns (state, manufacturer, co-reported names) list. */
export const TOP = 20;

/** Onset intervals of NUMDAYS (days from vaccination to onset), in order; `unknown`: blank, negative or not a whole number. */
export const ONSET_INTERVALS = ['0', '1', '2', '3', '4-7', '8-14', '15-30', '31-60', '61-120', '>120', 'unknown'] as const;

/** A ranked breakdown: the top entries by reports (ties by name), and the reports of the rest. */
export interface Ranked {
  top: Array<{ name: string; reports: number }>;
  /** Reports counted under the names past the top ones (a report may count under several names). */
  other: number;
}

/** Every breakdown of a case series. */
export interface Breakdowns {
  sex: Record<string, number>;
  age_group: Record<string, number>;
  onset_interval: Record<string, number>;
  /** Reports that are serious, and that are not. */
  serious: { serious: number; not_serious: number };
  /** Reports with each outcome flag set (`Y`); birth_defect and ofc_visit exist only in the current layout. */
  outcomes: Record<string, number>;
  /** Per report, the dose (VAX_DOSE or VAX_DOSE_SERIES) of its first row of a matched vaccine (of any vaccine when none was asked); `unknown` when blank. */
  dose: Record<string, number>;
  received_year: Record<string, number>;
  state: Ranked;
  /** Manufacturers of the matched vaccines' rows (of every row when no vaccine was asked); a report counts once per manufacturer. */
  manufacturer: Ranked;
  /** The other vaccines (not matched; every vaccine when none was asked) named on these reports. */
  co_vaccines: Ranked;
  /** The other events (not matched) named on these reports. */
  co_events: Ranked;
  /** Reports per lag interval (days from VAX_DATE to RECVDATE, ./timing.ts LAG_INTERVALS). */
  lag_interval: Record<string, number>;
  /** Median, quartiles and share over a year of the known lags. */
  lag: LagSummary;
  /** With a vaccine and an event (not q): onset days 0..60 against the event after other vaccines; else null. */
  onset_comparison: OnsetComparison | null;
}

/** The position in ONSET_INTERVALS of the onset interval of a NUMDAYS value (`unknown`, the last, for a blank, negative or fractional one). */
function onsetIntervalIndex(days: number): number {
  if (!Number.isInteger(days) || days < 0) return ONSET_INTERVALS.length - 1;
  if (days <= 3) return days;
  if (days <= 7) return 4;
  if (days <= 14) return 5;
  if (days <= 30) return 6;
  if (days <= 60) return 7;
  return days <= 120 ? 8 : 9;
}

/** The outcome flags as (breakdown key, bit), lower-cased once. */
const OUTCOME_KEYS: ReadonlyArray<readonly [string, number]> = (Object.entries(OUTCOME) as Array<[OutcomeName, number]>).map(([name, bit]) => [name.toLowerCase(), bit]);

function zeros(keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((k) => [k, 0]));
}

function add(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The top `TOP` entries of a count map (most reports first, ties by name) and the rest's sum. */
export function ranked(counts: ReadonlyMap<string, number>): Ranked {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    top: sorted.slice(0, TOP).map(([name, reports]) => ({ name, reports })),
    other: sorted.slice(TOP).reduce((sum, [, n]) => sum + n, 0),
  };
}

/**
 * The breakdowns of reports `reports` (indexes into the index's data). `vaccines` and `events`
 * are the matched names (null: not asked); they select the rows of the dose and manufacturer
 * breakdowns and are left out of the co-reported lists. `others`: the reports of the same
 * event(s) naming no matched vaccine (the onset comparison's other group), or null for none.
 */
export function breakdowns(index: ReportIndex, reports: Int32Array, vaccines: readonly string[] | null, events: readonly string[] | null,
  others: Int32Array | null = null): Breakdowns {
  return runAll(breakdownSteps(index, reports, vaccines, events, others));
}

/** {@link breakdowns} in steps (a yield every STEP_REPORTS reports; src/serve/cases/slices.ts runs them). */
export function* breakdownSteps(index: ReportIndex, reports: Int32Array, vaccines: readonly string[] | null, events: readonly string[] | null,
  others: Int32Array | null = null): Steps<Breakdowns> {
  const { data } = index;
  const matchedVaccine = new Uint8Array(index.vaccineNames.length);
  const matchedEvent = new Uint8Array(index.eventNames.length);
  for (const v of vaccines ?? []) if (index.vaccineIdOf.has(v)) matchedVaccine[index.vaccineIdOf.get(v)!] = 1;
  for (const e of events ?? []) if (index.eventIdOf.has(e)) matchedEvent[index.eventIdOf.get(e)!] = 1;
  const out: Breakdowns = {
    sex: zeros(SEX_CODES), age_group: zeros(AGE_GROUPS.map((g) => g.label)), onset_interval: zeros(ONSET_INTERVALS),
    serious: { serious: 0, not_serious: 0 }, outcomes: zeros(OUTCOME_KEYS.map(([key]) => key)),
    dose: {}, received_year: {}, state: { top: [], other: 0 }, manufacturer: { top: [], other: 0 },
    co_vaccines: { top: [], other: 0 }, co_events: { top: [], other: 0 },
    ...yield* lagSteps(data, reports), onset_comparison: others === null ? null : yield* onsetSteps(data, reports, others),
  };
  const dose = new Map<string, number>();
  const state = new Map<string, number>();
  const manufacturer = new Map<string, number>();
  // Counted by code position (sex, age group, onset interval, outcome bit, RECVDATE quarter) and
  // named once after the loop, in the same key order (issue 41: a text alone may select 10^5 reports).
  const sexes = new Float64Array(SEX_CODES.length);
  const ages = new Float64Array(AGE_GROUPS.length);
  const onsets = new Float64Array(ONSET_INTERVALS.length);
  const outcomes = new Float64Array(OUTCOME_KEYS.length);
  const quarters = new Map<number, number>();
  let serious = 0;
  /** The last report that counted each manufacturer: one count per report. */
  const makerSeen = new Map<string, number>();
  const coVaccines = new Int32Array(index.vaccineNames.length);
  const coEvents = new Int32Array(index.eventNames.length);
  // The last report that counted each name: a name counts once per report.
  const vaccineSeen = new Int32Array(index.vaccineNames.length).fill(-1);
  const eventSeen = new Int32Array(index.eventNames.length).fill(-1);
  for (let i = 0; i < reports.length; i++) {
    if (i % STEP_REPORTS === STEP_REPORTS - 1) yield;
    const r = reports[i];
    sexes[data.sex[r]]++;
    ages[data.ageGroup[r]]++;
    onsets[onsetIntervalIndex(data.numdays[r])]++;
    const flags = data.outcomes[r];
    if (isSerious(flags)) serious++;
    for (let k = 0; k < OUTCOME_KEYS.length; k++) if (flags & OUTCOME_KEYS[k][1]) outcomes[k]++;
    quarters.set(data.quarter[r], (quarters.get(data.quarter[r]) ?? 0) + 1);
    add(state, data.state[r] ?? 'unknown');
    let firstDose: string | null | undefined;
    for (let row = data.vaccines.start[r]; row < data.vaccines.start[r + 1]; row++) {
      const id = index.vaccineId[row];
      if (vaccines === null || matchedVaccine[id]) {
        if (firstDose === undefined) firstDose = data.vaccines.dose.at(row);
        const maker = data.vaccines.manufacturer.at(row) ?? 'unknown';
        if (makerSeen.get(maker) !== r) {
          makerSeen.set(maker, r);
          add(manufacturer, maker);
        }
      }
      if (!matchedVaccine[id] && vaccineSeen[id] !== r) {
        vaccineSeen[id] = r;
        coVaccines[id]++;
      }
    }
    add(dose, firstDose ?? 'unknown');
    for (let row = data.events.start[r]; row < data.events.start[r + 1]; row++) {
      const id = index.eventId[row];
      if (!matchedEvent[id] && eventSeen[id] !== r) {
        eventSeen[id] = r;
        coEvents[id]++;
      }
    }
  }
  SEX_CODES.forEach((code, k) => (out.sex[code] = sexes[k]));
  AGE_GROUPS.forEach((group, k) => (out.age_group[group.label] = ages[k]));
  ONSET_INTERVALS.forEach((interval, k) => (out.onset_interval[interval] = onsets[k]));
  OUTCOME_KEYS.forEach(([name], k) => (out.outcomes[name] = outcomes[k]));
  out.serious = { serious, not_serious: reports.length - serious };
  // The year received: RECVDATE's year, the year of its quarter (src/serve/store/reports.ts checks each report's quarter against its RECVDATE).
  const years: Record<string, number> = {};
  for (const [quarter, n] of quarters) {
    const year = formatQuarter(quarter).slice(0, 4);
    years[year] = (years[year] ?? 0) + n;
  }
  out.dose = Object.fromEntries([...dose].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  out.received_year = Object.fromEntries(Object.entries(years).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  out.state = ranked(state);
  out.manufacturer = ranked(manufacturer);
  out.co_vaccines = ranked(named(index.vaccineNames, coVaccines));
  out.co_events = ranked(named(index.eventNames, coEvents));
  return out;
}

/** The names counted at least once (`counts` by name id), with their counts, in id order. */
function named(names: readonly string[], counts: Int32Array): Map<string, number> {
  const out = new Map<string, number>();
  for (let id = 0; id < names.length; id++) if (counts[id] > 0) out.set(names[id], counts[id]);
  return out;
}
