/**
 * Route plugin of the bulk export (issue 36): `GET /analyses/:analysis/export?table=pairs|quarterly&format=csv|parquet`,
 * one analysis's tables whole, and `GET /export?table=...`, the default analysis's tables and the
 * store's report tables (`reports`, `report_vaccines`, `report_events`: one row per report, per
 * report and vaccine, per report and event). The file is written by src/serve/export/tables.ts
 * into a temporary folder and streamed from it (Content-Length, Content-Disposition attachment),
 * then removed. Headers: the caveat (X-REPORTS-Hypothesis, as every answer), X-REPORTS-Build,
 * X-REPORTS-Through, X-REPORTS-Analysis for an analysis table, Cache-Control public, max-age=60.
 * A bad parameter is a 400 Error object, an unknown analysis a 404, a store without report tables
 * a 404 for those tables.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, ERROR_OBJECT_SCHEMA } from '../serve/query/error-object.js';
import { ANALYSIS_TABLES, EXPORT_TABLES, exportParameters, parseExportQuery, type ExportFormat, type ExportTable } from '../serve/export/params.js';
import { StoreReplaced, writePairs, writeQuarterly, writeReportTable, type ExportFile } from '../serve/export/tables.js';
import { RETRY_AFTER_SECONDS } from './live-store.js';
import type { Generation, LiveStore } from './live-store.js';
import { exportNotes } from './notes-resources.js';
import { PLAIN, rawQuery, withAnalysis, withGeneration } from './resource.js';

/** Options of the export route plugin. */
export interface ExportRouteOptions {
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
}

/** The export is not cut at the request deadline (src/http/deadline.ts): its work is one table's file, seconds to tens of seconds on a loaded machine. */
const NO_DEADLINE = { deadline: false } as const;
/**
 * Sent as written, never compressed on the fly: brotli over the 132 MB quarterly CSV took 61 s
 * against 2 s sent plain (bench/export.ts); Parquet is the compact format.
 */
const PLAIN_BYTES = false as const;

/** Content types of the formats (Parquet: the IANA registration of 2024). */
const CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8; header=present', parquet: 'application/vnd.apache.parquet' };

function routeSchema(tables: readonly string[], summary: string, params?: object) {
  const parameters = exportParameters(tables);
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } });
  return {
    summary, description: exportNotes(), ...(params ? { params } : {}),
    querystring: { type: 'object', required: ['table'], properties: Object.fromEntries(parameters.map((p) => [p.name, { ...p.schema, description: p.description }])) },
    response: {
      200: {
        description: 'The table as a file (Content-Disposition: attachment). The caveat is in X-REPORTS-Hypothesis.',
        content: { 'text/csv': { schema: { type: 'string' } }, 'application/vnd.apache.parquet': { schema: { type: 'string', format: 'binary' } } },
      },
      400: error('A bad parameter (an unknown table or format, an unknown or repeated parameter): the Error object with `allowed`.'),
      404: error('No such analysis, or a store without report tables.'),
      503: error('No store is loaded yet, or it could not be read.'),
    },
  };
}

/** Writes the table's file from the generation. */
async function writeTable(generation: Generation, analysis: string, table: ExportTable, format: ExportFormat): Promise<ExportFile> {
  const name = `${analysis}-${table}`;
  if (table === 'pairs') return writePairs((await generation.analyses.service(analysis)!).catalog.pairs, format, name);
  if (table === 'quarterly') return generation.read(`the ${analysis} quarterly rows`, (store) => writeQuarterly(store, analysis, format, name));
  return generation.read(`the ${table} table`, (store) => writeReportTable(store, table, format, table));
}

/** Registers GET /export and GET /analyses/:analysis/export. */
export async function exportRoutes(app: FastifyInstance, options: ExportRouteOptions): Promise<void> {
  const { live } = options;

  async function send(generation: Generation, analysis: string | null, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const params = parseExportQuery(rawQuery(request), analysis === null ? EXPORT_TABLES : ANALYSIS_TABLES);
    if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
    const isReports = !(ANALYSIS_TABLES as readonly string[]).includes(params.table);
    if (isReports && (await generation.cases) === null) return reply.code(404).send(errorBody(`this store has no report tables (${params.table}): it was built without them (an import)`));
    const name = analysis ?? generation.analyses.defaultName;
    let out: ExportFile;
    try {
      out = await writeTable(generation, name, params.table, params.format);
    } catch (error) {
      if (!(error instanceof StoreReplaced)) throw error;
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store').send(errorBody(error.message));
    }
    if (reply.sent || request.raw.destroyed) {
      // The client left meanwhile: the file is not sent.
      await out.remove();
      return reply;
    }
    const size = (await stat(out.file)).size;
    const stream = createReadStream(out.file);
    stream.once('close', () => { void out.remove(); });
    if (!isReports) reply.header('x-reports-analysis', name);
    return reply.code(200)
      .header('content-type', CONTENT_TYPES[params.format])
      .header('content-length', String(size))
      .header('content-disposition', `attachment; filename="${isReports ? params.table : `${name}-${params.table}`}.${params.format}"`)
      .header('cache-control', 'public, max-age=60')
      .header('x-reports-through', generation.meta.reports_through ?? '')
      .send(stream);
  }

  app.get('/export', { schema: routeSchema(EXPORT_TABLES, 'Bulk export: a table of the default analysis, or a report table, as CSV or Parquet'), config: NO_DEADLINE, compress: PLAIN_BYTES, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, (generation) => send(generation, null, request, reply)));
  app.get('/analyses/:analysis/export', {
    schema: routeSchema(ANALYSIS_TABLES, 'Bulk export: a table of one analysis as CSV or Parquet', { type: 'object', properties: { analysis: { type: 'string', enum: options.analysisNames } } }), config: NO_DEADLINE, compress: PLAIN_BYTES, ...PLAIN,
  }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, (generation, name) => send(generation, name, request, reply)));
}
