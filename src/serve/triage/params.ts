/**
 * Query parameters of GET /triage and GET /analyses/NAME/triage: one table (`TRIAGE_PARAMETERS`)
 * gives the validator below, the OpenAPI parameters (schemas.ts) and the /llms.txt table. The
 * rules are those of /signals and /cases (one reader of the raw query string,
 * src/serve/query/parameters.ts): `+` is a space, values are trimmed, an empty value counts as absent,
 * a repeated or unknown parameter is a 400 naming the allowed ones; numbers follow the one number
 * rule. Returns a value, never throws.
 */
import type { ParamError } from '../query/error-object.js';
import { formatQuarter, parseQuarterInput, QUARTER_INPUT_PATTERN } from '../../domain/quarter.js';
import { integerValue, LIMIT_MAX, presentValue, queryValues, quoteValue, vaccineValue, type ParameterSpec } from '../query/parameters.js';
import { ARTEFACT_CAUTIONS } from './cautions.js';
import { FOLD_OVERLAP, HEAD_OVERLAP } from './group.js';

/** Default page size. */
export const TRIAGE_LIMIT_DEFAULT = 50;
/** `caution` values. */
export const CAUTION_CHOICES = ['include', 'exclude', 'only'] as const;
/** `group` values. */
export const GROUP_CHOICES = ['signal', 'none'] as const;
/** `format` values. */
export const TRIAGE_FORMATS = ['json', 'csv'] as const;

/** Usage line of the 400 answers. */
export const TRIAGE_USAGE = '/triage?quarter=2006Q4&vaccine=NAME&event=TERM&q=TEXT&caution=include|exclude|only&group=signal|none&limit=1..500&offset=0&format=json|csv';

/** The /triage parameter table. */
export const TRIAGE_PARAMETERS: readonly ParameterSpec[] = [
  { name: 'quarter', schema: { type: 'string', pattern: QUARTER_INPUT_PATTERN }, description: 'The window (its last quarter) `YYYYQn`; default the analysis\'s latest; a quarter outside the analysis\'s quarters is a 400 Error object naming them.' },
  { name: 'vaccine', schema: { type: 'string' }, description: 'Vaccine name, vax_type or VAX_TYPE code, matched as /signals matches it.' },
  { name: 'drug', schema: { type: 'string' }, description: 'Alias of `vaccine`. If both are set they must be identical (else 400).' },
  { name: 'event', schema: { type: 'string' }, description: 'Exact event preferred term ignoring case, else a case-insensitive substring of at least 3 characters (as /signals).' },
  { name: 'q', schema: { type: 'string' }, description: 'Only without vaccine and event: the pairs whose vaccine or event q matches (as /signals).' },
  { name: 'caution', schema: { type: 'string', enum: CAUTION_CHOICES, default: 'include' },
    description: `\`exclude\`: drop the pairs with an artefact caution (${ARTEFACT_CAUTIONS.join(', ')}); \`only\`: keep only those (they rank after every other pair, so they are otherwise far down a long queue).` },
  { name: 'group', schema: { type: 'string', enum: GROUP_CHOICES, default: 'signal' },
    description: `\`signal\`: flagged pairs of one vaccine whose reports largely coincide (shared reports / the smaller pair's at least ${FOLD_OVERLAP}, directly or through each other, each overlapping the first by at least ${HEAD_OVERLAP}) are one row, the first in triage order, listing the others in \`related_events\`; \`none\`: every pair a row.` },
  { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: TRIAGE_LIMIT_DEFAULT }, description: 'Rows in the page, 1 to 500.' },
  { name: 'offset', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Rows skipped, at least 0.' },
  { name: 'format', schema: { type: 'string', enum: TRIAGE_FORMATS, default: 'json' }, description: '`json`, or `csv` (one line per row, reasons and cautions as codes joined by `;`).' },
];

const NAMES = TRIAGE_PARAMETERS.map((p) => p.name);

/** Parsed parameters of a triage request. */
export interface TriageParams {
  quarter: string | null;
  vaccine?: string;
  event?: string;
  q?: string;
  /** Which pairs by their artefact cautions: every pair, those without one, or only those with one. */
  caution: (typeof CAUTION_CHOICES)[number];
  /** One row per signal (related pairs folded) or per pair. */
  group: (typeof GROUP_CHOICES)[number];
  limit: number;
  offset: number;
  format: (typeof TRIAGE_FORMATS)[number];
}

/** The value of a choice parameter, its default when absent, or the 400 naming the allowed values. */
function choice<T extends string>(values: ReadonlyMap<string, string>, name: string, allowed: readonly T[], fallback: T): T | ParamError {
  const value = presentValue(values, name) ?? fallback;
  const words = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
  return (allowed as readonly string[]).includes(value) ? (value as T) : { error: `${name} must be ${words} (got ${quoteValue(value)})`, allowed, usage: TRIAGE_USAGE };
}

/**
 * Parses the raw query string of GET /triage.
 * @returns the parameters, or the 400 Error fields.
 */
export function parseTriageQuery(search: string): TriageParams | ParamError {
  const values = queryValues(search, NAMES, TRIAGE_USAGE);
  if (!(values instanceof Map)) return values;
  const quarter = presentValue(values, 'quarter');
  const quarterIndex = quarter === undefined ? null : parseQuarterInput(quarter);
  if (quarter !== undefined && quarterIndex === null) return { error: `quarter must be YYYYQn, e.g. 2006Q4 (got ${quoteValue(quarter)})`, usage: TRIAGE_USAGE };
  const vaccine = vaccineValue(values, TRIAGE_USAGE);
  if (typeof vaccine === 'object') return vaccine;
  const caution = choice(values, 'caution', CAUTION_CHOICES, 'include');
  if (typeof caution === 'object') return caution;
  const group = choice(values, 'group', GROUP_CHOICES, 'signal');
  if (typeof group === 'object') return group;
  const format = choice(values, 'format', TRIAGE_FORMATS, 'json');
  if (typeof format === 'object') return format;
  const limit = integerValue('limit', presentValue(values, 'limit') ?? String(TRIAGE_LIMIT_DEFAULT), 1, LIMIT_MAX, TRIAGE_USAGE);
  if (typeof limit !== 'number') return limit;
  const offset = integerValue('offset', presentValue(values, 'offset') ?? '0', 0, Number.MAX_SAFE_INTEGER, TRIAGE_USAGE);
  if (typeof offset !== 'number') return offset;
  return {
    quarter: quarterIndex === null ? null : formatQuarter(quarterIndex), vaccine, event: presentValue(values, 'event'), q: presentValue(values, 'q'),
    caution, group, limit, offset, format,
  };
}
