/**
 * Route plugin of `GET /triage` and `GET /analyses/:analysis/triage` (src/serve/triage/): the flagged
 * pairs of one window in triage order with their evidence, reasons and cautions. The analysis
 * of `/triage` is `stratified` when the store has it, else the store's default analysis; an
 * unknown analysis is a 404 Error object (as /analyses/NAME/cases). Every window's rows of an
 * analysis are read in one read per store generation, at its first request (Generation.triageWindows,
 * src/serve/store/triage-rows.ts), from the file the generation loaded; later requests of any window
 * read no store. A
 * `quarter` outside the analysis's quarters is a 400 naming them. Validation is parseTriageQuery (Fastify's is off; the schema documents).
 * Headers of a 200: X-Total-Count (pairs before paging), X-Limit, X-Offset, X-REPORTS-Through (the
 * store's reports_through, as /signals), X-REPORTS-Analysis, Cache-Control public, max-age=60; a weak
 * ETag over the store build and the normalised query, with 304 on If-None-Match, and the content
 * coding negotiated (answer.ts, as /signals).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../serve/query/error-object.js';
import { triageWindowOf, type TriageWindow } from '../serve/store/triage-rows.js';
import { eventGroupsOfMeta, itemsOfTerms } from '../serve/store/event-groups.js';
import { parseTriageQuery, triageAnswer } from '../serve/triage/service.js';
import { TRIAGE_USAGE } from '../serve/triage/params.js';
import { TRIAGE_QUERY_SCHEMA, TRIAGE_RESPONSES, TRIAGE_SUMMARY } from '../serve/triage/schemas.js';
import { quarterOutside } from '../serve/query/quarter-range.js';
import type { Generation, LiveStore } from './live-store.js';
import { sendAnswer } from './answer.js';
import { triageNotes } from './notes-resources.js';
import { answerBuilding, PLAIN, rawQuery, withAnalysis, withGeneration } from './resource.js';

/** Options of the /triage route plugin. */
export interface TriageRouteOptions {
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

/** The window of `analysis` ending at `quarter` (null: the latest), from the windows loaded with the generation. */
async function triageWindow(generation: Generation, analysis: string, quarter: string | null): Promise<TriageWindow> {
  return triageWindowOf(await generation.triageWindow(analysis, quarter), quarter);
}

/** Per store generation: term -> the event-group items counting it (an empty map when the store has no analysis of event groups). */
const termGroups = new WeakMap<Generation, Map<string, string[]>>();

/** The event-group items of each term, for the pairs of an analysis of terms in a store with an analysis of event groups; else undefined. */
function groupsOfTerms(generation: Generation, analysis: string): ReadonlyMap<string, readonly string[]> | undefined {
  if (generation.meta.analyses?.find((a) => a.name === analysis)?.items === 'event_group') return undefined;
  let byTerm = termGroups.get(generation);
  if (!byTerm) termGroups.set(generation, (byTerm = itemsOfTerms(eventGroupsOfMeta(generation.meta))));
  return byTerm.size > 0 ? byTerm : undefined;
}

/** Registers GET /triage and GET /analyses/:analysis/triage. */
export async function triageRoutes(app: FastifyInstance, options: TriageRouteOptions): Promise<void> {
  const { live } = options;

  async function send(generation: Generation, analysis: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    reply.header('x-reports-analysis', analysis);
    const params = parseTriageQuery(rawQuery(request));
    if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
    if (params.quarter !== null) {
      const outside = quarterOutside('quarter', params.quarter, (await generation.triageWindow(analysis, params.quarter)).range, `the quarters of analysis ${analysis}`, TRIAGE_USAGE);
      if (outside) return reply.code(400).send(errorBody(outside.error, outside));
    }
    const service = await generation.analyses.service(analysis)!;
    const window = await triageWindow(generation, analysis, params.quarter);
    const result = triageAnswer(analysis, params, window, service.catalog, groupsOfTerms(generation, analysis));
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

  app.get('/triage', { schema: { summary: TRIAGE_SUMMARY, description: triageNotes(), querystring: TRIAGE_QUERY_SCHEMA, response: TRIAGE_RESPONSES }, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, async (generation) => {
      // Stratified ranks the queue when the store has it: while it is still being built, wait for it (503) rather than rank another analysis.
      return (generation.triageAnalysis === 'stratified' ? null : answerBuilding(live, reply, 'stratified')) ?? send(generation, generation.triageAnalysis, request, reply);
    }));
  app.get('/analyses/:analysis/triage', {
    schema: { summary: `${TRIAGE_SUMMARY} (one analysis)`, description: triageNotes(), params: { type: 'object', properties: { analysis: { type: 'string', enum: options.analysisNames } } }, querystring: TRIAGE_QUERY_SCHEMA, response: TRIAGE_RESPONSES }, ...PLAIN,
  }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, (generation, name) => send(generation, name, request, reply)));
}
