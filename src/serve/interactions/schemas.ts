/**
 * The OpenAPI schemas of GET /interactions, GET /interactions/series and GET /masking: the query
 * parameters (from params.ts), the answers and the Error answers. Fastify's validation is off for
 * these routes (params.ts validates); the schemas document.
 */
import { ERROR_OBJECT_SCHEMA } from '../query/error-object.js';
import { INTERACTION_COLUMNS } from '../../domain/interactions.js';
import type { ParameterSpec } from '../query/parameters.js';
import { INTERACTIONS_PARAMETERS, MASKING_PARAMETERS, SERIES_PARAMETERS } from './params.js';

/** The query-string schema of a parameter table. */
function querySchema(parameters: readonly ParameterSpec[]): object {
  return { type: 'object', properties: Object.fromEntries(parameters.map((p) => [p.name, { ...p.schema, description: p.description, ...(p.name === 'quarter' ? { pattern: '^[0-9]{4}Q[1-4]$' } : {}) }])) };
}

export const INTERACTIONS_QUERY_SCHEMA = querySchema(INTERACTIONS_PARAMETERS);
export const SERIES_QUERY_SCHEMA = querySchema(SERIES_PARAMETERS);
export const MASKING_QUERY_SCHEMA = querySchema(MASKING_PARAMETERS);

const MEANING: Record<string, string> = {
  vaccine1: 'The first vaccine of the pair (UTF-16 order).', vaccine2: 'The second vaccine.', event: 'The event (preferred term).',
  n111: 'Reports naming both vaccines and the event.', n11: 'Reports naming both vaccines (n11.).', n1_1: 'Reports naming vaccine1 and the event (n1.1).',
  n_11: 'Reports naming vaccine2 and the event (n.11).', n1: 'Reports naming vaccine1 (n1..).', n_1: 'Reports naming vaccine2 (n.1.).',
  n__1: 'Reports naming the event (n..1).', N: 'Reports of the window.', g11: 'Baseline rate of the event under both vaccines, from the single exposures (additive on odds).',
  e111: 'Expected n111: g11 * n11.', omega: 'log2((n111 + 0.5) / (E111 + 0.5)).', omega025: 'Lower end of the 95% credibility interval (log2); a signal when > 0.',
  omega975: 'Upper end of the 95% credibility interval (log2).',
};

/** One triple of a window. */
const TRIPLE_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(INTERACTION_COLUMNS.filter(([name]) => name !== 'analysis' && name !== 'quarter')
    .map(([name, type]) => [name, { type: type === 'VARCHAR' ? 'string' : type === 'INTEGER' ? 'integer' : 'number', description: MEANING[name] }])),
} as const;

const ERRORS = {
  400: { description: 'Bad parameter (spec 2.5 Error object).', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
  503: { description: 'No store loaded yet, or a store without the interactions table or report tables (Error object).', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
} as const;

const COMMON = { analysis: { type: 'string' }, hypothesis: { type: 'string', description: 'The voluntary-reporting sentence (spec 1).' }, caveat: { type: 'string', description: 'Reporting patterns, not biological interaction.' } } as const;
const BOUNDS = { min_co_reports: { type: 'integer', description: 'Pairs are computed when co-reported on at least this many reports of the window.' }, min_triple_reports: { type: 'integer', description: 'Triples are stored from this many reports on.' } } as const;

export const INTERACTIONS_RESPONSES = {
  200: {
    description: 'The window\'s vaccine pairs x event with Omega025 > 0, ranked by Omega025 (the triples with a caution after every other), with the counts behind them, their cautions and Omega within age groups.',
    content: { 'application/json': { schema: { type: 'object', properties: {
      ...COMMON, ...BOUNDS, quarter: { type: 'string', nullable: true }, total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' },
      interactions: { type: 'array', items: { ...TRIPLE_SCHEMA, properties: {
        ...TRIPLE_SCHEMA.properties,
        cautions: { type: 'array', description: 'Why the triple is likely a reporting pattern (with the reports held): non_clinical_term, treatment_term, third_vaccine, copies, age_confounded; each {code, text}, the text with the figures. A triple with a caution ranks after every triple without one.', items: { type: 'object', properties: { code: { type: 'string', enum: ['non_clinical_term', 'treatment_term', 'third_vaccine', 'copies', 'age_confounded'] }, text: { type: 'string' } } } },
        omega_age: { type: 'object', nullable: true, description: 'Omega with the expected count summed over age groups (CDC WONDER groups).', properties: { e111: { type: 'number' }, omega: { type: 'number' }, omega025: { type: 'number' } } },
      } } },
    } } } },
  },
  ...ERRORS,
} as const;

export const SERIES_RESPONSES = {
  200: {
    description: 'Omega of one triple in every window from the first to the last stored window (stored false: below the bounds).',
    content: { 'application/json': { schema: { type: 'object', properties: {
      ...COMMON, ...BOUNDS, vaccine1: { type: 'string' }, vaccine2: { type: 'string' }, event: { type: 'string' }, note: { type: 'string' }, windows_stored: { type: 'integer' },
      series: { type: 'array', items: { type: 'object', properties: { quarter: { type: 'string' }, stored: { type: 'boolean' }, signal: { type: 'boolean' }, ...TRIPLE_SCHEMA.properties } } },
    } } } },
  },
  ...ERRORS,
} as const;

const STATISTICS = { n: { type: 'integer' }, n_vaccine: { type: 'integer' }, n_event: { type: 'integer' }, N: { type: 'integer' }, prr: { type: 'number', nullable: true }, eb05: { type: 'number', nullable: true } } as const;

export const MASKING_RESPONSES = {
  200: {
    description: 'The pair\'s counts, PRR and EB05 in the window; the vaccines co-named on its reports ranked by masking ratio; the pair without one of them (unmasked).',
    content: { 'application/json': { schema: { type: 'object', properties: {
      ...COMMON, ...STATISTICS, quarter: { type: 'string' }, vaccine: { type: 'string' }, event: { type: 'string' }, note: { type: 'string' }, maskers_total: { type: 'integer' },
      maskers: { type: 'array', items: { type: 'object', properties: {
        vaccine: { type: 'string' }, reports: { type: 'integer' }, with_vaccine: { type: 'integer' }, with_event: { type: 'integer' }, with_pair: { type: 'integer' },
        prr_without: { type: 'number', nullable: true }, masking_ratio: { type: 'number', nullable: true, description: 'PRR without the masker / PRR.' },
      } } },
      unmasked: { type: 'object', nullable: true, properties: { without: { type: 'string' }, ...STATISTICS } },
    } } } },
  },
  ...ERRORS,
} as const;
