/**
 * Triage evidence of a pair's reports (pure functions; the build's step over the windows is
 * evidence-step.ts, the columns src/domain/columns.ts kind `evidence`). Signal detection finds
 * hypotheses; this evidence helps decide which to look at first (vigiRank: Caster, Juhlin,
 * Watson and Noren 2014, "Improved statistical signal detection in pharmacovigilance by
 * combining multiple strength-of-evidence aspects in vigiRank", Drug Safety 37(8):617-628).
 *
 * Per report (`reportEvidence`): the reporting lag (days from VAX_DATE to RECVDATE), whether
 * SYMPTOM_TEXT names litigation, the onset in days, a completeness score, serious and died.
 * Per pair and window (`pairEvidence`): lag quartiles, legal share, onset n and median,
 * completeness mean and well-documented share, serious share and deaths. The onset KS tests
 * against the other vaccines and the other events: `onsetKs`.
 *
 * Quantiles are type 7 (Hyndman and Fan 1996; R's and NumPy's default), by src/domain/report-days.ts
 * `quantileSorted`, as the case series' lag breakdown computes them.
 */
import { ksTest, type ExactMemo } from '../../stats/ks.js';
import type { EvidenceValues } from '../../domain/columns.js';
import { dayNumber, LATE_DAYS, ONSET_MAX_DAYS, onsetDaysFrom, quantileSorted } from '../../domain/report-days.js';

/**
 * Litigation wording (Goodman and Nordin 2006, "Vaccine adverse event reporting system reporting
 * source: a possible source of bias in longitudinal studies", Pediatrics 117(2):387-390: reports
 * filed in connection with litigation), matched as whole words, any case:
 * - words that mean litigation by themselves (LEGAL_WORDS): legal (not "legal guardian"), lawsuit,
 *   attorney, lawyer, litigation, litigant, plaintiff, sued, deposition, petitioner;
 * - "court" and "claim(s)" only in legal context (LEGAL_PHRASES): "court of federal claims", a
 *   court order, case, decision or proceeding, "filed a claim", "claim was filed", an injury,
 *   legal or vaccine claim, the vaccine injury compensation program (VICP); not a "workers
 *   compensation claim".
 *   Bare "claims" is mostly "patient claims ..." and bare "court" a basketball or volleyball court.
 * Its precision on a labelled sample of narratives: test/ingest/mining/fixtures/legal-sample.csv.
 */
export const LEGAL_WORDS = [
  'legal', 'lawsuit', 'lawsuits', 'attorney', 'attorneys', 'lawyer', 'lawyers', 'litigation', 'litigant', 'litigants',
  'plaintiff', 'plaintiffs', 'sued', 'deposition', 'petitioner', 'petitioners',
] as const;

/** Phrases in which "court" and "claim(s)" mean litigation (regular expression sources, whole words). */
export const LEGAL_PHRASES = [
  'court of federal claims', 'court (?:order|ordered|orders|case|cases|decision|proceedings?|documents?|records?|hearing)',
  'filed (?:a |an )?(?:claim|petition)', 'claims? (?:was |were |has been |have been )?filed',
  '(?:injury|legal|vaccine) claims?', 'vaccine injury compensation', 'vicp',
] as const;

const LEGAL_PATTERN = new RegExp(`\\b(?:${LEGAL_WORDS.join('|')}|${LEGAL_PHRASES.join('|')})\\b`, 'gi');
const NOT_LEGAL = /^legal\s+guardians?$/i;

/**
 * The phrase of a narrative that names litigation (LEGAL_WORDS, LEGAL_PHRASES), or null.
 * Example: legalPhrase('Legal report: mercury poisoning') = 'Legal'; legalPhrase('illegally') = null;
 * legalPhrase('patient claims pain') = null; legalPhrase('a claim was filed in the court of federal claims') = 'claim was filed'.
 */
export function legalPhrase(text: string): string | null {
  for (const m of text.matchAll(LEGAL_PATTERN)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    if (NOT_LEGAL.test(`${m[0]} ${/^\s*(\w+)/.exec(after)?.[1] ?? ''}`.trim())) continue;
    return m[0];
  }
  return null;
}

/** Whether a narrative names litigation (legalPhrase is not null). Example: legalWording('Legal report: mercury poisoning') = true; legalWording('illegally') = false. */
export function legalWording(text: string): boolean {
  return legalPhrase(text) !== null;
}

