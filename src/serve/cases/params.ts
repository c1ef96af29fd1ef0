/**
 * Query parameters of `GET /cases` (the case series behind a query): one table (`CASES_PARAMETERS`) gives the
 * validator below and the OpenAPI parameters. The rules are those of /signals (one parser of
 * the raw query string, src/serve/query/parameters.ts): `+` is a space, values are trimmed, an empty
 * value counts as absent, a repeated or unknown parameter is a 400 naming the allowed ones, and
 * numbers follow the one number rule.
 */
import type { ParamError } from '../query/error-object.js';
import { DUPLICATES_CHOICES, type DuplicatesChoice } from './duplicates.js';
import { parseQuarterInput, type QuarterIndex } from '../../domain/quarter.js';
import { parseTextQuery, TEXT_EXPANSION_MAX_WORDS, TEXT_MAX_CHARS, TEXT_MIN_LETTERS, TEXT_PREFIX_MAX_WORDS, type TextQuery } from '../narratives/query.js';
import { integerValue, LIMIT_MAX, presentValue, queryValues, quoteValue, vaccineValue, type ParameterSpec } from '../query/parameters.js';

/** `/cases` formats: json (the case series) and csv (the line listing of the page). */
export const CASES_FORMATS = ['json', 'csv'] as const;
/** One `/cases` format. */
export type CasesFormat = (typeof CASES_FORMATS)[number];

/** Default page size of the line listing. */
export const CASES_LIMIT_DEFAULT = 50;

/** Usage line of 400 answers. */
export const CASES_USAGE =
  'GET /cases?vaccine=NAME|TYPE|CODE&event=TERM (or q=TEXT)&text=WORDS&from=YYYYQn&to=YYYYQn&format=json|csv&limit=1..500&offset=0..';

/** The `/cases` parameter table. */
export const CASES_PARAMETERS: readonly ParameterSpec[] = [
  { name: 'vaccine', schema: { type: 'string' }, description: 'Vaccine name (VAX_NAME), or an exact vaccine type (e.g. ROTAVIRUS) or VAERS VAX_TYPE code (e.g. HPV4), case-insensitive; a type or code expands to every product. Matched exactly as /signals, over every report (not only flagged pairs).' },
  { name: 'drug', schema: { type: 'string' }, description: 'Alias of `vaccine`. If both are set they must be identical (else 400).' },
  { name: 'event', schema: { type: 'string' }, description: 'Exact event preferred term ignoring case, else a case-insensitive substring of at least 3 characters.' },
  { name: 'q', schema: { type: 'string' }, description: 'Only without vaccine and event: the reports naming a vaccine or an event that q matches (as /signals q).' },
  { name: 'text', schema: { type: 'string' },
    description: `Full-text search of the six narrative fields (SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX), alone or with vaccine/event/q: the reports holding every word, whole, ignoring case and diacritics; \`word*\` a prefix; \`"two words"\` consecutive words within one field; \`-word\` absent. Words are runs of letters and digits; other characters (\`%\`, \`_\`, regex or SQL syntax) are plain text. Every term is required: \`OR\`, \`AND\`, \`NOT\` (in capitals) and parentheses are refused; a repeated term counts once. 400 when over ${TEXT_MAX_CHARS} characters, with fewer than ${TEXT_MIN_LETTERS} letters or digits to find, only exclusions, an unbalanced quote, an operator, or a prefix expanding to over ${TEXT_PREFIX_MAX_WORDS} words of the narratives (${TEXT_EXPANSION_MAX_WORDS} for all the prefixes of the text). Each listed report then carries a \`snippet\`.` },
  { name: 'from', schema: { type: 'string' }, description: 'First quarter `YYYYQn` of RECVDATE (inclusive), within the quarters of the store\'s reports (else 400 naming them); default: the first in the store.' },
  { name: 'to', schema: { type: 'string' }, description: 'Last quarter `YYYYQn` of RECVDATE (inclusive), within the quarters of the store\'s reports (else 400 naming them); default: the last in the store.' },
  { name: 'duplicates', schema: { type: 'string', enum: DUPLICATES_CHOICES, default: 'keep' },
    description: '`keep`: every report; `collapse`: each suspected-duplicate cluster of the build\'s linkage counts once (its representative when in the series, else its newest report there), in n_reports, the breakdowns and the listing; `reports_folded` says how many reports were folded.' },
  { name: 'format', schema: { type: 'string', enum: CASES_FORMATS, default: 'json' }, description: '`json`: the case series with its breakdowns; `csv`: the line listing of the page (RFC 4180, one row per report).' },
  { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: CASES_LIMIT_DEFAULT }, description: 'Reports in the page of the line listing, 1 to 500.' },
  { name: 'offset', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Reports skipped (newest RECVDATE first, then VAERS_ID descending).' },
];

