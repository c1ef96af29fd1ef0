/**
 * Query parameters of `GET /signals` (spec 4.1): one table (`SIGNALS_PARAMETERS`) gives the
 * validator below and the OpenAPI `parameters` (src/serve/signals/schemas.ts).
 *
 * The validator reads the raw query string with the reader both query resources share
 * (src/serve/query/parameters.ts), so that it can see repeated parameters and decode `+` as a space
 * (spec 4.1). It returns a value, never throws. Choices where the spec
 * says "not shown" (spec 7, 8), each a 400 Error object naming the allowed values:
 * limit outside 1..500 or not an integer; offset below 0 or not an integer; min_n below 0;
 * unknown sort or order; a parameter given more than once; an unknown parameter (including
 * `background`, whose `no_covid` refit the service does not provide). An empty value
 * (`vaccine=`) counts as absent; values are trimmed. Numbers: an optional leading sign (`+5`,
 * `%2B5`, `-0` is 0), the one number rule of src/serve/query/parameters.ts.
 */
import type { ParamError } from '../query/error-object.js';
import { integerValue, LIMIT_MAX, presentValue, queryValues, quoteValue, readDecimal, vaccineValue, type ParameterSpec } from '../query/parameters.js';

/** Spec 4.1 formats: the renderer registry's keys and the 400 answer's `allowed` list. */
export const FORMATS = ['json', 'csv', 'series', 'profile', 'brief', 'class'] as const;
/** One spec 4.1 format. */
export type Format = (typeof FORMATS)[number];
/**
 * Spec 4.1 sort keys (`trend` is rejected): the 400 answer's `allowed` list and the orders the
 * catalog precomputes (catalog.ts). Defined here, not in catalog.ts, so that the validator
 * loads nothing of the store (DuckDB).
 */
export const SORT_KEYS = ['eb05', 'n', 'latest'] as const;
/** One spec 4.1 sort key. */
export type SortKey = (typeof SORT_KEYS)[number];
/** Spec 4.1 order values. */
export const ORDERS = ['desc', 'asc'] as const;
/** One spec 4.1 order. */
export type Order = (typeof ORDERS)[number];

/** Spec 4.1 / 8: default page size. */
export const LIMIT_DEFAULT = 50;

/** Spec 4.1 parameter table, in the spec's order. */
export const SIGNALS_PARAMETERS: readonly ParameterSpec[] = [
  { name: 'vaccine', schema: { type: 'string' }, description: 'Vaccine name (VAX_NAME), or an exact vaccine type (e.g. COVID19) or VAERS VAX_TYPE abbreviation (e.g. HPV9, TD), case-insensitive; a type or abbreviation expands to every product of that type. Same field as `drug`. In the query string `+` is a space.' },
  { name: 'drug', schema: { type: 'string' }, description: 'Alias of `vaccine`. If both are set they must be identical (else 400).' },
  { name: 'event', schema: { type: 'string' }, description: 'Exact event preferred term, ignoring case (`pain` selects the term `Pain` only), or else a case-insensitive substring of at least 3 characters.' },
  { name: 'q', schema: { type: 'string' }, description: 'Used when `vaccine` and `event` are both omitted: union of vaccine matches (exact name, type or abbreviation, or a case-insensitive substring of at least 3 characters of a vaccine name) and event matches (as `event`). With `format=class` and no `vaccine`, `q` is the vaccine seed. Ignored when `vaccine` or `event` is given.' },
  { name: 'format', schema: { type: 'string', enum: FORMATS, default: 'json' }, description: 'Output form. Any other value (including `label` and `pdf`) is a 400 listing `allowed`.' },
  { name: 'sort', schema: { type: 'string', enum: SORT_KEYS, default: 'eb05' }, description: 'Sort key: `eb05` (peak flagged EB05), `n`, `latest` (latest_quarter). Nulls last in both orders; ties by vaccine then event. `trend` and any other value: 400 (not shown in the spec: our choice).' },
  { name: 'order', schema: { type: 'string', enum: ORDERS, default: 'desc' }, description: 'Sort direction. Any other value: 400 (not shown in the spec: our choice).' },
  { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT }, description: 'Page size, an integer from 1 to 500 (decimal digits, optional leading sign: `%2B5` is 5). Outside those bounds or not an integer: 400 (not shown in the spec: our choice).' },
  { name: 'offset', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Rows skipped, an integer at least 0 (optional leading sign; `-0` is 0). Below 0 or not an integer: 400 (not shown in the spec: our choice).' },
  { name: 'min_eb05', schema: { type: 'number', minimum: 0 }, description: 'Keep pairs whose peak EB05 (`eb05`) is at least this number; a pair whose eb05 is null does not pass. Applied after the aggregate and before the total. A decimal number with optional sign and exponent (`-0` is 0). Not a number or below 0: 400.' },
  { name: 'min_n', schema: { type: 'number', minimum: 0 }, description: 'Keep pairs whose `n` is at least this number. Same timing as `min_eb05`. Same number form as `min_eb05`. Not a number: 400; below 0: 400 (not shown in the spec: our choice).' },
];

