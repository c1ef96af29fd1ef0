/**
 * The route schema of `GET /reports/{vaers_id}` (the report view), as data: it gives
 * /openapi.json (through @fastify/swagger); the validator is src/serve/cases/report-view.ts.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { JSON_REPORT_COLUMNS, STORED_REPORT_COLUMNS } from '../../domain/report-columns.js';
import { answerHeaders, errorResponse, NOT_MODIFIED } from '../query/responses.js';
import { REPORT_FORMATS } from './report-view.js';

const { 'X-Total-Count': _count, 'X-Limit': _limit, 'X-Offset': _offset, ...HEADERS } = answerHeaders('');

/** The JSON body of the report view: the case series' fields, the events with versions, every further column by store name, the analyses and the caveat. */
export const REPORT_VIEW_SCHEMA = {
  type: 'object',
  description: 'One VAERS report, whole.',
  required: [...JSON_REPORT_COLUMNS.map((c) => c.json.name), ...STORED_REPORT_COLUMNS.filter((c) => c.json === null).map((c) => c.store), 'analyses', 'possible_duplicates', 'reports_through', 'hypothesis'],
  properties: Object.fromEntries([
    ...JSON_REPORT_COLUMNS.map((c) => [c.json.name, c.json.name !== 'events' ? c.json.schema
      : { type: 'array', description: 'The report\'s distinct MedDRA terms in file order, each with its SYMPTOMVERSIONn (null when the file has none).',
        items: { type: 'object', required: ['term', 'version'], properties: { term: { type: 'string' }, version: { type: ['string', 'null'] } } } }] as const),
    ...STORED_REPORT_COLUMNS.filter((c) => c.json === null).map((c) => [c.store, {
      type: c.type === 'DOUBLE' ? ['number', 'null'] : ['string', 'null'],
      description: `${c.description}${c.encoding === 'narrative' ? ' Null when blank, or when the store keeps no narratives (built without --narratives).' : ''}`,
    }] as const),
    ['analyses', { type: 'array', items: { type: 'string' }, description: 'The analyses of the store whose subset rule keeps this report (GET /analyses).' }] as const,
    ['possible_duplicates', {
      type: 'array', description: 'Suspected duplicates of this report: the reports the build\'s duplicate-report linkage linked to it (table report_links; after vigiMatch, Noren 2007), heaviest link first; empty when none, or the store has no links.',
      items: { type: 'object', required: ['vaers_id', 'weight', 'agreed'], properties: {
        vaers_id: { type: 'integer', description: 'The linked report (GET /reports/{vaers_id}).' },
        weight: { type: ['number', 'null'], description: 'Fellegi-Sunter match weight, log2 units (higher: likelier the same case).' },
        agreed: { type: 'array', items: { type: 'string' }, description: 'The compared fields that agreed (e.g. age, sex, state, vax_date, onset_date, vaccines, events).' },
      } },
    }] as const,
    ['reports_through', { type: ['string', 'null'], description: 'Latest quarter in the data.' }] as const,
    ['hypothesis', { type: 'string', enum: [HYPOTHESIS] }] as const,
  ]),
} as const;

/** `GET /reports/{vaers_id}`. */
export const REPORT_ROUTE_SCHEMA = {
  summary: 'One report, whole: its fields, narratives, vaccines, events and the analyses that keep it',
  description: 'JSON by default; a readable HTML page when format=html, or when the Accept header prefers text/html to application/json (a browser), as /pipeline.',
  params: { type: 'object', required: ['vaers_id'], properties: { vaers_id: { type: 'string', pattern: '^[0-9]+$', description: 'VAERS_ID, a positive integer.' } } },
  querystring: { type: 'object', additionalProperties: false, properties: { format: { type: 'string', enum: REPORT_FORMATS, description: 'json or html; default: negotiated from Accept.' } } },
  response: {
    200: {
      description: 'The report.',
      headers: HEADERS,
      content: { 'application/json': { schema: REPORT_VIEW_SCHEMA }, 'text/html': { schema: { type: 'string' } } },
    },
    304: NOT_MODIFIED,
    400: errorResponse('The id is not a positive integer, an unknown format (with allowed) or parameter.'),
    404: errorResponse('No report of the store has that VAERS_ID.'),
    503: errorResponse('The store has no report-level data, or could not be read.'),
  },
} as const;
