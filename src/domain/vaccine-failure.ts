/**
 * Vaccine failure, decided per report (the triage caution `vaccine_failure`; docs/triage.md). A
 * report of a vaccine is a **failure report** when it says the vaccine did not work:
 * - it names a lack-of-effect term (src/domain/term-category.ts category `lack_of_effect`: "Drug
 *   ineffective", "Vaccination failure", ...), whatever the vaccine; or
 * - it names a disease the vaccine prevents (`data/terms/vaccine-prevented.csv`: vaccine type ->
 *   disease terms); for a live vaccine with a reaction window (below) only when the onset is past
 *   that window (within it, varicella after varicella vaccine is the vaccine strain's rash); or
 * - the vaccine is live with a known reaction window (`data/terms/live-vaccine-windows.csv`:
 *   varicella, zoster, measles, mumps, rubella, 42 days, each with its source) and the report's
 *   onset is past that window: breakthrough disease coded under generic terms (Infection, Rash
 *   vesicular, Blister) after day 42 (CDC's definition of breakthrough varicella). The type's
 *   late adverse effects (herpes zoster after varicella vaccine: vaccine-strain reactivation)
 *   are not counted by onset.
 * A pair whose failure reports are at least FAILURE_SHARE of its reports reads as vaccine failure.
 *
 * Both lists are read once, on first use. A vaccine's rule is found from its `vax_type` (the
 * specification's type: the name before its brand, `MEASLES + MUMPS + RUBELLA`) or a VAX_TYPE
 * code's long name: a list row applies when its `vaccine` word begins a word of the type.
 * Ground floor: imports nothing outside src/domain.
 */
import { tableOnce, tableRows } from './csv-table.js';
import { termCategory } from './term-category.js';

/** Share of a pair's reports that are failure reports from which the pair is `vaccine_failure` (a majority: most of its count is about effectiveness). */
export const FAILURE_SHARE = 0.5;

/** One row of `vaccine-prevented.csv`: a word that begins a word of the vax_type, and the disease term. */
export interface PreventedDisease {
  vaccine: string;
  event: string;
}

/** One row of `live-vaccine-windows.csv`: the type word, its reaction window in days and its late adverse effects. */
export interface LiveWindow {
  vaccine: string;
  days: number;
  lateEffects: string[];
}

/** Where the lists live, at the repository root. */
export const PREVENTED_LIST_URL = new URL('../../data/terms/vaccine-prevented.csv', import.meta.url);
export const LIVE_WINDOWS_URL = new URL('../../data/terms/live-vaccine-windows.csv', import.meta.url);

/**
 * Parses `vaccine-prevented.csv` (header `vaccine,event,note`).
 * @throws Error naming the line of a row without a vaccine or an event.
 */
export function parsePreventedList(text: string): PreventedDisease[] {
  return tableRows(text).map(({ cells, line }) => {
    if (!cells.vaccine || !cells.event) throw new Error(`parsePreventedList: line ${line} needs a vaccine and an event`);
    return { vaccine: cells.vaccine, event: cells.event };
  });
}

/**
 * Parses `live-vaccine-windows.csv` (header `vaccine,days,late_effects,source`; late effects
 * joined by `;`).
 * @throws Error naming the line of a row without a vaccine, a whole number of days or a source.
 */
export function parseLiveWindows(text: string): LiveWindow[] {
  return tableRows(text).map(({ cells, line }) => {
    const days = Number(cells.days);
    if (!cells.vaccine || !Number.isInteger(days) || days < 0 || !cells.source) throw new Error(`parseLiveWindows: line ${line} needs a vaccine, whole days >= 0 and a source`);
    return { vaccine: cells.vaccine, days, lateEffects: (cells.late_effects ?? '').split(';').map((t) => t.trim()).filter((t) => t !== '') };
  });
}

