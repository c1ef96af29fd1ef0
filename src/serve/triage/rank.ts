/**
 * Triage: reasons, cautions, score and order of the flagged pairs of one window (GET /triage).
 * Triage orders hypotheses for review; it does not assess causality (vigiRank: Caster et al.
 * 2014, Drug Safety 37(8):617-628, combines strength-of-evidence aspects the same way).
 *
 * Reasons (why look), each adding to the score:
 * - disproportionality, always scored: log2(EB05) (0 for EB05 below 1) plus 0.25 per method
 *   flagging; the reason `strong_disproportionality` when EB05 >= 2 (GPS flags the window);
 * - `new`: first flagged within the four quarters ending at the window's quarter: +1;
 * - `serious`: serious share >= 0.5: + the serious share;
 * - `onset_clustered`: both onset KS p < 0.01 with at least 3 onsets (Van Holle et al. 2012): +1;
 * - `well_documented`: well-documented share >= 0.5 (vigiGrade > 0.8): + 0.5 x that share.
 * Cautions (why doubt): the artefact cautions `late_reports` (median VAX_DATE -> RECVDATE lag
 * > 365 days), `legal_reports` (legal share >= 0.5) and `non_clinical_term`
 * (src/domain/term-category.ts), and `few_reports` (n < 3: -0.5) and `fit_at_bound` (the
 * window's MGPS prior fit has a parameter on a bound: -0.25). A pair with an artefact caution
 * ranks after every pair without one (never hidden); then score descending, vaccine, event.
 */
import { termCategory, TERM_CATEGORY_TEXT, type TermCategory } from '../../domain/term-category.js';
import { isRecent, parseQuarter } from '../../domain/quarter.js';
import { GPS_THRESHOLD } from '../../domain/floor.js';
import { LATE_DAYS } from '../../domain/report-days.js';
import type { TriageRow } from '../store/triage-rows.js';

/** A reason or caution: its code and a sentence with the figures a reviewer can check. */
export interface Note {
  code: string;
  text: string;
}

/** The cautions that mark a likely reporting artefact (such pairs rank after the others). */
export const ARTEFACT_CAUTIONS = ['late_reports', 'legal_reports', 'non_clinical_term'] as const;

/** Legal share from which `legal_reports` applies. */
export const LEGAL_SHARE_CAUTION = 0.5;
/** Onset KS p below which (both tests, with ONSET_MIN_N onsets) the onset is clustered. */
export const ONSET_P = 0.01;
export const ONSET_MIN_N = 3;
/** Fewer reports than this: `few_reports`. */
export const FEW_REPORTS = 3;

/** One ranked pair of GET /triage (the answer's `pairs` item; the shape the explorer reads). */
export interface TriagePair extends Pick<TriageRow, 'vaccine' | 'event' | 'n' | 'eb05' | 'prr' | 'ic025' | 'n_methods_flagged' | 'first_flagged' | 'legal_share' | 'serious_share'> {
  vax_type: string;
  score: number;
  reasons: Note[];
  cautions: Note[];
  lag: { median_days: number | null; q1_days: number | null; q3_days: number | null; share_over_365: number | null };
  term_category: TermCategory | null;
  onset: { n: number | null; median_days: number | null; vs_other_vaccines: { d: number | null; p: number | null }; vs_other_events: { d: number | null; p: number | null } };
  completeness: { mean: number | null; well_documented_share: number | null };
  new: boolean;
}

/** The window's context of the ranking. */
export interface WindowContext {
  quarter: string;
  /** Parameters of the window's MGPS fit on a bound ('' or null: none). */
  at_bound: string | null;
  vaxTypeOf: (vaccine: string) => string;
}

const fmt = (x: number, digits = 2): string => String(Math.round(x * 10 ** digits) / 10 ** digits);
const pct = (x: number): string => `${Math.round(x * 100)}%`;


/** Whether both onset KS tests give p < ONSET_P with at least ONSET_MIN_N onsets. */
export function onsetClustered(r: TriageRow): boolean {
  return (r.onset_n ?? 0) >= ONSET_MIN_N && r.onset_p_other_vaccines !== null && r.onset_p_other_vaccines < ONSET_P
    && r.onset_p_other_events !== null && r.onset_p_other_events < ONSET_P;
}

