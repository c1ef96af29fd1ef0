/**
 * Route plugin of `GET /triage` and `GET /analyses/:analysis/triage`: HTTP only. The analysis of
 * `/triage` is `stratified` when the store has it (while it is still being built, a 503 rather
 * than another analysis's queue), else the store's default analysis; an unknown analysis is a 404
 * Error object (as /analyses/NAME/cases). The raw query string goes to the service
 * (src/serve/triage/resource.ts triageResource: parameters, `quarter` against the analysis's
 * quarters, the window read through the store generation, rank, render, headers) and its answer
 * is sent with a weak ETag over the store build and the normalised query, 304 on If-None-Match,
 * and the content coding negotiated (answer.ts). Fastify's validation is off; the schema documents.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { triageResource } from '../serve/triage/resource.js';
import { TRIAGE_QUERY_SCHEMA, TRIAGE_RESPONSES, TRIAGE_SUMMARY } from '../serve/triage/schemas.js';
import type { LiveStore } from './live-store.js';
import { triageNotes } from './notes-resources.js';
import { answerBuilding, PLAIN, rawQuery, sendResource, withAnalysis, withGeneration } from './resource.js';

/** Options of the /triage route plugin. */
export interface TriageRouteOptions {
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

/** Registers GET /triage and GET /analyses/:analysis/triage. */
export async function triageRoutes(app: FastifyInstance, options: TriageRouteOptions): Promise<void> {
  const { live } = options;
  app.get('/triage', { schema: { summary: TRIAGE_SUMMARY, description: triageNotes(), querystring: TRIAGE_QUERY_SCHEMA, response: TRIAGE_RESPONSES }, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, async (generation) =>
      // Stratified ranks the queue when the store has it: while it is still being built, wait for it (503) rather than rank another analysis.
      (generation.triageAnalysis === 'stratified' ? null : answerBuilding(live, reply, 'stratified'))
        ?? sendResource(request, reply, generation, await triageResource(generation, generation.triageAnalysis, rawQuery(request)))));
  app.get('/analyses/:analysis/triage', {
    schema: { summary: `${TRIAGE_SUMMARY} (one analysis)`, description: triageNotes(), params: { type: 'object', properties: { analysis: { type: 'string', enum: options.analysisNames } } }, querystring: TRIAGE_QUERY_SCHEMA, response: TRIAGE_RESPONSES }, ...PLAIN,
  }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, async (generation, name) => sendResource(request, reply, generation, await triageResource(generation, name, rawQuery(request)))));
}
