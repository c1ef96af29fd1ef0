/**
 * Route plugin of `GET /signals` (spec 4.1), `GET /analyses/:analysis/signals` (every analysis
 * of the store with the same contract) and `GET /analyses` (the list; issue 10 section 4).
 * Loads the store's analyses once (AnalysesService), then each request: raw query string ->
 * SignalsService.answer -> headers (spec 4.1: X-Total-Count, X-Limit, X-Offset,
 * X-REPORTS-Through, Cache-Control; X-REPORTS-Analysis names the analysis; X-REPORTS-Build and
 * X-REPORTS-Hypothesis come from the app's hook, see app.ts) -> body.
 *
 * Validation is `parseSignalsQuery` (it must see repeated parameters and answer with spec
 * Error objects naming the allowed values), so Fastify's own querystring validation is off for
 * these routes; the querystring schema still documents the parameters in /openapi.json.
 * When the store is missing or unreadable the server still starts and these routes answer 503
 * with an Error object that says so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AnalysesService } from '../signals/analyses.js';
import { analysesRouteSchema, analysisSignalsRouteSchema, SIGNALS_ROUTE_SCHEMA } from '../signals/schemas.js';
import type { SignalsService } from '../signals/service.js';
import { errorBody } from '../spec/errors.js';

/** Options of the /signals route plugin. */
export interface SignalsRouteOptions {
  /** The analyses being loaded (buildApp starts the load first, so that it overlaps the app's set-up). */
  loading: Promise<AnalysesService>;
  /** Analysis names of the store, for the OpenAPI enum (known before the load completes). */
  analysisNames: string[];
}

const UNAVAILABLE =
  'the signal store is missing or unreadable (%s); build one with "reporting-signals build --vaers DIR --out FILE" and serve it with "reporting-signals serve --store FILE"';

/** Cache lifetime of the /analyses listing (the store never changes while the process lives). */
const LISTING_CACHE_CONTROL = 'public, max-age=60';

/** Registers GET /signals, GET /analyses and GET /analyses/:analysis/signals. */
export async function signalsRoutes(app: FastifyInstance, options: SignalsRouteOptions): Promise<void> {
  let analyses: AnalysesService | null = null;
  let unavailable = '';
  try {
    analyses = await options.loading;
  } catch (error) {
    unavailable = UNAVAILABLE.replace('%s', (error as Error).message);
    app.log.warn(unavailable);
  }
  app.addHook('onClose', async () => analyses?.close());

  /** Sends analysis `name`'s answer to the request's raw query string. */
  async function answer(name: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    let service: SignalsService;
    try {
      service = await analyses!.service(name)!;
    } catch (error) {
      return reply.code(503).header('x-reports-analysis', name).send(errorBody(`analysis ${name} could not be loaded: ${(error as Error).message}`));
    }
    const url = request.raw.url ?? '';
    const at = url.indexOf('?');
    const result = service.answer(at < 0 ? '' : url.slice(at + 1));
    reply.header('x-reports-analysis', name);
    if (result.status !== 200) return reply.code(result.status).send(result.body);
    return reply.headers(result.headers).send(result.body);
  }

  // Bodies are rendered by the service (strings/Buffers); Error objects need no schema-driven
  // serializer, so none is compiled (start-up time).
  const plain = { validatorCompiler: () => () => true, serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
  app.get('/signals', { schema: SIGNALS_ROUTE_SCHEMA, ...plain }, async (request, reply) => {
    if (!analyses) return reply.code(503).send(errorBody(unavailable));
    return answer(analyses.defaultName, request, reply);
  });
  app.get<{ Params: { analysis: string } }>('/analyses/:analysis/signals', { schema: analysisSignalsRouteSchema(options.analysisNames), ...plain }, async (request, reply) => {
    if (!analyses) return reply.code(503).send(errorBody(unavailable));
    const name = request.params.analysis;
    if (!analyses.service(name)) return reply.code(404).send(errorBody(`no analysis named "${name.slice(0, 100)}" in this store`, { allowed: analyses.names }));
    return answer(name, request, reply);
  });
  app.get('/analyses', { schema: analysesRouteSchema(), ...plain }, async (_request, reply) => {
    if (!analyses) return reply.code(503).send(errorBody(unavailable));
    return reply.header('cache-control', LISTING_CACHE_CONTROL).type('application/json; charset=utf-8').send(JSON.stringify(analyses.listing()));
  });
}
