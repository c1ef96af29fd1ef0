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
 * - `onset_clustered`: both onset KS p < 0.01 with at least 3 onsets (Van Holle et al. 2012), each
 *   comparator with at least ONSET_COMPARATOR_MIN onsets: +1;
 * - `well_documented`: well-documented share >= 0.5 (vigiGrade > 0.8): + 0.5 x that share.
 * No credit below EB05 1: the last four add their points times the evidence weight
 * min(1, max(0, EB05 - 1)) (0 at EB05 <= 1 or null, 1 from EB05 2), so a pair whose EB05 is
 * below 1 (flagged by PRR, ROR or IC only) scores at most 0.75 (three methods) and never passes a
 * pair with EB05 >= 2 (at least 1.25) on novelty, seriousness or documentation.
 * Cautions (why doubt): the table of cautions.ts (code, label, artefact flag, meaning).
 * Order: a pair with an artefact caution ranks after every pair without one (never hidden); then
 * score descending; ties by the evidence, EB05 descending (null last), then n descending; the
 * names only order pairs equal in all of these, for a stable answer.
 */
import { termCategory, type TermCategory } from '../../domain/term-category.js';
import { isRecent, parseQuarter } from '../../domain/quarter.js';
import { GPS_THRESHOLD } from '../../domain/floor.js';
import { ONSET_COMPARATOR_MIN } from '../../domain/triage-evidence.js';
import type { TriageRow } from '../store/triage-rows.js';
import { ARTEFACT_CAUTIONS } from './cautions.js';
import { cautionsOf, failureOf, type FailureEvidence, type Note } from './pair-cautions.js';

export { ARTEFACT_CAUTIONS, FEW_REPORTS, LEGAL_SHARE_CAUTION } from './cautions.js';

export type { Note } from './pair-cautions.js';

/** Onset KS p below which (both tests, with ONSET_MIN_N onsets) the onset is clustered. */
export const ONSET_P = 0.01;
export const ONSET_MIN_N = 3;

/** One onset KS test as served: D, p and the comparator's onsets. */
export interface OnsetTest {
  d: number | null;
  p: number | null;
  /** Onsets of the comparator sample (null: a store without the sizes). */
  n: number | null;
}

/** A related event folded under a pair (group=signal): its pair's n and the overlap of their reports. */
export interface RelatedEvent {
  event: string;
  n: number;
  /** Shared reports / the smaller pair's reports: with the head, else (`via`) with the pair through which it joined. */
  overlap: number;
  /** The event through which it joined the signal when its overlap with the head is under the build's stored minimum, else null. */
  via: string | null;
  /** The narrow event group it shares with the head, when it joined by the group. */
  group?: string;
}

/** One ranked pair of GET /triage (the answer's `pairs` item; the shape the explorer reads). */
export interface TriagePair extends Pick<TriageRow, 'vaccine' | 'event' | 'n' | 'eb05' | 'prr' | 'ic025' | 'n_methods_flagged' | 'first_flagged' | 'legal_share' | 'serious_share' | 'n_cases' | 'template_share'> {
  vax_type: string;
  score: number;
  reasons: Note[];
  cautions: Note[];
  lag: {
    median_days: number | null; q1_days: number | null; q3_days: number | null; share_over_365: number | null;
    /** Onset to receipt (the reporting delay `late_reports` reads). */
    from_onset: { n: number | null; median_days: number | null; q1_days: number | null; q3_days: number | null };
  };
  term_category: TermCategory | null;
  onset: {
    n: number | null; median_days: number | null; vs_other_vaccines: OnsetTest; vs_other_events: OnsetTest;
    /** The fewest comparator onsets an onset reason needs. */
    comparator_min: number;
    /** Why the onset tests give no reason (a comparator under comparator_min onsets), else null. */
    note: string | null;
  };
  completeness: { mean: number | null; well_documented_share: number | null };
  /**
   * The co-reported vaccine type (most of the pair's reports name it; the event is more frequent
   * with it alone than with the pair's vaccine alone), its products on the pair's reports and
   * the two rates' counts, else null.
   */
  co_reported: {
    vaccine: string; share: number; products: Array<{ vaccine: string; n: number }>;
    type_event: number | null; type_reports: number | null; own_event: number | null; own_reports: number | null;
  } | null;
  /** The share of failure reports and why (null: a store without the per-report counts). */
  failure: FailureEvidence | null;
  /** The pairs folded under this one (group=signal), strongest overlap first; [] with group=none. */
  related_events: RelatedEvent[];
  new: boolean;
  /** The event-group items counting the pair's event (only in an analysis of terms of a store with an analysis of event groups: src/serve/triage/service.ts). */
  event_groups?: string[];
}

