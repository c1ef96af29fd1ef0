/**
 * GET /triage and GET /analyses/NAME/triage: the pairs one window flags, in triage order
 * (rank.ts), with their evidence, reasons and cautions; JSON or CSV. Parameters (the query
 * string read as /signals reads it, src/query/parameters.ts):
 * - `quarter`: the window (`YYYYQn`), default the analysis's latest;
 * - `vaccine` (alias `drug`), `event`, `q`: matched exactly as /signals matches them
 *   (src/query/names.ts matchNames over the analysis's vocabulary);
 * - `caution=exclude`: drop the pairs with an artefact caution; `caution=only`: keep only them (the
 *   explorer's "Possible artefacts" section); default `include`;
 * - `limit` 1..500 (default 50), `offset` >= 0, `format` `json` or `csv`.
 * Bad input is a 400 Error object (spec 2.5). Every answer carries the caveat (src/domain/caveats.ts)
 * and says triage orders hypotheses and does not assess causality.
 */
import { HYPOTHESIS } from '../domain/caveats.js';
import { errorBody, type ErrorBody, type ParamError } from '../domain/errors.js';
import { QUARTER_PATTERN } from '../domain/quarter.js';
import { matchNames, type Vocabulary } from '../query/names.js';
import { csvCell } from '../domain/csv-cell.js';
import { integerValue, LIMIT_MAX, presentValue, queryValues, quoteValue, vaccineValue } from '../query/parameters.js';
import type { TriageWindow } from '../store/triage-rows.js';
import { hasArtefact, rankPairs, type TriagePair } from './rank.js';

/** The sentence every triage answer carries besides the caveat. */
export const TRIAGE_NOTE = 'Triage orders hypotheses for review by the evidence of their reports; it does not assess causality.';

/** Default page size. */
export const TRIAGE_LIMIT_DEFAULT = 50;

/** The query parameters of GET /triage. */
export const TRIAGE_PARAMETERS = ['quarter', 'vaccine', 'drug', 'event', 'q', 'caution', 'limit', 'offset', 'format'] as const;

/** Usage line of the 400 answers. */
export const TRIAGE_USAGE = '/triage?quarter=2006Q4&vaccine=NAME&event=TERM&q=TEXT&caution=include|exclude|only&limit=1..500&offset=0&format=json|csv';

/** Parsed parameters of a triage request. */
export interface TriageParams {
  quarter: string | null;
  vaccine?: string;
  event?: string;
  q?: string;
  /** Which pairs by their artefact cautions: every pair, those without one, or only those with one. */
  caution: 'include' | 'exclude' | 'only';
  limit: number;
  offset: number;
  format: 'json' | 'csv';
}

/**
 * Parses the raw query string of GET /triage.
 * @returns the parameters, or the 400 Error fields.
 */
