/**
 * `GET /metrics`: the Prometheus text exposition format (prom-client) of the figures below.
 *
 * - `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route,status}`
 *   (histogram): every answered request, by route pattern (`/analyses/:analysis/signals`, not
 *   the raw path; `unmatched` for a path with no route) and status code;
 * - `reporting_signals_answer_cache_hits_total{resource}` / `..._misses_total{resource}`: the
 *   answer caches of /signals and /cases (hits are answers served without rendering);
 * - `reporting_signals_late_answers_total`: answers that came after their request's deadline
 *   answer (503), dropped (src/http/deadline.ts);
 * - `reporting_signals_answer_compressions_total{encoding}`: bodies compressed (once per cached answer and coding);
 * - `reporting_signals_store_info{store_build,build,reports_through,analyses,path} 1`, and
 *   `reporting_signals_store_load_seconds`, `reporting_signals_store_loaded` (0 while loading),
 *   `reporting_signals_store_loads_total{result}` (ok or failed, swaps included);
 * - the process metrics of prom-client's `collectDefaultMetrics` (CPU, memory, event loop lag, GC).
 *
 * One registry per app (tests build several apps in one process).
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CasesService } from '../serve/cases/service.js';
import { SignalsService } from '../serve/signals/service.js';
import { compressions } from './answer.js';
import { lateAnswers } from './deadline.js';
import type { LiveStore } from './live-store.js';

/** Latency buckets, in seconds (most answers are served from memory in under 5 ms). */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Registers the request hooks and `GET /metrics` on `app`, reading the store state from `live`. */
export function registerMetrics(app: FastifyInstance, live: LiveStore): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code.', labelNames, registers: [registry] });
  const latency = new Histogram({ name: 'http_request_duration_seconds', help: 'Time from request to answer, by method, route pattern and status code.', labelNames, buckets: BUCKETS, registers: [registry] });
  const caches = { signals: SignalsService.stats, cases: CasesService.stats };
  for (const kind of ['hits', 'misses'] as const) {
    new Counter({
      name: `reporting_signals_answer_cache_${kind}_total`,
      help: `Answer-cache ${kind} of /signals and /cases (200 answers), over every store this process served.`,
      labelNames: ['resource'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [resource, stats] of Object.entries(caches)) this.inc({ resource }, stats[kind]);
      },
    });
  }
  new Counter({
    name: 'reporting_signals_answer_compressions_total',
    help: 'Answers of the cached resources compressed, by content coding (each cached answer once per coding).',
    labelNames: ['encoding'], registers: [registry],
    collect() {
      this.reset();
      for (const [encoding, count] of Object.entries(compressions)) this.inc({ encoding }, count);
    },
  });
  new Counter({
    name: 'reporting_signals_late_answers_total',
    help: 'Answers of routes that came after their request had been answered 503 at its deadline, dropped (over every app of the process).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(lateAnswers.count);
    },
  });
  new Gauge({
    name: 'reporting_signals_store_info',
    help: 'The served store (value 1): its build id, the X-REPORTS-Build value, reports_through, analyses and file.',
    labelNames: ['store_build', 'build', 'reports_through', 'analyses', 'path'],
    registers: [registry],
    collect() {
      this.reset();
      const current = live.current;
      if (current) {
        this.set({ store_build: current.storeId, build: current.build, reports_through: current.meta.reports_through ?? 'none', analyses: current.analyses.names.join(','), path: current.path }, 1);
      }
    },
  });
  new Gauge({
    name: 'reporting_signals_store_load_seconds', help: 'Seconds the served store took to load completely (every analysis and the case series).', registers: [registry],
    collect() {
      this.set(live.current?.loadSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'reporting_signals_store_loaded', help: 'Whether the served store is completely loaded (1) or not (0: loading, or no store).', registers: [registry],
    collect() {
      this.set(live.current?.loaded ? 1 : 0);
    },
  });
  new Counter({
    name: 'reporting_signals_store_loads_total', help: 'Store loads by result (the first load and every reload).', labelNames: ['result'], registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'ok' }, live.loads.ok);
      this.inc({ result: 'failed' }, live.loads.failed);
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', {
    schema: {
      summary: 'Prometheus metrics: requests, latency, answer caches, the served store, the process',
      response: { 200: { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  }, async (_request, reply) => reply.header('cache-control', 'no-store').type(registry.contentType).send(await registry.metrics()));
  return registry;
}
