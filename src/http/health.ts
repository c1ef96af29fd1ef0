/**
 * Health of the process (liveness and readiness), for a load balancer or an orchestrator; both cheap and
 * never cached (`Cache-Control: no-store`):
 * - `GET /healthz`, liveness: the process answers (200 `{"ok":true}`), whatever the store.
 * - `GET /readyz`, readiness: 200 once a store is completely loaded (every analysis and the case
 *   series), with its reports_through, analyses and build ids; 503 (an Error object with the
 *   same fields known so far) while the first store loads or when no store could be loaded.
 *   While the default store is being prepared, the 503 body also says
 *   `building: true`, the `phase` and its `percent` (null when not known yet), with `Retry-After`.
 *   During a live swap the old store keeps serving, so readiness stays 200.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_OBJECT_SCHEMA, errorBody } from '../domain/error-object.js';
import { RETRY_AFTER_SECONDS, type LiveStore } from './live-store.js';

/** Options of the health plugin. */
export interface HealthOptions {
  live: LiveStore;
}

const NO_STORE = { 'cache-control': 'no-store' };

const READY_SCHEMA = {
  type: 'object',
  required: ['ready', 'reports_through', 'analyses', 'store_build', 'build'],
  properties: {
    ready: { type: 'boolean', enum: [true] },
    reports_through: { type: ['string', 'null'], description: 'Latest quarter of the served store.' },
    analyses: { type: 'array', items: { type: 'string' }, description: 'The analyses served, the default first.' },
    store_build: { type: 'string', description: '12 hex digits identifying the served store (a SHA-256 over its metadata).' },
    build: { type: 'string', description: 'The X-REPORTS-Build value of the answers (program and store).' },
    load_seconds: { type: 'number', description: 'Seconds the store took to load completely.' },
  },
} as const;

/**
 * The 503 answer: the spec 2.5 Error object, plus the build's progress while the default store is
 * prepared (strict, as the Error object).
 */
const NOT_READY_SCHEMA = {
  ...ERROR_OBJECT_SCHEMA,
  description: 'Spec 2.5 Error object; while the default store is being built, also `building`, `phase`, `percent` and `builder`.',
  properties: {
    ...ERROR_OBJECT_SCHEMA.properties,
    building: { type: 'boolean', enum: [true], description: 'Present while the default store is being built (by this process or another one on the same cache).' },
    phase: { type: 'string', description: 'The build\'s current phase: `starting`, `read`, `link`, `count NAME`, `fit NAME`, `rows NAME` (NAME an analysis).' },
    percent: { type: ['integer', 'null'], minimum: 0, maximum: 100, description: 'Progress of the phase, null when not known yet.' },
    builder: { type: 'string', description: '`this process`, or `process PID` when another process on the same cache builds and this one waits.' },
  },
} as const;

/** Registers GET /healthz and GET /readyz. */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const { live } = options;
  const healthz = JSON.stringify({ ok: true });
  app.get('/healthz', {
    schema: {
      summary: 'Liveness: the process answers',
      response: { 200: { description: 'Always `{"ok":true}`.', content: { 'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } } } } },
    },
  }, async (_request, reply) => reply.headers(NO_STORE).type('application/json; charset=utf-8').send(healthz));

  app.get('/readyz', {
    schema: {
      summary: 'Readiness: a store is completely loaded',
      response: {
        200: { description: 'The served store.', content: { 'application/json': { schema: READY_SCHEMA } } },
        503: {
          description: 'No store is loaded yet (loading) or none could be loaded: an Error object; while the default store is being built, also `building`, `phase`, `percent` and `builder`, with `Retry-After`.',
          headers: { 'Retry-After': { type: 'integer', description: 'Seconds to wait, while the default store is being built.' } },
          content: { 'application/json': { schema: NOT_READY_SCHEMA } },
        },
      },
    },
  }, async (_request, reply) => {
    reply.headers(NO_STORE).type('application/json; charset=utf-8');
    const current = live.current;
    if (!current && live.preparing) {
      const { phase, percent, state, pid } = live.preparing;
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.code(503).send(JSON.stringify({ ...errorBody(live.unavailable()), building: true, phase, percent, builder: state === 'building' ? 'this process' : `process ${pid}` }));
    }
    if (!current) return reply.code(503).send(JSON.stringify(errorBody(live.unavailable())));
    if (current.failure !== null) return reply.code(503).send(JSON.stringify(errorBody(`part of the store ${current.path} could not be loaded: ${current.failure}`)));
    if (!current.loaded) return reply.code(503).send(JSON.stringify(errorBody(`the store ${current.path} is still loading (analyses and case series)`)));
    return reply.send(JSON.stringify({
      ready: true, reports_through: current.meta.reports_through, analyses: current.analyses.names, store_build: current.storeId,
      build: current.build, load_seconds: current.loadSeconds,
    }));
  });
}