/** Validated parameters of one request. Strings are trimmed; absent or empty ones are undefined. */
export interface SignalsParams {
  vaccine?: string;
  event?: string;
  q?: string;
  format: Format;
  sort: SortKey;
  order: Order;
  limit: number;
  offset: number;
  min_eb05?: number;
  min_n?: number;
}

/** Parsed parameters with their normalised cache key, or the spec 2.5 Error (errors as values). */
export type ParseResult = { ok: true; params: SignalsParams; key: string } | { ok: false; error: ParamError };

/** Short usage line for 400 answers. */
export const USAGE =
  'GET /signals?vaccine=NAME|TYPE&event=TERM (or q=TEXT)&format=json|csv|series|profile|brief|class&sort=eb05|n|latest&order=desc|asc&limit=1..500&offset=0..&min_eb05=X&min_n=X';

const NAMES = SIGNALS_PARAMETERS.map((p) => p.name);

function fail(error: string, extra: Omit<ParamError, 'error'> = {}): ParseResult {
  return { ok: false, error: { error, ...extra } };
}

function integerParam(name: string, text: string, min: number, max: number): number | ParseResult {
  const n = integerValue(name, text, min, max, USAGE);
  return typeof n === 'number' ? n : { ok: false, error: n };
}

function numberParam(name: string, text: string): number | ParseResult {
  const n = readDecimal(text);
  if (!Number.isFinite(n)) return fail(`${name} must be a number (got ${quoteValue(text)})`, { usage: USAGE });
  if (n < 0) return fail(`${name} must be at least 0 (got ${quoteValue(text)})`, { usage: USAGE });
  return n;
}

/**
 * Validates the raw query string of a `/signals` request (without the leading `?`).
 * `+` decodes to a space and `%XX` to the byte (malformed escapes stay as typed).
 * @returns the params and a canonical cache key, or the 400 Error fields (spec 7).
 */
export function parseSignalsQuery(search: string): ParseResult {
  const values = queryValues(search, NAMES, USAGE, (name) => (name === 'background'
    ? { error: 'background is not provided: the service has no background=no_covid refit', allowed: NAMES, usage: USAGE }
    : { error: `unknown parameter ${quoteValue(name)}`, allowed: NAMES, usage: USAGE }));
  if (!(values instanceof Map)) return { ok: false, error: values };
  const get = (name: string): string | undefined => presentValue(values, name);

  const format = get('format') ?? 'json';
  if (!(FORMATS as readonly string[]).includes(format)) {
    const why = format === 'label' || format === 'pdf' ? ' (the service provides no label status and no PDF output)' : '';
    return fail(`unknown format ${quoteValue(format)}${why}`, { allowed: FORMATS });
  }
  const sort = get('sort') ?? 'eb05';
  if (!(SORT_KEYS as readonly string[]).includes(sort)) {
    if (sort === 'trend') return fail('sort=trend is not provided: the service has no trend derivation', { allowed: SORT_KEYS });
    return fail(`unknown sort ${quoteValue(sort)}`, { allowed: SORT_KEYS });
  }
  const order = get('order') ?? 'desc';
  if (!(ORDERS as readonly string[]).includes(order)) return fail(`unknown order ${quoteValue(order)}`, { allowed: ORDERS });

  const limitText = get('limit');
  const limit = limitText === undefined ? LIMIT_DEFAULT : integerParam('limit', limitText, 1, LIMIT_MAX);
  if (typeof limit !== 'number') return limit;
  const offsetText = get('offset');
  const offset = offsetText === undefined ? 0 : integerParam('offset', offsetText, 0, Number.MAX_SAFE_INTEGER);
  if (typeof offset !== 'number') return offset;
  const minEb05Text = get('min_eb05');
  const minEb05 = minEb05Text === undefined ? undefined : numberParam('min_eb05', minEb05Text);
  if (minEb05 !== undefined && typeof minEb05 !== 'number') return minEb05;
  const minNText = get('min_n');
  const minN = minNText === undefined ? undefined : numberParam('min_n', minNText);
  if (minN !== undefined && typeof minN !== 'number') return minN;

  const v = vaccineValue(values, USAGE);
  if (typeof v === 'object') return { ok: false, error: v };
  const params: SignalsParams = { format: format as Format, sort: sort as SortKey, order: order as Order, limit, offset };
  if (v !== undefined) params.vaccine = v;
  const event = get('event');
  if (event !== undefined) params.event = event;
  const q = get('q');
  if (q !== undefined) params.q = q;
  if (minEb05 !== undefined) params.min_eb05 = minEb05;
  if (minN !== undefined) params.min_n = minN;
  if (params.vaccine === undefined && params.event === undefined && params.q === undefined) {
    return fail('at least one of vaccine (or drug), event, q must be given', { usage: USAGE });
  }
  const key = JSON.stringify([params.vaccine, params.event, params.q, format, sort, order, limit, offset, params.min_eb05, params.min_n]);
  return { ok: true, params, key };
}