/** The window's context of the ranking. */
export interface WindowContext {
  quarter: string;
  /** Parameters of the window's MGPS fit on a bound ('' or null: none). */
  at_bound: string | null;
  vaxTypeOf: (vaccine: string) => string;
  /** The narrow event groups (adverse events of special interest: the store's event groups) whose terms include an event; absent: none. */
  specialGroups?: (event: string) => readonly string[];
}

const fmt = (x: number, digits = 2): string => String(Math.round(x * 10 ** digits) / 10 ** digits);
const pct = (x: number): string => `${Math.round(x * 100)}%`;


/** The comparators below ONSET_COMPARATOR_MIN onsets, as words ('' when none or the sizes are unknown). */
function smallComparators(r: TriageRow): string {
  const small: string[] = [];
  if (r.onset_n_other_vaccines !== null && r.onset_n_other_vaccines < ONSET_COMPARATOR_MIN) small.push(`other vaccines (${r.onset_n_other_vaccines} onsets)`);
  if (r.onset_n_other_events !== null && r.onset_n_other_events < ONSET_COMPARATOR_MIN) small.push(`other events (${r.onset_n_other_events} onsets)`);
  return small.join(' and ');
}

/** Whether both onset KS tests give p < ONSET_P with at least ONSET_MIN_N onsets (the comparator sizes aside). */
function onsetTestsSmall(r: TriageRow): boolean {
  return (r.onset_n ?? 0) >= ONSET_MIN_N && r.onset_p_other_vaccines !== null && r.onset_p_other_vaccines < ONSET_P
    && r.onset_p_other_events !== null && r.onset_p_other_events < ONSET_P;
}

/** Whether the onset is clustered: both KS p < ONSET_P with ONSET_MIN_N onsets, each comparator with at least ONSET_COMPARATOR_MIN onsets (when known). */
export function onsetClustered(r: TriageRow): boolean {
  return onsetTestsSmall(r) && smallComparators(r) === '';
}

/** The evidence weight of the bonuses: min(1, max(0, EB05 - 1)); 0 for a null EB05. Example: 0.8 -> 0; 1.5 -> 0.5; 3 -> 1. */
export function evidenceWeight(eb05: number | null): number {
  return eb05 === null ? 0 : Math.min(1, Math.max(0, eb05 - 1));
}

/**
 * An early signal of special interest: a pair that is `new`, serious (serious share >= 0.5), with
 * at least SPECIAL_MIN_CASES distinct cases, IC025 > 0 (the observed count above the expected beyond
 * chance under BCPNN's weak shrinkage) and whose event is a narrow term of an event group (the
 * store's adverse events of special interest: Brighton Collaboration definitions, the SPEAC list).
 * Its reasons count in full (weight 1) whatever its EB05: MGPS shrinks a new pair's few reports
 * toward the prior (SMALLPOX (DRYVAX) x Myocarditis in 2003Q1: 10 reports, EB05 0.95, IC025 0.12;
 * MENACTRA x Guillain-Barre syndrome in 2005Q4: 8 reports, EB05 0.91), and such events deserve
 * review "irrespective of statistical criteria" (EMA's designated medical events, 2016). The
 * group's name, or null.
 */
export function specialInterest(r: TriageRow, fresh: boolean, groups: readonly string[]): string | null {
  const cases = r.n_cases ?? r.n;
  return fresh && groups.length > 0 && (r.serious_share ?? 0) >= 0.5 && cases >= SPECIAL_MIN_CASES && r.ic025 !== null && r.ic025 > 0 ? groups[0] : null;
}

