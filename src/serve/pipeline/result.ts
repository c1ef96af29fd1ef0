/**
 * The `/pipeline` result (spec 2.6): page through the registry until `limit` study rows are
 * collected, re-check every row locally, count phases and statuses over the rows served.
 *
 * n_studies (spec 2.6 "registry total for the chosen role"): the registry's `totalCount` for
 * the same request (sponsor phrase in the role's areas, status and phase filters), i.e. the
 * number of studies this request would list with no limit. The upstream query expresses the
 * same whole-word rule as the local check (see ctgov.ts advancedFilter), so the local check
 * normally rejects nothing. When it does reject rows (the registry's term expansion matched a
 * plural/variant, or a row lacks the requested fields), `n_studies` is the registry total minus
 * the rejected rows seen, and `n_rejected` says how many; rows on pages never read cannot be
 * checked, so in that case `n_studies` is an upper bound.
 */
import type { CtgovOptions, UpstreamStudy } from './ctgov.js';
import { fetchStudiesPage, studiesParams, UpstreamError } from './ctgov.js';
import { roleInStudy, words } from './match.js';
import type { PipelineQuery, StudyStatus } from './params.js';
import { STATUS_ALL } from './params.js';

/** Safety stop for paging (pages per request). */
export const MAX_PAGES = 25;

/** One study row served by `/pipeline`. */
export interface PipelineStudy {
  nct_id: string;
  title: string | null;
  /** Spec 2.6: which role the sponsor holds in this study. */
  role: 'lead' | 'collaborator';
  lead_sponsor: string | null;
  overall_status: string | null;
  /** Registry phase values; empty when the study has none (e.g. observational). */
  phases: string[];
  start_date: string | null;
  /** The registry page of the study. */
  url: string;
}

/** Everything the renderers need. */
export interface PipelineResult {
  query: PipelineQuery;
  /** Spec 2.6: registry total for the role (0 for an unknown sponsor); see module doc. */
  n_studies: number;
  studies: PipelineStudy[];
  /** Spec 2.6: counts over `studies` only. Key: phases joined with "/" (e.g. "PHASE1/PHASE2"), or "NONE". */
  phase_counts: Record<string, number>;
  /** Spec 2.6: counts over `studies` only, keyed by registry status. */
  status_counts: Record<string, number>;
  /** Rows the registry returned that failed the local whole-word/role/status/phase check. */
  n_rejected: number;
  /** Upstream pages read. */
  pages: number;
}

/** Registry page of a study (only for well-formed NCT ids). */
export function studyUrl(nctId: string): string {
  return `https://clinicaltrials.gov/study/${encodeURIComponent(nctId)}`;
}

/** Key of a study's phase list in `phase_counts`. */
export function phaseKey(phases: readonly string[]): string {
  return phases.length === 0 ? 'NONE' : phases.join('/');
}

/** Counts `key(row)` over rows, keys in first-seen order. */
function countBy<T>(rows: readonly T[], key: (row: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) out[key(row)] = (out[key(row)] ?? 0) + 1;
  return out;
}

/** The local re-check of one upstream row; returns the served row or null (rejected). */
export function checkStudy(query: PipelineQuery, queryWords: readonly string[], study: UpstreamStudy): PipelineStudy | null {
  if (study.nctId === null || !/^NCT\d{8}$/.test(study.nctId)) return null;
  const role = roleInStudy(query.role, study.leadSponsor, study.collaborators, queryWords);
  if (role === null) return null;
  if (query.status !== STATUS_ALL && !query.status.includes(study.overallStatus as StudyStatus)) return null;
  if (query.phase !== null && !study.phases.some((p) => (query.phase as readonly string[]).includes(p))) return null;
  return {
    nct_id: study.nctId,
    title: study.briefTitle,
    role,
    lead_sponsor: study.leadSponsor,
    overall_status: study.overallStatus,
    phases: study.phases,
    start_date: study.startDate,
    url: studyUrl(study.nctId),
  };
}

/** Builds the counts of a result from its rows. */
export function makeResult(query: PipelineQuery, nStudies: number, studies: PipelineStudy[], nRejected: number, pages: number): PipelineResult {
  return {
    query,
    n_studies: nStudies,
    studies,
    phase_counts: countBy(studies, (s) => phaseKey(s.phases)),
    status_counts: countBy(studies, (s) => s.overall_status ?? 'NONE'),
    n_rejected: nRejected,
    pages,
  };
}

/**
 * Runs a `/pipeline` query against the registry. `query.sponsor` must be non-null. A sponsor
 * with no words answers n_studies 0 without a request. Throws UpstreamError (503/502 kinds).
 */
export async function runPipeline(query: PipelineQuery, options: CtgovOptions): Promise<PipelineResult> {
  const queryWords = words(query.sponsor ?? '');
  const studies: PipelineStudy[] = [];
  const seen = new Set<string>();
  const usedTokens = new Set<string>();
  let total = 0;
  let rejected = 0;
  let pages = 0;
  let token: string | null = null;
  do {
    const params = studiesParams(query, query.limit - studies.length, token);
    if (params === null) return makeResult(query, 0, [], 0, 0);
    const page = await fetchStudiesPage(options, params);
    pages += 1;
    if (pages === 1) total = page.totalCount ?? 0;
    for (const raw of page.studies) {
      if (studies.length >= query.limit) break;
      const row = checkStudy(query, queryWords, raw);
      if (row === null) rejected += 1;
      else if (!seen.has(row.nct_id)) {
        seen.add(row.nct_id);
        studies.push(row);
      }
    }
    token = page.nextPageToken;
    if (token !== null) {
      if (usedTokens.has(token)) throw new UpstreamError('bad_response', 'the registry repeated a page token');
      usedTokens.add(token);
    }
  } while (token !== null && studies.length < query.limit && pages < MAX_PAGES);
  const nStudies = Math.max(studies.length, total - rejected);
  return makeResult(query, nStudies, studies, rejected, pages);
}
