/**
 * Query parameters of GET /interactions, GET /interactions/series and GET /masking
 * (docs/interactions.md): one table each gives the validator below, the OpenAPI parameters
 * (schemas.ts) and the /llms.txt table. The rules are those of /signals, /cases and /triage (one
 * reader of the raw query string, src/serve/query/parameters.ts): `+` is a space, values are
 * trimmed, an empty value counts as absent, a repeated or unknown parameter is a 400 naming the
 * allowed ones; numbers follow the one number rule. Names are exact (as /vaccines lists them and
 * the store's events are spelled). Returns a value, never throws.
 */
import type { ParamError } from '../query/error-object.js';
import { formatQuarter, parseQuarterInput, QUARTER_INPUT_PATTERN } from '../../domain/quarter.js';
import { integerValue, presentValue, queryValues, quoteValue, type ParameterSpec } from '../query/parameters.js';

/** Largest page of /interactions and most maskers of /masking. */
export const INTERACTIONS_LIMIT_MAX = 500;

/** Usage lines of the 400 answers. */
export const INTERACTIONS_USAGE = '/interactions?quarter=2006Q4&vaccine=NAME&event=TERM&limit=1..500&offset=0';
export const SERIES_USAGE = '/interactions/series?vaccine1=NAME&vaccine2=NAME&event=TERM';
export const MASKING_USAGE = '/masking?vaccine=NAME&event=TERM&quarter=2006Q4&limit=1..500&without=NAME';

const QUARTER: ParameterSpec = { name: 'quarter', schema: { type: 'string', pattern: QUARTER_INPUT_PATTERN }, description: 'The window (its last quarter) `YYYYQn`; default the latest; outside the stored windows a 400 Error object naming them.' };
const LIMIT = (what: string, fallback: number): ParameterSpec => ({ name: 'limit', schema: { type: 'integer', minimum: 1, maximum: INTERACTIONS_LIMIT_MAX, default: fallback }, description: `${what}, 1 to ${INTERACTIONS_LIMIT_MAX}.` });