const preventedList = tableOnce(PREVENTED_LIST_URL, parsePreventedList);
const liveWindows = tableOnce(LIVE_WINDOWS_URL, parseLiveWindows);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pattern of each word startsAWord was asked about (the lists' vaccines: a few dozen), compiled once (a triage window asks for every pair). */
const wordPatterns = new Map<string, RegExp>();

/** Whether `word` begins a word of `vaxType` (case-insensitive). Example: startsAWord('DTAP + HEPB + IPV', 'HEPB') = true; startsAWord('HEP B', 'HEP A') = false. */
export function startsAWord(vaxType: string, word: string): boolean {
  let pattern = wordPatterns.get(word);
  if (pattern === undefined) wordPatterns.set(word, (pattern = new RegExp(`(?:^|[^A-Z0-9])${escape(word)}`, 'i')));
  return pattern.test(vaxType);
}

/** The failure rule of one vaccine type: the disease terms it prevents (lower case), its reaction window (null: not a live vaccine with one) and the late effects not counted by onset (lower case). */
export interface FailureRule {
  prevented: ReadonlySet<string>;
  windowDays: number | null;
  lateEffects: ReadonlySet<string>;
}

/**
 * The failure rule of a vaccine type (`vaxType`: the vax_type, or a VAX_TYPE code's long name).
 * A combination takes every matching row; its window is the longest of its live components.
 * Example: failureRule('VARICELLA') = {prevented: {varicella}, windowDays: 42, lateEffects: {herpes zoster}};
 * failureRule('HEP B').windowDays = null.
 */
export function failureRule(vaxType: string): FailureRule {
  const prevented = new Set(preventedList().filter((r) => startsAWord(vaxType, r.vaccine)).map((r) => r.event.toLowerCase()));
  const live = liveWindows().filter((r) => startsAWord(vaxType, r.vaccine));
  return {
    prevented,
    windowDays: live.length ? Math.max(...live.map((r) => r.days)) : null,
    lateEffects: new Set(live.flatMap((r) => r.lateEffects.map((t) => t.toLowerCase()))),
  };
}

/** Why one report is a failure report: which of the three conditions it meets (several may hold). */
export interface FailureReasons {
  lackOfEffect: boolean;
  disease: boolean;
  lateOnset: boolean;
}

/** The failure test of one vaccine over terms of type T (names, or the build's event indexes): what failureReasons asks of a term. */
export interface FailureTest<T> {
  /** The reaction window in days of a live vaccine, else null. */
  windowDays: number | null;
  isLackOfEffect(term: T): boolean;
  prevents(term: T): boolean;
  isLateEffect(term: T): boolean;
}

/** The failure test of a vaccine type over term names (failureRule). */
export function termFailureTest(vaxType: string): FailureTest<string> {
  const rule = failureRule(vaxType);
  const key = (term: string): string => term.trim().toLowerCase();
  return {
    windowDays: rule.windowDays, isLackOfEffect: (term) => termCategory(term) === 'lack_of_effect',
    prevents: (term) => rule.prevented.has(key(term)), isLateEffect: (term) => rule.lateEffects.has(key(term)),
  };
}

/**
 * Whether a report of a vaccine is a failure report, and why: `terms` are the report's event
 * terms, `onsetDays` its onset in days after vaccination (null unknown; not capped), `event` the
 * pair's event (a late effect of the type is not counted by onset).
 * Example (varicella, window 42): terms [Infection], onset 100, event Infection -> lateOnset; onset 10 -> none;
 * terms [Varicella], onset 10 -> none (the vaccine strain's rash); terms [Drug ineffective] -> lackOfEffect.
 */
export function failureReasons<T>(test: FailureTest<T>, terms: Iterable<T>, onsetDays: number | null, event: T): FailureReasons {
  const late = test.windowDays !== null && onsetDays !== null && onsetDays > test.windowDays;
  let lackOfEffect = false, disease = false;
  for (const term of terms) {
    if (test.isLackOfEffect(term)) lackOfEffect = true;
    if (test.prevents(term) && (test.windowDays === null || late)) disease = true;
  }
  return { lackOfEffect, disease, lateOnset: late && !test.isLateEffect(event) };
}

/** Whether any reason holds. */
export function isFailure(reasons: FailureReasons): boolean {
  return reasons.lackOfEffect || reasons.disease || reasons.lateOnset;
}

/**
 * The term-level kind of an event (no reports needed): `lack_of_effect` for a lack-of-effect
 * term, `prevented_disease` when `event` is a disease the vaccine of type `vaxType` prevents,
 * else null. Used where only the term is known (the non-clinical caution leaves lack-of-effect
 * terms to `vaccine_failure`; a store without the per-report counts falls back on it).
 * Example: failureKind('VARICELLA', 'Varicella') = 'prevented_disease'; failureKind('VARICELLA', 'Herpes zoster') = null;
 * failureKind('HEP B', 'Drug ineffective') = 'lack_of_effect'.
 */
export function failureKind(vaxType: string, event: string): 'lack_of_effect' | 'prevented_disease' | null {
  if (termCategory(event) === 'lack_of_effect') return 'lack_of_effect';
  const term = event.trim().toLowerCase();
  return preventedList().some((row) => row.event.toLowerCase() === term && startsAWord(vaxType, row.vaccine)) ? 'prevented_disease' : null;
}
