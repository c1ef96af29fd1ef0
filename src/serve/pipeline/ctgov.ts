/**
 * Client for the ClinicalTrials.gov API v2 listing endpoint `GET {baseUrl}/studies`
 * (contract: shared/data/ctgov/ctg-oas-v2.yaml, operation `listStudies`).
 *
 * - One request per page; `countTotal=true` on the first page (the API returns `totalCount`
 *   only there), `pageToken` from the previous page's `nextPageToken` afterwards; every other
 *   parameter is identical on every page, as the contract requires.
 * - Only the fields the renderers need are requested (`fields=`).
 * - Faults are classified for the answer (service.ts): `UpstreamError.kind` is `unavailable`
 *   (connection refused/reset, DNS failure, timeout: spec 7 -> 503) or `bad_response` (an error
 *   status, or a body that is not the expected JSON: spec 7 -> 502). Messages never contain
 *   upstream text, so they carry no trial identifier.
 */
import type { PipelineQuery, Role, StudyPhase } from './params.js';
import { STATUS_ALL } from './params.js';
import { words } from './match.js';

/** Default API base URL (environment `CTGOV_BASE_URL`). */
export const CTGOV_DEFAULT_BASE_URL = 'https://clinicaltrials.gov/api/v2';
/** Default per-request timeout in milliseconds (environment `CTGOV_TIMEOUT_MS`). */
export const CTGOV_DEFAULT_TIMEOUT_MS = 10_000;
/** The API coerces larger page sizes down to this (contract, `pageSize`). */
export const CTGOV_MAX_PAGE_SIZE = 1000;

/** Where and how to reach the registry. */
export interface CtgovOptions {
  /** Base URL without trailing `/studies`, e.g. `https://clinicaltrials.gov/api/v2`. */
  baseUrl: string;
  /** Per-request timeout (ms), covering connection, headers and body. */
  timeoutMs: number;
}

/**
 * Reads `CTGOV_BASE_URL` and `CTGOV_TIMEOUT_MS` (defaults above). Throws an Error naming the
 * variable when the timeout is not a positive integer or the base URL is not http(s).
 */
export function ctgovOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): CtgovOptions {
  const baseUrl = env.CTGOV_BASE_URL?.trim() || CTGOV_DEFAULT_BASE_URL;
  if (!/^https?:\/\//i.test(baseUrl)) throw new Error(`CTGOV_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  const rawTimeout = env.CTGOV_TIMEOUT_MS?.trim();
  let timeoutMs = CTGOV_DEFAULT_TIMEOUT_MS;
  if (rawTimeout) {
    if (!/^\d+$/.test(rawTimeout) || Number(rawTimeout) < 1) {
      throw new Error(`CTGOV_TIMEOUT_MS must be a positive whole number of milliseconds, got "${rawTimeout}"`);
    }
    timeoutMs = Number(rawTimeout);
  }
  return { baseUrl, timeoutMs };
}

/**
 * Completes `given` from the environment: a field left out comes from ctgovOptionsFromEnv,
 * which is read (and throws for a malformed variable) only when a field is left out.
 */
export function ctgovOptionsWith(given: Partial<CtgovOptions>, env: NodeJS.ProcessEnv = process.env): CtgovOptions {
  if (given.baseUrl !== undefined && given.timeoutMs !== undefined) return { baseUrl: given.baseUrl, timeoutMs: given.timeoutMs };
  const fromEnv = ctgovOptionsFromEnv(env);
  return { baseUrl: given.baseUrl ?? fromEnv.baseUrl, timeoutMs: given.timeoutMs ?? fromEnv.timeoutMs };
}

/** Registry failure, classified for the answer's status (spec 7: 503 `unavailable`, 502 `bad_response`). */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'bad_response',
    message: string,
  ) {
    super(message);
  }
}

/** One study as read from a listing page (only the requested fields). */
export interface UpstreamStudy {
  nctId: string | null;
  briefTitle: string | null;
  overallStatus: string | null;
  phases: string[];
  leadSponsor: string | null;
  collaborators: string[];
  startDate: string | null;
}

/** One listing page. `totalCount` is present on the first page only. */
export interface UpstreamPage {
  totalCount: number | null;
  nextPageToken: string | null;
  studies: UpstreamStudy[];
}

/** `fields=` for a role: collaborator names are needed only when the role can be collaborator. */
export function fieldsFor(role: Role): string[] {
  const fields = ['NCTId', 'BriefTitle', 'OverallStatus', 'Phase', 'LeadSponsorName', 'StartDate'];
  if (role !== 'lead') fields.push('CollaboratorName');
  return fields;
}

/**
 * The Essie expression for `filter.advanced`: sponsor phrase in the role's areas, plus the phase
 * filter. The phrase is the sponsor's words joined by spaces (punctuation and quotes dropped),
 * with `EXPANSION[Term]` so that only case/accent/plural variants are searched — no synonyms and
 * no relaxed adjacency (the API's default `Relaxation`/`Lossy` expansions inflate counts, see
 * manifest of the recorded responses (../shared/data/ctgov): "Merck Sharp & Dohme LLC" 2170 as a plain phrase vs 1841 full match).
 * Returns `null` when the sponsor has no words (nothing can match).
 */
