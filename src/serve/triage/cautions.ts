/**
 * The caution codes of GET /triage in one table: code, label (the explorer's words), whether the
 * caution marks a likely artefact of reporting (such a pair ranks after every pair without one,
 * never hidden) and what it means. The ranking (rank.ts), the route's OpenAPI enum and
 * description, the /llms.txt notes and the explorer (which reads `caution_codes` from each
 * triage answer) all derive from it. Thresholds: src/domain/triage-evidence.ts and rank.ts.
 */
import { LATE_DAYS } from '../../domain/report-days.js';
import { CO_REPORTED_SHARE, TEMPLATE_SHARE } from '../../domain/triage-evidence.js';
import { FAILURE_SHARE } from '../../domain/vaccine-failure.js';

/** `stimulated`: the least median delay from vaccination to receipt (days) and the widest spread of the middle half of the receipts (days); reasoning in docs/triage.md. */
export const STIMULATED_LAG_DAYS = 180;
export const STIMULATED_SPAN_DAYS = 31;

/** One caution code. */
export interface CautionSpec {
  readonly code: string;
  /** A few words for a label. */
  readonly label: string;
  /** Whether it marks a likely reporting artefact (the pair ranks after the pairs without one). */
  readonly artefact: boolean;
  /** What it means and when it applies. */
  readonly description: string;
}

/** Legal share from which `legal_reports` applies. */
export const LEGAL_SHARE_CAUTION = 0.5;
/** Fewer distinct cases than this: `few_reports`. */
export const FEW_REPORTS = 3;

/** The caution codes, artefacts first. */
export const CAUTIONS = [
  { code: 'late_reports', label: 'late reports', artefact: true,
    description: `The median delay from onset to receipt (onset: ONSET_DATE, else VAX_DATE + NUMDAYS) exceeds ${LATE_DAYS} days: reports gathered long after the event, as for litigation (Goodman and Nordin 2006). The text gives both intervals, vaccination to receipt and onset to receipt.` },
  { code: 'legal_reports', label: 'legal reports', artefact: true,
    description: `At least ${LEGAL_SHARE_CAUTION * 100}% of the reports' narratives name litigation (lawsuit, attorney, lawyer, litigation, plaintiff, ...; "court" and "claim" only in legal context).` },
  { code: 'non_clinical_term', label: 'non-clinical term', artefact: true,
    description: 'The event is not a clinical adverse event: a medication error, product issue, exposure, ... (data/terms/non-clinical.csv).' },
  { code: 'co_reported', label: 'co-reported vaccine', artefact: true,
    description: `At least ${CO_REPORTED_SHARE * 100}% of the pair's reports also name another vaccine type (VAERS VAX_TYPE: every DTaP brand together) with which the event is more frequent: on the window's reports naming that type but not the vaccine's own type than on those naming the own type but not that one (an innocent bystander); the text names the type, its products and both rates.` },
  { code: 'vaccine_failure', label: 'vaccine failure', artefact: true,
    description: `At least ${FAILURE_SHARE * 100}% of the pair's reports are failure reports: they name a lack-of-effect term (drug ineffective, vaccination failure), or a disease the vaccine prevents (data/terms/vaccine-prevented.csv), or, for a live vaccine with a known reaction window (varicella, zoster, MMR: 42 days, data/terms/live-vaccine-windows.csv), their onset is past it; about effectiveness, not an adverse reaction. The text gives the share and why.` },
  { code: 'template_reports', label: 'template reports', artefact: true,
    description: `At least ${TEMPLATE_SHARE * 100}% of the pair's narratives (of 100+ characters; the pair with 3 or more reports) are one template: their 3-word shingles resemble at Jaccard 0.7 or more (MinHash); one writer's form, not independent reports.` },
  { code: 'post_withdrawal', label: 'after withdrawal', artefact: true,
    description: 'None of the window\'s reports of the vaccine that give a vaccination date was vaccinated inside the window (a year): the product was no longer given (RotaShield after October 1999), and the reports describe past vaccinations. The text gives the reports and the latest vaccination date.' },
  { code: 'stimulated', label: 'stimulated reports', artefact: true,
    description: `The pair's reports arrived in a burst long after their vaccinations: a median of at least ${STIMULATED_LAG_DAYS} days from vaccination to receipt, and the middle half of at least ${FEW_REPORTS} reports received within ${STIMULATED_SPAN_DAYS} days; reports prompted together, not spontaneous ones. The text gives both figures.` },
  { code: 'few_reports', label: 'few reports', artefact: false,
    description: `Fewer than ${FEW_REPORTS} distinct cases (reports, each suspected-duplicate cluster once): score - 0.5.` },
  { code: 'fit_at_bound', label: 'fit at bound', artefact: false,
    description: 'The window\'s MGPS prior fit has a parameter on a bound of its box, so EB05 leans on the box: score - 0.25.' },
] as const satisfies readonly CautionSpec[];

/** A caution code. */
export type CautionCode = (typeof CAUTIONS)[number]['code'];

/** The codes that mark a likely artefact, in table order. */
export const ARTEFACT_CAUTIONS: readonly CautionCode[] = CAUTIONS.filter((c) => c.artefact).map((c) => c.code);

/** Every caution code, in table order (the OpenAPI enum). */
export const CAUTION_CODES: readonly CautionCode[] = CAUTIONS.map((c) => c.code);
