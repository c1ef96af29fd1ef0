/**
 * JSON schemas of `GET /pipeline` (querystring and responses), the single source for the
 * OpenAPI document (`/openapi.json`) and the API notes (src/http). The querystring schema
 * documents the parameters; the service parses them itself (params.ts) so that every 400 is
 * the spec 2.5 Error object with `allowed` / `usage`.
 */
import { ERROR_OBJECT_SCHEMA } from '../query/error-object.js';
import { FORMAT_VALUES, LIMIT_DEFAULT, LIMIT_MAX, PHASE_VALUES, PIPELINE_USAGE, ROLE_VALUES, STATUS_VALUES } from './params.js';

/** Spec 2.5 Error object (the shared schema of src/serve/query/error-object.ts, inlined). */
export const errorSchema = ERROR_OBJECT_SCHEMA;

const countsSchema = { type: 'object', additionalProperties: { type: 'integer' } } as const;
const nullableString = { type: ['string', 'null'] } as const;

/** One study row (spec 2.6: `role` says which role the sponsor holds). */
export const studySchema = {
  type: 'object',
  required: ['nct_id', 'title', 'role', 'lead_sponsor', 'overall_status', 'phases', 'start_date', 'url'],
  properties: {
    nct_id: { type: 'string', description: 'ClinicalTrials.gov identifier.' },
    title: nullableString,
    role: { type: 'string', enum: ['lead', 'collaborator'], description: 'Role the sponsor holds in this study (spec 2.6).' },
    lead_sponsor: nullableString,
    overall_status: nullableString,
    phases: { type: 'array', items: { type: 'string' } },
    start_date: nullableString,
    url: { type: 'string' },
  },
} as const;

/** format=json 200 body (spec 2.6; docs/api.md "API: /pipeline"). */
export const pipelineJsonSchema = {
  type: 'object',
  required: ['sponsor', 'role', 'status', 'phase', 'limit', 'limit_requested', 'n_studies', 'n_returned', 'n_rejected',
    'phase_counts', 'status_counts', 'studies', 'notes', 'caveat', 'source'],
  properties: {
    sponsor: { type: 'string', description: 'The trimmed sponsor query.' },
    role: { type: 'string', enum: [...ROLE_VALUES] },
    status: {
      description: '"ALL" or the registry statuses included.',
      anyOf: [{ type: 'string', enum: ['ALL'] }, { type: 'array', items: { type: 'string' } }],
    },
    phase: { description: 'Registry phases included, or null for any.', anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    limit: { type: 'integer', description: `Rows served at most (1..${LIMIT_MAX}).` },
    limit_requested: { type: ['integer', 'null'], description: `The limit asked for when above ${LIMIT_MAX} (served as ${LIMIT_MAX}); else null.` },
    n_studies: { type: 'integer', description: 'Registry total for the chosen role, status and phase (spec 2.6); 0 for an unknown sponsor.' },
    n_returned: { type: 'integer' },
    n_rejected: { type: 'integer', description: 'Registry rows left out by the local whole-word check.' },
    phase_counts: { ...countsSchema, description: 'Counts over the studies in this response; key = phases joined by "/", or NONE.' },
    status_counts: { ...countsSchema, description: 'Counts over the studies in this response.' },
    studies: { type: 'array', items: studySchema },
    notes: { type: 'array', items: { type: 'string' } },
    caveat: { type: 'string' },
    source: { type: 'string' },
  },
} as const;

/** Querystring documentation (spec 4.2, 8). */
export const pipelineQuerySchema = {
  type: 'object',
  properties: {
    sponsor: {
      type: 'string',
      description: 'Required for json and brief. Trimmed, then matched against sponsor names as whole words ("Pfizer" matches "Pfizer Inc."). Not expanded to other companies.',
    },
    role: { type: 'string', enum: [...ROLE_VALUES], default: 'lead', description: 'collaborator = collaborator and not lead; any = lead or collaborator.' },
    status: {
      type: 'string',
      description: `Absent: ongoing studies (RECRUITING, NOT_YET_RECRUITING, ACTIVE_NOT_RECRUITING, ENROLLING_BY_INVITATION). ALL: every status. Else comma-separated, case-insensitive: ${STATUS_VALUES.join(', ')}.`,
    },
    phase: {
      type: 'string',
      description: `Comma-separated, case-insensitive: ${PHASE_VALUES.join(', ')}; also 1, 2, 3, 4, early1, na.`,
    },
    limit: { type: 'integer', minimum: 1, default: LIMIT_DEFAULT, description: `Larger than ${LIMIT_MAX} is served as ${LIMIT_MAX} (limit_requested says so).` },
    format: {
      type: 'string',
      enum: [...FORMAT_VALUES],
      description: 'brief = text/plain Markdown. Without format: HTML when Accept prefers text/html, else JSON.',
    },
  },
} as const;

const htmlContent = { 'text/html': { schema: { type: 'string' } } } as const;
/** An error answer: the Error object, or the page with an alert (format html). */
const errorContent = { 'application/json': { schema: errorSchema }, ...htmlContent } as const;

/** Route schema for `GET /pipeline` (src/http/pipeline-route.ts). */
export const pipelineRouteSchema = {
  summary: "A sponsor's trials in the ClinicalTrials.gov registry",
  description: `Registry facts, not efficacy or safety conclusions. ${PIPELINE_USAGE}`,
  tags: ['pipeline'],
  querystring: pipelineQuerySchema,
  response: {
    200: {
      description: 'Studies, n_studies, phase and status counts (json), the same as Markdown (brief), or the page (html).',
      content: {
        'application/json': { schema: pipelineJsonSchema },
        'text/plain': { schema: { type: 'string' } },
        ...htmlContent,
      },
    },
    400: { description: 'Bad parameter: Error object (allowed / usage).', content: errorContent },
    502: { description: 'The registry answered an error status or an unexpected body.', content: errorContent },
    503: { description: 'The registry did not answer (refused, timeout).', content: errorContent },
  },
} as const;
