/**
 * The domain rules of a report's own fields, defined once for the build and the server: the sex
 * codes, the CDC WONDER age groups of `AGE_YRS`, the outcome flags and the seriousness rule.
 *
 * Sources: the VAERS data use guide (vaers.hhs.gov: `SEX` is F, M or U; `AGE_YRS` in years;
 * the outcome columns hold `Y` or are empty; `BIRTH_DEFECT` and `OFC_VISIT` exist only in the
 * current column layout); CDC WONDER's VAERS age groups; 21 CFR 600.80(a) for "serious" (death,
 * a life-threatening event, hospitalisation or its prolongation, persistent or significant
 * disability, a congenital anomaly/birth defect; an emergency-room visit alone is not serious).
 *
 * Ground floor: this file imports nothing outside src/domain.
 */

/** Sex of a report: `F`, `M`, or `U` for anything else (blank, `U`, other codes). */
export type Sex = 'F' | 'M' | 'U';

/** Sex codes in the order of their index (`SEX_CODES[sexIndex(...)]`). */
export const SEX_CODES: readonly Sex[] = ['F', 'M', 'U'];

/** `SEX` cell -> `F`, `M` or `U` (trimmed, case-insensitive; anything else is `U`). */
export function sexOf(cell: string): Sex {
  const code = cell.trim().toUpperCase();
  return code === 'F' || code === 'M' ? code : 'U';
}

/**
 * CDC WONDER's VAERS age groups of `AGE_YRS`, each a half-open interval [min, max) in years;
 * the last group `Unknown` takes a blank or non-numeric age (and a negative one).
 */
export const AGE_GROUPS: ReadonlyArray<{ label: string; min: number; max: number }> = [
  { label: '<6 months', min: 0, max: 0.5 },
  { label: '6-11 months', min: 0.5, max: 1 },
  { label: '1-2 years', min: 1, max: 3 },
  { label: '3-5 years', min: 3, max: 6 },
  { label: '6-17 years', min: 6, max: 18 },
  { label: '18-29 years', min: 18, max: 30 },
  { label: '30-39 years', min: 30, max: 40 },
  { label: '40-49 years', min: 40, max: 50 },
  { label: '50-59 years', min: 50, max: 60 },
  { label: '60-64 years', min: 60, max: 65 },
  { label: '65-79 years', min: 65, max: 80 },
  { label: '80+ years', min: 80, max: Infinity },
  { label: 'Unknown', min: NaN, max: NaN },
];

/**
 * Empirica Signal's `AGE_GROUP_6` of the age in whole years (Oracle Empirica Signal VAERS release
 * notes: the strata of the standard VAERS data-mining runs), each [min, max) in whole years; the
 * last, `unknown`, takes a report without an age.
 */
export const AGE_GROUPS_6: ReadonlyArray<{ label: string; min: number; max: number }> = (
  [['00_01', 0, 2], ['02_05', 2, 6], ['06_17', 6, 18], ['18_64', 18, 65], ['65_above', 65, Infinity], ['unknown', NaN, NaN]] as const
).map(([label, min, max]) => ({ label, min, max }));

/** Age in years (NaN: unknown) -> index into AGE_GROUPS_6, by whole years (1.9 years is `00_01`). */
export function ageGroup6Of(years: number): number {
  const whole = Math.floor(years);
  for (let g = 0; g < AGE_GROUPS_6.length - 1; g++) if (whole >= AGE_GROUPS_6[g].min && whole < AGE_GROUPS_6[g].max) return g;
  return AGE_GROUPS_6.length - 1;
}

/** The age group labels, in index order. */
export const AGE_GROUP_LABELS: readonly string[] = AGE_GROUPS.map((g) => g.label);

/** Index of the `Unknown` age group. */
export const UNKNOWN_AGE_GROUP = AGE_GROUPS.length - 1;

/** `AGE_YRS` cell -> years, or null when blank, not a number or negative. */
export function parseAge(cell: string): number | null {
  const text = cell.trim();
  if (text === '') return null;
  const years = Number(text);
  return Number.isFinite(years) && years >= 0 ? years : null;
}

/** Where a report's age comes from: `AGE_YRS`, or the calculated age `CAGE_YR` + `CAGE_MO` when AGE_YRS is blank. */
export type AgeSource = 'AGE_YRS' | 'CAGE';

/** The age sources, as the `age_source` column holds them. */
export const AGE_SOURCES: readonly AgeSource[] = ['AGE_YRS', 'CAGE'];

