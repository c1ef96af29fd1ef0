/**
 * JSON schemas of `/cases` and `/analyses/{analysis}/cases`, as data: the route
 * schemas give /openapi.json (through @fastify/swagger); the validator is parseCasesQuery.
 */
import { answerHeaders, NOT_MODIFIED } from '../query/responses.js';
import { JSON_REPORT_COLUMNS, NARRATIVE_FIELDS, OUTCOME_REPORT_COLUMNS } from '../../domain/report-columns.js';
import { AGE_GROUPS, SEX_CODES } from '../../domain/report-rules.js';
import { ONSET_INTERVALS, TOP } from './breakdowns.js';
import { LAG_INTERVALS } from './timing.js';
import { LATE_DAYS, ONSET_MAX_DAYS } from '../../domain/report-days.js';
import { DUPLICATES_CHOICES } from './duplicates.js';
import { CASES_PARAMETERS } from './params.js';
import { CASES_NOTE } from './render.js';
import { ELISION, SNIPPET_CHARS } from '../narratives/snippet.js';

const STRING_OR_NULL = { type: ['string', 'null'] } as const;

/** A report's snippet for a `text` query (src/serve/narratives/snippet.ts). */
export const SNIPPET_SCHEMA = {
  type: ['object', 'null'],
  description: `Only with text: about ${SNIPPET_CHARS} characters of the narrative field holding the first match (fields in the order ${NARRATIVE_FIELDS.join(', ')}), \`${ELISION}\` marking cut text; null when no term to find lies in one field (a phrase split by a field's end cannot).`,
  required: ['field', 'text', 'matches'],
  properties: {
    field: { type: 'string', enum: [...NARRATIVE_FIELDS] },
    text: { type: 'string' },
    matches: { type: 'array', description: 'The occurrences of the query\'s terms in text: text.slice(start, end), UTF-16 offsets, ascending and disjoint.',
      items: { type: 'object', required: ['start', 'end'], properties: { start: { type: 'integer' }, end: { type: 'integer' } } } },
  },
} as const;
const COUNTS = (keys: readonly string[], description: string) => ({
  type: 'object', description, required: [...keys], properties: Object.fromEntries(keys.map((k) => [k, { type: 'integer' }])),
});
const OPEN_COUNTS = (description: string) => ({ type: 'object', description, additionalProperties: { type: 'integer' } });
const RANKED = (description: string) => ({
  type: 'object', description: `${description} The ${TOP} with most reports (ties by name), and \`other\`: the reports counted under the rest.`, required: ['top', 'other'],
  properties: {
    top: { type: 'array', items: { type: 'object', required: ['name', 'reports'], properties: { name: { type: 'string' }, reports: { type: 'integer' } } } },
    other: { type: 'integer' },
  },
});

const DAYS_OR_NULL = (description: string) => ({ type: ['number', 'null'], description });

/** The lag summary of a case series (src/serve/cases/timing.ts LagSummary). */
const LAG_SCHEMA = {
  type: 'object', required: ['n', 'median_days', 'q1_days', 'q3_days', 'share_over_365'],
  description: 'The known lags (days from VAX_DATE to RECVDATE): their number, median and quartiles (linear interpolation, R type 7 / NumPy default) and the share over a year (late reports: litigation, stimulated reporting; Goodman and Nordin 2006). Null without a known lag.',
  properties: {
    n: { type: 'integer', description: 'Reports with a known lag.' },
    median_days: DAYS_OR_NULL('Median lag in days.'), q1_days: DAYS_OR_NULL('First quartile in days.'), q3_days: DAYS_OR_NULL('Third quartile in days.'),
    share_over_365: DAYS_OR_NULL(`Share (0..1) of the known lags over ${LATE_DAYS} days.`),
  },
} as const;

const ONSET_SAMPLE = (description: string) => ({
  type: 'object', description, required: ['n', 'median_days', 'days'],
  properties: {
    n: { type: 'integer', description: `Reports with an onset within 0..${ONSET_MAX_DAYS} days.` },
    median_days: DAYS_OR_NULL('Median onset in days (null when n is 0).'),
    days: { type: 'array', items: { type: 'integer' }, minItems: ONSET_MAX_DAYS + 1, maxItems: ONSET_MAX_DAYS + 1, description: `Reports per onset day: days[d] for d = 0..${ONSET_MAX_DAYS}.` },
  },
});