/** Days from a `yyyymmdd` date to another (b - a); null when either is 0 (unknown). Example: daysBetween(19990101, 20000101) = 365. */
export function daysBetween(a: number, b: number): number | null {
  const from = dayNumber(a);
  const to = dayNumber(b);
  return from === null || to === null ? null : to - from;
}

/**
 * Onset in days after vaccination, by the case series' rule (src/domain/report-days.ts
 * onsetDaysFrom: NUMDAYS when a whole number >= 0, else ONSET_DATE - VAX_DATE when >= 0; dates
 * `yyyymmdd`, 0 unknown); null when unknown or outside 0..ONSET_MAX_DAYS.
 * Example: onsetDays(2, 0, 0) = 2; onsetDays(NaN, 19990110, 19990101) = 9; onsetDays(61, 0, 0) = null;
 * onsetDays(-1, 19990105, 19990101) = 4 (a negative NUMDAYS is an entry error: the dates decide).
 */
export function onsetDays(numdays: number, onsetDate: number, vaxDate: number): number | null {
  const days = onsetDaysFrom(numdays, daysBetween(vaxDate, onsetDate));
  return days !== null && days <= ONSET_MAX_DAYS ? days : null;
}

/**
 * Completeness elements (an adaptation of vigiGrade, Bergvall, Noren and Lindquist 2014,
 * "vigiGrade: a tool to identify well-documented individual case reports and highlight
 * systematic data quality issues", Drug Safety 37(1):65-77): a report starts at 1 and is
 * multiplied by (1 - penalty) for each element it lacks. vigiGrade's penalties where it has the
 * element (time to onset 50%; outcome, sex, age 30%; dose 10%; free text 10%); VAERS's
 * vaccination date stands for vigiGrade's indication (30%); lot and lab data 10% each.
 * A narrative counts when at least NARRATIVE_MIN_CHARS long. When the build kept no
 * narratives, narrative and lab data are not assessed (no penalty).
 */
export const COMPLETENESS_ELEMENTS = [
  { element: 'onset', penalty: 0.5, what: 'NUMDAYS or ONSET_DATE with VAX_DATE' },
  { element: 'outcome', penalty: 0.3, what: 'RECOVD Y or N, or a serious outcome flag' },
  { element: 'sex', penalty: 0.3, what: 'SEX F or M' },
  { element: 'age', penalty: 0.3, what: 'AGE_YRS or CAGE_YR' },
  { element: 'vaccination_date', penalty: 0.3, what: 'VAX_DATE' },
  { element: 'dose', penalty: 0.1, what: 'VAX_DOSE of some VAX row' },
  { element: 'lot', penalty: 0.1, what: 'VAX_LOT of some VAX row' },
  { element: 'narrative', penalty: 0.1, what: 'SYMPTOM_TEXT of at least 100 characters' },
  { element: 'lab_data', penalty: 0.1, what: 'LAB_DATA' },
] as const;

/** Completeness element name. */
export type CompletenessElement = (typeof COMPLETENESS_ELEMENTS)[number]['element'];

/** A narrative shorter than this (characters, trimmed) does not count as one. */
export const NARRATIVE_MIN_CHARS = 100;

/** Score above which a report is well documented (vigiGrade: > 0.8). */
export const WELL_DOCUMENTED = 0.8;

/**
 * Completeness score of a report in [0, 1]: the product of (1 - penalty) over the elements it
 * lacks (`present[element]` false; an element absent from `present` is not assessed).
 * Example: all present = 1; lacking onset and lot = 0.5 * 0.9 = 0.45.
 */
export function completenessScore(present: Partial<Record<CompletenessElement, boolean>>): number {
  let score = 1;
  for (const { element, penalty } of COMPLETENESS_ELEMENTS) if (present[element] === false) score *= 1 - penalty;
  return score;
}

/** One report's evidence (computed once per report by the build). */
export interface ReportEvidence {
  /** Days from VAX_DATE to RECVDATE; null when VAX_DATE is unknown or after RECVDATE. */
  lagDays: number | null;
  /** SYMPTOM_TEXT names litigation; null when the build kept no narratives. */
  legal: boolean | null;
  /** Onset days (onsetDays), null when unknown or outside 0..60. */
  onsetDays: number | null;
  /** Completeness score in [0, 1]. */
  completeness: number;
  serious: boolean;
  died: boolean;
  /** Days from onset (ONSET_DATE, else VAX_DATE + NUMDAYS) to RECVDATE; null when unknown or negative. */
  onsetLagDays: number | null;
  /** The case the report belongs to: its duplicate cluster's representative VAERS_ID, else its own (distinct per case). */
  caseKey: number;
}

