/**
 * JSON schema of `GET /vaccines` (the explorer's front door), as data: the route schema
 * gives /openapi.json (through @fastify/swagger). The body is src/serve/vaccines/listing.ts.
 */
import { QUARTER_PATTERN } from '../../domain/quarter.js';
import { errorResponse, NOT_MODIFIED } from '../query/responses.js';

const NULLABLE_QUARTER = { type: ['string', 'null'], pattern: QUARTER_PATTERN } as const;

const VACCINE_ENTRY = {
  type: 'object',
  required: ['vaccine', 'vax_type', 'vax_type_codes', 'vax_type_names', 'reports', 'first_quarter', 'latest_quarter', 'flagged_pairs', 'emerging_pairs'],
  properties: {
    vaccine: { type: 'string', description: 'The VAERS VAX_NAME.' },
    vax_type: { type: 'string', description: 'Its vax_type (spec 2.1), e.g. COVID19, HPV, FLU.' },
    vax_type_codes: { type: 'array', items: { type: 'string' }, description: 'The VAERS VAX_TYPE codes seen with the name, sorted.' },
    vax_type_names: {
      type: 'array', items: { type: ['string', 'null'] },
      description: 'The long name of each code of vax_type_codes, in the same order (data/vax-types/vax-types.csv, e.g. FLU3: INFLUENZA (SEASONAL) TRIVALENT); null for a code the table lacks.',
    },
    reports: { type: ['integer', 'null'], description: 'Distinct reports naming the vaccine (null: the store has no report tables).' },
    first_quarter: { ...NULLABLE_QUARTER, description: 'Quarter (RECVDATE) of the first report naming the vaccine (null without report tables).' },
    latest_quarter: { ...NULLABLE_QUARTER, description: 'Quarter (RECVDATE) of the latest report naming the vaccine (null without report tables).' },
    flagged_pairs: { type: 'integer', description: 'Pairs of this vaccine served by /signals in the default analysis (some quarter with n_methods_flagged >= 2).' },
    emerging_pairs: { type: 'integer', description: 'Of those, the pairs whose first flagged quarter is within the last four quarters of the data (spec 2.1 emerging).' },
  },
} as const;

/** Route schema of `GET /vaccines`. */
export const VACCINES_ROUTE_SCHEMA = {
  summary: 'Every vaccine name of the store, with its type, reports and flagged pairs',
  description: 'Every vaccine name (VAX_NAME) in the served store, sorted by name, with its vax_type, the VAERS VAX_TYPE codes seen with it, the reports naming it with the quarters of the first and latest, and its flagged and emerging pairs in the default analysis. Takes no parameters (any parameter: 400). Reports are voluntary; counts are reporting counts, not incidence.',
  response: {
    200: {
      description: 'The vaccine listing and the caveat.',
      content: {
        'application/json': {
          schema: {
            type: 'object', required: ['analysis', 'reports_through', 'vaccines', 'hypothesis'],
            properties: {
              analysis: { type: 'string', description: 'The analysis whose pairs are counted (the default one).' },
              reports_through: { ...NULLABLE_QUARTER, description: 'Latest quarter in the data.' },
              vaccines: { type: 'array', items: VACCINE_ENTRY },
              hypothesis: { type: 'string', description: 'Voluntary-reporting sentence.' },
            },
          },
        },
      },
    },
    304: NOT_MODIFIED,
    400: errorResponse('A query parameter was given (the resource takes none); `allowed` is empty.'),
    503: errorResponse('No store is loaded (the server started without data).'),
  },
} as const;

/** Route schema of `GET /analyses/{analysis}/vaccines`: the same listing, pairs counted in that analysis. */
export function analysisVaccinesRouteSchema(names: readonly string[]) {
  return {
    ...VACCINES_ROUTE_SCHEMA,
    summary: 'Every vaccine name, with flagged and emerging pairs counted in one analysis',
    description: `As /vaccines, with flagged_pairs and emerging_pairs counted in analysis {analysis} (reports and quarters are those of every report). X-REPORTS-Analysis names the analysis. ${VACCINES_ROUTE_SCHEMA.description}`,
    params: { type: 'object', required: ['analysis'], properties: { analysis: { type: 'string', enum: [...names], description: 'Analysis name (GET /analyses).' } } },
    response: { ...VACCINES_ROUTE_SCHEMA.response, 404: errorResponse('No analysis of that name in this store; `allowed` lists the names.') },
  } as const;
}
