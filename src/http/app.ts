/**
 * Server assembly: one Fastify app with CORS `*` (spec 5), the /signals and /pipeline route
 * plugins, the OpenAPI document, the machine index and the API notes. No `listen` here: only
 * `src/commands/serve.ts` binds a port; tests call `inject()`.
 *
 * `@fastify/swagger` is registered first, so every route registered afterwards (by any
 * resource plugin) with a schema appears in `/openapi.json`. Shared schemas (spec 2.1-2.5)
 * are added once and become `components/schemas`.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { FastifyError, FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import { SHARED_SCHEMAS } from '../serve/signals/schemas.js';
import { buildId } from '../serve/generation/build-id.js';
import { HYPOTHESIS } from '../serve/query/caveats.js';
import { errorBody } from '../serve/query/error-object.js';
import { explorerRoutes } from './explorer.js';
import { documentRoutes, LICENSE, SECURITY, SERVERS } from './openapi.js';
import { API_CATALOG_TYPE, apiCatalog, apiNotes } from './notes.js';
import { indexRoutes, type RouteIndex } from './route-index.js';
import { routeTableDrift } from './route-table.js';
import { signalsRoutes } from './signals-route.js';
import { casesRoutes } from './cases-route.js';
import { reportsRoutes } from './reports-route.js';
import { triageRoutes } from './triage-route.js';
import { interactionsRoutes } from './interactions-route.js';
import { exportRoutes } from './export-route.js';
import type { ExportLimits } from '../serve/export/files.js';
import { healthRoutes } from './health.js';
import { LiveStore, type LiveStoreLog } from './live-store.js';
import { registerMetrics } from './metrics.js';
import { deadlineFromEnv, registerDeadline } from './deadline.js';
import { ENCODINGS, COMPRESS_THRESHOLD, sendAnswer, type RenderedAnswer } from './answer.js';
import { pipelineOptionsFromEnv, pipelineRoutes } from './pipeline-route.js';
import { NOSNIFF, publicBase, refusal } from './guards.js';

/** Options of {@link buildApp}. */
export interface AppOptions {
  /**
   * Store file to serve; null while the default store is being prepared: the app
   * starts with no store (`live.preparing` says why) and the caller loads it with `live.reload(path)`.
   */
  storePath: string | null;
  /** Analysis names for the OpenAPI enum when no store is loaded at start (default: `all`). */
  analysisNames?: readonly string[];
  /** Fastify logger on/off. */
  logger?: boolean;
  /** Log every request (with `logger`); default false: start-up, warnings and errors only. */
  requestLog?: boolean;
  /**
   * Base URL of the API catalog's links (`https://signals.example.org`); default
   * `PUBLIC_BASE_URL` from the environment, else relative links (never the request's Host).
   */
  publicBaseUrl?: string;
  /** Deadline of every request in milliseconds (deadline.ts); default: REPORTING_SIGNALS_DEADLINE_MS, else 10,000. */
  deadlineMs?: number;
  /** The export's limits (default EXPORT_LIMITS, src/serve/export/files.ts) and the parent of its folders (default: the system's temp folder's reporting-signals-exports). */
  exports?: { limits?: ExportLimits; root?: string };
}

/** A built app and its served store (the serve command reloads it on SIGHUP; tests swap it). */
export interface ServedApp {
  app: FastifyInstance;
  live: LiveStore;
}

/** Whether a request URL is the /pipeline resource (exact path, with or without a query). */
export function isPipelinePath(url: string): boolean {
  return url.startsWith('/pipeline') && (url.length === 9 || url[9] === '?' || url[9] === '/');
}

/**
 * Largest request head (request line + headers) the server reads, in bytes: 64 KiB, four times
 * Node's default (16 KiB), so that long query values (10,000-character values, percent-
 * encoded up to 3 bytes each) reach /signals and get a spec answer instead of a bare 431.
 */
export const MAX_HEADER_SIZE = 64 * 1024;

