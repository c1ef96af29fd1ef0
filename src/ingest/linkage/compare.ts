/**
 * The comparisons of two reports: per field, an agreement level, and the pair's levels packed
 * into one integer (its comparison pattern, the unit the EM and the weights work on).
 *
 * Per field, level 0 is **missing** (either report lacks the value: the field then weighs 0,
 * as in vigiMatch's hit-miss model, Noren et al. 2007), level 1 is disagreement and higher
 * levels are ever closer agreement:
 *
 * | field | levels after `disagree` |
 * |---|---|
 * | `age` | within 1 year, exact (within 0.01 year) |
 * | `sex` | agree (U is missing) |
 * | `state` | agree |
 * | `vax_date` | partial, exact |
 * | `onset_date` | partial or within 3 days, exact |
 * | `vaccines` | overlap (Jaccard of the VAX_NAME sets >= 0.5), same set (never missing: every kept report names one) |
 * | `lots` | a lot in common (normalised lots compared exactly: lots one character apart are other vials) |
 * | `events` | some term in common, Jaccard >= 0.5, same set |
 * | `splttype` | same SPLTTYPE (manufacturer or project report number) |
 * | `narrative` | Jaccard of the word sets >= 0.2, >= 0.5, >= 0.8 |
 * | `medicines` | OTHER_MEDS words: some in common, Jaccard >= 0.5 (concomitant medicines: evidence both ways) |
 *
 * Dates (issue 43): two vaccination dates that differ, even by a day, disagree (two visits);
 * **partial** agreement is a date that may be imputed (features.ts vaxImputed: the 1st of a month,
 * 1 January) lying in the other's month (year), the same such date in both, or a date that the
 * other report's narrative names (features.ts namedDays: a follow-up correcting the date). Onset
 * dates within 3 days agree partially too. Jaccard: |A n B| / |A u B| over sorted distinct values.
 */
import { NO_MEDICINE, type LinkageFeatures } from './features.js';

/** One compared field: its name (as in ReportLink.agreed) and the names of its levels from 1 (`disagree`) on. */
export interface ComparedField {
  name: string;
  levels: readonly string[];
}

/** The compared fields, in pattern digit order (see the module header). */
export const COMPARED_FIELDS: readonly ComparedField[] = [
  { name: 'age', levels: ['disagree', 'within 1 year', 'exact'] },
  { name: 'sex', levels: ['disagree', 'agree'] },
  { name: 'state', levels: ['disagree', 'agree'] },
  { name: 'vax_date', levels: ['disagree', 'partial', 'exact'] },
  { name: 'onset_date', levels: ['disagree', 'within 3 days or partial', 'exact'] },
  { name: 'vaccines', levels: ['disagree', 'overlap', 'same'] },
  { name: 'lots', levels: ['disagree', 'same'] },
  { name: 'events', levels: ['disagree', 'some', 'half', 'same'] },
  { name: 'splttype', levels: ['disagree', 'agree'] },
  { name: 'narrative', levels: ['disagree', 'some', 'similar', 'near identical'] },
  { name: 'medicines', levels: ['disagree', 'some', 'half'] },
];

/** Per field, the radix of its digit in a pattern (levels + 1 for missing). */
export const RADIX: readonly number[] = COMPARED_FIELDS.map((f) => f.levels.length + 1);

/** The level of each field in `pattern` (0: missing, 1: disagree, higher: closer agreement). */
export function levelsOf(pattern: number): number[] {
  const levels: number[] = [];
  for (const radix of RADIX) {
    levels.push(pattern % radix);
    pattern = Math.floor(pattern / radix);
  }
  return levels;
}

/** The pattern of per-field `levels` (the inverse of levelsOf). */
export function patternOf(levels: readonly number[]): number {
  let pattern = 0;
  for (let k = RADIX.length - 1; k >= 0; k--) pattern = pattern * RADIX[k] + levels[k];
  return pattern;
}

/** Names of the fields that agree in `pattern`: the name at the top level, `name:level` below it. */
export function agreedFields(pattern: number): string[] {
  return levelsOf(pattern).flatMap((level, k) => {
    const field = COMPARED_FIELDS[k];
    if (level < 2) return [];
    return [level === field.levels.length ? field.name : `${field.name}:${field.levels[level - 1]}`];
  });
}

