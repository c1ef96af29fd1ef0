/**
 * Route plugin of GET /interactions, GET /interactions/series and GET /masking
 * (src/serve/interactions/; docs/interactions.md): Omega signals of co-reported vaccines, computed
 * by the build for the store's default analysis, and the masking diagnostics of a pair, counted at
 * request time from the reports held in memory for /cases. The signals are read once per store
 * generation (at the first request); a series is a request-time read of the store file the
 * generation loaded. A store without the interactions table (built before it) or without report
 * tables (for /masking) answers 503 saying so. Validation is params.ts (Fastify's is off; the
 * schemas document). Headers of a 200: X-Total-Count (/interactions), X-REPORTS-Through,
 * X-REPORTS-Analysis, Cache-Control public, max-age=60, a weak ETag with 304.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../serve/query/error-object.js';
import { parseAnalysisName, subsetMask } from '../domain/analysis-rules.js';
import { HYPER_NAMES, type Hyperparameters } from '../domain/mgps-prior.js';
import { readInteractionSignals, readTripleSeries, type InteractionSignals } from '../serve/store/interactions.js';
import { readStoreWindows } from '../serve/store/windows.js';
import { parseInteractionsQuery, parseMaskingQuery, parseSeriesQuery } from '../serve/interactions/params.js';
import { interactionsAnswer, maskingAnswer, namesOf, seriesAnswer, type InteractionsAnswer, type Priors } from '../serve/interactions/service.js';
import { INTERACTIONS_QUERY_SCHEMA, INTERACTIONS_RESPONSES, MASKING_QUERY_SCHEMA, MASKING_RESPONSES, SERIES_QUERY_SCHEMA, SERIES_RESPONSES } from '../serve/interactions/schemas.js';
import type { Generation, LiveStore } from './live-store.js';
import { sendAnswer } from './answer.js';
import { interactionsNotes } from './notes-resources.js';
import { PLAIN, rawQuery, withCases, withGeneration } from './resource.js';

/** Options of the interactions route plugin. */
export interface InteractionsRouteOptions { live: LiveStore }

/** What the routes keep per store generation (read at the first request). */
interface Held { signals?: Promise<InteractionSignals | null>; priors?: Promise<Priors>; keep?: Uint8Array | null }
const held = new WeakMap<Generation, Held>();

function heldOf(generation: Generation): Held {
  let h = held.get(generation);
  if (!h) held.set(generation, (h = {}));
  return h;
}

/** The analysis the build computed interactions for (its metadata), else the store's default. */
function analysisOf(generation: Generation): string {
  const recorded = (generation.meta.parameters?.interactions as { analysis?: unknown } | undefined)?.analysis;
  return typeof recorded === 'string' ? recorded : generation.analyses.defaultName;
}

function signalsOf(generation: Generation): Promise<InteractionSignals | null> {
  const h = heldOf(generation);
  if (!h.signals) {
    h.signals = generation.read('the interactions', (store) => readInteractionSignals(store, analysisOf(generation)));
    h.signals.catch(() => { h.signals = undefined; });
  }
  return h.signals;
}

function priorsOf(generation: Generation): Promise<Priors> {
  const h = heldOf(generation);
  if (!h.priors) {
    const analysis = generation.analyses.defaultName;
    h.priors = generation.read('the fitted windows', (store) => readStoreWindows(store)).then((all) => new Map((all.get(analysis) ?? [])
      .map((w) => [w.quarter, HYPER_NAMES.every((k) => w[k] !== null) ? (Object.fromEntries(HYPER_NAMES.map((k) => [k, w[k]])) as Hyperparameters) : null])));
    h.priors.catch(() => { h.priors = undefined; });
  }
  return h.priors;
}

const NO_TABLE = 'this store has no interactions table (built before Omega was added): rebuild it with "reporting-signals build" to serve /interactions';

/** Registers the three routes. */
export async function interactionsRoutes(app: FastifyInstance, options: InteractionsRouteOptions): Promise<void> {
  const { live } = options;

  function send(generation: Generation, analysis: string, request: FastifyRequest, reply: FastifyReply, result: InteractionsAnswer, key: string): FastifyReply {
    reply.header('x-reports-analysis', analysis);
    if (result.status !== 200) return reply.code(result.status).send(result.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=60', 'x-reports-through': generation.meta.reports_through ?? 'none',
      ...(result.total !== undefined ? { 'x-total-count': String(result.total) } : {}),
    };
    return sendAnswer(request, reply, { body: Buffer.from(JSON.stringify(result.body)), headers }, generation.build, key);
  }

  const notes = interactionsNotes();
  app.get('/interactions', { schema: { summary: 'Omega interaction signals of co-reported vaccines in one window (reporting patterns, not biological interaction)', description: notes, querystring: INTERACTIONS_QUERY_SCHEMA, response: INTERACTIONS_RESPONSES }, config: { catalog: true }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => {
      const params = parseInteractionsQuery(rawQuery(request));
      if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
      const signals = await signalsOf(generation);
      if (signals === null) return reply.code(503).send(errorBody(NO_TABLE));
      const cases = await generation.cases.catch(() => null);
      const analysis = analysisOf(generation);
      return send(generation, analysis, request, reply, interactionsAnswer(analysis, params, signals, namesOf(cases?.index ?? null)), `interactions\0${JSON.stringify(params)}`);
    }));

  app.get('/interactions/series', { schema: { summary: 'Omega of one vaccine pair x event over every window', description: notes, querystring: SERIES_QUERY_SCHEMA, response: SERIES_RESPONSES }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => {
      const params = parseSeriesQuery(rawQuery(request));
      if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
      const signals = await signalsOf(generation);
      if (signals === null) return reply.code(503).send(errorBody(NO_TABLE));
      const analysis = analysisOf(generation);
      const rows = await generation.read('an interaction series', (store) => readTripleSeries(store, analysis, params.vaccine1, params.vaccine2, params.event));
      const cases = await generation.cases.catch(() => null);
      return send(generation, analysis, request, reply, seriesAnswer(analysis, params, signals, rows ?? [], namesOf(cases?.index ?? null)), `series\0${JSON.stringify(params)}`);
    }));

  app.get('/masking', { schema: { summary: 'Masking diagnostics of a vaccine x event pair in one window: the co-reported vaccines that hide its disproportionality, and its PRR and EB05 without them', description: notes, querystring: MASKING_QUERY_SCHEMA, response: MASKING_RESPONSES }, config: { catalog: true }, ...PLAIN },
    async (request, reply) => withGeneration(live, reply, async (generation) => {
      const params = parseMaskingQuery(rawQuery(request));
      if ('error' in params) return reply.code(400).send(errorBody(params.error, params));
      const analysis = generation.analyses.defaultName;
      const priors = await priorsOf(generation);
      return withCases(generation, reply, 'this store has no report tables, so /masking cannot count its reports', (cases) => {
        const h = heldOf(generation);
        if (h.keep === undefined) {
          const parsed = parseAnalysisName(analysis);
          h.keep = parsed.ok ? subsetMask(parsed.analysis, cases.index.data) : null;
        }
        return send(generation, analysis, request, reply, maskingAnswer(analysis, params, cases.index, h.keep, priors), `masking\0${JSON.stringify(params)}`);
      });
    }));
}
