/**
 * The cautions of one triage pair (why doubt; the table of codes: cautions.ts): each a
 * `{code, text}` whose sentence carries the figures a reviewer can check in the reports. The
 * rules and thresholds are documented in docs/triage.md; the evidence they read is the build's
 * (src/domain/columns.ts kind `evidence`).
 */
import { TERM_CATEGORY_TEXT, type TermCategory } from '../../domain/term-category.js';
import { formatQuarter, parseQuarter, WINDOW_QUARTERS } from '../../domain/quarter.js';
import { LATE_DAYS } from '../../domain/report-days.js';
import { TEMPLATE_SHARE } from '../../domain/triage-evidence.js';
import { failureKind, failureRule, FAILURE_SHARE } from '../../domain/vaccine-failure.js';
import { vaxTypeName } from '../../domain/vax-type-names.js';
import type { TriageRow } from '../store/triage-rows.js';
import { FEW_REPORTS, LEGAL_SHARE_CAUTION, STIMULATED_LAG_DAYS, STIMULATED_SPAN_DAYS, type CautionCode } from './cautions.js';

/** A reason or caution: its code and a sentence with the figures a reviewer can check. */
export interface Note {
  code: string;
  text: string;
}

const fmt = (x: number, digits = 2): string => String(Math.round(x * 10 ** digits) / 10 ** digits);
const pct = (x: number): string => `${Math.round(x * 100)}%`;
/** One formatter for every count (as `n.toLocaleString('en-US')`, without building one per call). */
const EN_US = new Intl.NumberFormat('en-US');
const count = (n: number): string => EN_US.format(n);
/** A yyyymmdd number as YYYY-MM-DD. */
const isoDate = (d: number): string => `${Math.floor(d / 10_000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;

const caution = (code: CautionCode, text: string): Note => ({ code, text });

/** The failure evidence of a pair as served: the share of failure reports and why (null: a store without the per-report counts). */
export interface FailureEvidence {
  share: number;
  n: number;
  lack_of_effect: number;
  disease: number;
  late_onset: number;
  /** The live vaccine's reaction window in days, else null. */
  window_days: number | null;
}

/** The pair's failure evidence (null when the store has no per-report counts). */
export function failureOf(r: TriageRow, vaxType: string): FailureEvidence | null {
  if (r.failure_n === null || r.n <= 0) return null;
  return {
    share: r.failure_n / r.n, n: r.failure_n, lack_of_effect: r.failure_lack_n ?? 0, disease: r.failure_disease_n ?? 0, late_onset: r.failure_late_n ?? 0,
    window_days: windowDaysOf(vaxType),
  };
}

/** failureRule(vaxType).windowDays by vax_type: the rule reads fixed lists, so once per type, not once per pair of a window. */
const windowDays = new Map<string, number | null>();
function windowDaysOf(vaxType: string): number | null {
  let days = windowDays.get(vaxType);
  if (days === undefined) windowDays.set(vaxType, (days = failureRule(vaxType).windowDays));
  return days;
}

function lateReports(r: TriageRow): Note | null {
  if (r.onset_lag_median_days === null || r.onset_lag_median_days <= LATE_DAYS) return null;
  const vax = r.lag_median_days === null ? 'unknown' : `median ${fmt(r.lag_median_days, 1)} days (quartiles ${fmt(r.lag_q1_days!, 1)} to ${fmt(r.lag_q3_days!, 1)}; ${pct(r.lag_share_over_365 ?? 0)} over 365 days)`;
  return caution('late_reports', `Median ${fmt(r.onset_lag_median_days, 1)} days from onset to receipt (quartiles ${fmt(r.onset_lag_q1_days!, 1)} to ${fmt(r.onset_lag_q3_days!, 1)}; ${r.onset_lag_n} of ${r.n} reports with an onset date), over ${LATE_DAYS}; from vaccination to receipt: ${vax}.`);
}

/** The co-reported type's caution: the type with its products, the share, and the two rates it was chosen by. */
function coReported(r: TriageRow): Note | null {
  if (r.co_vaccine === null || r.co_share === null) return null;
  const long = vaxTypeName(r.co_vaccine);
  let products = '';
  try {
    const list = r.co_products === null ? [] : (JSON.parse(r.co_products) as Array<[string, number]>);
    if (list.length) products = ` (${list.map(([name, n]) => `${name} ${n}`).join(', ')})`;
  } catch { /* a malformed list names no product */ }
  const name = `${r.co_vaccine}${long ? ` (${long})` : ''}`;
  const rates = r.co_type_reports !== null && r.co_type_event !== null && r.co_own_reports !== null && r.co_own_event !== null
    ? `: ${r.event} is on ${pct(r.co_type_event / r.co_type_reports)} (${count(r.co_type_event)} of ${count(r.co_type_reports)}) of the window's reports naming ${r.co_vaccine} but not the type of ${r.vaccine}, against ${r.co_own_reports > 0 ? `${pct(r.co_own_event / r.co_own_reports)} (${count(r.co_own_event)} of ${count(r.co_own_reports)})` : 'none (no report names it)'} of the reports naming its type but not ${r.co_vaccine}`
    : '';
  return caution('co_reported', `${pct(r.co_share)} of the ${r.n} reports also name vaccine type ${name}${products}${rates}: a bystander of that type's reports.`);
}