/**
 * Response headers a cross-origin page may read (CORS `Access-Control-Expose-Headers`): the
 * spec 4.1 headers that are not CORS-safelisted (Cache-Control and Content-Type already are).
 */
export const EXPOSED_HEADERS = ['X-Total-Count', 'X-Limit', 'X-Offset', 'X-REPORTS-Through', 'X-REPORTS-Build', 'X-REPORTS-Hypothesis', 'X-REPORTS-Analysis'] as const;

/** Cache lifetime of the API catalog (it changes with the program and its configuration only). */
export const CATALOG_CACHE_CONTROL = 'public, max-age=3600';

/** Methods of the read-only resources (spec 4.1, 4.2: GET; HEAD with it). Others get 405. */
export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

/** Methods a route answers: GET, HEAD, OPTIONS (CORS preflight), and POST, PUT, PATCH, DELETE (405 per path, 404 for an unknown one). Any other is 405 on every path. */
const ROUTED_METHODS = [...ALLOWED_METHODS, 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Headers of the answers written outside Fastify (raw answers below): CORS *, nosniff, the caveat (spec 1, 5). */
function rawHeaders(build: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    'X-Content-Type-Options': 'nosniff', 'X-REPORTS-Build': build, 'X-REPORTS-Hypothesis': HYPOTHESIS,
  };
}

/**
 * Writes a raw HTTP answer on `socket` (a request that never reaches Fastify) with the Error object
 * (spec 2.5) and the headers of every answer (rawHeaders), then closes the connection.
 */
function rawAnswer(socket: Socket | Duplex, status: number, message: string, build: string, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(message));
  if (socket.writable) {
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...rawHeaders(build), ...extra, Connection: 'close' };
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
  }
  socket.destroy();
}

/**
 * Answers a connection-level client error (the request never reached a route: head larger
 * than MAX_HEADER_SIZE -> 431, timeout -> 408, malformed HTTP -> 400) with a raw HTTP response
 * that still carries the Error object (spec 2.5), CORS `*` (spec 5) and the caveat header
 * (spec 1), then closes the connection. Replaces Fastify's default bare body.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket, build: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'malformed HTTP request';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = `the request line and headers exceed ${MAX_HEADER_SIZE} bytes; shorten the query (see /openapi.json)`;
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'the request was not received in time';
  }
  rawAnswer(socket, status, message, build);
}

/**
 * The answers Node gives itself, outside Fastify, made like every other (issue 45): a request
 * with an `Expect` other than `100-continue` (Node answered a bare 417) is 417 with the Error
 * object; `CONNECT` (Node dropped the connection without a word) is 405 with `Allow`.
 */
export function answerNodeRequests(server: Server, build: () => string): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(errorBody(`the expectation ${JSON.stringify(String(request.headers.expect).slice(0, 100))} cannot be met: the service knows only Expect: 100-continue (RFC 9110 10.1.1)`));
    response.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...rawHeaders(build()), Connection: 'close' });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    rawAnswer(socket, 405, `method CONNECT is not allowed: the service is read-only (allowed: ${ALLOWED_METHODS.join(', ')})`, build(), { Allow: ALLOWED_METHODS.join(', ') });
  });
}

/**
 * Answers the errors Fastify's router raises before any hook or route runs (a path that is not
 * valid percent-encoding, `/analyses/%ZZ/signals`: FST_ERR_BAD_URL, 400) with the Error object
 * (spec 2.5), CORS * (spec 5) and the caveat headers (spec 1) like every other answer, instead of
 * Fastify's bare default body. (The X-REPORTS-* headers as the app's onRequest hook sets them.)
 */
