/**
 * The sentences every `/pipeline` format shares (json `notes`, the brief's list, the page's
 * headings): how the filters read, the notes on a result, and the source's name.
 */
import { LIMIT_MAX, ONGOING_STATUSES, STATUS_ALL, type PipelineQuery } from './params.js';
import type { PipelineResult } from './result.js';

/** Where the rows come from (named in every format). */
export const SOURCE_NAME = 'ClinicalTrials.gov API v2';

/** Human sentence for the role filter (spec 4.2 `role`). */
export function describeRole(role: PipelineQuery['role']): string {
  if (role === 'lead') return 'as lead sponsor';
  if (role === 'collaborator') return 'as collaborator (not lead sponsor)';
  return 'as lead sponsor or collaborator';
}

/** Human sentence for the status filter: `all statuses`, `ongoing (…)` for the default four, else the list. */
export function describeStatus(status: PipelineQuery['status']): string {
  if (status === STATUS_ALL) return 'all statuses';
  const same = status.length === ONGOING_STATUSES.length && ONGOING_STATUSES.every((s) => status.includes(s));
  return same ? `ongoing (${status.join(', ')})` : status.join(', ');
}

/** Human sentence for the phase filter: `any`, or the registry phases joined by `, `. */
export function describePhase(phase: PipelineQuery['phase']): string {
  return phase === null ? 'any' : phase.join(', ');
}

/** Notes every format shows: clamped limit (spec 8), partial listing and locally rejected rows (spec 2.6). */
export function resultNotes(result: PipelineResult): string[] {
  const q = result.query;
  const notes: string[] = [];
  if (q.limitRequested !== null) {
    notes.push(`limit ${q.limitRequested} is above the maximum of ${LIMIT_MAX}; ${LIMIT_MAX} served.`);
  }
  if (result.n_studies > result.studies.length) {
    notes.push(`Showing ${result.studies.length} of ${result.n_studies} studies; phase and status counts cover the studies shown.`);
  }
  if (result.n_rejected > 0) {
    notes.push(
      `${result.n_rejected} registry rows did not name the sponsor as whole words in the requested role and were left out; n_studies is reduced by them.`,
    );
  }
  return notes;
}