/** The vaccine failure caution: the per-report share (failureOf), else (a store without it) the term rule. */
function vaccineFailure(r: TriageRow, vaxType: string, failure: FailureEvidence | null): Note | null {
  if (failure) {
    if (failure.share < FAILURE_SHARE) return null;
    const why = [
      failure.lack_of_effect ? `${failure.lack_of_effect} name a lack-of-effect term` : '',
      failure.disease ? `${failure.disease} a disease ${vaxType} vaccines prevent${failure.window_days === null ? '' : ` with onset past day ${failure.window_days}`}` : '',
      failure.late_onset ? `${failure.late_onset} have onset past the live vaccine's ${failure.window_days}-day reaction window` : '',
    ].filter((x) => x !== '').join(', ');
    return caution('vaccine_failure', `${pct(failure.share)} of the ${r.n} reports (${failure.n}) are failure reports (${why}): about effectiveness, not an adverse reaction.`);
  }
  const kind = failureKind(vaxType, r.event);
  if (kind === 'lack_of_effect') return caution('vaccine_failure', `"${r.event}" says the vaccine did not work (${TERM_CATEGORY_TEXT.lack_of_effect}).`);
  if (kind === 'prevented_disease') return caution('vaccine_failure', `${r.event} is a disease ${vaxType} vaccines prevent, reported after the vaccine: vaccine failure, not an adverse reaction.`);
  return null;
}

/** The first day (yyyymmdd) of the window ending at `quarter` (its four quarters). */
function windowStart(quarter: string): number | null {
  const q = parseQuarter(quarter);
  if (q === null) return null;
  const first = formatQuarter(q - WINDOW_QUARTERS + 1);
  return Number(first.slice(0, 4)) * 10_000 + ((Number(first[5]) - 1) * 3 + 1) * 100 + 1;
}

/** `post_withdrawal`: none of the vaccine's dated reports of the window was vaccinated inside the window. */
function postWithdrawal(r: TriageRow, quarter: string): Note | null {
  const start = windowStart(quarter);
  if (start === null || r.vaccine_last_vax_date === null || !r.vaccine_dated_n || r.vaccine_last_vax_date >= start) return null;
  const first = formatQuarter(parseQuarter(quarter)! - WINDOW_QUARTERS + 1);
  return caution('post_withdrawal', `None of the window's ${count(r.vaccine_dated_n)} reports of ${r.vaccine} with a vaccination date was vaccinated inside the window (${first} to ${quarter}): the latest vaccination is of ${isoDate(r.vaccine_last_vax_date)}. The product was no longer given; these reports describe past vaccinations.`);
}

/** `stimulated`: a burst of reports long after the vaccinations (STIMULATED_LAG_DAYS, STIMULATED_SPAN_DAYS). */
function stimulated(r: TriageRow): Note | null {
  if (r.n < FEW_REPORTS || r.lag_median_days === null || r.lag_median_days < STIMULATED_LAG_DAYS || r.received_iqr_days === null || r.received_iqr_days > STIMULATED_SPAN_DAYS) return null;
  const around = r.received_median_date === null ? '' : ` around ${isoDate(r.received_median_date)}`;
  return caution('stimulated', `The middle half of the ${r.n} reports arrived within ${fmt(r.received_iqr_days, 1)} days${around}, a median ${fmt(r.lag_median_days, 1)} days after vaccination (at least ${STIMULATED_LAG_DAYS} days after, within ${STIMULATED_SPAN_DAYS} days of one another): reports prompted together long after the events, not spontaneous ones.`);
}

/**
 * The cautions of a row and the score penalty of the non-artefact ones: `category` its event's
 * term category, `quarter` the window, `vaxType` the vaccine's type in words, `atBound` the
 * window's fit parameters on a bound ('' or null none).
 */
export function cautionsOf(r: TriageRow, category: TermCategory | null, quarter: string, vaxType: string, atBound: string | null, failure: FailureEvidence | null): { cautions: Note[]; penalty: number } {
  const cautions: Note[] = [];
  let penalty = 0;
  const push = (note: Note | null): void => void (note && cautions.push(note));
  push(lateReports(r));
  if (r.legal_share !== null && r.legal_share >= LEGAL_SHARE_CAUTION) {
    cautions.push(caution('legal_reports', `${pct(r.legal_share)} of the ${r.n} reports' narratives name litigation (lawsuit, attorney, lawyer, litigation, plaintiff, ...).`));
  }
  if (category !== null && category !== 'lack_of_effect') cautions.push(caution('non_clinical_term', `"${r.event}" is ${TERM_CATEGORY_TEXT[category]} (category ${category}).`));
  push(coReported(r));
  push(vaccineFailure(r, vaxType, failure));
  if (r.template_share !== null && r.template_share >= TEMPLATE_SHARE && r.n >= FEW_REPORTS) {
    cautions.push(caution('template_reports', `${pct(r.template_share)} of the pair's narratives are one template (their 3-word shingles resemble at 0.7 or more): one writer's form, not independent reports.`));
  }
  push(postWithdrawal(r, quarter));
  push(stimulated(r));
  const cases = r.n_cases ?? r.n;
  if (cases < FEW_REPORTS) {
    penalty += 0.5;
    cautions.push(caution('few_reports', cases < r.n
      ? `Only ${cases} distinct case${cases === 1 ? '' : 's'} among the ${r.n} reports (suspected duplicates counted once).`
      : `Only ${r.n} report${r.n === 1 ? '' : 's'} in the window.`));
  }
  if (atBound) {
    penalty += 0.25;
    cautions.push(caution('fit_at_bound', `The window's MGPS prior fit has ${atBound} on a bound of the parameter box, so EB05 leans on the box.`));
  }
  return { cautions, penalty };
}
