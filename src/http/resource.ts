/**
 * What every store-backed route shares: taking the current store generation for the whole
 * request (live-store.ts: a request finishes on the store it started on), the analysis of an
 * `/analyses/:analysis/...` path (404 when unknown), the raw query string (the resources parse
 * it themselves, to see repeated parameters), the case series of a generation (/cases,
 * /reports), sending a service's answer (sendResource), and the route compilers they use.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CasesService } from '../serve/cases/service.js';
import { casesOf, type ResourceAnswer } from '../serve/generation/answer.js';
import { StoreReadError, type Generation } from '../serve/generation/generation.js';
import { errorBody } from '../serve/query/error-object.js';
import { sendAnswer } from './answer.js';
import { RETRY_AFTER_SECONDS, type LiveStore } from './live-store.js';
import { buildingMessage } from './readiness.js';

/**
 * Runs `handle` on the current generation (held until the answer is produced), or answers 503
 * when no store is loaded (with `Retry-After` while the default store is being prepared), or
 * when the store could not be read (a StoreReadError: `Retry-After`, `no-store`).
 * Sets the generation's X-REPORTS-Build.
 */
export async function withGeneration(live: LiveStore, reply: FastifyReply, handle: (generation: Generation) => Promise<FastifyReply>): Promise<FastifyReply> {
  const generation = live.current?.acquire();
  if (!generation) {
    if (live.preparing) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return reply.code(503).send(errorBody(live.unavailable()));
  }
  try {
    reply.header('x-reports-build', generation.build);
    return await handle(generation);
  } catch (error) {
    // The store (a corrupt block) or its narrative index file (truncated) could not be read: 503,
    // and /readyz says not ready (live-store.ts).
    if (!(error instanceof StoreReadError)) throw error;
    generation.markBroken(error.message);
    return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store').send(errorBody(error.message));
  } finally {
    generation.release();
  }
}

/**
 * Runs `handle` on the current generation and the analysis named by the request's `:analysis`
 * path parameter; an analysis the store does not have is a 404 Error object listing the names,
 * or, while it is being built (the default store's first start), a 503 with Retry-After.
 */
export async function withAnalysis(
  live: LiveStore, request: FastifyRequest<{ Params: { analysis: string } }>, reply: FastifyReply,
  handle: (generation: Generation, name: string) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  return withGeneration(live, reply, async (generation) => {
    const name = request.params.analysis;
    if (!generation.analyses.service(name)) {
      return answerBuilding(live, reply, name)
        ?? reply.code(404).send(errorBody(`no analysis named "${name.slice(0, 100)}" in this store`, { allowed: generation.analyses.names }));
    }
    return handle(generation, name);
  });
}

/**
 * Answers 503 with the Error object and Retry-After when analysis `name` is being built while the
 * default store's first analysis is served (readiness.ts buildingMessage); else null (not answered).
 */
export function answerBuilding(live: LiveStore, reply: FastifyReply, name: string): FastifyReply | null {
  const building = buildingMessage(live, name);
  return building === null ? null : reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send(errorBody(building));
}

/**
 * Route compilers of the resources whose services render their own bodies (Buffers) and parse
 * their own query strings: no Fastify validation, and no schema-driven serializer is compiled
 * for the Error objects (start-up time); the route schemas only document.
 */
export const PLAIN = { validatorCompiler: () => () => true, serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/** The raw query string of a request (without `?`). */
export function rawQuery(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}


/**
 * Runs `handle` on the generation's case series (the report tables; loaded after the default
 * analysis, so a request waits for it), or answers 503: with the load's error when the tables
 * could not be read, with `noReports` when the store has none (src/serve/generation casesOf).
 */
export async function withCases(generation: Generation, reply: FastifyReply, noReports: string, handle: (cases: CasesService) => Promise<FastifyReply> | FastifyReply): Promise<FastifyReply> {
  const found = await casesOf(generation, noReports);
  if ('answer' in found) return reply.code(found.answer.status).send(found.answer.body);
  return handle(found.cases);
}

/**
 * Sends a service's answer (src/serve/generation/answer.ts): its headers, then a 200 with its
 * ETag, 304 and content coding (answer.ts sendAnswer), or the error status with its Error object.
 */
export function sendResource(request: FastifyRequest, reply: FastifyReply, generation: Generation, answer: ResourceAnswer): FastifyReply {
  if (answer.status !== 200) return reply.code(answer.status).headers(answer.headers ?? {}).send(answer.body);
  return sendAnswer(request, reply, answer, generation.build, answer.key, answer.vary);
}
