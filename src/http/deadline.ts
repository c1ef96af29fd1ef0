/**
 * A deadline on every request: each request gets an AbortSignal (`request.stop`) and a deadline
 * `deadlineMs` after it arrived. When the deadline passes before
 * the answer is sent, the request is answered 503 with the Error object and `Retry-After`
 * (DEADLINE_RETRY_AFTER_SECONDS), and its signal aborts, which stops the work behind it (a text
 * search in the worker pool, a case series computed in slices). When the client closes the
 * connection before its answer, the signal aborts too (Unavailable `cancelled`): an abandoned
 * request stops costing anything. While the served store is still loading (`/readyz` 503), a
 * request waiting for it is not cut: its deadline starts over when the load ends.
 *
 * A deadline answer is always the Error object (issue 45): whatever the route had set before (a
 * static file's Content-Type, ETag, Last-Modified and Cache-Control, an export's
 * Content-Disposition) is removed, and it says `Cache-Control: no-store`, with the caveat and CORS
 * headers every answer has. The route's own answer, when it comes after that, is dropped
 * silently (a stream is destroyed) and counted (`lateAnswers`, in /metrics as
 * `reporting_signals_late_answers_total`).
 *
 * The limit: REPORTING_SIGNALS_DEADLINE_MS in the environment, else DEADLINE_MS_DEFAULT (the
 * serve command and tests can pass another to buildApp). A route with `config: { deadline: false }`
 * (the bulk export, src/http/export-route.ts) has none.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../serve/query/error-object.js';
import { Unavailable } from '../serve/query/unavailable.js';
import type { LiveStore } from './live-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on a route the request deadline does not cut (the bulk export). */
    deadline?: boolean;
  }
}

/** Default deadline of a request, in milliseconds. */
export const DEADLINE_MS_DEFAULT = 10_000;
/** Seconds a client is told to wait (`Retry-After`) after a 503 for a deadline passed or a busy server. */
export const DEADLINE_RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborts when the request's deadline passes or its client leaves (reason: an Unavailable `cancelled`). */
    stop: AbortSignal;
  }
}

/**
 * The deadline in milliseconds from the environment (`REPORTING_SIGNALS_DEADLINE_MS`, a positive
 * integer), else DEADLINE_MS_DEFAULT.
 * @throws Error naming the variable when it is set to something else.
 */
export function deadlineFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.REPORTING_SIGNALS_DEADLINE_MS;
  if (text === undefined || text === '') return DEADLINE_MS_DEFAULT;
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new Error(`REPORTING_SIGNALS_DEADLINE_MS must be a positive whole number of milliseconds (got "${text.slice(0, 40)}")`);
  return Number(text);
}

/** The Error message of a request answered 503 at its deadline. */
export function deadlineMessage(deadlineMs: number): string {
  return `the request was not answered within its deadline of ${deadlineMs} ms and was stopped (the server is busy, or the query is costly: narrow it); retry after a few seconds`;
}

/** Answers of routes that came after their request's deadline answer, dropped (over every app of the process; /metrics). */
export const lateAnswers = { count: 0 };

/** Headers a deadline answer keeps of those set before it (the ones every answer carries: src/http/app.ts). */
const KEPT_HEADERS = new Set(['x-content-type-options', 'x-reports-build', 'x-reports-hypothesis', 'access-control-allow-origin', 'access-control-expose-headers', 'vary', 'connection']);

/**
 * The request's deadline answer: the 503 Error object with Retry-After and `Cache-Control:
 * no-store`, whatever the route had set (its other headers removed), and every later answer of the
 * route dropped and counted in `lateAnswers`.
 */
export function sendDeadline(reply: FastifyReply, message: string): FastifyReply {
  if (reply.sent) return reply;
  for (const name of Object.keys(reply.getHeaders())) if (!KEPT_HEADERS.has(name)) reply.removeHeader(name);
  for (const name of reply.raw.getHeaderNames()) if (!KEPT_HEADERS.has(name)) reply.raw.removeHeader(name);
  reply.code(503).header('retry-after', String(DEADLINE_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8').send(errorBody(message));
  // The route's answer, when it comes: dropped (a stream closed), counted.
  reply.send = (payload?: unknown): FastifyReply => {
    lateAnswers.count++;
    if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') (payload as { destroy: () => void }).destroy();
    return reply;
  };
  return reply;
}

/** Answers 503 with the Error object and Retry-After (unless an answer was already sent). */
export function sendUnavailable(reply: FastifyReply, message: string): FastifyReply {
  if (reply.sent) return reply;
  return reply.code(503).header('retry-after', String(DEADLINE_RETRY_AFTER_SECONDS)).send(errorBody(message));
}

/**
 * What a route does with an error of the work behind it: an Unavailable (`busy`, `deadline`) is a
 * 503 with Retry-After, `cancelled` needs no answer (the client left, or the deadline already
 * answered); anything else is rethrown (the app's error handler: 500).
 */
export function answerStopped(reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof Unavailable)) throw error;
  if (error.why === 'cancelled' || reply.sent) return reply;
  return sendUnavailable(reply, error.message);
}

/** The AbortController behind a request's `stop`, made when first needed (most answers never read the signal). */
const CONTROLLER = Symbol('deadline controller');
type Stoppable = { [CONTROLLER]?: AbortController };

function controllerOf(request: Stoppable): AbortController {
  return (request[CONTROLLER] ??= new AbortController());
}

/**
 * Registers the deadline on every request of `app` (see the module comment). The request's
 * AbortController is made only when the route reads `request.stop` or the signal must abort (a
 * cached answer needs none: issue 41's throughput against a constant route).
 */
export function registerDeadline(app: FastifyInstance, live: LiveStore, deadlineMs: number): void {
  app.decorateRequest('stop', { getter(this: FastifyRequest) { return controllerOf(this as unknown as Stoppable).signal; } });
  app.addHook('onRequest', (request, reply, done) => {
    const held = request as unknown as Stoppable;
    // A route that opts out (`config: { deadline: false }`: the bulk export, whose work is one table's
    // file, bounded, and whose answer is that whole file) is not cut.
    if (request.routeOptions.config?.deadline === false) {
      done();
      return;
    }
    let timer: NodeJS.Timeout;
    const expire = (): void => {
      if (reply.sent) return;
      const loading = live.current && !live.current.loaded && live.current.failure === null;
      if (loading && !reply.sent) {
        // Waiting for the store's load is not the request's cost: its deadline starts over.
        timer = setTimeout(expire, deadlineMs).unref();
        return;
      }
      const message = deadlineMessage(deadlineMs);
      controllerOf(held).abort(new Unavailable('cancelled', message));
      sendDeadline(reply, message);
    };
    timer = setTimeout(expire, deadlineMs).unref();
    const generation = live.current;
    if (generation && !generation.loaded) {
      // A request that arrives while the store loads waits for it: its deadline starts when the load ends.
      generation.complete.then(() => {
        if (reply.sent || held[CONTROLLER]?.signal.aborted) return;
        clearTimeout(timer);
        timer = setTimeout(expire, deadlineMs).unref();
      }, () => {});
    }
    // 'close' follows 'finish' on every answer (and comes alone when the client left first).
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) controllerOf(held).abort(new Unavailable('cancelled', 'the client closed the connection before its answer'));
    });
    done();
  });
}
