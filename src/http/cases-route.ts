/**
 * Route plugin of `GET /cases` and `GET /analyses/:analysis/cases` (the case series): raw query
 * string -> CasesService.answer -> headers (X-Total-Count = n_reports, X-Limit, X-Offset,
 * X-REPORTS-Through, Cache-Control; X-REPORTS-Analysis on the analysis path; X-REPORTS-Build of
 * the store generation, X-REPORTS-Hypothesis from the app's hook) -> body with ETag and content
 * coding (answer.ts). Validation is parseCasesQuery (Fastify's is off; the schema documents). A
 * store without report tables answers 503 with an Error object. An analysis of the store whose
 * subset rule this program does not know (a store built by another version) has no case series:
 * a 404 Error object naming it, whose `allowed` lists the analyses that have one; never the
 * reports unrestricted. The work follows the request's signal and deadline (deadline.ts): a busy
 * server or a deadline passed is a 503 with Retry-After; a client that left gets nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { analysisCasesRouteSchema, CASES_ROUTE_SCHEMA } from '../serve/cases/schemas.js';
import { unknownRule } from '../serve/cases/service.js';
import { analysisRule, type AnalysisDefinition } from '../domain/analysis-rules.js';
import { errorBody } from '../serve/query/error-object.js';
import { sendAnswer } from './answer.js';
import { answerStopped } from './deadline.js';
import type { Generation, LiveStore } from './live-store.js';
import { PLAIN, rawQuery, withAnalysis, withCases, withGeneration } from './resource.js';
import { casesNotes } from './notes-resources.js';

/** Options of the /cases route plugin. */
export interface CasesRouteOptions {
  /** The served store. */
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

const NO_REPORTS = 'this store has no report-level data (an import, or a store built before case series existed): rebuild it with "reporting-signals build --vaers DIR --out FILE" to serve /cases';

/** Registers GET /cases and GET /analyses/:analysis/cases. */
export async function casesRoutes(app: FastifyInstance, options: CasesRouteOptions): Promise<void> {
  const { live } = options;

  async function send(generation: Generation, reply: FastifyReply, request: FastifyRequest, analysis: AnalysisDefinition | null): Promise<FastifyReply> {
    return withCases(generation, reply, NO_REPORTS, async (cases) => {
      let result;
      try {
        result = await cases.answer(rawQuery(request), analysis, { signal: request.stop });
      } catch (error) {
        return answerStopped(reply, error);
      }
      if (reply.sent) return reply;
      if (result.status !== 200) return reply.code(result.status).send(result.body);
      return sendAnswer(request, reply, result, generation.build, `cases\0${result.key}`);
    });
  }

  app.get('/cases', { schema: { ...CASES_ROUTE_SCHEMA, description: casesNotes() }, config: { catalog: true }, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, (generation) => send(generation, reply, request, null)));
  app.get('/analyses/:analysis/cases', { schema: { ...analysisCasesRouteSchema(options.analysisNames.filter((n) => analysisRule(n))), description: casesNotes() }, ...PLAIN }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, async (generation, name) => {
      reply.header('x-reports-analysis', name);
      const rule = analysisRule(name);
      if (!rule) return reply.code(404).send(errorBody(unknownRule(name), { allowed: generation.analyses.names.filter((n) => analysisRule(n)) }));
      return send(generation, reply, request, rule);
    }));
}
