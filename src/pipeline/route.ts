/**
 * `GET /pipeline` (spec 4.2, 7 "Pipeline", 8) as a Fastify plugin. Register it on the app that
 * serves /signals: `await app.register(pipelineRoutes, pipelineOptionsFromEnv())`.
 *
 * Answers: 200 json / brief (text/plain Markdown) / html; 400 Error object (spec 2.5) with
 * `allowed` (unknown format, role, status, phase) or `usage` (missing sponsor for json/brief,
 * bad limit); 503 when the registry does not answer; 502 when it answers an error or an
 * unexpected body. With format html (or a browser's Accept) the errors are the page with an
 * alert and the same status. No error body contains a trial identifier.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, type ParamError } from '../spec/errors.js';
import { ctgovOptionsFromEnv, UpstreamError, type CtgovOptions } from './ctgov.js';
import { renderHtml, type FormValues } from './html.js';
import { prefersHtml } from './negotiate.js';
import { isParamError, parseFormat, parsePipelineQuery, PIPELINE_USAGE, type PipelineFormat, type RawQuery } from './params.js';
import { renderBrief, renderJson } from './render.js';
import { runPipeline } from './result.js';
import { pipelineRouteSchema } from './schema.js';

/** Plugin options; anything left out comes from CTGOV_BASE_URL / CTGOV_TIMEOUT_MS (ctgov.ts). */
export interface PipelineRouteOptions {
  /** Registry API base URL (default env CTGOV_BASE_URL, else https://clinicaltrials.gov/api/v2). */
  baseUrl?: string;
  /** Per-request timeout in ms (default env CTGOV_TIMEOUT_MS, else 10000). */
  timeoutMs?: number;
}

/** Reads the plugin options from the environment (throws naming a malformed variable). */
export function pipelineOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PipelineRouteOptions {
  return ctgovOptionsFromEnv(env);
}

/** Cache lifetime of 200 answers (the registry updates daily). */
const CACHE_CONTROL = 'public, max-age=60';
/** The page has no scripts; forbid them outright. */
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Replaces anything shaped like an NCT id (defence in depth: error bodies carry none). */
export function redactTrialIds(text: string): string {
  return text.replace(/NCT\s*0*\d{1,8}/gi, '[trial id]');
}

/** The raw query string as RawQuery (repeated keys become arrays); independent of schema coercion. */
function rawQuery(request: FastifyRequest): RawQuery {
  const search = new URL(request.url, 'http://localhost').searchParams;
  const out: RawQuery = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

function formValues(q: RawQuery): FormValues {
  const s = (v: unknown): string => (Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : '');
  return { sponsor: s(q.sponsor).trim(), role: s(q.role) || 'lead', status: s(q.status), phase: s(q.phase), limit: s(q.limit) };
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  reply.header('content-security-policy', HTML_CSP);
  if (status === 200) reply.header('cache-control', CACHE_CONTROL);
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

function sendError(reply: FastifyReply, format: PipelineFormat, form: FormValues, status: number, err: ParamError): FastifyReply {
  const message = redactTrialIds(err.error);
  if (format === 'html') return sendHtml(reply, status, renderHtml({ form, error: { message, allowed: err.allowed } }));
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(message, { allowed: err.allowed, usage: err.usage }));
}

/** The `/pipeline` route plugin. */
export const pipelineRoutes: FastifyPluginAsync<PipelineRouteOptions> = async (app, options) => {
  const fromEnv = options.baseUrl === undefined || options.timeoutMs === undefined ? ctgovOptionsFromEnv() : null;
  const ctgov: CtgovOptions = {
    baseUrl: options.baseUrl ?? fromEnv!.baseUrl,
    timeoutMs: options.timeoutMs ?? fromEnv!.timeoutMs,
  };

  app.get('/pipeline', { schema: pipelineRouteSchema, attachValidation: true }, async (request, reply) => {
    const query = rawQuery(request);
    const form = formValues(query);
    reply.header('vary', 'Accept');
    const formatParsed = parseFormat(query.format);
    if (isParamError(formatParsed)) return sendError(reply, 'json', form, 400, formatParsed);
    const format: PipelineFormat = formatParsed ?? (prefersHtml(request.headers.accept) ? 'html' : 'json');

    const parsed = parsePipelineQuery(query);
    if (isParamError(parsed)) return sendError(reply, format, form, 400, parsed);
    if (parsed.sponsor === null) {
      if (format === 'html') return sendHtml(reply, 200, renderHtml({ form }));
      return sendError(reply, format, form, 400, { error: 'sponsor is required', usage: PIPELINE_USAGE });
    }

    let result;
    try {
      result = await runPipeline(parsed, ctgov);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      request.log.warn({ kind: error.kind }, 'pipeline upstream failure');
      const status = error.kind === 'unavailable' ? 503 : 502;
      return sendError(reply, format, form, status, { error: `ClinicalTrials.gov: ${error.message}` });
    }

    if (format === 'html') return sendHtml(reply, 200, renderHtml({ form, result }));
    reply.header('cache-control', CACHE_CONTROL);
    if (format === 'brief') return reply.code(200).type('text/plain; charset=utf-8').send(renderBrief(result));
    return reply.code(200).type('application/json; charset=utf-8').send(renderJson(result));
  });
};