/**
 * The fewest distinct cases of a pair of special interest. With 3 (FEW_REPORTS) the rule brought
 * one pair of 3 or 4 reports into the top 20 of three of the four windows read (DTAP (CERTIVA) x
 * Sudden infant death syndrome in 2001Q1, HEP A + HEP B (TWINRIX) x Guillain-Barre syndrome in
 * 2004Q4, FLUMIST x Facial paresis in 2006Q4); the early signals it is for have 8 and 10.
 */
export const SPECIAL_MIN_CASES = 5;

function reasonsOf(r: TriageRow, fresh: boolean, special: string | null): { reasons: Note[]; score: number } {
  const reasons: Note[] = [];
  const weight = special !== null ? 1 : evidenceWeight(r.eb05);
  let score = (r.eb05 !== null && r.eb05 > 1 ? Math.log2(r.eb05) : 0) + 0.25 * r.n_methods_flagged;
  if (r.eb05 !== null && r.eb05 >= GPS_THRESHOLD) reasons.push({ code: 'strong_disproportionality', text: `EB05 ${fmt(r.eb05)}, PRR ${r.prr === null ? 'not computed' : fmt(r.prr)}, ${r.n_methods_flagged} of 4 methods flag the window, over ${r.n} reports.` });
  if (special !== null && evidenceWeight(r.eb05) < 1) {
    reasons.push({ code: 'special_interest', text: `${r.event} is a term of the event group ${special} (an adverse event of special interest) and the pair is new, serious (${pct(r.serious_share ?? 0)}) and counts ${r.n_cases ?? r.n} distinct cases with IC025 ${fmt(r.ic025 ?? 0)} > 0: its reasons count in full although EB05 is ${r.eb05 === null ? 'not computed' : fmt(r.eb05)} (MGPS shrinks a new pair's few reports toward the prior).` });
  }
  if (fresh) {
    score += weight;
    reasons.push({ code: 'new', text: `First flagged in ${r.first_flagged}, within the four quarters of this window.` });
  }
  if (r.serious_share !== null && r.serious_share >= 0.5) {
    score += weight * r.serious_share;
    reasons.push({ code: 'serious', text: `${pct(r.serious_share)} of the ${r.n} reports are serious (${r.deaths ?? 0} deaths).` });
  }
  if (onsetClustered(r)) {
    score += weight;
    const sizes = r.onset_n_other_vaccines === null ? '' : ` (comparators of ${r.onset_n_other_vaccines} and ${r.onset_n_other_events} onsets)`;
    reasons.push({ code: 'onset_clustered', text: `Onset clusters at a median of ${fmt(r.onset_median_days!, 1)} days over ${r.onset_n} onsets: KS against other vaccines D ${fmt(r.onset_d_other_vaccines!)} p ${r.onset_p_other_vaccines!.toPrecision(2)}, against other events D ${fmt(r.onset_d_other_events!)} p ${r.onset_p_other_events!.toPrecision(2)}${sizes}.` });
  }
  if (r.well_documented_share !== null && r.well_documented_share >= 0.5) {
    score += weight * 0.5 * r.well_documented_share;
    reasons.push({ code: 'well_documented', text: `${pct(r.well_documented_share)} of the reports are well documented (completeness score above 0.8; mean ${fmt(r.completeness_mean ?? 0)}).` });
  }
  if (weight < 1 && reasons.some((x) => x.code !== 'strong_disproportionality')) {
    const last = reasons[reasons.length - 1];
    last.text += ` These reasons count ${weight === 0 ? 'nothing' : `x ${fmt(weight)}`} in the score: EB05 ${r.eb05 === null ? 'not computed' : fmt(r.eb05)} (weight min(1, max(0, EB05 - 1))).`;
  }
  return { reasons, score };
}

/** The products of a `co_products` text (`[[product, reports], ...]`); [] for null or a malformed text. */
function productsOf(text: string | null): Array<{ vaccine: string; n: number }> {
  try {
    const list: unknown = text === null ? [] : JSON.parse(text);
    return Array.isArray(list) ? list.filter((x): x is [string, number] => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'number').map(([vaccine, n]) => ({ vaccine, n })) : [];
  } catch {
    return [];
  }
}

/** Whether a pair carries an artefact caution. */
export function hasArtefact(pair: Pick<TriagePair, 'cautions'>): boolean {
  return pair.cautions.some((c) => (ARTEFACT_CAUTIONS as readonly string[]).includes(c.code));
}

