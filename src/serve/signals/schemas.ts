/**
 * JSON schemas of the /signals resource, as data (the house style, docs/design.md: one source for validation, the
 * OpenAPI document and types): spec 2.1 Pair, 2.2 Profile, 2.3 Series, 2.4 Class, 2.5 Error,
 * the 4.1 query parameters (from `SIGNALS_PARAMETERS`) and the 4.1 response headers.
 * `@fastify/swagger` turns them into `/openapi.json` (shared schemas become
 * `components/schemas/<$id>`).
 */
import { QUARTER_OBJECT_COLUMNS, type QuarterObjectEntry, type StoreType } from '../../domain/columns.js';
import { analysisNamesText, SUBSET_ANALYSES } from '../../domain/analysis-rules.js';
import { HYPER_NAMES } from '../../domain/mgps-prior.js';
import { ERROR_OBJECT_SCHEMA } from '../query/error-object.js';
import { PAIR_COLUMNS } from './pair.js';
import { QUARTER_PATTERN } from '../../domain/quarter.js';
import { answerHeaders, errorResponse, NOT_MODIFIED } from '../query/responses.js';
import { FORMATS, SIGNALS_PARAMETERS } from './parameters.js';

const QUARTER = { type: 'string', pattern: QUARTER_PATTERN, description: 'Quarter `<year>Q<1-4>`.' } as const;
const NULLABLE_QUARTER = { type: ['string', 'null'], pattern: QUARTER_PATTERN } as const;
const REPORTS_THROUGH = { ...NULLABLE_QUARTER, description: 'Latest quarter in the data.' } as const;
const HYPOTHESIS_TEXT = { type: 'string', description: 'Voluntary-reporting sentence.' } as const;

/** Spec 2.5 Error object, registered as `Error#` (components/schemas/Error). */
export const ERROR_SCHEMA = { $id: 'Error', ...ERROR_OBJECT_SCHEMA } as const;

/**
 * JSON schema of one field of a table (src/serve/signals/pair.ts, src/domain/columns.ts): `type`, with
 * `null` when `nullable`, then pattern, minimum, maximum (when given) and description, in that
 * order (the order of /openapi.json).
 */
function jsonProperty(type: string, nullable: boolean, field: { pattern?: string; minimum?: number; maximum?: number; description: string }): Record<string, unknown> {
  return {
    type: nullable ? [type, 'null'] : type,
    ...(field.pattern === undefined ? {} : { pattern: field.pattern }),
    ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
    ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
    description: field.description,
  };
}

/** Spec 2.1 Pair: one property per field of src/serve/signals/pair.ts, in table order. */
export const PAIR_SCHEMA = {
  $id: 'Pair',
  type: 'object',
  description: 'Spec 2.1 Pair: a vaccine x event pair aggregated over its quarters with n_methods_flagged >= 2. Never carries ebgm, prr, ror, ic, ic025 or n_unique.',
  required: PAIR_COLUMNS.filter((c) => 'required' in c).map((c) => c.name),
  additionalProperties: false,
  properties: Object.fromEntries(PAIR_COLUMNS.map((c) => [c.name, jsonProperty(c.type, c.nullable, c)])),
} as const;

const PAIRS = { type: 'array', items: { $ref: 'Pair#' } } as const;

/** Spec 2.2 Profile object. */
export const PROFILE_SCHEMA = {
  $id: 'Profile',
  type: 'object',
  description: 'Spec 2.2 Profile object (format=profile). kind: vaccine when only a vaccine is given, event when only an event, pair when both; for q, vaccine when q matched a vaccine, else event.',
  required: ['query', 'kind', 'reports_through', 'n_pairs', 'returned', 'hypothesis', 'pairs'],
  additionalProperties: false,
  properties: {
    query: { type: 'string', description: 'The query as given: the vaccine, the event, `<vaccine> x <event>` when both are given, or q.' },
    kind: { type: 'string', enum: ['vaccine', 'event', 'pair'], description: 'vaccine when only a vaccine is given, event when only an event, pair when both; for q, vaccine when q matched a vaccine, else event.' },
    reports_through: REPORTS_THROUGH,
    n_pairs: { type: 'integer', minimum: 0, description: 'Pairs matched (after min_eb05/min_n, before paging).' },
    returned: { type: 'integer', minimum: 0, description: 'Pairs in this page.' },
    hypothesis: HYPOTHESIS_TEXT,
    pairs: { ...PAIRS, description: 'The page: Pair rows in the requested sort order.' },
  },
} as const;

