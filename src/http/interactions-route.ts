/**
 * Route plugin of GET /interactions, GET /interactions/series and GET /masking
 * (docs/interactions.md): HTTP only. The raw query string goes to the service of the store
 * generation (src/serve/interactions/resource.ts: parameters, the signals and priors held per
 * generation, a series read from the file the generation loaded, the masking counts over the
 * reports in memory, headers) and its answer is sent with a weak ETag and 304 (answer.ts).
 * Fastify's validation is off; the schemas document.
 */
import type { FastifyInstance } from 'fastify';
import { interactionsResource, maskingResource, seriesResource } from '../serve/interactions/resource.js';
import { INTERACTIONS_QUERY_SCHEMA, INTERACTIONS_RESPONSES, MASKING_QUERY_SCHEMA, MASKING_RESPONSES, SERIES_QUERY_SCHEMA, SERIES_RESPONSES } from '../serve/interactions/schemas.js';
import type { LiveStore } from './live-store.js';
import { interactionsNotes } from './notes-resources.js';
import { PLAIN, rawQuery, sendResource, withGeneration } from './resource.js';

/** Options of the interactions route plugin. */
export interface InteractionsRouteOptions { live: LiveStore }

/** Registers the three routes. */
export async function interactionsRoutes(app: FastifyInstance, options: InteractionsRouteOptions): Promise<void> {
  const { live } = options;
  const notes = interactionsNotes();
  app.get('/interactions', { schema: { summary: 'Omega interaction signals of co-reported vaccines in one window (reporting patterns, not biological interaction)', description: notes, querystring: INTERACTIONS_QUERY_SCHEMA, response: INTERACTIONS_RESPONSES }, config: { catalog: true }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => sendResource(request, reply, generation, await interactionsResource(generation, rawQuery(request)))));
  app.get('/interactions/series', { schema: { summary: 'Omega of one vaccine pair x event over every window', description: notes, querystring: SERIES_QUERY_SCHEMA, response: SERIES_RESPONSES }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => sendResource(request, reply, generation, await seriesResource(generation, rawQuery(request)))));
  app.get('/masking', { schema: { summary: 'Masking diagnostics of a vaccine x event pair in one window: the co-reported vaccines that hide its disproportionality, and its PRR and EB05 without them', description: notes, querystring: MASKING_QUERY_SCHEMA, response: MASKING_RESPONSES }, config: { catalog: true }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => sendResource(request, reply, generation, await maskingResource(generation, rawQuery(request)))));
}