/** The /interactions parameter table. */
export const INTERACTIONS_PARAMETERS: readonly ParameterSpec[] = [
  QUARTER,
  { name: 'vaccine', schema: { type: 'string' }, description: 'Only the pairs naming this vaccine (exact VAX_NAME, as /vaccines lists it).' },
  { name: 'event', schema: { type: 'string' }, description: 'Only this event (exact preferred term).' },
  LIMIT('Rows in the page', 50),
  { name: 'offset', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Rows skipped, at least 0.' },
];

/** The /interactions/series parameter table. */
export const SERIES_PARAMETERS: readonly ParameterSpec[] = [
  { name: 'vaccine1', schema: { type: 'string' }, description: 'One vaccine of the pair (exact VAX_NAME); required.' },
  { name: 'vaccine2', schema: { type: 'string' }, description: 'The other vaccine (exact VAX_NAME, not vaccine1); required. The order of the two does not matter.' },
  { name: 'event', schema: { type: 'string' }, description: 'The event (exact preferred term); required.' },
];

/** The /masking parameter table. */
export const MASKING_PARAMETERS: readonly ParameterSpec[] = [
  { name: 'vaccine', schema: { type: 'string' }, description: 'The pair\'s vaccine (exact VAX_NAME); required.' },
  { name: 'event', schema: { type: 'string' }, description: 'The pair\'s event (exact preferred term); required.' },
  QUARTER,
  LIMIT('Maskers listed (highest masking ratio first)', 10),
  { name: 'without', schema: { type: 'string' }, description: 'The vaccine whose reports `unmasked` removes (exact VAX_NAME); default the top masker.' },
];

/** Parsed /interactions parameters. */
export interface InteractionsParams { quarter: string | null; vaccine?: string; event?: string; limit: number; offset: number }
/** Parsed /interactions/series parameters (vaccine1 < vaccine2 in UTF-16 order, as stored). */
export interface SeriesParams { vaccine1: string; vaccine2: string; event: string }
/** Parsed /masking parameters. */
export interface MaskingParams { vaccine: string; event: string; quarter: string | null; limit: number; without?: string }

/** The `quarter` parameter as `YYYYQn` (null: absent), or the 400 fields. */
function quarterValue(values: ReadonlyMap<string, string>, usage: string): string | null | ParamError {
  const text = presentValue(values, 'quarter');
  if (text === undefined) return null;
  const index = parseQuarterInput(text);
  return index === null ? { error: `quarter must be YYYYQn, e.g. 2006Q4 (got ${quoteValue(text)})`, usage } : formatQuarter(index);
}

/** A required parameter's value, or the 400 fields. */
function required(values: ReadonlyMap<string, string>, name: string, usage: string): string | ParamError {
  return presentValue(values, name) ?? { error: `${name} is required`, usage };
}

const isError = (value: unknown): value is ParamError => typeof value === 'object' && value !== null;

/** Parses the raw query string of GET /interactions. */
export function parseInteractionsQuery(search: string): InteractionsParams | ParamError {
  const values = queryValues(search, INTERACTIONS_PARAMETERS.map((p) => p.name), INTERACTIONS_USAGE);
  if (!(values instanceof Map)) return values;
  const quarter = quarterValue(values, INTERACTIONS_USAGE);
  if (isError(quarter)) return quarter;
  const limit = integerValue('limit', presentValue(values, 'limit') ?? '50', 1, INTERACTIONS_LIMIT_MAX, INTERACTIONS_USAGE);
  if (typeof limit !== 'number') return limit;
  const offset = integerValue('offset', presentValue(values, 'offset') ?? '0', 0, Number.MAX_SAFE_INTEGER, INTERACTIONS_USAGE);
  if (typeof offset !== 'number') return offset;
  return { quarter, vaccine: presentValue(values, 'vaccine'), event: presentValue(values, 'event'), limit, offset };
}

/** Parses the raw query string of GET /interactions/series (the two vaccines ordered as stored). */
export function parseSeriesQuery(search: string): SeriesParams | ParamError {
  const values = queryValues(search, SERIES_PARAMETERS.map((p) => p.name), SERIES_USAGE);
  if (!(values instanceof Map)) return values;
  const [a, b, event] = ['vaccine1', 'vaccine2', 'event'].map((name) => required(values, name, SERIES_USAGE));
  for (const v of [a, b, event]) if (isError(v)) return v;
  if (a === b) return { error: `vaccine1 and vaccine2 must name two different vaccines (both are ${quoteValue(a as string)})`, usage: SERIES_USAGE };
  const [vaccine1, vaccine2] = [a as string, b as string].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return { vaccine1, vaccine2, event: event as string };
}

/** Parses the raw query string of GET /masking. */
export function parseMaskingQuery(search: string): MaskingParams | ParamError {
  const values = queryValues(search, MASKING_PARAMETERS.map((p) => p.name), MASKING_USAGE);
  if (!(values instanceof Map)) return values;
  const vaccine = required(values, 'vaccine', MASKING_USAGE);
  if (isError(vaccine)) return vaccine;
  const event = required(values, 'event', MASKING_USAGE);
  if (isError(event)) return event;
  const quarter = quarterValue(values, MASKING_USAGE);
  if (isError(quarter)) return quarter;
  const limit = integerValue('limit', presentValue(values, 'limit') ?? '10', 1, INTERACTIONS_LIMIT_MAX, MASKING_USAGE);
  if (typeof limit !== 'number') return limit;
  const without = presentValue(values, 'without');
  if (without === vaccine) return { error: `without must name another vaccine than vaccine (both are ${quoteValue(vaccine)})`, usage: MASKING_USAGE };
  return { vaccine, event, quarter, limit, without };
}
