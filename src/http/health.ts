/**
 * Health of the process (liveness and readiness), for a load balancer or an orchestrator; both cheap and
 * never cached (`Cache-Control: no-store`):
 * - `GET /healthz`, liveness: the process answers (200 `{"ok":true}`), whatever the store.
 * - `GET /readyz`, readiness: 200 once a store is completely loaded (every analysis and the case
 *   series), with its reports_through, analyses and build ids; 503 (an Error object with the
 *   same fields known so far) while the first store loads or when no store could be loaded.
 *   While the default store is being prepared, the 503 body also says `state` (`building`,
 *   `waiting` for another process's build, or `loading` from the cache: nothing is built),
 *   `building: true` while it is built, the `phase` (k of n: `step`, `steps`), its `percent` (null
 *   when not known) and the estimated seconds left (`left_seconds`), with `Retry-After`. Every 503
 *   lists the analyses by readiness (`analyses`: ready, loading, building; readiness.ts): while a
 *   first store loads, its default analysis is served before the others.
 *   During a live swap the old store keeps serving, so readiness stays 200.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_OBJECT_SCHEMA, errorBody } from '../serve/query/error-object.js';
import { phaseText, RETRY_AFTER_SECONDS, type LiveStore } from './live-store.js';
import { analysesReadiness } from './readiness.js';

/** Options of the health plugin. */
export interface HealthOptions {
  live: LiveStore;
  /** The analyses the prepared store will hold (listed as building or loading before it is served). */
  analysisNames?: readonly string[];
}

const NAMES = { type: 'array', items: { type: 'string' } } as const;

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
  description: 'Spec 2.5 Error object with the analyses by readiness; while the default store is prepared, also `state`, `phase`, `step`, `steps`, `percent`, `left_seconds`, and `building` and `builder` while it is built.',
  properties: {
    ...ERROR_OBJECT_SCHEMA.properties,
    state: { type: 'string', enum: ['checking', 'building', 'waiting', 'loading'], description: '`checking` (the cache is looked up, a fraction of a second), `building` (this process builds the default store), `waiting` (another process on the same cache builds it), `loading` (the store file is complete and loads: nothing is built).' },
    building: { type: 'boolean', enum: [true], description: 'Present while the default store is being built (by this process or another one on the same cache).' },
    phase: { type: 'string', description: 'The current phase: `starting`, `read`, `link`, `count NAME`, `fit NAME`, `rows NAME`, `write` (NAME an analysis), `checking the cache`, `load`.' },
    step: { type: 'integer', minimum: 0, description: 'The phase\'s number among `steps` (0: not known yet).' },
    steps: { type: 'integer', minimum: 0, description: 'The number of phases of the preparation (0: not known yet).' },
    percent: { type: ['integer', 'null'], minimum: 0, maximum: 100, description: 'Progress of the phase, null when the phase gives no count.' },
    left_seconds: { type: ['integer', 'null'], description: 'Estimated seconds left in the whole preparation, null when not known yet.' },
    builder: { type: 'string', description: '`this process`, or `process PID` when another process on the same cache builds and this one waits.' },
    analyses: {
      type: 'object', required: ['ready', 'loading', 'building'], additionalProperties: false,
      description: 'The analyses by readiness: `ready` answer now; `loading` wait for their load (seconds); `building` answer 503 with Retry-After until the store is built.',
      properties: { ready: NAMES, loading: NAMES, building: NAMES },
    },
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
    const analyses = analysesReadiness(live, options.analysisNames ?? []);
    // While the default store is prepared, or only its first analysis is served (the others being built): 503 with the build's status.
    if ((!current || analyses.building.length > 0) && live.preparing) {
      const { phase, percent, state, pid, step, steps, left } = live.preparing;
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      const built = state === 'building' || state === 'waiting' ? { building: true, builder: state === 'building' ? 'this process' : `process ${pid}` } : {};
      const message = current
        ? `the default store is being built: its first analysis (${analyses.ready.join(', ') || current.analyses.defaultName}) answers now; ${analyses.building.join(', ')} ${analyses.building.length > 1 ? 'are' : 'is'} being built (phase ${phaseText(live.preparing, false)}); retry in a few seconds`
        : live.unavailable();
      return reply.code(503).send(JSON.stringify({
        ...errorBody(message), state, ...built, phase, step: step ?? 0, steps: steps ?? 0, percent, left_seconds: left ?? null, analyses,
      }));
    }
    if (!current) return reply.code(503).send(JSON.stringify(errorBody(live.unavailable())));
    if (current.failure !== null) return reply.code(503).send(JSON.stringify(errorBody(`part of the store ${current.path} could not be loaded: ${current.failure}`)));
    if (!current.loaded) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.code(503).send(JSON.stringify({ ...errorBody(`the store ${current.path} is still loading: ready ${analyses.ready.join(', ') || 'none'}; loading ${[...analyses.loading, ...(current.casesSettled ? [] : ['the case series'])].join(', ') || 'the integrity check'}`), state: 'loading', analyses }));
    }
    return reply.send(JSON.stringify({
      ready: true, reports_through: current.meta.reports_through, analyses: current.analyses.names, store_build: current.storeId,
      build: current.build, load_seconds: current.loadSeconds,
    }));
  });
}
