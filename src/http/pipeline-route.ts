/**
 * Route plugin of `GET /pipeline` (spec 4.2, 7 "Pipeline", 8). It only translates HTTP to and
 * from PipelineService (src/serve/pipeline/service.ts): the request URL's query and `Accept` header
 * in, the answer's status, headers and body out; a registry failure (502/503) is logged as a
 * warning. Register it on the app that serves /signals:
 * `await app.register(pipelineRoutes, pipelineOptionsFromEnv())`.
 *
 * The service parses the parameters itself (src/serve/pipeline/params.ts) so that every 400 is the
 * spec 2.5 Error object with `allowed` / `usage`: Fastify's querystring validation result is
 * attached and ignored; the schema documents the parameters in /openapi.json.
 */
import type { FastifyInstance } from 'fastify';
import { pipelineRouteSchema } from '../serve/pipeline/schema.js';
import { PipelineService } from '../serve/pipeline/service.js';

/** The plugin options from the environment (CTGOV_BASE_URL, CTGOV_TIMEOUT_MS; throws naming a malformed variable). */
export { pipelineOptionsFromEnv } from '../serve/pipeline/service.js';

/** Plugin options; anything left out comes from CTGOV_BASE_URL / CTGOV_TIMEOUT_MS (ctgovOptionsFromEnv). */
export type PipelineRouteOptions = Parameters<typeof PipelineService.over>[0];

/** Registers GET /pipeline (and its HEAD) over the registry named by `options`. */
export async function pipelineRoutes(app: FastifyInstance, options: PipelineRouteOptions): Promise<void> {
  const service = PipelineService.over(options);
  app.get('/pipeline', { schema: pipelineRouteSchema, config: { catalog: true }, attachValidation: true }, async (request, reply) => {
    const answer = await service.answerUrl(request.url, request.headers.accept);
    if (answer.upstreamFailure) request.log.warn({ kind: answer.upstreamFailure }, 'pipeline upstream failure');
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
}