/** The onset comparison of a pair (src/serve/cases/timing.ts OnsetComparison). */
const ONSET_COMPARISON_SCHEMA = {
  type: ['object', 'null'],
  description: `With a vaccine and an event (not q): the days to onset (NUMDAYS when a whole number >= 0, else ONSET_DATE - VAX_DATE) within 0..${ONSET_MAX_DAYS} of these reports against the same event's reports naming no matched vaccine (same quarters, analysis and text), and the two-sample Kolmogorov-Smirnov test of the two (SciPy ks_2samp, two-sided, method auto; Van Holle et al. 2012). Null otherwise.`,
  required: ['max_days', 'pair', 'other_vaccines', 'ks'],
  properties: {
    max_days: { type: 'integer', description: `The last onset day compared (${ONSET_MAX_DAYS}).` },
    pair: ONSET_SAMPLE('The case series\' reports.'),
    other_vaccines: ONSET_SAMPLE('Reports naming a matched event and no matched vaccine.'),
    ks: {
      type: ['object', 'null'], description: 'KS statistic D, two-sided p-value and how it was computed (exact when both samples have at most 10000 values); null when a sample is empty.',
      required: ['d', 'p', 'method'],
      properties: { d: { type: 'number' }, p: { type: 'number' }, method: { type: 'string', enum: ['exact', 'asymp'] } },
    },
  },
} as const;

/** One report of the listing: its JSON fields and their schemas from src/domain/report-columns.ts. */
const REPORT = {
  type: 'object',
  required: JSON_REPORT_COLUMNS.filter((c) => !('optional' in c.json)).map((c) => c.json.name),
  properties: Object.fromEntries([...JSON_REPORT_COLUMNS.map((c) => [c.json.name, c.json.schema] as const), ['snippet', SNIPPET_SCHEMA] as const]),
} as const;

/** The JSON body of a case series. */
export const CASE_SERIES_SCHEMA = {
  type: 'object',
  description: `The reports behind a query. ${CASES_NOTE}`,
  required: ['query', 'vaccines', 'events', 'from', 'to', 'reports_through', 'n_reports', 'n_cases', 'duplicates', 'reports_folded', 'hypothesis', 'note', 'breakdowns', 'limit', 'offset', 'returned', 'reports'],
  properties: {
    query: { type: 'object', description: 'The query as given.', properties: { vaccine: STRING_OR_NULL, event: STRING_OR_NULL, q: STRING_OR_NULL, text: { type: 'string', description: 'Only when given: text in its canonical form.' }, from: STRING_OR_NULL, to: STRING_OR_NULL } },
    analysis: { type: 'string', description: 'The analysis (only on /analyses/{analysis}/cases).' },
    vaccines: { type: 'array', items: { type: 'string' }, description: 'Vaccine names matched.' },
    events: { type: 'array', items: { type: 'string' }, description: 'Event terms matched (in an analysis of event groups: the group items matched, e.g. `Seizures`, `Seizures (broad)`).' },
    group_terms: {
      type: 'array', description: 'Only in an analysis of event groups (`groups`, `SUBSET@groups`): per term of the matched groups, the reports of this case series carrying it (a report carrying two terms counts under each); docs/event-groups.md.',
      items: {
        type: 'object', required: ['event', 'group_id', 'term', 'scope', 'reports'],
        properties: {
          event: { type: 'string', description: 'The group item (a pair\'s event).' }, group_id: { type: 'string' },
          term: { type: 'string', description: 'A preferred term of the group, as the VAERS files spell it.' },
          scope: { type: 'string', enum: ['narrow', 'broad'] }, reports: { type: 'integer' },
        },
      },
    },
    from: STRING_OR_NULL, to: STRING_OR_NULL, reports_through: STRING_OR_NULL,
    n_reports: { type: 'integer', description: 'Distinct reports (also X-Total-Count); with duplicates=collapse, each suspected-duplicate cluster once.' },
    n_cases: { type: 'integer', description: 'Distinct cases beside n_reports: the matched reports with each suspected-duplicate cluster of the build\'s linkage counted once (equal to n_reports with duplicates=collapse; the breakdowns count reports, or cases with collapse).' },
    duplicates: { type: 'string', enum: [...DUPLICATES_CHOICES], description: 'The duplicates asked: keep (every report) or collapse (each suspected-duplicate cluster once).' },
    reports_folded: { type: 'integer', description: 'Reports folded into their cluster\'s report by duplicates=collapse (0 with keep).' },
    hypothesis: { type: 'string' }, note: { type: 'string' },
    breakdowns: {
      type: 'object', description: 'Counts of distinct reports.',
      properties: {
        sex: COUNTS(SEX_CODES, 'F, M, U.'), age_group: COUNTS(AGE_GROUPS.map((g) => g.label), 'CDC WONDER age groups of AGE_YRS.'),
        onset_interval: COUNTS(ONSET_INTERVALS, 'Days from vaccination to onset (NUMDAYS); unknown: blank, negative or not a whole number.'),
        serious: COUNTS(['serious', 'not_serious'], '21 CFR 600.80.'),
        outcomes: OPEN_COUNTS(`Reports with each outcome flag set: ${OUTCOME_REPORT_COLUMNS.map((c) => c.json.name).join(', ')}.`),
        dose: OPEN_COUNTS('Per report, the dose of its first row of a matched vaccine (of any vaccine when none was asked); unknown when blank.'),
        received_year: OPEN_COUNTS('Year of RECVDATE.'),
        state: RANKED('STATE (unknown when blank).'),
        manufacturer: RANKED('Manufacturers of the matched vaccines (of every vaccine when none was asked); a report counts once per manufacturer.'),
        co_vaccines: RANKED('Other vaccines named on these reports (co-administered vaccines share reports).'),
        co_events: RANKED('Other events named on these reports.'),
        lag_interval: COUNTS(LAG_INTERVALS, 'Days from vaccination to receipt (RECVDATE - VAX_DATE), bounds inclusive; unknown: VAX_DATE blank or not a real date, or after RECVDATE.'),
        lag: LAG_SCHEMA,
        onset_comparison: ONSET_COMPARISON_SCHEMA,
      },
    },
    limit: { type: 'integer' }, offset: { type: 'integer' }, returned: { type: 'integer' },
    reports: { type: 'array', items: REPORT, description: 'The page: newest RECVDATE first, then VAERS_ID descending.' },
  },
} as const;

