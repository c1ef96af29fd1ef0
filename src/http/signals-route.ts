/**
 * Route plugin of `GET /signals` (spec 4.1). Loads the store once (SignalsService), then each
 * request: raw query string -> SignalsService.answer -> headers (spec 4.1: X-Total-Count,
 * X-Limit, X-Offset, X-REPORTS-Through, Cache-Control; X-REPORTS-Build and
 * X-REPORTS-Hypothesis come from the app's hook, see app.ts) -> body.
 *
 * Validation is `parseSignalsQuery` (it must see repeated parameters and answer with spec
 * Error objects naming the allowed values), so Fastify's own querystring validation is off for
 * this route; the querystring schema still documents the parameters in /openapi.json.
 * When the store is missing or unreadable the server still starts and /signals answers 503
 * with an Error object that says so.
 */
import type { FastifyInstance } from 'fastify';
import { SignalsService } from '../signals/service.js';
import { SIGNALS_ROUTE_SCHEMA } from '../signals/schemas.js';
import { errorBody } from '../spec/errors.js';

/** Options of the /signals route plugin. */
export interface SignalsRouteOptions {
  /** Store file to serve. */
  storePath: string;
  /** The service being loaded already (buildApp starts the load first, so that it overlaps the app's set-up). */
  loading?: Promise<SignalsService>;
}

/** Registers GET /signals over the store at `storePath`. */
export async function signalsRoutes(app: FastifyInstance, options: SignalsRouteOptions): Promise<void> {
  let service: SignalsService | null = null;
  let unavailable = '';
  try {
    service = await (options.loading ?? SignalsService.open(options.storePath));
  } catch (error) {
    unavailable = `the signal store is missing or unreadable (${(error as Error).message}); build one with "reporting-signals build --vaers DIR --out FILE" and serve it with "reporting-signals serve --store FILE"`;
    app.log.warn(unavailable);
  }
  app.addHook('onClose', async () => service?.close());

  // Bodies are rendered by the service (strings/Buffers); Error objects need no schema-driven
  // serializer, so none is compiled (start-up time).
  const route = { schema: SIGNALS_ROUTE_SCHEMA, validatorCompiler: () => () => true, serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
  app.get('/signals', route, async (request, reply) => {
    if (!service) return reply.code(503).send(errorBody(unavailable));
    const url = request.raw.url ?? '';
    const at = url.indexOf('?');
    const answer = service.answer(at < 0 ? '' : url.slice(at + 1));
    if (answer.status !== 200) return reply.code(answer.status).send(answer.body);
    return reply.headers(answer.headers).send(answer.body);
  });
}
