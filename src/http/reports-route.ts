/**
 * Route plugin of `GET /reports/{vaers_id}` (the report view, src/serve/cases/report-view.ts): path id,
 * raw query string and Accept in; status, headers (X-REPORTS-Through, Cache-Control, X-REPORTS-Build
 * of the store generation, X-REPORTS-Hypothesis from the app's hook) and body out, a 200 with its
 * ETag and content coding (answer.ts). A store without report tables answers 503.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REPORT_ROUTE_SCHEMA } from '../serve/cases/report-schema.js';
import { prefersHtml } from '../serve/query/negotiate.js';
import { sendAnswer } from './answer.js';
import type { LiveStore } from './live-store.js';
import { PLAIN, rawQuery, withCases, withGeneration } from './resource.js';
import { reportsNotes } from './notes-resources.js';

/** Options of the report-view route plugin. */
export interface ReportsRouteOptions {
  /** The served store. */
  live: LiveStore;
}

const NO_REPORTS = 'this store has no report-level data (an import, or a store built before case series existed): rebuild it with "reporting-signals build --vaers DIR --narratives --out FILE" to serve /reports';

/** Registers GET /reports/:vaers_id. */
export async function reportsRoutes(app: FastifyInstance, options: ReportsRouteOptions): Promise<void> {
  app.get('/reports/:vaers_id', { schema: { ...REPORT_ROUTE_SCHEMA, description: reportsNotes() }, config: { catalog: true }, ...PLAIN }, async (request: FastifyRequest<{ Params: { vaers_id: string } }>, reply) =>
    withGeneration(options.live, reply, (generation) => withCases(generation, reply, NO_REPORTS, (cases) => {
      const answer = cases.report(request.params.vaers_id, rawQuery(request), prefersHtml(request.headers.accept), generation.analyses.names);
      if (answer.status !== 200) return reply.code(answer.status).send(answer.body);
      // JSON or HTML by Accept: a shared cache must key on it too.
      return sendAnswer(request, reply, answer, generation.build, `report\0${answer.key}`, 'Accept, Accept-Encoding');
    })));
}