/** JSON schema type of each store type. */
const JSON_TYPE: { readonly [T in StoreType]: string } = { VARCHAR: 'string', INTEGER: 'integer', DOUBLE: 'number', BOOLEAN: 'boolean' };

/**
 * JSON schema of one quarter-object field, from its column (src/domain/columns.ts): the type of
 * its store type (with `null` unless the column is never null), then pattern, minimum, maximum
 * and description as the column's `quarterObject` gives them.
 */
function quarterProperty(column: QuarterObjectEntry): Record<string, unknown> {
  return jsonProperty(JSON_TYPE[column.type], column.nullable !== 'never', column.quarterObject);
}

/** Spec 2.3 quarter object: one property per `quarterObject` column of src/domain/columns.ts, in table order. */
export const QUARTER_SCHEMA = {
  $id: 'Quarter',
  type: 'object',
  description: 'Spec 2.3 quarter object: statistics of the 4-quarter window ending at quarter. ic025 is present only when the data has that column.',
  required: QUARTER_OBJECT_COLUMNS.filter((c) => !('optional' in c)).map((c) => c.name),
  additionalProperties: false,
  properties: Object.fromEntries(QUARTER_OBJECT_COLUMNS.map((c) => [c.name, quarterProperty(c)])),
} as const;

/** Spec 2.3 Series object. */
export const SERIES_SCHEMA = {
  $id: 'Series',
  type: 'object',
  description: 'Spec 2.3 Series object (format=series): the pair with the highest peak EB05 among the matches, quarters ascending. No match: HTTP 200 with n_pairs_matched 0, quarters empty, vaccine, drug, vax_type and event empty strings (the query is not a vaccine name), and a note that says no pair matched and repeats the query.',
  required: ['vaccine', 'drug', 'vax_type', 'event', 'reports_through', 'hypothesis', 'n_pairs_matched', 'note', 'quarters'],
  additionalProperties: false,
  properties: {
    vaccine: { type: 'string', description: 'Vaccine name of the pair shown; empty string when no pair matched.' },
    drug: { type: 'string', description: 'Same string as vaccine.' },
    vax_type: { type: 'string', description: 'Vaccine type of the pair shown; empty string when no pair matched.' },
    event: { type: 'string', description: 'Event preferred term of the pair shown; empty string when no pair matched.' },
    reports_through: REPORTS_THROUGH,
    hypothesis: HYPOTHESIS_TEXT,
    n_pairs_matched: { type: 'integer', minimum: 0, description: 'Pairs the query matched (after min_eb05/min_n); the series shows one of them.' },
    note: { type: 'string', description: 'What the quarters are (4-quarter windows, every quarter of the pair, eb50 not an EBGM) and which pair is shown; with no match, that no pair matched, with the query.' },
    quarters: { type: 'array', items: { $ref: 'Quarter#' }, description: 'Quarter objects, ascending; empty when no pair matched.' },
  },
} as const;

/** Spec 2.4 Class object. */
export const CLASS_SCHEMA = {
  $id: 'Class',
  type: 'object',
  description: 'Spec 2.4 Class object (format=class): every product of the vaccine type(s) of `vaccine` (or of the `q` seed); optional `event` keeps only matching events.',
  required: ['vax_type', 'vaccines', 'event', 'reports_through', 'n_pairs', 'hypothesis', 'pairs'],
  additionalProperties: false,
  properties: {
    vax_type: { type: 'array', items: { type: 'string' }, description: 'The vaccine type(s) of `vaccine` or of the q seed.' },
    vaccines: { type: 'array', items: { type: 'string' }, description: 'Every product of the vaccine type.' },
    event: { type: ['string', 'null'], description: 'The event filter as given; null without one.' },
    reports_through: REPORTS_THROUGH,
    n_pairs: { type: 'integer', minimum: 0, description: 'Pairs of those products (after event, min_eb05, min_n), before paging.' },
    hypothesis: HYPOTHESIS_TEXT,
    pairs: { ...PAIRS, description: 'The page: Pair rows.' },
  },
} as const;