export function advancedFilter(sponsor: string, role: Role, phase: readonly StudyPhase[] | null): string | null {
  const w = words(sponsor);
  if (w.length === 0) return null;
  const phrase = `EXPANSION[Term]"${w.join(' ')}"`;
  const lead = `AREA[LeadSponsorName]${phrase}`;
  const collaborator = `AREA[CollaboratorName]${phrase}`;
  const roleExpr =
    role === 'lead' ? lead : role === 'collaborator' ? `(${collaborator} AND NOT ${lead})` : `(${lead} OR ${collaborator})`;
  if (!phase || phase.length === 0) return roleExpr;
  return `${roleExpr} AND (${phase.map((p) => `AREA[Phase]${p}`).join(' OR ')})`;
}

/**
 * Query parameters of one page request. `pageToken` null = first page (adds `countTotal=true`).
 * Returns null when the sponsor has no words (see advancedFilter).
 */
export function studiesParams(query: PipelineQuery, pageSize: number, pageToken: string | null): URLSearchParams | null {
  if (query.sponsor === null) return null;
  const filter = advancedFilter(query.sponsor, query.role, query.phase);
  if (filter === null) return null;
  const params = new URLSearchParams();
  params.set('format', 'json');
  params.set('filter.advanced', filter);
  if (query.status !== STATUS_ALL) params.set('filter.overallStatus', query.status.join(','));
  params.set('fields', fieldsFor(query.role).join(','));
  params.set('pageSize', String(Math.max(1, Math.min(CTGOV_MAX_PAGE_SIZE, pageSize))));
  if (pageToken === null) params.set('countTotal', 'true');
  else params.set('pageToken', pageToken);
  return params;
}

/** The message of a body that is not JSON, or JSON that is not an object. */
const NOT_EXPECTED_JSON = 'the registry answered with a body that is not the expected JSON';

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads one study object of the API's `PagedStudies.studies[]` (missing parts become null/[]). */
export function readStudy(raw: unknown): UpstreamStudy {
  const protocol = obj(obj(raw).protocolSection);
  const sponsors = obj(protocol.sponsorCollaboratorsModule);
  const collaborators = Array.isArray(sponsors.collaborators) ? sponsors.collaborators : [];
  const phases = obj(protocol.designModule).phases;
  return {
    nctId: str(obj(protocol.identificationModule).nctId),
    briefTitle: str(obj(protocol.identificationModule).briefTitle),
    overallStatus: str(obj(protocol.statusModule).overallStatus),
    phases: Array.isArray(phases) ? phases.filter((p): p is string => typeof p === 'string') : [],
    leadSponsor: str(obj(sponsors.leadSponsor).name),
    collaborators: collaborators.map((c) => str(obj(c).name)).filter((c): c is string => c !== null),
    startDate: str(obj(obj(protocol.statusModule).startDateStruct).date),
  };
}

/**
 * Validates a parsed body as `PagedStudies`. Throws UpstreamError(`bad_response`) when it is not
 * an object with a `studies` array, or when `totalCount` was requested but is not a count.
 */
export function readPage(body: unknown, expectTotal: boolean): UpstreamPage {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UpstreamError('bad_response', NOT_EXPECTED_JSON);
  }
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.studies)) {
    throw new UpstreamError('bad_response', 'the registry answered with JSON that has no list of studies');
  }
  const total = b.totalCount;
  const totalOk = typeof total === 'number' && Number.isInteger(total) && total >= 0;
  if (expectTotal && !totalOk) {
    throw new UpstreamError('bad_response', 'the registry answered without a total count');
  }
  const token = b.nextPageToken;
  return {
    totalCount: totalOk ? (total as number) : null,
    nextPageToken: typeof token === 'string' && token.length > 0 ? token : null,
    studies: b.studies.map(readStudy),
  };
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * GETs one listing page. Throws UpstreamError: `unavailable` when the registry cannot be reached
 * or does not answer within `timeoutMs` (body included); `bad_response` for a non-2xx status or
 * a body that is not the expected JSON.
 */
export async function fetchStudiesPage(options: CtgovOptions, params: URLSearchParams): Promise<UpstreamPage> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/studies?${params.toString()}`;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'follow' });
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw new UpstreamError('unavailable', `the registry did not answer within ${options.timeoutMs} ms`);
    }
    throw new UpstreamError('unavailable', 'the registry could not be reached');
  }
  if (!response.ok) {
    throw new UpstreamError('bad_response', `the registry answered with HTTP status ${response.status}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError('bad_response', NOT_EXPECTED_JSON);
  }
  return readPage(body, !params.has('pageToken'));
}