/**
 * Days from onset to receipt, the reporting delay: the onset date is ONSET_DATE when known, else
 * VAX_DATE + NUMDAYS when NUMDAYS is a whole number >= 0 (dates `yyyymmdd`, 0 unknown); null
 * when unknown or when RECVDATE is before it.
 * Example: onsetLagDays(20000101, 0, 19990101, NaN) = 365; onsetLagDays(20000101, 19990101, 0, 10) = 355.
 */
export function onsetLagDays(received: number, vaxDate: number, onsetDate: number, numdays: number): number | null {
  const recv = dayNumber(received);
  let onset = dayNumber(onsetDate);
  if (onset === null) {
    const vax = dayNumber(vaxDate);
    onset = vax !== null && Number.isInteger(numdays) && numdays >= 0 ? vax + numdays : null;
  }
  return recv === null || onset === null || recv < onset ? null : recv - onset;
}

/**
 * The evidence of one pair's reports in one window: lag, legal share, onset n and median,
 * completeness, seriousness, the delay from onset, distinct cases (the KS columns and
 * comparator sizes, the template share, the co-reported vaccine and the related events are null here:
 * the evidence step fills them from the window's other reports and pairs). Nulls where undefined (no report, no lag, no onset, no narratives).
 * Example: two reports with lags 10 and 400 days: lag_median_days 205, lag_share_over_365 0.5.
 */
export function pairEvidence(reports: readonly ReportEvidence[]): EvidenceValues {
  const orNaN = (x: number | null): number => (x === null ? Number.NaN : x);
  const columns: ReportEvidenceColumns = {
    lagDays: reports.map((r) => orNaN(r.lagDays)), onsetDays: reports.map((r) => r.onsetDays ?? -1),
    legal: reports.map((r) => (r.legal === null ? -1 : r.legal ? 1 : 0)), completeness: reports.map((r) => r.completeness),
    serious: reports.map((r) => (r.serious ? 1 : 0)), died: reports.map((r) => (r.died ? 1 : 0)),
    onsetLagDays: reports.map((r) => orNaN(r.onsetLagDays)), caseKey: reports.map((r) => r.caseKey),
  };
  return pairEvidenceAt(columns, reports.map((_, i) => i));
}

/**
 * Reports' evidence as columns (evidence-step.ts EvidenceTables holds them so): index = report;
 * NaN for a null lag or delay from onset, -1 for a null onset or legal wording (else 1 or 0),
 * 1 or 0 for serious and died.
 */
export interface ReportEvidenceColumns {
  lagDays: ArrayLike<number>;
  onsetDays: ArrayLike<number>;
  legal: ArrayLike<number>;
  completeness: ArrayLike<number>;
  serious: ArrayLike<number>;
  died: ArrayLike<number>;
  onsetLagDays: ArrayLike<number>;
  caseKey: ArrayLike<number>;
}

/** Scratch columns of pairEvidenceAt (one call at a time per thread), grown as needed. */
let scratch = { lags: new Float64Array(256), onsets: new Float64Array(256), onsetLags: new Float64Array(256) };

/**
 * pairEvidence of the reports `reports` (indexes into the columns `t`), read from the columns
 * without an object per report (the build's evidence step runs this for every flagged row): the
 * values gathered into this thread's scratch typed arrays and sorted there (numbers, no NaN: the
 * same order as a sort by `a - b`), no array per call.
 */