/** Jaccard index |A n B| / |A u B| of two sorted distinct arrays (0 when both are empty). */
export function jaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { common++; i++; j++; } else if (a[i] < b[j]) i++; else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}

/** Year and month (year * 12 + month) of a day number. */
function monthOf(day: number): number {
  const d = new Date(day * 86_400_000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** Whether a day that may be imputed (`imputed`: 2 from a year, 1 from a month) lies in the year or month of `other`. */
function withinImputed(day: number, imputed: number, other: number): boolean {
  if (imputed === 0) return false;
  const [x, y] = [monthOf(day), monthOf(other)];
  return imputed === 2 ? Math.floor(x / 12) === Math.floor(y / 12) : x === y;
}

/** Whether the sorted list `list` holds `value` (binary search; e.g. whether sorted distinct named days hold a day). */
export function sortedIncludes(list: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] === value) return true;
    if (list[mid] < value) lo = mid + 1; else hi = mid - 1;
  }
  return false;
}

/**
 * Level of two reports' dates (-1 missing; see the module header): 3 exact (the same day, not
 * possibly imputed), 2 partial (the same possibly imputed day, one possibly imputed day in the
 * other's month or year, a day the other's narrative names, or days at most `within` apart), 1
 * disagree, 0 missing.
 */
function dateLevel(f: LinkageFeatures, a: number, b: number, x: number, y: number, ix: number, iy: number, within: number): number {
  if (x < 0 || y < 0) return 0;
  if (x === y) return ix === 0 && iy === 0 ? 3 : 2;
  if (Math.abs(x - y) <= within || withinImputed(x, ix, y) || withinImputed(y, iy, x) || sortedIncludes(f.namedDays[a], y) || sortedIncludes(f.namedDays[b], x)) return 2;
  return 1;
}

/** Level of two reports' lots: 2 a lot in common, 1 disagree, 0 missing. */
function lotLevel(f: LinkageFeatures, a: number, b: number): number {
  const x = f.lots[a];
  const y = f.lots[b];
  if (x.length === 0 || y.length === 0) return 0;
  return jaccard(x, y) > 0 ? 2 : 1;
}

/** Level of two reports' concomitant medicines: 3 Jaccard >= 0.5, 2 some word in common, 1 disagree (none against a list too), 0 missing (none twice too). */
function medicineLevel(f: LinkageFeatures, a: number, b: number): number {
  const [x, y] = [f.medicines[a], f.medicines[b]];
  if (x.length === 0 || y.length === 0 || (x.length === 1 && y.length === 1 && x[0] === NO_MEDICINE && y[0] === NO_MEDICINE)) return 0;
  const j = jaccard(f.medicines[a], f.medicines[b]);
  return j >= 0.5 ? 3 : j > 0 ? 2 : 1;
}

/** The comparison pattern of reports `a` and `b` (see the module header). */
export function comparePair(f: LinkageFeatures, a: number, b: number): number {
  const ageA = f.age[a];
  const ageB = f.age[b];
  const ageGap = Math.abs(ageA - ageB);
  const age = Number.isNaN(ageGap) ? 0 : ageGap <= 0.01 ? 3 : ageGap <= 1 + 1e-9 ? 2 : 1;
  const sex = f.sex[a] === 0 || f.sex[b] === 0 ? 0 : f.sex[a] === f.sex[b] ? 2 : 1;
  const state = f.state[a] < 0 || f.state[b] < 0 ? 0 : f.state[a] === f.state[b] ? 2 : 1;
  const vaccineJaccard = jaccard(f.vaccines[a], f.vaccines[b]);
  const vaccines = vaccineJaccard === 1 ? 3 : vaccineJaccard >= 0.5 ? 2 : 1;
  const eventJaccard = jaccard(f.events[a], f.events[b]);
  const events = eventJaccard === 1 ? 4 : eventJaccard >= 0.5 ? 3 : eventJaccard > 0 ? 2 : 1;
  const splttype = f.splttype[a] === '' || f.splttype[b] === '' ? 0 : f.splttype[a] === f.splttype[b] ? 2 : 1;
  let narrative = 0;
  if (f.narrative[a].length > 0 && f.narrative[b].length > 0) {
    const j = jaccard(f.narrative[a], f.narrative[b]);
    narrative = j >= 0.8 ? 4 : j >= 0.5 ? 3 : j >= 0.2 ? 2 : 1;
  }
  // patternOf([age, sex, state, vax_date, onset_date, vaccines, lots, events, splttype, narrative, medicines]), unrolled.
  let pattern = medicineLevel(f, a, b);
  pattern = pattern * RADIX[9] + narrative;
  pattern = pattern * RADIX[8] + splttype;
  pattern = pattern * RADIX[7] + events;
  pattern = pattern * RADIX[6] + lotLevel(f, a, b);
  pattern = pattern * RADIX[5] + vaccines;
  pattern = pattern * RADIX[4] + dateLevel(f, a, b, f.onsetDay[a], f.onsetDay[b], f.onsetImputed[a], f.onsetImputed[b], 3);
  pattern = pattern * RADIX[3] + dateLevel(f, a, b, f.vaxDay[a], f.vaxDay[b], f.vaxImputed[a], f.vaxImputed[b], 0);
  pattern = pattern * RADIX[2] + state;
  pattern = pattern * RADIX[1] + sex;
  return pattern * RADIX[0] + age;
}