/** Shared schemas, registered once with `app.addSchema` (components of the OpenAPI document). */
export const SHARED_SCHEMAS = [ERROR_SCHEMA, PAIR_SCHEMA, PROFILE_SCHEMA, QUARTER_SCHEMA, SERIES_SCHEMA, CLASS_SCHEMA];

/** Spec 4.1 query parameters as a JSON schema (documentation; the validator is parseSignalsQuery). */
export const SIGNALS_QUERYSTRING = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(SIGNALS_PARAMETERS.map((p) => [p.name, { ...p.schema, description: p.description }])),
} as const;

/** Spec 4.1 response headers on every 200 of /signals (X-Total-Count: the pairs). */
export const SIGNALS_HEADERS = answerHeaders('Pairs matched, before limit and offset (after min_eb05/min_n).');

/** Route schema of GET /signals (fed to Fastify and, through @fastify/swagger, /openapi.json). */
export const SIGNALS_ROUTE_SCHEMA = {
  summary: 'Vaccine x event pairs with disproportionality statistics',
  description:
    'Pairs of (vaccine name, event term) aggregated over quarters with n_methods_flagged >= 2. Reports are voluntary; disproportionate reporting is a hypothesis, not evidence of causation. ' +
    'At least one of vaccine (or drug), event, q is required. Auth: none; CORS: *. Formats: ' + FORMATS.join(', ') + '. ' +
    'Choices where the spec says "not shown": limit outside 1..500, offset < 0, non-integer limit/offset, min_n < 0, unknown sort/order, a parameter given twice, an unknown parameter (including background) are 400 Error objects naming the allowed values; an empty value counts as absent. ' +
    'The service is read-only: other methods than GET and HEAD are 405 with `Allow: GET, HEAD` (preflight advertises GET, HEAD); a request line and headers above 64 KiB are 431. Both are Error objects with CORS *.',
  querystring: SIGNALS_QUERYSTRING,
  response: {
    200: {
      description: 'json: array of Pair; csv: same columns, current page, header row (RFC 4180); series: Series; profile: Profile; class: Class; brief: text/plain Markdown. Unknown vaccine or event: 200 with an empty list.',
      headers: SIGNALS_HEADERS,
      content: {
        'application/json': { schema: { oneOf: [{ type: 'array', items: { $ref: 'Pair#' } }, { $ref: 'Series#' }, { $ref: 'Profile#' }, { $ref: 'Class#' }] } },
        'text/csv': { schema: { type: 'string' } },
        'text/plain': { schema: { type: 'string' } },
      },
    },
    304: NOT_MODIFIED,
    400: errorResponse('Bad request (spec 7): no vaccine/drug/event/q; vaccine and drug differ; query too short; unknown format (with allowed); sort=trend; min_eb05 or min_n not a number; min_eb05 below 0; and the "not shown" choices above.'),
    431: errorResponse('The request line and headers exceed 64 KiB (a query value of some 20,000 characters); answered before routing, still an Error object with CORS * and X-REPORTS-Hypothesis.'),
    503: errorResponse('The store is missing or could not be read (the server started without data).'),
  },
} as const;

/** Spec 2.5 Error response for a 404 naming the store's analyses in `allowed`. */
const UNKNOWN_ANALYSIS = errorResponse('No analysis of that name in this store; `allowed` lists the names (GET /analyses).');

/**
 * `GET /analyses/{analysis}/signals`: the whole /signals contract over one
 * analysis of the store; `names` are the store's analyses (the path parameter's enum).
 */