function reasonsOf(r: TriageRow, fresh: boolean): { reasons: Note[]; score: number } {
  const reasons: Note[] = [];
  const strength = (r.eb05 !== null && r.eb05 > 1 ? Math.log2(r.eb05) : 0) + 0.25 * r.n_methods_flagged;
  let score = strength;
  if (r.eb05 !== null && r.eb05 >= GPS_THRESHOLD) reasons.push({ code: 'strong_disproportionality', text: `EB05 ${r.eb05 === null ? 'not computed' : fmt(r.eb05)}, PRR ${r.prr === null ? 'not computed' : fmt(r.prr)}, ${r.n_methods_flagged} of 4 methods flag the window, over ${r.n} reports.` });
  if (fresh) {
    score += 1;
    reasons.push({ code: 'new', text: `First flagged in ${r.first_flagged}, within the four quarters of this window.` });
  }
  if (r.serious_share !== null && r.serious_share >= 0.5) {
    score += r.serious_share;
    reasons.push({ code: 'serious', text: `${pct(r.serious_share)} of the ${r.n} reports are serious (${r.deaths ?? 0} deaths).` });
  }
  if (onsetClustered(r)) {
    score += 1;
    reasons.push({ code: 'onset_clustered', text: `Onset clusters at a median of ${fmt(r.onset_median_days!, 1)} days over ${r.onset_n} onsets: KS against other vaccines D ${fmt(r.onset_d_other_vaccines!)} p ${r.onset_p_other_vaccines!.toPrecision(2)}, against other events D ${fmt(r.onset_d_other_events!)} p ${r.onset_p_other_events!.toPrecision(2)}.` });
  }
  if (r.well_documented_share !== null && r.well_documented_share >= 0.5) {
    score += 0.5 * r.well_documented_share;
    reasons.push({ code: 'well_documented', text: `${pct(r.well_documented_share)} of the reports are well documented (completeness score above 0.8; mean ${fmt(r.completeness_mean ?? 0)}).` });
  }
  return { reasons, score };
}

function cautionsOf(r: TriageRow, category: TermCategory | null, atBound: string | null): { cautions: Note[]; penalty: number } {
  const cautions: Note[] = [];
  let penalty = 0;
  if (r.lag_median_days !== null && r.lag_median_days > LATE_DAYS) {
    cautions.push({ code: 'late_reports', text: `Median ${fmt(r.lag_median_days, 1)} days from vaccination to receipt (quartiles ${fmt(r.lag_q1_days!, 1)} to ${fmt(r.lag_q3_days!, 1)}; ${pct(r.lag_share_over_365 ?? 0)} over 365 days; ${r.lag_n} of ${r.n} reports with both dates).` });
  }
  if (r.legal_share !== null && r.legal_share >= LEGAL_SHARE_CAUTION) {
    cautions.push({ code: 'legal_reports', text: `${pct(r.legal_share)} of the ${r.n} reports' narratives name litigation (legal, lawsuit, attorney, court, claim, ...).` });
  }
  if (category !== null) cautions.push({ code: 'non_clinical_term', text: `"${r.event}" is ${TERM_CATEGORY_TEXT[category]} (category ${category}).` });
  if (r.n < FEW_REPORTS) {
    penalty += 0.5;
    cautions.push({ code: 'few_reports', text: `Only ${r.n} report${r.n === 1 ? '' : 's'} in the window.` });
  }
  if (atBound) {
    penalty += 0.25;
    cautions.push({ code: 'fit_at_bound', text: `The window's MGPS prior fit has ${atBound} on a bound of the parameter box, so EB05 leans on the box.` });
  }
  return { cautions, penalty };
}

/** Whether a pair carries an artefact caution. */
export function hasArtefact(pair: Pick<TriagePair, 'cautions'>): boolean {
  return pair.cautions.some((c) => (ARTEFACT_CAUTIONS as readonly string[]).includes(c.code));
}

/** One row as a triage pair with its reasons, cautions and score. */
export function triagePair(r: TriageRow, context: WindowContext): TriagePair {
  const fresh = isRecent(parseQuarter(r.first_flagged), parseQuarter(context.quarter));
  const category = termCategory(r.event);
  const { reasons, score } = reasonsOf(r, fresh);
  const { cautions, penalty } = cautionsOf(r, category, context.at_bound);
  return {
    vaccine: r.vaccine, vax_type: context.vaxTypeOf(r.vaccine), event: r.event, n: r.n, eb05: r.eb05, prr: r.prr, ic025: r.ic025,
    n_methods_flagged: r.n_methods_flagged, score: Math.round((score - penalty) * 1000) / 1000, reasons, cautions,
    lag: { median_days: r.lag_median_days, q1_days: r.lag_q1_days, q3_days: r.lag_q3_days, share_over_365: r.lag_share_over_365 },
    legal_share: r.legal_share, term_category: category,
    onset: {
      n: r.onset_n, median_days: r.onset_median_days,
      vs_other_vaccines: { d: r.onset_d_other_vaccines, p: r.onset_p_other_vaccines },
      vs_other_events: { d: r.onset_d_other_events, p: r.onset_p_other_events },
    },
    completeness: { mean: r.completeness_mean, well_documented_share: r.well_documented_share },
    serious_share: r.serious_share, first_flagged: r.first_flagged, new: fresh,
  };
}

/** The pairs in triage order: pairs without an artefact caution first, then score descending, vaccine, event. */
export function rankPairs(rows: readonly TriageRow[], context: WindowContext): TriagePair[] {
  const pairs = rows.map((r) => triagePair(r, context));
  return pairs.sort((a, b) => Number(hasArtefact(a)) - Number(hasArtefact(b)) || b.score - a.score
    || (a.vaccine < b.vaccine ? -1 : a.vaccine > b.vaccine ? 1 : 0) || (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
}
