/**
 * What every store-backed route shares (/signals, /analyses, /vaccines, /cases): taking the
 * current store generation for the whole request (live-store.ts: a request finishes on the
 * store it started on), the 404 of an unknown analysis, and the raw query string (the resources
 * parse it themselves, to see repeated parameters).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../spec/errors.js';
import type { Generation, LiveStore } from './live-store.js';

/**
 * Runs `handle` on the current generation (held until the answer is produced), or answers 503
 * when no store is loaded. Sets the generation's X-REPORTS-Build.
 */
export async function withGeneration(live: LiveStore, reply: FastifyReply, handle: (generation: Generation) => Promise<FastifyReply>): Promise<FastifyReply> {
  const generation = live.current?.acquire();
  if (!generation) return reply.code(503).send(errorBody(live.unavailable()));
  try {
    reply.header('x-reports-build', generation.build);
    return await handle(generation);
  } finally {
    generation.release();
  }
}

/** The 404 of an analysis name the store does not have. */
export function unknownAnalysis(reply: FastifyReply, name: string, names: string[]): FastifyReply {
  return reply.code(404).send(errorBody(`no analysis named "${name.slice(0, 100)}" in this store`, { allowed: names }));
}

/** The raw query string of a request (without `?`). */
export function rawQuery(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