export function analysisSignalsRouteSchema(names: readonly string[]) {
  return {
    ...SIGNALS_ROUTE_SCHEMA,
    summary: 'Vaccine x event pairs of one analysis (crude, stratified, or a subset of the reports)',
    description: `The /signals resource over analysis {analysis} (every format, parameter, error and header of /signals; X-REPORTS-Analysis names the analysis). /signals answers the default analysis. Stratified analyses compute E for MGPS and IC by summing over strata of sex, age group and year of report (DuMouchel 1999); n, PRR and ROR use the crude report table. ${SIGNALS_ROUTE_SCHEMA.description}`,
    params: {
      type: 'object', required: ['analysis'],
      properties: { analysis: { type: 'string', enum: [...names], description: 'Analysis name (GET /analyses).' } },
    },
    response: { ...SIGNALS_ROUTE_SCHEMA.response, 404: UNKNOWN_ANALYSIS },
  } as const;
}

/** One entry of the `GET /analyses` listing. */
const ANALYSIS_SCHEMA = {
  type: 'object',
  required: ['name', 'title', 'description', 'subset', 'items', 'stratified_by', 'strata', 'default', 'reports', 'pairs', 'windows', 'reports_through', 'fits_at_bound', 'signals'],
  properties: {
    name: { type: 'string', description: `Analysis name (${analysisNamesText()}): \`all\` (every report, crude E), \`stratified\` (every report, stratified E), or a subset (${SUBSET_ANALYSES.map((a) => `\`${a.name}\``).join(', ')}, stratified E); \`@dedup\` after a name (\`stratified@dedup\`): the same with each suspected-duplicate cluster counted once; \`SUBSET@types\` counts VAERS VAX_TYPE codes instead of products, and \`types\` is \`stratified@types\`; \`SUBSET@groups\` counts event groups (docs/event-groups.md) instead of preferred terms, and \`groups\` is \`stratified@groups\`.` },
    title: { type: 'string' },
    description: { type: 'string', description: 'One sentence on what the analysis is.' },
    subset: { type: ['string', 'null'], description: 'The subset rule in words; null for every report.' },
    items: { type: 'string', enum: ['vaccine', 'vax_type_code', 'event_group'], description: 'What a pair\'s vaccine is: `vaccine`, the product (VAERS VAX_NAME); `vax_type_code`, the VAERS VAX_TYPE code (`FLU3`), a report counting once per type however many products of that type it names (`types`, `SUBSET@types`); `event_group`, the product, and the pair\'s event an event group instead of a preferred term (`groups`, `SUBSET@groups`; a report counting once per group however many of its terms it carries; docs/event-groups.md).' },
    event_groups: {
      type: 'object', description: 'Only for an analysis of event groups: its grouping file (the shipped data/event-groups/aesi.csv or `build --event-groups FILE`), its SHA-256, its groups with their items (a pair\'s `event`: the label counts the narrow terms, `LABEL (broad)` narrow and broad) and terms, and the file\'s terms no report carries.',
      required: ['file', 'digest', 'groups', 'terms_in_no_report'],
      properties: {
        file: { type: 'string' }, digest: { type: 'string', description: 'SHA-256 (hex) of the file.' },
        groups: {
          type: 'array',
          items: {
            type: 'object', required: ['id', 'label', 'source', 'version', 'items', 'terms'],
            properties: {
              id: { type: 'string' }, label: { type: 'string' }, source: { type: 'string', description: 'The public source of the group (a case definition, a list of adverse events of special interest).' }, version: { type: 'string' },
              items: { type: 'array', items: { type: 'string' }, description: 'The group\'s items: its label (narrow terms) and `LABEL (broad)` when it has broad terms.' },
              terms: { type: 'array', items: { type: 'object', required: ['term', 'scope'], properties: { term: { type: 'string' }, scope: { type: 'string', enum: ['narrow', 'broad'] } } } },
            },
          },
        },
        terms_in_no_report: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, group_id: { type: 'string' }, term: { type: 'string' } } }, description: 'The file\'s terms that no report of the build carries (a warning of the build).' },
      },
    },
    stratified_by: { type: 'array', items: { type: 'string' }, description: 'What E is stratified by, outermost first; empty for crude E.' },
    strata: { type: ['string', 'null'], description: 'The strata as `build --strata` names them: `sex,age6,year` (the default: sex x Empirica\'s AGE_GROUP_6 x year of RECVDATE) or `sex,age13,year` (the 13 CDC WONDER age groups); null for crude E or a store built before the choice was recorded.' },
    default: { type: 'boolean', description: 'Whether /signals answers this analysis.' },
    deduplicated: { type: 'boolean', description: 'Whether each suspected-duplicate cluster of the build\'s linkage counts once (the @dedup modifier: only its representative is kept); false for a store built before the linkage.' },
    reports: { type: ['integer', 'null'], description: 'Reports the subset rule kept (null when unknown, e.g. an imported table).' },
    pairs: { type: ['integer', 'null'], description: 'Pairs stored (n_methods_flagged >= 2 in some window).' },
    rows: { type: ['integer', 'null'], description: 'Quarterly rows stored.' },
    windows: { type: ['integer', 'null'], description: 'Windows fitted.' },
    reports_through: REPORTS_THROUGH,
    fits_at_bound: { type: ['integer', 'null'], description: 'Fitted windows with a hyperparameter on a bound of the box.' },
    fits_not_converged: { type: ['integer', 'null'] },
    windows_skipped: { type: 'array', items: { type: 'object', properties: { quarter: QUARTER, reason: { type: 'string' } } }, description: 'Windows too small to fit, with the reason.' },
    partial_windows: { type: 'array', items: QUARTER, description: 'Windows of the first quarters that cover fewer than 4 quarters.' },
    signals: { type: 'string', description: 'Path of the analysis\'s /signals resource.' },
  },
} as const;

