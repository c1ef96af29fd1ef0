/**
 * Route plugin of `GET /cases` and `GET /analyses/:analysis/cases` (issue 11 section 2): raw query
 * string -> CasesService.answer -> headers (X-Total-Count = n_reports, X-Limit, X-Offset,
 * X-REPORTS-Through, Cache-Control; X-REPORTS-Analysis on the analysis path; X-REPORTS-Build and
 * X-REPORTS-Hypothesis from the app's hook) -> body. Validation is parseCasesQuery (Fastify's is
 * off; the schema documents). A store without report tables answers 503 with an Error object.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANALYSES } from '../analyses.js';
import { analysisCasesRouteSchema, CASES_ROUTE_SCHEMA } from '../cases/schemas.js';
import type { CasesService } from '../cases/service.js';
import type { AnalysesService } from '../signals/analyses.js';
import { errorBody } from '../spec/errors.js';

/** Options of the /cases route plugin. */
export interface CasesRouteOptions {
  /** The case series being loaded (null: the store has no report tables). */
  loading: Promise<CasesService | null>;
  /** The store's analyses (their names, for the 404 and the OpenAPI enum). */
  analyses: Promise<AnalysesService>;
  analysisNames: string[];
}

const NO_REPORTS = 'this store has no report-level data (an import, or a store built before case series existed): rebuild it with "reporting-signals build --vaers DIR --out FILE" to serve /cases';

/** Registers GET /cases and GET /analyses/:analysis/cases. */
export async function casesRoutes(app: FastifyInstance, options: CasesRouteOptions): Promise<void> {
  // Not awaited here: the server starts answering /signals while the reports load; a /cases
  // request waits for the load.
  let unavailable = NO_REPORTS;
  const loading = options.loading.catch((error: Error) => {
    unavailable = `the report tables of the store could not be read (${error.message})`;
    app.log.warn(unavailable);
    return null;
  });
  const analyses = await options.analyses.catch(() => null);

  async function send(reply: FastifyReply, request: FastifyRequest, analysis: (typeof ANALYSES)[number] | null): Promise<FastifyReply> {
    const cases = await loading;
    if (!cases) return reply.code(503).send(errorBody(unavailable));
    const url = request.raw.url ?? '';
    const at = url.indexOf('?');
    const result = cases.answer(at < 0 ? '' : url.slice(at + 1), analysis);
    if (result.status !== 200) return reply.code(result.status).send(result.body);
    return reply.headers(result.headers).send(result.body);
  }

  const plain = { validatorCompiler: () => () => true, serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
  app.get('/cases', { schema: CASES_ROUTE_SCHEMA, ...plain }, async (request, reply) => send(reply, request, null));
  app.get<{ Params: { analysis: string } }>('/analyses/:analysis/cases', { schema: analysisCasesRouteSchema(options.analysisNames), ...plain }, async (request, reply) => {
    const name = request.params.analysis;
    const names = analyses?.names ?? options.analysisNames;
    if (!names.includes(name)) return reply.code(404).send(errorBody(`no analysis named "${name.slice(0, 100)}" in this store`, { allowed: names }));
    reply.header('x-reports-analysis', name);
    // An analysis of the store whose rule this program does not know (none today) restricts nothing.
    return send(reply, request, ANALYSES.find((a) => a.name === name) ?? null);
  });
}