export function pairEvidenceAt(t: ReportEvidenceColumns, reports: readonly number[]): EvidenceValues {
  if (scratch.lags.length < reports.length) {
    const size = Math.max(reports.length, 2 * scratch.lags.length);
    scratch = { lags: new Float64Array(size), onsets: new Float64Array(size), onsetLags: new Float64Array(size) };
  }
  const cases = new Set<number>();
  let nLags = 0, nOnsets = 0, nOnsetLags = 0, late = 0;
  let legal = 0, legalKnown = 0, completeness = 0, well = 0, serious = 0, deaths = 0;
  for (const r of reports) {
    const lag = t.lagDays[r];
    if (!Number.isNaN(lag)) {
      scratch.lags[nLags++] = lag;
      if (lag > LATE_DAYS) late++;
    }
    if (t.onsetDays[r] >= 0) scratch.onsets[nOnsets++] = t.onsetDays[r];
    if (t.legal[r] >= 0) {
      legalKnown++;
      if (t.legal[r] === 1) legal++;
    }
    completeness += t.completeness[r];
    if (t.completeness[r] > WELL_DOCUMENTED) well++;
    if (t.serious[r] === 1) serious++;
    if (t.died[r] === 1) deaths++;
    if (!Number.isNaN(t.onsetLagDays[r])) scratch.onsetLags[nOnsetLags++] = t.onsetLagDays[r];
    cases.add(t.caseKey[r]);
  }
  const lags = scratch.lags.subarray(0, nLags).sort();
  const onsets = scratch.onsets.subarray(0, nOnsets).sort();
  const onsetLags = scratch.onsetLags.subarray(0, nOnsetLags).sort();
  const n = reports.length;
  const share = (k: number, of: number): number | null => (of > 0 ? k / of : null);
  return {
    lag_n: nLags, lag_excluded: n - nLags,
    lag_median_days: quantileSorted(lags, 0.5), lag_q1_days: quantileSorted(lags, 0.25), lag_q3_days: quantileSorted(lags, 0.75),
    lag_share_over_365: share(late, nLags),
    legal_share: legalKnown === n ? share(legal, n) : null,
    onset_n: nOnsets, onset_median_days: quantileSorted(onsets, 0.5),
    onset_d_other_vaccines: null, onset_p_other_vaccines: null, onset_d_other_events: null, onset_p_other_events: null,
    completeness_mean: share(completeness, n), well_documented_share: share(well, n),
    serious_share: share(serious, n), deaths,
    onset_lag_n: nOnsetLags, onset_lag_median_days: quantileSorted(onsetLags, 0.5),
    onset_lag_q1_days: quantileSorted(onsetLags, 0.25), onset_lag_q3_days: quantileSorted(onsetLags, 0.75),
    onset_n_other_vaccines: null, onset_n_other_events: null,
    n_cases: cases.size,
    template_share: null,
    co_vaccine: null, co_share: null, related_events: null,
    co_type_event: null, co_type_reports: null, co_own_event: null, co_own_reports: null, co_products: null,
    failure_n: null, failure_lack_n: null, failure_disease_n: null, failure_late_n: null,
    vaccine_last_vax_date: null, vaccine_dated_n: null, received_median_date: null, received_iqr_days: null,
  };
}

/** The exact KS probabilities shared by the build's workers (ks-memo.ts), once a worker is given it. */
let ksMemo: ExactMemo | undefined;

/** Installs the memo of exact KS probabilities the onset tests use (a worker thread of the build: worker.ts). */
export function useKsMemo(memo: ExactMemo): void {
  ksMemo = memo;
}

/** Onset days 0..ONSET_MAX_DAYS as counts per day (index = day): how the build holds a sample. */
export function onsetCounts(days: Iterable<number>): Int32Array {
  const counts = new Int32Array(ONSET_MAX_DAYS + 1);
  for (const d of days) counts[d]++;
  return counts;
}

/**
 * Two-sided two-sample KS test of onset samples given as counts per day (onsetCounts): D as
 * SciPy's ks_2samp computes it from the two ECDFs at every pooled value, and its p-value
 * (src/stats/ks.ts ksTest, SciPy's method 'auto': exact while max(n1, n2) <= 10000, else asymptotic); null when a sample
 * is empty. Example: the samples [0, 1, 1, 2, 7] and [3, 5, 8, 12, 14, 20] give D 0.8,
 * p 0.0476... (SciPy).
 */
export function onsetKs(x: ArrayLike<number>, y: ArrayLike<number>): { d: number; p: number } | null {
  let n1 = 0, n2 = 0;
  for (let v = 0; v < x.length; v++) {
    n1 += x[v];
    n2 += y[v];
  }
  if (n1 === 0 || n2 === 0) return null;
  let i = 0, j = 0, maxS = 0, minDiff = 0;
  for (let v = 0; v < x.length; v++) {
    if (x[v] === 0 && y[v] === 0) continue;
    i += x[v];
    j += y[v];
    const diff = i / n1 - j / n2;
    if (diff > maxS) maxS = diff;
    if (diff < minDiff) minDiff = diff;
  }
  const minS = Math.min(1, Math.max(0, -minDiff));
  const r = ksTest(n1, n2, minS > maxS ? minS : maxS, true, ksMemo);
  return r && { d: r.d, p: r.p };
}

/**
 * Counts per day of `all` less those of `part` (a sub-sample), written into `into` (default a
 * new array): the reports naming the event but not the vaccine, from the event's and the pair's.
 */
export function without(all: ArrayLike<number>, part: ArrayLike<number>, into: Int32Array = new Int32Array(all.length)): Int32Array {
  for (let v = 0; v < all.length; v++) into[v] = all[v] - part[v];
  return into;
}
