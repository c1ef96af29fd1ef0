/**
 * Route plugin of the bulk export (issue 36): `GET /analyses/:analysis/export?table=pairs|quarterly&format=csv|parquet`,
 * one analysis's tables whole, and `GET /export?table=...`, the default analysis's tables and the
 * store's report tables (`reports`, `report_vaccines`, `report_events`: one row per report, per
 * report and vaccine, per report and event). The file is written once per served store by a
 * writer process (src/serve/export: tables.ts, copy.ts) and cached with the store's generation
 * (files.ts), then streamed from it (Content-Length, Content-Disposition attachment). Headers: the
 * caveat (X-REPORTS-Hypothesis, as every answer), X-REPORTS-Build, X-REPORTS-Through,
 * X-REPORTS-Analysis for an analysis table, Cache-Control public, max-age=60.
 * A bad parameter is a 400 Error object, an unknown analysis a 404, a store without report tables
 * a 404 for those tables. Limits (issue 45, files.ts EXPORT_LIMITS): past `exports` requests at
 * once a 503 Error object with Retry-After; a client that leaves before its file is written stops
 * the writing (when no other request waits for that file); a client that stops reading for
 * `idleSeconds` is disconnected; HEAD answers the headers without writing the file (with
 * Content-Length once it is written).
 */
import { open } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, ERROR_OBJECT_SCHEMA } from '../serve/query/error-object.js';
import { ANALYSIS_TABLES, EXPORT_TABLES, exportParameters, parseExportQuery, type ExportFormat, type ExportTable } from '../serve/export/params.js';
import { StoreReplaced, writePairs, writeQuarterly, writeReportTable } from '../serve/export/tables.js';
import { ExportCancelled } from '../serve/export/copy.js';
import { EXPORT_LIMITS, Exports, type ExportLimits, type WriteExport } from '../serve/export/files.js';
import { RETRY_AFTER_SECONDS } from './live-store.js';
import type { Generation, LiveStore } from './live-store.js';
import { exportNotes } from './notes-resources.js';
import { PLAIN, rawQuery, withAnalysis, withGeneration } from './resource.js';

/** Options of the export route plugin. */
export interface ExportRouteOptions {
  live: LiveStore;
  /** Analysis names of the store at start, for the OpenAPI enum. */
  analysisNames: string[];
  /** The export's limits (default EXPORT_LIMITS). */
  limits?: ExportLimits;
  /** Parent of the export folders (default: src/serve/export/folder.ts exportsRoot). */
  root?: string;
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
      503: error(`No store is loaded yet, or it could not be read, or ${EXPORT_LIMITS.exports} exports are under way already (Retry-After).`),
    },
  };
}

/** The writer of the table's file from the generation. */
function tableWriter(generation: Generation, analysis: string, table: ExportTable, format: ExportFormat): WriteExport {
  if (table === 'pairs') return async (out, signal) => writePairs((await generation.analyses.service(analysis)!).catalog.pairs, format, out, signal);
  if (table === 'quarterly') return (out, signal) => generation.read(`the ${analysis} quarterly rows`, (store) => writeQuarterly(store, analysis, format, out, signal));
  return (out, signal) => generation.read(`the ${table} table`, (store) => writeReportTable(store, table, format, out, signal));
}

/** A 503 Error object with Retry-After, never cached. */
function unavailable(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store').send(errorBody(message));
}

/** Registers GET /export and GET /analyses/:analysis/export. */
export async function exportRoutes(app: FastifyInstance, options: ExportRouteOptions): Promise<void> {
  const { live } = options;
  const exports = new Exports(options.limits ?? EXPORT_LIMITS, options.root);
  app.addHook('onClose', async () => exports.close());

  async function send(generation: Generation, analysis: string | null, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const params = parseExportQuery(rawQuery(request), analysis === null ? EXPORT_TABLES : ANALYSIS_TABLES);
    if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
    const isReports = !(ANALYSIS_TABLES as readonly string[]).includes(params.table);
    if (isReports && (await generation.cases) === null) return reply.code(404).send(errorBody(`this store has no report tables (${params.table}): it was built without them (an import)`));
    const name = analysis ?? generation.analyses.defaultName;
    const fileName = `${isReports ? params.table : `${name}-${params.table}`}.${params.format}`;
    const key = `${isReports ? '' : name}\0${params.table}\0${params.format}`;
    const files = exports.of(generation);
    const headers: Record<string, string> = {
      ...(isReports ? {} : { 'x-reports-analysis': name }),
      'content-type': CONTENT_TYPES[params.format],
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'public, max-age=60',
      'x-reports-through': generation.meta.reports_through ?? '',
    };
    if (request.method === 'HEAD') {
      // The headers without writing the file: its length once it is written, else none (sent as an
      // empty stream: for an empty body Fastify's HEAD route would say 0).
      const ready = files.ready(key);
      if (ready) headers['content-length'] = String(ready.size);
      return reply.code(200).headers(headers).send(Readable.from([]));
    }
    const release = exports.admit();
    if (release === null) {
      return unavailable(reply, `${exports.limits.exports} exports are under way, the most this server serves at once; retry in a few seconds`);
    }
    reply.raw.once('finish', release).once('close', release);
    const left = new AbortController();
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) left.abort(); });
    let file;
    try {
      file = await files.obtain(key, fileName, tableWriter(generation, name, params.table, params.format), left.signal);
    } catch (error) {
      release();
      if (error instanceof ExportCancelled) return left.signal.aborted ? reply : unavailable(reply, 'the export stopped (the store is being replaced); retry in a few seconds');
      if (error instanceof StoreReplaced) return unavailable(reply, error.message);
      throw error;
    }
    if (left.signal.aborted) return reply;
    // The file is held open: the generation's files may be removed (a swap) while it is sent.
    let handle;
    try {
      handle = await open(file.path);
    } catch (error) {
      release();
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return unavailable(reply, 'the export stopped (the store is being replaced); retry in a few seconds');
    }
    const stream = handle.createReadStream();
    // A client that stops reading is disconnected after idleSeconds without progress (the socket idle).
    const socket = request.raw.socket as Partial<Socket> | undefined;
    if (typeof socket?.setTimeout === 'function') {
      socket.setTimeout(exports.limits.idleSeconds * 1000, () => socket.destroy!());
      reply.raw.once('close', () => socket.setTimeout!(0));
    }
    return reply.code(200).headers(headers).header('content-length', String(file.size)).send(stream);
  }

  app.get('/export', { schema: routeSchema(EXPORT_TABLES, 'Bulk export: a table of the default analysis, or a report table, as CSV or Parquet'), config: NO_DEADLINE, compress: PLAIN_BYTES, ...PLAIN }, async (request, reply) =>
    withGeneration(live, reply, (generation) => send(generation, null, request, reply)));
  app.get('/analyses/:analysis/export', {
    schema: routeSchema(ANALYSIS_TABLES, 'Bulk export: a table of one analysis as CSV or Parquet', { type: 'object', properties: { analysis: { type: 'string', enum: options.analysisNames } } }), config: NO_DEADLINE, compress: PLAIN_BYTES, ...PLAIN,
  }, async (request: FastifyRequest<{ Params: { analysis: string } }>, reply) =>
    withAnalysis(live, request, reply, (generation, name) => send(generation, name, request, reply)));
}
