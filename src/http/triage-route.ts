/**
 * Route plugin of `GET /triage` and `GET /analyses/:analysis/triage` (src/triage/): the flagged
 * pairs of one window in triage order with their evidence, reasons and cautions. The analysis
 * of `/triage` is `stratified` when the store has it, else the store's default analysis; an
 * unknown analysis is a 404 Error object (as /analyses/NAME/cases). The window's rows are read
 * from the store file on demand (src/store/triage-rows.ts) and kept per generation (the last
 * WINDOW_CACHE windows read), always from the file the generation loaded (Generation.read). A
 * `quarter` outside the analysis's quarters is a 400 naming them. Validation is parseTriageQuery (Fastify's is off; the schema documents).
 * Headers of a 200: X-Total-Count (pairs before paging), X-Limit, X-Offset, X-REPORTS-Through (the
 * store's reports_through, as /signals), X-REPORTS-Analysis, Cache-Control public, max-age=60; a weak
 * ETag over the store build and the normalised query, with 304 on If-None-Match, and the content
 * coding negotiated (answer.ts, as /signals).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, ERROR_OBJECT_SCHEMA } from '../domain/errors.js';
import { readQuarterRange, readTriageWindow, type TriageWindow } from '../store/triage-rows.js';
import { parseTriageQuery, triageAnswer, TRIAGE_LIMIT_DEFAULT, TRIAGE_USAGE } from '../triage/service.js';
import { quarterOutside } from '../query/quarter-range.js';
import { LIMIT_MAX } from '../query/parameters.js';
import { answerHeaders } from '../query/responses.js';
import type { Generation, LiveStore } from './live-store.js';
import { sendAnswer } from './answer.js';
import { PLAIN, rawQuery, withAnalysis, withGeneration } from './resource.js';

/** Options of the /triage route plugin. */
export interface TriageRouteOptions {
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

/** Windows kept per generation. */
const WINDOW_CACHE = 16;
const windowsOf = new WeakMap<Generation, Map<string, Promise<TriageWindow>>>();

/** The window of `analysis` ending at `quarter` (null: the latest), read once per generation. */
function triageWindow(generation: Generation, analysis: string, quarter: string | null): Promise<TriageWindow> {
  let cache = windowsOf.get(generation);
  if (!cache) windowsOf.set(generation, (cache = new Map()));
  const key = `${analysis}\0${quarter ?? ''}`;
  let window = cache.get(key);
  if (!window) {
    window = generation.read(`the ${analysis} window ${quarter ?? 'latest'}`, (store) => readTriageWindow(store, analysis, quarter));
    window.catch(() => cache.delete(key));
    if (cache.size >= WINDOW_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(key, window);
  }
  return window;
}

const rangesOf = new WeakMap<Generation, Map<string, Promise<{ first: string; last: string } | null>>>();

/** The first and last quarter of `analysis`'s rows (the windows it can rank), read once per generation. */
function quarterRange(generation: Generation, analysis: string): Promise<{ first: string; last: string } | null> {
  let cache = rangesOf.get(generation);
  if (!cache) rangesOf.set(generation, (cache = new Map()));
  let range = cache.get(analysis);
  if (!range) {
    range = generation.read(`the quarters of ${analysis}`, (store) => readQuarterRange(store, analysis));
    range.catch(() => cache.delete(analysis));
    cache.set(analysis, range);
  }
  return range;
}

/** The analysis GET /triage ranks: `stratified` when the store has it, else the default. */
export function triageAnalysis(generation: Generation): string {
  return generation.analyses.names.includes('stratified') ? 'stratified' : generation.analyses.defaultName;
}

const pairSchema = { type: 'object', description: 'A flagged pair of the window with its evidence, reasons (why look) and cautions (why doubt), each {code, text}.', additionalProperties: true } as const;
const QUERY = {
  type: 'object',
  properties: {
    quarter: { type: 'string', pattern: '^[0-9]{4}Q[1-4]$', description: 'Window (its last quarter), within the analysis\'s quarters (else 400 naming them); default the latest.' },
    vaccine: { type: 'string', description: 'Vaccine name, vax_type or VAX_TYPE code (as /signals).' },
    drug: { type: 'string', description: 'Alias of vaccine.' },
    event: { type: 'string', description: 'Event term, exact or a substring of 3+ characters (as /signals).' },
    q: { type: 'string', description: 'Vaccine or event text (as /signals).' },
    caution: { type: 'string', enum: ['include', 'exclude', 'only'], default: 'include', description: 'exclude: drop the pairs with an artefact caution (late_reports, legal_reports, non_clinical_term); only: keep only those (they rank after every other pair, so they are otherwise far down a long queue).' },
    limit: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: TRIAGE_LIMIT_DEFAULT },
    offset: { type: 'integer', minimum: 0, default: 0 },
    format: { type: 'string', enum: ['json', 'csv'], default: 'json' },
  },
} as const;
const RESPONSES = {
  200: {
    description: 'The window\'s flagged pairs in triage order (pairs with an artefact caution after the others), with analysis, quarter, total, limit, offset, caveat and note.',
    headers: answerHeaders('Pairs of the queue before limit and offset (after the filters and `caution`).'),
    content: {
      'application/json': {
        schema: {
          type: 'object', required: ['analysis', 'quarter', 'total', 'limit', 'offset', 'caveat', 'note', 'pairs'],
          properties: {
            analysis: { type: 'string' }, quarter: { type: 'string', nullable: true, description: 'The window (its last quarter); null when the analysis has no row.' },
            total: { type: 'integer', minimum: 0 }, limit: { type: 'integer' }, offset: { type: 'integer' },
            caveat: { type: 'string' }, note: { type: 'string' }, evidence_note: { type: 'string', description: 'Why evidence fields are null (no evidence columns, or no narratives).' },
            pairs: { type: 'array', items: pairSchema },
          },
          additionalProperties: false,
        },
      },
      'text/csv': { schema: { type: 'string' } },
    },
  },
  400: { description: 'Bad parameter (spec 2.5 Error object), among them a quarter outside the analysis\'s quarters (the message names them).', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
  404: { description: 'No such analysis.', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
  503: { description: 'No store loaded yet, or the store could not be read (the server is then not ready).', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
} as const;
const SUMMARY = 'Triage queue: the flagged pairs of one window ranked by the evidence of their reports (reporting lag, legal wording, term category, time to onset, completeness, seriousness, novelty); orders hypotheses, does not assess causality';

/** Registers GET /triage and GET /analyses/:analysis/triage. */
export async function triageRoutes(app: FastifyInstance, options: TriageRouteOptions): Promise<void> {
  const { live } = options;

  async function send(generation: Generation, analysis: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    reply.header('x-reports-analysis', analysis);
    const params = parseTriageQuery(rawQuery(request));
    if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
    if (params.quarter !== null) {
      const outside = quarterOutside('quarter', params.quarter, await quarterRange(generation, analysis), `the quarters of analysis ${analysis}`, TRIAGE_USAGE);
      if (outside) return reply.code(400).send(errorBody(outside.error, outside));
    }
    const service = await generation.analyses.service(analysis)!;
    const window = await triageWindow(generation, analysis, params.quarter);
    const result = triageAnswer(analysis, params, window, service.catalog);
    if (result.status !== 200) return reply.code(result.status).type(result.type).send(result.body);
    const answer = {
      body: Buffer.from(result.body as string),
      headers: {
        'content-type': result.type, 'cache-control': 'public, max-age=60', 'x-total-count': String(result.total),
        'x-limit': String(params.limit), 'x-offset': String(params.offset), 'x-reports-through': generation.meta.reports_through ?? '',
      },
    };
    return sendAnswer(request, reply, answer, generation.build, `triage\0${analysis}\0${JSON.stringify(params)}`);
  }

  app.get('/triage', { schema: { summary: SUMMARY, querystring: QUERY, response: RESPONSES }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, (generation) => send(generation, triageAnalysis(generation), request, reply)));
  app.get('/analyses/:analysis/triage', {
    schema: { summary: `${SUMMARY} (one analysis)`, params: { type: 'object', properties: { analysis: { type: 'string', enum: options.analysisNames } } }, querystring: QUERY, response: RESPONSES }, ...PLAIN,
  }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, (generation, name) => send(generation, name, request, reply)));
}