export function answerFrameworkError(error: FastifyError, url: string, reply: FastifyReply, build: string): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  const path = shorten(url.split('?')[0]);
  const message = error.code === 'FST_ERR_BAD_URL' ? `the path ${path} is not valid percent-encoding` : status === 500 ? 'internal error' : shorten(error.message);
  if (status === 500) reply.log.error(error);
  reply.code(status).headers(NOSNIFF).header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
  if (!isPipelinePath(url)) reply.header('x-reports-build', build).header('x-reports-hypothesis', HYPOTHESIS);
  reply.send(errorBody(message));
}

function shorten(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

/** Builds the app (routes registered, not listening). Never throws for a missing store. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  return (await buildServedApp(options)).app;
}

/** Builds the app and returns it with its live store. Never throws for a missing store. */
export async function buildServedApp(options: AppOptions): Promise<ServedApp> {
  let live: LiveStore | null = null;
  const deadlineMs = options.deadlineMs ?? deadlineFromEnv();
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: !options.requestLog }),
    // requireHostHeader off: Node's own check answers a bodiless 400; the onRequest hook below answers it with the Error object.
    http: { maxHeaderSize: MAX_HEADER_SIZE, requireHostHeader: false },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, live?.build ?? buildId()),
    frameworkErrors: (error, request, reply) => answerFrameworkError(error, request.raw.url ?? '', reply, live?.build ?? buildId()),
    // A path parameter as long as the head allows reaches its route (an unknown analysis: 404
    // naming the analyses) instead of Fastify's 414 for parameters over 100 characters.
    routerOptions: { maxParamLength: MAX_HEADER_SIZE },
  });
  // The store read runs in DuckDB's threads while the app is assembled below.
  const catalogBase = publicBase(options.publicBaseUrl ?? process.env.PUBLIC_BASE_URL);
  // Before every other hook (CORS's preflight among them): nosniff and the X-REPORTS-* headers
  // (spec 4.1, 9; not on /pipeline, a separate service with its own caveat REGISTRY_CAVEAT), and
  // the refusals of guards.ts as 400 Error objects with CORS *.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(NOSNIFF);
    if (!isPipelinePath(request.url)) reply.header('x-reports-build', live?.build ?? buildId()).header('x-reports-hypothesis', HYPOTHESIS);
    if (!(ROUTED_METHODS as readonly string[]).includes(request.method)) {
      // TRACE, PROPFIND and the other methods no route has: 405 with Allow on every path (was 404).
      reply.code(405).header('allow', ALLOWED_METHODS.join(', ')).header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS.join(', '))
        .send(errorBody(`method ${request.method.slice(0, 20)} is not allowed: the service is read-only (allowed: ${ALLOWED_METHODS.join(', ')})`, { allowed: ALLOWED_METHODS }));
      return;
    }
    const refused = refusal(request, ALLOWED_METHODS);
    if (refused === null) return done();
    reply.code(400).header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS.join(', '))
      .send(errorBody(refused, request.method === 'OPTIONS' ? { allowed: ALLOWED_METHODS } : {}));
  });
  const log: LiveStoreLog = { info: (message) => app.log.info(message), warn: (message) => app.log.warn(message) };
  const opening = options.storePath === null ? Promise.resolve(LiveStore.pending(log)) : LiveStore.open(options.storePath, log);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'reporting-signals',
        version: '1.0.0',
        description: `Vaccine x adverse-event disproportionality signals from VAERS (/signals) and clinical-trial registry facts per sponsor (/pipeline). ${HYPOTHESIS} Auth: none. CORS: *. Notes: /llms.txt; index: /.well-known/api-catalog.`,
        license: LICENSE,
      },
      servers: SERVERS,
      security: SECURITY,
    },
    transform: documentRoutes(MAX_HEADER_SIZE, deadlineMs),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  const routes = indexRoutes(app);
  await app.register(cors, { origin: '*', methods: [...ALLOWED_METHODS], exposedHeaders: [...EXPOSED_HEADERS] });
  // Compression of every other answer; the cached resources send their own compressed bytes (answer.ts).
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD, encodings: [...ENCODINGS] });
  live = await opening;
  const served = live;
  answerNodeRequests(app.server, () => served.build);

  registerDeadline(app, served, deadlineMs);
  // Graceful shutdown: once close() starts, answers in flight ask their client to close the
  // connection, so that kept-alive connections end with them and close() need not wait for idle
  // timeouts (Fastify closes the connections idle at that moment; new requests get 503).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return reply.code(status).send(errorBody(shorten((error as Error).message)));
    reply.log.error(error);
    return reply.code(500).send(errorBody('internal error'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(`no such resource: ${request.method} ${shorten(request.url.split('?')[0])}; see /openapi.json`));
  });

  registerMetrics(app, served);
  await app.register(healthRoutes, { live: served, analysisNames: options.analysisNames });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const notes = apiNotes();
  app.get('/llms.txt', {
    schema: { summary: 'Plain-text API notes (the content of the specification)', response: { 200: { description: 'Markdown notes', content: { 'text/plain': { schema: { type: 'string' } } } } } },
  }, async (_request, reply) => reply.type('text/plain; charset=utf-8').send(notes));
  // The catalog depends on the program, the routes (registered below, hence rendered at the first
  // request) and PUBLIC_BASE_URL only: rendered once, with an ETag and an hour's caching.
  let catalog: RenderedAnswer | null = null;
  const renderCatalog = (): RenderedAnswer => ({
    body: Buffer.from(JSON.stringify(apiCatalog(catalogBase, routes.catalog))),
    headers: { 'content-type': `${API_CATALOG_TYPE}; charset=utf-8`, 'cache-control': CATALOG_CACHE_CONTROL, link: '</.well-known/api-catalog>; rel="api-catalog"' },
  });
  app.get('/.well-known/api-catalog', {
    schema: { summary: 'Machine index: RFC 9727 API catalog (linkset)', response: { 200: { description: 'Linkset', content: { 'application/linkset+json': { schema: { type: 'object' } } } } } },
  }, async (request, reply) => sendAnswer(request, reply, (catalog ??= renderCatalog()), buildId(), `api-catalog\0${catalogBase}`));


  await registerResources(app, served, routes, options);
  app.addHook('onClose', async () => served.close());
  return { app, live: served };
}