export function parseTriageQuery(search: string): TriageParams | ParamError {
  const values = queryValues(search, TRIAGE_PARAMETERS, TRIAGE_USAGE);
  if (!(values instanceof Map)) return values;
  const quarter = presentValue(values, 'quarter');
  if (quarter !== undefined && !new RegExp(QUARTER_PATTERN).test(quarter)) return { error: `quarter must be YYYYQn, e.g. 2006Q4 (got ${quoteValue(quarter)})`, usage: TRIAGE_USAGE };
  const vaccine = vaccineValue(values, TRIAGE_USAGE);
  if (typeof vaccine === 'object') return vaccine;
  const caution = presentValue(values, 'caution') ?? 'include';
  if (caution !== 'include' && caution !== 'exclude' && caution !== 'only') return { error: `caution must be include, exclude or only (got ${quoteValue(caution)})`, usage: TRIAGE_USAGE };
  const format = presentValue(values, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') return { error: `format must be json or csv (got ${quoteValue(format)})`, usage: TRIAGE_USAGE };
  const limit = integerValue('limit', presentValue(values, 'limit') ?? String(TRIAGE_LIMIT_DEFAULT), 1, LIMIT_MAX, TRIAGE_USAGE);
  if (typeof limit !== 'number') return limit;
  const offset = integerValue('offset', presentValue(values, 'offset') ?? '0', 0, Number.MAX_SAFE_INTEGER, TRIAGE_USAGE);
  if (typeof offset !== 'number') return offset;
  return {
    quarter: quarter ?? null, vaccine, event: presentValue(values, 'event'), q: presentValue(values, 'q'),
    caution, limit, offset, format,
  };
}

/** The JSON answer of GET /triage. */
export interface TriageAnswer {
  analysis: string;
  quarter: string | null;
  total: number;
  limit: number;
  offset: number;
  caveat: string;
  note: string;
  /** Why legal_share is null throughout (a store built without narratives or without the evidence columns), else absent. */
  evidence_note?: string;
  pairs: TriagePair[];
}

/** A rendered answer: status, content type and body. */
export interface TriageResult {
  status: 200 | 400;
  type: string;
  body: string | ErrorBody;
  /** For a 200: the pairs before paging (X-Total-Count) and the page (X-Limit, X-Offset). */
  total?: number;
}

/** The CSV columns of a pair, flattened (reasons and cautions as their codes joined by `;`). */
const CSV_COLUMNS: ReadonlyArray<[string, (p: TriagePair) => unknown]> = [
  ['rank', () => null], ['vaccine', (p) => p.vaccine], ['vax_type', (p) => p.vax_type], ['event', (p) => p.event], ['n', (p) => p.n],
  ['eb05', (p) => p.eb05], ['prr', (p) => p.prr], ['ic025', (p) => p.ic025], ['n_methods_flagged', (p) => p.n_methods_flagged], ['score', (p) => p.score],
  ['reasons', (p) => p.reasons.map((r) => r.code).join(';')], ['cautions', (p) => p.cautions.map((c) => c.code).join(';')],
  ['lag_median_days', (p) => p.lag.median_days], ['lag_q1_days', (p) => p.lag.q1_days], ['lag_q3_days', (p) => p.lag.q3_days],
  ['lag_share_over_365', (p) => p.lag.share_over_365], ['legal_share', (p) => p.legal_share], ['term_category', (p) => p.term_category],
  ['onset_n', (p) => p.onset.n], ['onset_median_days', (p) => p.onset.median_days],
  ['onset_d_other_vaccines', (p) => p.onset.vs_other_vaccines.d], ['onset_p_other_vaccines', (p) => p.onset.vs_other_vaccines.p],
  ['onset_d_other_events', (p) => p.onset.vs_other_events.d], ['onset_p_other_events', (p) => p.onset.vs_other_events.p],
  ['completeness_mean', (p) => p.completeness.mean], ['well_documented_share', (p) => p.completeness.well_documented_share],
  ['serious_share', (p) => p.serious_share], ['first_flagged', (p) => p.first_flagged], ['new', (p) => p.new],
];

/**
 * The answer of one triage request over a window read from the store (`window`, the analysis's
 * `vocabulary` for the name filters and vax_type).
 */
export function triageAnswer(analysis: string, params: TriageParams, window: TriageWindow, vocabulary: Vocabulary): TriageResult {
  let rows = window.rows;
  if (params.vaccine !== undefined || params.event !== undefined || params.q !== undefined) {
    const names = matchNames(vocabulary, params, TRIAGE_USAGE);
    if (!names.ok) return { status: 400, type: 'application/json; charset=utf-8', body: errorBody(names.error.error, names.error) };
    const vaccines = new Set(names.vaccines ?? []), events = new Set(names.events ?? []);
    rows = rows.filter((r) => (names.union
      ? vaccines.has(r.vaccine) || events.has(r.event)
      : (names.vaccines === null || vaccines.has(r.vaccine)) && (names.events === null || events.has(r.event))));
  }
  let pairs = rankPairs(rows, { quarter: window.quarter ?? '', at_bound: window.at_bound, vaxTypeOf: (v) => vocabulary.vaxTypeOf.get(v) ?? v });
  if (params.caution !== 'include') pairs = pairs.filter((p) => hasArtefact(p) === (params.caution === 'only'));
  const page = pairs.slice(params.offset, params.offset + params.limit);
  if (params.format === 'csv') {
    const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
    page.forEach((p, i) => lines.push(CSV_COLUMNS.map(([name, value]) => csvCell(name === 'rank' ? params.offset + i + 1 : value(p))).join(',')));
    return { status: 200, type: 'text/csv; charset=utf-8', body: `${lines.join('\r\n')}\r\n`, total: pairs.length };
  }
  const evidenceNote = !window.has_evidence
    ? 'this store has no triage evidence columns (an import, or a store built before them): the evidence fields are null; rebuild it with "reporting-signals build" to compute them'
    : window.rows.length > 0 && window.rows.every((r) => r.legal_share === null) ? 'this store was built without narratives (build --narratives), so legal_share is null and the legal_reports caution cannot apply' : undefined;
  const answer: TriageAnswer = {
    analysis, quarter: window.quarter, total: pairs.length, limit: params.limit, offset: params.offset, caveat: HYPOTHESIS, note: TRIAGE_NOTE,
    ...(evidenceNote ? { evidence_note: evidenceNote } : {}), pairs: page,
  };
  return { status: 200, type: 'application/json; charset=utf-8', body: JSON.stringify(answer), total: pairs.length };
}
