/**
 * Server assembly: one Fastify app with CORS `*` (spec 5), the /signals and /pipeline route
 * plugins, the OpenAPI document, the machine index and the API notes. No `listen` here: only
 * `src/commands/serve.ts` binds a port; tests call `inject()`.
 */
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { errorBody, HttpError } from './errors.js';
import { explorerRoutes } from './explorer.js';

/** The embedded default store shipped with the project (built from data/vaers 1990-2006). */
export const DEFAULT_STORE_PATH = fileURLToPath(new URL('../../data/default.duckdb', import.meta.url));

export interface AppOptions {
  /** Store file to serve. */
  storePath: string;
  /** Fastify logger on/off. */
  logger?: boolean;
}

/** Builds the app (routes registered, not listening). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  await app.register(cors, { origin: '*' });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(errorBody(error.message, error.extra));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return reply.code(status).send(errorBody((error as Error).message));
    reply.log.error(error);
    return reply.code(500).send(errorBody('internal error'));
  });
  app.get('/healthz', async () => ({ ok: true, store: options.storePath }));
  await app.register(explorerRoutes);
  return app;
}
