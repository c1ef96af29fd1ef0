/**
 * The one owner of the analyses' rules: the build (src/mining) counts each analysis's reports by
 * them, and the case series (src/signals) restricts `/analyses/NAME/cases` by them.
 *
 * The named analyses of a build (issue 10; DESIGN.md "Statistics, precisely" -> Analyses): an
 * analysis is a subset of the reports plus a way to compute the expected count E.
 *
 * - `all`: every report, crude E = n_vaccine * n_event / N (the specification's tool chain).
 * - `stratified`: every report, E summed over strata of sex (F, M, U) x CDC WONDER age group x
 *   year of RECVDATE, `E = sum_s n_vaccine,s * n_event,s / N_s` (DuMouchel 1999, section 2;
 *   openEBGM `processRaw(stratify = TRUE)`), as Empirica Signal runs VAERS for FDA and CDC.
 * - the subsets `serious`, `death`, `pediatric`, `adult`, `elderly`, `female`, `male`: only the
 *   reports that satisfy the rule, with stratified E.
 * In every analysis `n` is the report count; MGPS and IC use the analysis's E; PRR and ROR keep
 * the crude 2x2 report table of the analysis's reports (as Empirica and openEBGM do).
 */
import { UserError } from './errors.js';
import { AGE_GROUPS, SEX_CODES, isSerious, OUTCOME, type ReportFields } from './vaers/report-fields.js';

/** What an analysis needs to know of a report: its report-level fields (src/vaers/report-fields.ts). */
export type AnalysisReport = ReportFields;

/** One analysis: its name, words for people and its rule. */
export interface AnalysisDefinition {
  name: string;
  title: string;
  /** One sentence on what the analysis is. */
  description: string;
  /** The subset rule in words, or null for every report. */
  subset: string | null;
  /** Whether E is stratified (by sex, age group and year of RECVDATE). */
  stratified: boolean;
  /** True when the report belongs to the analysis. */
  keeps(report: AnalysisReport): boolean;
}

const STRATIFIED_E = 'E is stratified by sex, age group and year of report (DuMouchel 1999); n, PRR and ROR use the crude report table.';
const every = (): boolean => true;

/** The analyses, in their canonical order. */
export const ANALYSES: readonly AnalysisDefinition[] = [
  { name: 'all', title: 'All reports, crude', subset: null, stratified: false, keeps: every,
    description: 'Every report; E = n_vaccine * n_event / N from the whole window (the specification\'s computation).' },
  { name: 'stratified', title: 'All reports, stratified', subset: null, stratified: true, keeps: every,
    description: `Every report. ${STRATIFIED_E}` },
  { name: 'serious', title: 'Serious reports', stratified: true,
    subset: 'any of DIED, L_THREAT, HOSPITAL, X_STAY, DISABLE, BIRTH_DEFECT is Y (21 CFR 600.80; ER_VISIT alone is not serious)',
    keeps: (r) => isSerious(r.outcomes),
    description: `Reports of a death, a life-threatening event, a hospitalisation or its prolongation, a disability or a birth defect. ${STRATIFIED_E}` },
  { name: 'death', title: 'Deaths', stratified: true, subset: 'DIED is Y', keeps: (r) => (r.outcomes & OUTCOME.DIED) !== 0,
    description: `Reports of a death. ${STRATIFIED_E}` },
  { name: 'pediatric', title: 'Pediatric (under 18)', stratified: true, subset: 'AGE_YRS < 18 (reports without an age are left out)',
    keeps: (r) => r.age !== null && r.age < 18, description: `Reports of patients under 18 years. ${STRATIFIED_E}` },
  { name: 'adult', title: 'Adults (18 to 64)', stratified: true, subset: '18 <= AGE_YRS < 65 (reports without an age are left out)',
    keeps: (r) => r.age !== null && r.age >= 18 && r.age < 65, description: `Reports of patients aged 18 to 64 years. ${STRATIFIED_E}` },
  { name: 'elderly', title: 'Elderly (65 and over)', stratified: true, subset: 'AGE_YRS >= 65 (reports without an age are left out)',
    keeps: (r) => r.age !== null && r.age >= 65, description: `Reports of patients aged 65 years or more. ${STRATIFIED_E}` },
  { name: 'female', title: 'Female', stratified: true, subset: 'SEX is F (reports without F or M are left out)',
    keeps: (r) => r.sex === 'F', description: `Reports of female patients. ${STRATIFIED_E}` },
  { name: 'male', title: 'Male', stratified: true, subset: 'SEX is M (reports without F or M are left out)',
    keeps: (r) => r.sex === 'M', description: `Reports of male patients. ${STRATIFIED_E}` },
];

/** The names of ANALYSES, in order. */
export const ANALYSIS_NAMES: readonly string[] = ANALYSES.map((a) => a.name);

/** What a stratum is made of, in the stratum index's order (outermost first). */
export const STRATIFIED_BY = ['year of RECVDATE', 'age group (CDC WONDER)', 'sex (F, M, U)'] as const;

/**
 * Parses `--analyses all,stratified,serious` (`all` alone by default): names in the given
 * order, the first being the default analysis.
 * @throws UserError on an unknown, repeated or missing name (the message lists the names).
 */
export function parseAnalyses(text: string | undefined): AnalysisDefinition[] {
  const names = (text ?? 'all').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new UserError(`--analyses: no analysis named (choose from ${ANALYSIS_NAMES.join(', ')})`);
  const seen = new Set<string>();
  return names.map((name) => {
    const analysis = ANALYSES.find((a) => a.name === name);
    if (!analysis) throw new UserError(`--analyses: unknown analysis "${name}" (choose from ${ANALYSIS_NAMES.join(', ')})`);
    if (seen.has(name)) throw new UserError(`--analyses: "${name}" is named twice`);
    seen.add(name);
    return analysis;
  });
}

/** Number of strata of a history whose reports' years run from `firstYear` to `lastYear`. */
export function strataCount(firstYear: number, lastYear: number): number {
  return (lastYear - firstYear + 1) * AGE_GROUPS.length * SEX_CODES.length;
}

/** Stratum index of a report: (year - firstYear, age group, sex) in STRATIFIED_BY order. */
export function stratumOf(report: AnalysisReport, firstYear: number): number {
  return ((report.year - firstYear) * AGE_GROUPS.length + report.ageGroup) * SEX_CODES.length + SEX_CODES.indexOf(report.sex);
}

/**
 * The analyses of the default store (`serve` without `--store`, built from data/vaers into the
 * cache, src/cache/): the default analysis first. The one list: an analysis added here joins the
 * default store (and changes its cache key, so the next start rebuilds).
 */
export const DEFAULT_ANALYSES: readonly string[] = ['all', 'stratified', 'serious', 'death', 'pediatric', 'elderly'];
