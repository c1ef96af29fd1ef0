/**
 * The thresholds the triage evidence is computed with (the build, src/ingest/mining/evidence-step.ts)
 * and read by (GET /triage, src/serve/triage/rank.ts): defined once on the ground floor, so that the
 * serving side never reaches into the build for them.
 *
 * The late-report threshold is LATE_DAYS (src/domain/report-days.ts) and "flagged" is isFlagged
 * (src/domain/floor.ts), each defined once. Ground floor: this file imports nothing outside src/domain.
 */

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
 * value up (`related_events`); GET /triage folds them from its own threshold (src/serve/triage/group.ts
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