/** The build's duplicate-linkage figures as `GET /analyses` serves them (StoreMeta.linkage, src/domain/store-schema.ts LinkageSummary). */
const LINKAGE_SCHEMA = {
  type: ['object', 'null'],
  description: 'What the build\'s duplicate-report linkage found (docs/duplicates.md): reports, unlinkable, candidate_pairs, links, clusters (of two or more reports), reports_folded (what counting each cluster once removes), threshold (bits), fields (m and u per agreement level), representative_rule, different_patients (candidate pairs vetoed per reason), measured (precision and recall on the labelled set); null when the linkage failed or the store predates it.',
  properties: {
    reports: { type: 'integer' }, unlinkable: { type: 'integer' }, candidate_pairs: { type: 'integer' }, links: { type: 'integer' }, clusters: { type: 'integer' },
    reports_folded: { type: 'integer' }, threshold: { type: 'number' }, representative_rule: { type: 'string' },
    fields: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, m: { type: 'number' }, u: { type: 'number' } } } },
    different_patients: { type: 'object', additionalProperties: { type: 'integer' } },
    measured: {
      type: 'object', additionalProperties: true,
      description: 'The linkage measured on the labelled set of real pairs (docs/duplicates.md, "The labelled set"): pair_precision and pair_recall on the candidate pairs of the round measured (measured_round; drawn on the rules frozen for it, rules_frozen, read blind), cluster_precision and same_case_clusters_whole of that round\'s random clusters, each {k, n, value, wilson_low, wilson_high} (Wilson 95%; n 0: not yet read, value and interval null), pair_precision_weighted and pair_recall_weighted (those pairs weighted back to all candidate pairs, point estimates; -1: not available), kappa_measured, Cohen\'s kappa of the measured round\'s blind second reading over second_reading_pairs_measured of its pairs, kappa_round_8, of round 8\'s over second_reading_pairs_round_8, kappa_round_7, of round 7\'s over second_reading_pairs_round_7, kappa_round_6, of round 6\'s over second_reading_pairs_round_6, kappa_round_5, of round 5\'s over second_reading_pairs_round_5, and kappa, of the fresh set\'s (round 3) over second_reading_pairs pairs (-1: not available); post hoc, on labels the rules were tuned on: earlier rounds\' pairs and clusters under today\'s rules (_round_8_post_hoc, _round_7_post_hoc, _round_6_post_hoc, _round_5_post_hoc, _fresh_post_hoc, _round_4_post_hoc, _tuning_fresh, _post_hoc), and under the linkage of their draw (_before, _round_1_before), and round 1\'s kappa (kappa_round_1).',
    },
  },
} as const;