/** The fields an exact duplicate must agree on, each equal or missing (the last four equal and present). */
const EXACT_FIELDS = ['age', 'sex', 'state', 'vax_date', 'onset_date', 'vaccines', 'events'].map((name) => COMPARED_FIELDS.findIndex((c) => c.name === name));

/**
 * Whether `pattern` is an exact duplicate: age, sex and state equal or missing, both vaccination
 * and onset dates known and equal, the same vaccines and the same events (lots, SPLTTYPE and
 * narrative are not looked at: a manufacturer's and a provider's report of one case differ there).
 * linkReports links such pairs whatever their weight.
 */
export function isExactDuplicate(pattern: number): boolean {
  const levels = levelsOf(pattern);
  return EXACT_FIELDS.every((k, n) => levels[k] === RADIX[k] - 1 || (n < 3 && levels[k] === 0));
}

const IDENTITY_FIELDS = Object.fromEntries(['age', 'sex', 'state', 'vax_date', 'events', 'narrative', 'splttype'].map((name) => [name, COMPARED_FIELDS.findIndex((c) => c.name === name)]));

/**
 * Whether `pattern` describes one case rather than two patients of one campaign (same day,
 * vaccines, lots and often age, as for infants of one well-baby clinic day, agree together for
 * different patients, which the independence of the fields cannot see):
 *
 * - the pair must not disagree on age (more than 1 year apart), sex, state or vaccination date
 *   (different days, unless possibly imputed or named by the other report: the same child's
 *   next visit, or another patient of one clinic; issue 43), unless it has the
 *   same SPLTTYPE (the manufacturer's number of one report); the EM's m of those disagreements,
 *   fitted on cohorts, is far too high to veto them by weight. Near identical narratives are no
 *   exemption: manufacturers' templated narratives (e.g. Fluvirin medication-error reports of
 *   different children, VAERS_ID 230745 and 230746) share 80% of their words;
 * - and must agree on the event or on the report itself: half the events (Jaccard >= 0.5), or
 *   narratives sharing half their words, or the same SPLTTYPE, or the same age (to 0.01 year)
 *   with some event or some narrative words (Jaccard >= 0.2) in common, or age within 1 year with
 *   both some event and some narrative words in common (infants of one clinic day within a year
 *   of age who both had Pyrexia are common). (Onset dates are not enough:
 *   an onset on the day of vaccination is common to a clinic day's reports.)
 *
 * linkReports links no other pair but exact duplicates (which agree on the events and never
 * disagree on age, sex or state).
 */
export function identifiesCase(pattern: number): boolean {
  const levels = levelsOf(pattern);
  const { age, sex, state, vax_date: vaxDate, events, narrative, splttype } = IDENTITY_FIELDS;
  if (levels[splttype] !== 2 && (levels[age] === 1 || levels[sex] === 1 || levels[state] === 1 || levels[vaxDate] === 1)) return false;
  return levels[events] >= 3 || levels[narrative] >= 3 || levels[splttype] === 2
    || (levels[age] === 3 && (levels[events] >= 2 || levels[narrative] >= 2))
    || (levels[age] === 2 && levels[events] >= 2 && levels[narrative] >= 2);
}