const ERROR = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: 'Error#' } } } });

const HEADERS = answerHeaders('n_reports: distinct reports matched, before limit and offset.');

/** `GET /cases`. */
export const CASES_ROUTE_SCHEMA = {
  summary: 'The case series behind a query: the reports, their breakdowns and a line listing',
  description: `Reports naming a matched vaccine and a matched event (both given), a matched vaccine or event (one given), or a vaccine or event that q matches; with text, only the reports whose narratives match it (text alone: all of them); names are matched exactly as /signals, over every report (not only flagged pairs). ${CASES_NOTE}`,
  querystring: { type: 'object', additionalProperties: false, properties: Object.fromEntries(CASES_PARAMETERS.map((p) => [p.name, { ...p.schema, description: p.description }])) },
  response: {
    200: {
      description: 'json: the case series; csv: the line listing of the page (RFC 4180, CRLF, one row per report; a `narrative` column when the store keeps narratives; `snippet_field` and `snippet` columns with text). Unknown names: 200 with n_reports 0.',
      headers: HEADERS,
      content: { 'application/json': { schema: CASE_SERIES_SCHEMA }, 'text/csv': { schema: { type: 'string' } } },
    },
    304: NOT_MODIFIED,
    400: ERROR('No vaccine/drug/event/q; vaccine and drug differ; a query too short; a bad quarter or from after to; bad limit or offset; a bad text (over 200 characters, fewer than 3 letters or digits to find, only exclusions, an unbalanced quote) or text on a store without narratives; unknown format or duplicates (with allowed) or parameter (with allowed); a repeated parameter.'),
    503: ERROR('The store has no report-level data (an import, or a store built before case series existed) or could not be read.'),
  },
} as const;

/** `GET /analyses/{analysis}/cases`: the same, restricted to the analysis's subset of reports. */
export function analysisCasesRouteSchema(names: readonly string[]) {
  return {
    ...CASES_ROUTE_SCHEMA,
    summary: 'The case series of one analysis (its subset of the reports)',
    description: `As /cases, restricted to the reports of the analysis's subset rule (GET /analyses). ${CASES_ROUTE_SCHEMA.description}`,
    params: { type: 'object', required: ['analysis'], properties: { analysis: { type: 'string', enum: [...names] } } },
    response: { ...CASES_ROUTE_SCHEMA.response, 404: ERROR('No analysis of that name; `allowed` lists the names.') },
  } as const;
}