/** `GET /analyses`: the analyses of the store, the default first. */
export function analysesRouteSchema() {
  return {
    summary: 'The analyses of the store',
    description: `Every analysis of the served store, the default first: all (crude E, the specification's computation), stratified (E summed over strata of sex, age group and year of report) and the subsets of the reports (${SUBSET_ANALYSES.map((a) => a.name).join(', ')}; stratified E), each over products (VAX_NAME) or, named \`SUBSET@types\` (\`types\` = \`stratified@types\`), over VAERS VAX_TYPE codes (\`items\`). n, PRR and ROR always use the crude report table. Each is served at its \`signals\` path with the whole /signals contract.`,
    response: {
      200: {
        description: 'The analyses and the caveat.',
        content: {
          'application/json': {
            schema: {
              type: 'object', required: ['default', 'analyses', 'linkage', 'hypothesis'],
              properties: { default: { type: 'string' }, analyses: { type: 'array', items: ANALYSIS_SCHEMA }, linkage: LINKAGE_SCHEMA, hypothesis: HYPOTHESIS_TEXT },
            },
          },
        },
      },
      304: NOT_MODIFIED,
      503: errorResponse('The store is missing or could not be read (the server started without data).'),
    },
  } as const;
}

const NUMBER_OR_NULL = { type: ['number', 'null'] } as const;

/** One fitted window of `GET /analyses/{analysis}`. */
const WINDOW_SCHEMA = {
  type: 'object',
  required: ['quarter', ...HYPER_NAMES, 'neg_log_lik', 'converged', 'at_bound', 'n_pairs', 'n_reports'],
  properties: {
    quarter: QUARTER,
    ...Object.fromEntries(HYPER_NAMES.map((name) => [name, NUMBER_OR_NULL])),
    neg_log_lik: { type: ['number', 'null'], description: 'Negative log-likelihood of the zero-truncated negative binomial mixture at the fit.' },
    converged: { type: 'boolean' },
    at_bound: { type: 'array', items: { type: 'string', enum: [...HYPER_NAMES] }, description: 'Hyperparameters on a bound of openEBGM\'s box (alpha, beta in [1e-5, 20], p in (0, 1)); empty when none. A fit on a bound shrinks EB05 for its own reasons: read PRR, ROR and IC beside it.' },
    n_pairs: { type: ['integer', 'null'], description: 'Pairs with n >= 1 in the window.' },
    n_reports: { type: ['integer', 'null'], description: 'Reports in the window (N).' },
  },
} as const;

/** `GET /analyses/{analysis}`: one analysis with its fitted windows. */
export function analysisRouteSchema(names: readonly string[]) {
  return {
    summary: 'One analysis with its fitted windows',
    description: 'The analysis\'s entry of GET /analyses plus `fits`: per fitted window (the quarter that ends it) the MGPS prior (DuMouchel 1999: alpha1, beta1, alpha2, beta2, p), its negative log-likelihood, convergence, the hyperparameters on a bound of openEBGM\'s box, and the window\'s pairs and reports. Small subsets often fit on a bound, and MGPS shrinks harder when there is little data, so their EB05 rarely reaches 2: PRR, ROR and IC stay beside it. X-REPORTS-Analysis names the analysis.',
    params: { type: 'object', required: ['analysis'], properties: { analysis: { type: 'string', enum: [...names], description: 'Analysis name (GET /analyses).' } } },
    response: {
      200: {
        description: 'The analysis, its windows and the caveat.',
        content: {
          'application/json': {
            schema: {
              ...ANALYSIS_SCHEMA, required: [...ANALYSIS_SCHEMA.required, 'fits', 'hypothesis'],
              properties: { ...ANALYSIS_SCHEMA.properties, fits: { type: 'array', items: WINDOW_SCHEMA, description: 'Every fitted window, in quarter order.' }, hypothesis: HYPOTHESIS_TEXT },
            },
          },
        },
      },
      304: NOT_MODIFIED,
      404: UNKNOWN_ANALYSIS,
      503: errorResponse('The store is missing or could not be read (the server started without data).'),
    },
  } as const;
}
