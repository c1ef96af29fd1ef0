/**
 * The thresholds the triage evidence is computed with (the build, src/mining/evidence-step.ts)
 * and read by (GET /triage, src/triage/rank.ts): defined once on the ground floor, so that the
 * serving side never reaches into the build for them.
 *
 * Ground floor: this file imports nothing outside src/domain.
 */
import { SERVING_FLOOR } from './floor.js';

/**
 * Reporting delay (days from onset to receipt) from which a pair's median makes it `late_reports`.
 * One year: VAERS asks for reports of events after vaccination, and almost all spontaneous
 * reports arrive within months of onset; a median over a year means most of the pair's reports
 * arrived a year or more after the event, the pattern of reports gathered for litigation
 * (Goodman and Nordin 2006, Pediatrics 117(2):387-390: litigation-associated reports arrive
 * years after onset). The delay is counted from onset, not vaccination, so a late-onset effect
 * (zoster after varicella vaccine) is not read as a late report.
 */
export const LATE_DAYS = 365;

/**
 * Share of a pair's reports naming another vaccine from which the pair is `co_reported` (an
 * innocent bystander), when that vaccine's pair with the same event is more disproportionate in
 * the window. A majority: at 0.5 or more, at least half of the pair's count is explained by the
 * other vaccine's reports, so the pair's own disproportionality rests on a minority of its reports.
 */
export const CO_REPORTED_SHARE = 0.5;

/**
 * The build stores each flagged pair's overlaps (Szymkiewicz-Simpson coefficient: shared reports /
 * the smaller pair's reports) with the other flagged pairs of its vaccine in the window from this
 * value up (`related_events`); GET /triage folds them from its own threshold (src/triage/group.ts
 * FOLD_OVERLAP), which can be revised without a rebuild.
 */
export const RELATED_STORED = 0.25;

/**
 * A comparator sample of the onset KS tests with fewer onsets than this gives no onset reason
 * (the pair's `onset` says so): its ECDF moves in steps of 1/10 or more, so a small D is
 * unattainable and "clustered against it" says little (ROTATEQ x Intussusception's test against
 * other vaccines in 2006Q4 rested on 3 onsets).
 */
export const ONSET_COMPARATOR_MIN = 10;

/**
 * Share of a pair's narratives (of at least NARRATIVE_MIN_CHARS) that share one template, from
 * which the pair is `template_reports`: a majority of its reports are one writer's form.
 */
export const TEMPLATE_SHARE = 0.5;

/** GPS threshold of the triage's "flagged" (DESIGN.md "Flags": EB05 >= 2). */
export const TRIAGE_EB05 = 2;

/**
 * Whether a window's row is in the triage queue: GPS flags it (EB05 >= TRIAGE_EB05) or at least
 * SERVING_FLOOR (2) methods do. The build's related pairs (src/mining/evidence-links.ts) and the
 * store's read (src/store/triage-rows.ts, the same rule in SQL) use it.
 */
export function triageFlagged(eb05: number | null, nMethodsFlagged: number): boolean {
  return (eb05 !== null && eb05 >= TRIAGE_EB05) || nMethodsFlagged >= SERVING_FLOOR;
}
