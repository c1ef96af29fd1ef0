/**
 * Query parameters of `GET /pipeline` (spec 4.2, 8): parsing and validation into a typed
 * `PipelineQuery`. Errors are returned as values (`ParamError`), never thrown, so the service can
 * answer 400 with the spec 2.5 Error object (`allowed` for an enumerated parameter, `usage` for a
 * missing or malformed one). Registry enums come from the ClinicalTrials.gov API v2 contract
 * (`ctg-oas-v2.yaml`, components `Status` and `Phase`).
 */
import type { ParamError } from '../query/error-object.js';
import { prefersHtml } from '../query/negotiate.js';

/** ClinicalTrials.gov API v2 `Status` enum (overallStatus), in the contract's order. */
export const STATUS_VALUES = [
  'ACTIVE_NOT_RECRUITING',
  'COMPLETED',
  'ENROLLING_BY_INVITATION',
  'NOT_YET_RECRUITING',
  'RECRUITING',
  'SUSPENDED',
  'TERMINATED',
  'WITHDRAWN',
  'AVAILABLE',
  'NO_LONGER_AVAILABLE',
  'TEMPORARILY_NOT_AVAILABLE',
  'APPROVED_FOR_MARKETING',
  'WITHHELD',
  'UNKNOWN',
] as const;
/** One ClinicalTrials.gov `OverallStatus` value. */
export type StudyStatus = (typeof STATUS_VALUES)[number];

/** Spec 4.2: "with no status the list is ongoing studies" — these four registry statuses. */
export const ONGOING_STATUSES: readonly StudyStatus[] = [
  'RECRUITING',
  'NOT_YET_RECRUITING',
  'ACTIVE_NOT_RECRUITING',
  'ENROLLING_BY_INVITATION',
];

/** The `status` value meaning every registry status (completed and stopped trials included). */
export const STATUS_ALL = 'ALL';

/** ClinicalTrials.gov API v2 `Phase` enum. */
export const PHASE_VALUES = ['NA', 'EARLY_PHASE1', 'PHASE1', 'PHASE2', 'PHASE3', 'PHASE4'] as const;
/** One ClinicalTrials.gov `Phase` value. */
export type StudyPhase = (typeof PHASE_VALUES)[number];

/** Short spellings accepted for `phase` (case-insensitive), mapped to registry values. */
export const PHASE_ALIASES: Readonly<Record<string, StudyPhase>> = {
  '1': 'PHASE1',
  '2': 'PHASE2',
  '3': 'PHASE3',
  '4': 'PHASE4',
  early1: 'EARLY_PHASE1',
  na: 'NA',
};

/** `role` values (spec 4.2). `collaborator` means collaborator and not lead. */
export const ROLE_VALUES = ['lead', 'collaborator', 'any'] as const;
/** One spec 4.2 `role` value. */
export type Role = (typeof ROLE_VALUES)[number];

/** `format` values (spec 4.2): the renderer registry's keys (render.ts) and the 400 answer's `allowed` list. */
export const FORMAT_VALUES = ['json', 'brief', 'html'] as const;
/** One spec 4.2 `format` value. */
export type PipelineFormat = (typeof FORMAT_VALUES)[number];

/** Spec 8: pipeline `limit` default and maximum. */
export const LIMIT_DEFAULT = 50;
/** Spec 8: pipeline `limit` maximum. */
export const LIMIT_MAX = 200;
/** Longest accepted `sponsor` (characters, after trimming). */
export const SPONSOR_MAX_LENGTH = 200;

/** One-line usage string carried by 400 answers (`usage` of the spec 2.5 Error object). */
export const PIPELINE_USAGE =
  'GET /pipeline?sponsor=<lead sponsor name, e.g. Pfizer>[&role=lead|collaborator|any][&status=ALL|RECRUITING,...]' +
  `[&phase=PHASE3|3|early1|na,...][&limit=1..${LIMIT_MAX}, default ${LIMIT_DEFAULT}][&format=json|brief|html]`;

/** A validated `/pipeline` request. */
export interface PipelineQuery {
  /** Trimmed sponsor text; `null` when absent or empty (only valid for the HTML search page). */
  sponsor: string | null;
  role: Role;
  /** Registry statuses to include, or `'ALL'` for no status filter. */
  status: readonly StudyStatus[] | typeof STATUS_ALL;
  /** Registry phases to include (a study matches when any of its phases is listed); `null` = no filter. */
  phase: readonly StudyPhase[] | null;
  /** Rows to return, 1..LIMIT_MAX after clamping. */
  limit: number;
  /** The `limit` the client asked for when it was above LIMIT_MAX (served as LIMIT_MAX); else `null`. */
  limitRequested: number | null;
}

/** Raw query-string values by name: one string, or an array of strings for a repeated key. */
export type RawQuery = Record<string, unknown>;

/**
 * The query string of a request target (`/pipeline?sponsor=Pfizer`, path and `#fragment`
 * ignored) as RawQuery: `+` and percent escapes decoded, a repeated key as an array in order.
 */
export function rawQueryFromUrl(url: string): RawQuery {
  const search = new URL(url, 'http://localhost').searchParams;
  const out: RawQuery = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** One raw value as a string: a repeated key's values joined by commas; `undefined` when absent. */
export function rawString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((v) => String(v)).join(',');
  return String(value);
}

/** The request's own parameter values as strings, echoed back by the html search form (escaped there). */
export interface FormValues {
  /** Trimmed. */
  sponsor: string;
  /** `lead` when absent or empty. */
  role: string;
  status: string;
  phase: string;
  limit: string;
}

/** FormValues of a raw query: absent values are empty strings, a repeated key's values joined by commas. */
export function formValues(query: RawQuery): FormValues {
  const s = (value: unknown): string => rawString(value) ?? '';
  return { sponsor: s(query.sponsor).trim(), role: s(query.role) || 'lead', status: s(query.status), phase: s(query.phase), limit: s(query.limit) };
}