/**
 * Registers the resource plugins (in the order of the route table, route-table.ts), the 405 of
 * every other method on each GET path, and the start-time check that the catalogued routes are
 * the route table (`options.analysisNames`: the analysis names of the OpenAPI enums when no store is loaded).
 */
async function registerResources(app: FastifyInstance, served: LiveStore, routes: RouteIndex, options: AppOptions): Promise<void> {
  const analysisNames = served.current?.analyses.names ?? [...(options.analysisNames ?? ['all'])];
  await app.register(signalsRoutes, { live: served, analysisNames });
  await app.register(casesRoutes, { live: served, analysisNames });
  await app.register(reportsRoutes, { live: served });
  await app.register(triageRoutes, { live: served, analysisNames });
  await app.register(interactionsRoutes, { live: served });
  await app.register(exportRoutes, { live: served, analysisNames, ...options.exports });
  await app.register(pipelineRoutes, pipelineOptionsFromEnv());
  await app.register(explorerRoutes, { live: served });

  // Every path is read-only: other methods are 405 with `Allow` (not 404: the path exists), for
  // every GET path registered above (src/http/route-index.ts).
  for (const url of [...routes.get]) {
    app.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      schema: { hide: true },
      handler: async (request, reply) =>
        reply.code(405).header('allow', ALLOWED_METHODS.join(', ')).send(errorBody(`method ${request.method} is not allowed on ${url}: the service is read-only (allowed: ${ALLOWED_METHODS.join(', ')})`, { allowed: ALLOWED_METHODS })),
    });
  }
  // The route table the CLI's help lists (route-table.ts) is the one registered: a drift stops the start.
  app.addHook('onReady', async () => {
    const drift = routeTableDrift(routes.catalog);
    if (drift !== null) throw new Error(drift);
  });
}