/**
 * A report's age in years and its source (VAERS data use guide: `AGE_YRS` the age in years,
 * `CAGE_YR` the calculated age in whole years and `CAGE_MO` its months as a fraction of a year,
 * `.5` for six months): `AGE_YRS` when it holds a number >= 0; when it is blank, `CAGE_YR` +
 * `CAGE_MO` (a blank `CAGE_MO` is 0) when `CAGE_YR` holds a number >= 0; else no age. An
 * unreadable `AGE_YRS` is no age (the build counts it), not replaced.
 */
export function ageOf(ageYrs: string, cageYr: string, cageMo: string): { age: number | null; source: AgeSource | null } {
  if (ageYrs.trim() !== '') {
    const age = parseAge(ageYrs);
    return { age, source: age === null ? null : 'AGE_YRS' };
  }
  const years = parseAge(cageYr);
  if (years === null) return { age: null, source: null };
  const fraction = cageMo.trim() === '' ? 0 : parseAge(cageMo);
  return fraction === null || fraction >= 1 ? { age: null, source: null } : { age: years + fraction, source: 'CAGE' };
}

/** Age in years (or null) -> index into AGE_GROUPS. */
export function ageGroupOf(years: number | null): number {
  if (years === null) return UNKNOWN_AGE_GROUP;
  for (let g = 0; g < UNKNOWN_AGE_GROUP; g++) if (years >= AGE_GROUPS[g].min && years < AGE_GROUPS[g].max) return g;
  return UNKNOWN_AGE_GROUP;
}

/**
 * Outcome flags of a report as bits, one per VAERSDATA column (`Y` sets the bit). `ER_VISIT`
 * (older layout) and `ER_ED_VISIT` (current layout) are one flag; `BIRTH_DEFECT` and
 * `OFC_VISIT` exist only in the current layout (their source columns: report-columns.ts).
 */
export const OUTCOME = {
  DIED: 1,
  L_THREAT: 2,
  ER_VISIT: 4,
  HOSPITAL: 8,
  X_STAY: 16,
  DISABLE: 32,
  BIRTH_DEFECT: 64,
  OFC_VISIT: 128,
} as const;

/** Outcome flag name. */
export type OutcomeName = keyof typeof OUTCOME;

/** The outcomes that make a report serious (21 CFR 600.80; `ER_VISIT` and `OFC_VISIT` do not). */
export const SERIOUS_OUTCOMES = OUTCOME.DIED | OUTCOME.L_THREAT | OUTCOME.HOSPITAL | OUTCOME.X_STAY | OUTCOME.DISABLE | OUTCOME.BIRTH_DEFECT;

/** True when a flag cell says yes (`Y`, trimmed, case-insensitive). */
export function isYes(cell: string | undefined): boolean {
  return cell !== undefined && cell.trim().toUpperCase() === 'Y';
}

/** True when the outcome bits make the report serious. */
export function isSerious(outcomes: number): boolean {
  return (outcomes & SERIOUS_OUTCOMES) !== 0;
}

/** Codes of `RECOVD` (recovered: yes, no, unknown). */
export const RECOVD_CODES: readonly string[] = ['Y', 'N', 'U'];

/**
 * The report-level values the rules read (the analyses' subsets and strata), one typed column
 * per field, index i being one report. The build's report values (src/ingest/vaers/report-details.ts
 * `ReportDetails`) and the server's (src/serve/store/reports.ts `ReportData`) are both this shape, so
 * a rule is evaluated on one representation at build time and at serve time alike.
 */
export interface RuleColumns {
  readonly count: number;
  /** Index into SEX_CODES. */
  readonly sex: Uint8Array;
  /** AGE_YRS in years, NaN when unknown. */
  readonly age: Float64Array;
  /** Index into AGE_GROUPS. */
  readonly ageGroup: Uint8Array;
  /** Quarter index of RECVDATE (src/domain/quarter.ts: year * 4 + q - 1). */
  readonly quarter: Uint16Array;
  /** OUTCOME bits set. */
  readonly outcomes: Uint16Array;
  /** VAERS_ID. */
  readonly id: Float64Array;
  /** VAERS_ID of the representative of the report's suspected-duplicate cluster (src/domain/report-columns.ts `cluster`), NaN in no cluster. */
  readonly cluster: Float64Array;
}

/**
 * Whether report i stands for itself when each suspected-duplicate cluster is counted once: it is
 * in no cluster, or it is its cluster's representative (the linkage's choice, src/ingest/linkage).
 */
export function isRepresentative(reports: Pick<RuleColumns, 'id' | 'cluster'>, i: number): boolean {
  const cluster = reports.cluster[i];
  return Number.isNaN(cluster) || cluster === reports.id[i];
}
