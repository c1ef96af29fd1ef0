/**
 * Route plugin of `GET /signals` (spec 4.1), `GET /analyses/:analysis/signals` (every analysis
 * of the store with the same contract), `GET /analyses` (the list of the store's analyses) and
 * `GET /vaccines`, `GET /analyses/:analysis/vaccines` (every vaccine name: the explorer's front door). Each request takes the current store
 * generation (live-store.ts: it finishes on it even if a swap happens meanwhile), then: raw query
 * string -> SignalsService.answer -> headers (spec 4.1: X-Total-Count, X-Limit, X-Offset,
 * X-REPORTS-Through, Cache-Control; X-REPORTS-Analysis names the analysis; X-REPORTS-Build of the
 * generation, X-REPORTS-Hypothesis from the app's hook) -> body with ETag and content coding
 * (answer.ts).
 *
 * Validation is `parseSignalsQuery` (it must see repeated parameters and answer with spec
 * Error objects naming the allowed values), so Fastify's own querystring validation is off for
 * these routes; the querystring schema still documents the parameters in /openapi.json.
 * When no store is loaded the server still runs and these routes answer 503 with an Error
 * object that says so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { analysesRouteSchema, analysisRouteSchema, analysisSignalsRouteSchema, SIGNALS_ROUTE_SCHEMA } from '../serve/signals/schemas.js';
import type { SignalsService } from '../serve/signals/service.js';
import { analysisVaccinesRouteSchema, VACCINES_ROUTE_SCHEMA } from '../serve/vaccines/schemas.js';
import { errorBody } from '../serve/query/error-object.js';
import { sendAnswer } from './answer.js';
import type { LiveStore } from './live-store.js';
import type { Generation } from '../serve/generation/generation.js';
import { analysesResource, analysisResource, vaccinesResource } from '../serve/listings/service.js';
import { PLAIN, rawQuery, sendResource, withAnalysis, withGeneration } from './resource.js';
import { analysesNotes, vaccinesNotes } from './notes-resources.js';

/** Options of the /signals route plugin. */
export interface SignalsRouteOptions {
  /** The served store. */
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

/** Registers GET /signals, GET /analyses, GET /analyses/:analysis (with its fitted windows), GET /analyses/:analysis/signals, GET /vaccines and GET /analyses/:analysis/vaccines. */
export async function signalsRoutes(app: FastifyInstance, options: SignalsRouteOptions): Promise<void> {
  const { live } = options;

  /** Sends analysis `name`'s answer to the request's raw query string. */
  async function answer(generation: Generation, name: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    let service: SignalsService;
    try {
      service = await generation.analyses.service(name)!;
    } catch (error) {
      return reply.code(503).header('x-reports-analysis', name).send(errorBody(`analysis ${name} could not be loaded: ${(error as Error).message}`));
    }
    const result = service.answer(rawQuery(request));
    reply.header('x-reports-analysis', name);
    if (result.status !== 200) return reply.code(result.status).send(result.body);
    return sendAnswer(request, reply, result, generation.build, `signals\0${name}\0${result.key}`);
  }

  type AnalysisRequest = FastifyRequest<{ Params: { analysis: string } }>;
  app.get('/signals', { schema: SIGNALS_ROUTE_SCHEMA, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, (generation) => answer(generation, generation.analyses.defaultName, request, reply)));
  app.get('/analyses/:analysis/signals', { schema: analysisSignalsRouteSchema(options.analysisNames), ...PLAIN }, async (request: AnalysisRequest, reply) =>
    withAnalysis(live, request, reply, (generation, name) => answer(generation, name, request, reply)));
  app.get('/analyses', { schema: { ...analysesRouteSchema(), description: analysesNotes() }, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, async (generation) => sendResource(request, reply, generation, analysesResource(generation))));
  app.get('/analyses/:analysis', { schema: analysisRouteSchema(options.analysisNames), ...PLAIN }, async (request: AnalysisRequest, reply) =>
    withAnalysis(live, request, reply, async (generation, name) => sendResource(request, reply, generation, await analysisResource(generation, name))));
  app.get('/vaccines', { schema: { ...VACCINES_ROUTE_SCHEMA, description: vaccinesNotes() }, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, async (generation) => sendResource(request, reply, generation, await vaccinesResource(generation, null, rawQuery(request)))));
  app.get('/analyses/:analysis/vaccines', { schema: { ...analysisVaccinesRouteSchema(options.analysisNames), description: vaccinesNotes() }, ...PLAIN }, async (request: AnalysisRequest, reply) =>
    withAnalysis(live, request, reply, async (generation, name) => sendResource(request, reply, generation, await vaccinesResource(generation, name, rawQuery(request)))));
}