const NAMES = CASES_PARAMETERS.map((p) => p.name);

/** Validated parameters of one `/cases` request. */
export interface CasesParams {
  vaccine?: string;
  event?: string;
  q?: string;
  /** The parsed `text`, with its canonical form as written back (`textKey`). */
  text?: TextQuery;
  textKey?: string;
  /** Quarter indexes (inclusive), undefined when not given. */
  from?: QuarterIndex;
  to?: QuarterIndex;
  format: CasesFormat;
  /** Whether each suspected-duplicate cluster counts once (`collapse`) or every report (`keep`, the default). */
  duplicates: DuplicatesChoice;
  limit: number;
  offset: number;
}

/** Parsed parameters with their normalised cache key, or the 400 Error fields. */
export type CasesParseResult = { ok: true; params: CasesParams; key: string } | { ok: false; error: ParamError };

function quarterValue(name: string, text: string | undefined): QuarterIndex | undefined | ParamError {
  if (text === undefined) return undefined;
  const quarter = parseQuarterInput(text);
  return quarter ?? { error: `${name} must be a quarter YYYYQn such as 1999Q3 (got ${quoteValue(text)})`, usage: CASES_USAGE };
}

/**
 * Validates the raw query string of a `/cases` request (without `?`).
 * @returns the params and a canonical cache key, or the 400 Error fields (unknown or repeated
 * parameter, no filter, vaccine and drug different, unknown format, bad quarter, `from` after
 * `to`, bad limit or offset, a `text` src/serve/narratives/query.ts rejects).
 */
export function parseCasesQuery(search: string): CasesParseResult {
  const values = queryValues(search, NAMES, CASES_USAGE);
  if (!(values instanceof Map)) return { ok: false, error: values };
  const get = (name: string): string | undefined => presentValue(values, name);
  const format = get('format') ?? 'json';
  if (!(CASES_FORMATS as readonly string[]).includes(format)) return { ok: false, error: { error: `unknown format ${quoteValue(format)}`, allowed: CASES_FORMATS } };
  const duplicates = get('duplicates') ?? 'keep';
  if (!(DUPLICATES_CHOICES as readonly string[]).includes(duplicates)) {
    return { ok: false, error: { error: `unknown duplicates ${quoteValue(duplicates)}`, allowed: DUPLICATES_CHOICES, usage: CASES_USAGE } };
  }
  const limit = get('limit') === undefined ? CASES_LIMIT_DEFAULT : integerValue('limit', get('limit')!, 1, LIMIT_MAX, CASES_USAGE);
  if (typeof limit !== 'number') return { ok: false, error: limit };
  const offset = get('offset') === undefined ? 0 : integerValue('offset', get('offset')!, 0, Number.MAX_SAFE_INTEGER, CASES_USAGE);
  if (typeof offset !== 'number') return { ok: false, error: offset };
  const from = quarterValue('from', get('from'));
  if (typeof from === 'object') return { ok: false, error: from };
  const to = quarterValue('to', get('to'));
  if (typeof to === 'object') return { ok: false, error: to };
  if (from !== undefined && to !== undefined && from > to) return { ok: false, error: { error: `from (${get('from')}) is after to (${get('to')})`, usage: CASES_USAGE } };
  const vaccine = vaccineValue(values, CASES_USAGE);
  if (typeof vaccine === 'object') return { ok: false, error: vaccine };
  const params: CasesParams = { format: format as CasesFormat, duplicates: duplicates as DuplicatesChoice, limit, offset };
  if (vaccine !== undefined) params.vaccine = vaccine;
  if (get('event') !== undefined) params.event = get('event');
  if (get('q') !== undefined) params.q = get('q');
  if (get('text') !== undefined) {
    const text = parseTextQuery(get('text')!);
    if (!text.ok) return { ok: false, error: { error: text.error, usage: text.usage } };
    params.text = text.query;
    params.textKey = text.key;
  }
  if (from !== undefined) params.from = from;
  if (to !== undefined) params.to = to;
  if (params.vaccine === undefined && params.event === undefined && params.q === undefined && params.text === undefined) {
    return { ok: false, error: { error: 'at least one of vaccine (or drug), event, q, text must be given', usage: CASES_USAGE } };
  }
  const key = JSON.stringify([params.vaccine, params.event, params.q, from, to, format, limit, offset, ...(params.textKey === undefined ? [] : [params.textKey]), ...(duplicates === 'keep' ? [] : [duplicates])]);
  return { ok: true, params, key };
}