/** One row as a triage pair with its reasons, cautions and score. */
export function triagePair(r: TriageRow, context: WindowContext): TriagePair {
  const fresh = isRecent(parseQuarter(r.first_flagged), parseQuarter(context.quarter));
  const category = termCategory(r.event);
  const vaxType = context.vaxTypeOf(r.vaccine);
  const special = specialInterest(r, fresh, context.specialGroups?.(r.event) ?? []);
  const { reasons, score } = reasonsOf(r, fresh, special);
  const failure = failureOf(r, vaxType);
  const { cautions, penalty } = cautionsOf(r, category, context.quarter, vaxType, context.at_bound, failure);
  const small = smallComparators(r);
  return {
    vaccine: r.vaccine, vax_type: vaxType, event: r.event, n: r.n, n_cases: r.n_cases, eb05: r.eb05, prr: r.prr, ic025: r.ic025,
    n_methods_flagged: r.n_methods_flagged, score: Math.round((score - penalty) * 1000) / 1000, reasons, cautions,
    lag: {
      median_days: r.lag_median_days, q1_days: r.lag_q1_days, q3_days: r.lag_q3_days, share_over_365: r.lag_share_over_365,
      from_onset: { n: r.onset_lag_n, median_days: r.onset_lag_median_days, q1_days: r.onset_lag_q1_days, q3_days: r.onset_lag_q3_days },
    },
    legal_share: r.legal_share, term_category: category,
    onset: {
      n: r.onset_n, median_days: r.onset_median_days,
      vs_other_vaccines: { d: r.onset_d_other_vaccines, p: r.onset_p_other_vaccines, n: r.onset_n_other_vaccines },
      vs_other_events: { d: r.onset_d_other_events, p: r.onset_p_other_events, n: r.onset_n_other_events },
      comparator_min: ONSET_COMPARATOR_MIN,
      note: small ? `No onset reason from these tests: the comparator of ${small} has fewer than ${ONSET_COMPARATOR_MIN} onsets${onsetTestsSmall(r) ? ` (both KS p are below ${ONSET_P})` : ''}.` : null,
    },
    completeness: { mean: r.completeness_mean, well_documented_share: r.well_documented_share },
    serious_share: r.serious_share, template_share: r.template_share,
    co_reported: r.co_vaccine !== null && r.co_share !== null ? {
      vaccine: r.co_vaccine, share: r.co_share, products: productsOf(r.co_products),
      type_event: r.co_type_event, type_reports: r.co_type_reports, own_event: r.co_own_event, own_reports: r.co_own_reports,
    } : null,
    failure,
    related_events: [], first_flagged: r.first_flagged, new: fresh,
  };
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Triage order: pairs without an artefact caution first; score descending; EB05 descending (null last); n descending; then the names (equal evidence only). */
export function compareTriage(a: TriagePair, b: TriagePair): number {
  return Number(hasArtefact(a)) - Number(hasArtefact(b)) || compareEvidence(a, b);
}

/**
 * `pairs` sorted in triage order (compareTriage; the sort is stable), each pair's artefact flag
 * computed once instead of at every comparison (a window of 10,000 pairs compares some 140,000 times).
 */
export function sortTriage(pairs: readonly TriagePair[]): TriagePair[] {
  const flagged = pairs.map((pair) => ({ artefact: Number(hasArtefact(pair)), pair }));
  flagged.sort((a, b) => a.artefact - b.artefact || compareEvidence(a.pair, b.pair));
  return flagged.map((f) => f.pair);
}

/** compareTriage after the artefact flag: score descending; EB05 descending (null last); n descending; then the names. */
function compareEvidence(a: TriagePair, b: TriagePair): number {
  return b.score - a.score || (b.eb05 ?? -Infinity) - (a.eb05 ?? -Infinity) || b.n - a.n || byName(a.vaccine, b.vaccine) || byName(a.event, b.event);
}

/** The pairs in triage order (compareTriage). */
export function rankPairs(rows: readonly TriageRow[], context: WindowContext): TriagePair[] {
  return sortTriage(rows.map((r) => triagePair(r, context)));
}