/** True when `value` is one of the enumerated `values` (exact, case-sensitive). */
function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** A status or phase item in registry spelling: upper case, spaces and hyphens as `_`. */
function registrySpelling(item: string): string {
  return item.toUpperCase().replace(/[\s-]+/g, '_');
}

/** Splits a comma-separated list, trimming items and dropping empty ones. */
function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Parses `format` (case-insensitive). Returns `null` when absent/empty (negotiate from Accept),
 * or a ParamError with `allowed` for an unknown value.
 */
export function parseFormat(raw: unknown): PipelineFormat | null | ParamError {
  const value = rawString(raw)?.trim().toLowerCase();
  if (!value) return null;
  if (isOneOf(FORMAT_VALUES, value)) return value;
  return { error: 'unknown format', allowed: FORMAT_VALUES };
}

/** Parses `status` (spec 4.2): absent -> ONGOING_STATUSES; `ALL` -> all; else registry values. */
export function parseStatus(raw: unknown): PipelineQuery['status'] | ParamError {
  const value = rawString(raw)?.trim();
  if (!value) return ONGOING_STATUSES;
  const items = splitList(value).map(registrySpelling);
  if (items.length === 0) return ONGOING_STATUSES;
  if (items.includes(STATUS_ALL)) return STATUS_ALL;
  const out: StudyStatus[] = [];
  for (const item of items) {
    if (!isOneOf(STATUS_VALUES, item)) return { error: 'unknown status value', allowed: [STATUS_ALL, ...STATUS_VALUES] };
    if (!out.includes(item)) out.push(item);
  }
  return out;
}

/** Parses `phase`: registry values or the aliases 1, 2, 3, 4, early1, na (case-insensitive). */
export function parsePhase(raw: unknown): PipelineQuery['phase'] | ParamError {
  const value = rawString(raw)?.trim();
  if (!value) return null;
  const out: StudyPhase[] = [];
  for (const item of splitList(value)) {
    const upper = registrySpelling(item);
    const phase = isOneOf(PHASE_VALUES, upper) ? upper : PHASE_ALIASES[item.toLowerCase()];
    if (!phase) return { error: 'unknown phase value', allowed: [...PHASE_VALUES, ...Object.keys(PHASE_ALIASES)] };
    if (!out.includes(phase)) out.push(phase);
  }
  return out.length > 0 ? out : null;
}

/**
 * Parses `limit` (spec 8): default 50, above 200 served as 200 (`limitRequested` records the
 * asked value). Not a whole number of digits, or below 1: ParamError with `usage`.
 */
export function parseLimit(raw: unknown): Pick<PipelineQuery, 'limit' | 'limitRequested'> | ParamError {
  const value = rawString(raw)?.trim();
  if (value === undefined || value === '') return { limit: LIMIT_DEFAULT, limitRequested: null };
  const n = /^\d+$/.test(value) ? Number(value) : 0; // not a plain whole number: as bad as 0
  if (n < 1) return { error: `limit must be a whole number from 1 to ${LIMIT_MAX}`, usage: PIPELINE_USAGE };
  if (n > LIMIT_MAX) return { limit: LIMIT_MAX, limitRequested: n };
  return { limit: n, limitRequested: null };
}

/** True when `value` is a ParamError rather than a parsed value. */
export function isParamError(value: unknown): value is ParamError {
  return typeof value === 'object' && value !== null && 'error' in value && typeof (value as ParamError).error === 'string';
}

/**
 * Spec 4.2: `sponsor` is required for json and brief (a 400 with `usage` without it); html
 * without a sponsor is the search form.
 */
export function sponsorRequired(format: PipelineFormat): boolean {
  return format !== 'html';
}

/** The 400 of a json or brief request without a sponsor (see sponsorRequired). */
export const SPONSOR_REQUIRED: ParamError = { error: 'sponsor is required', usage: PIPELINE_USAGE };

/**
 * Parses every `/pipeline` parameter except `format` (spec 4.2, 8). `sponsor` may be null
 * here: the caller decides (sponsorRequired). Returns the first ParamError met, in the order
 * sponsor length, role, status, phase, limit.
 */
export function parsePipelineQuery(query: RawQuery): PipelineQuery | ParamError {
  const sponsorRaw = rawString(query.sponsor);
  const sponsor = sponsorRaw === undefined ? null : sponsorRaw.trim() || null;
  if (sponsor !== null && sponsor.length > SPONSOR_MAX_LENGTH) {
    return { error: `sponsor is longer than ${SPONSOR_MAX_LENGTH} characters`, usage: PIPELINE_USAGE };
  }
  const roleRaw = rawString(query.role)?.trim().toLowerCase();
  let role: Role = 'lead';
  if (roleRaw) {
    if (!isOneOf(ROLE_VALUES, roleRaw)) return { error: 'unknown role', allowed: ROLE_VALUES };
    role = roleRaw;
  }
  const status = parseStatus(query.status);
  if (isParamError(status)) return status;
  const phase = parsePhase(query.phase);
  if (isParamError(phase)) return phase;
  const limit = parseLimit(query.limit);
  if (isParamError(limit)) return limit;
  return { sponsor, role, status, phase, ...limit };
}

/**
 * The format of a request: `format` (parseFormat: case-insensitive; an unknown value is a
 * ParamError with `allowed`), else `html` when `accept` prefers it (prefersHtml), else `json`.
 */
export function chooseFormat(rawFormat: unknown, accept: string | undefined): PipelineFormat | ParamError {
  const format = parseFormat(rawFormat);
  return format ?? (prefersHtml(accept) ? 'html' : 'json');
}
