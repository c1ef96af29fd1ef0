/**
 * The document-level parts of `/openapi.json` that no route schema carries (kept clean
 * under the Redocly `recommended` ruleset, checked by test/http/openapi-lint.test.ts), and the
 * `@fastify/swagger` `transform` that completes every documented operation, so that routes added
 * later conform without repeating anything:
 *
 * - `operationId`: derived from the method and the URL when the route schema names none
 *   (`GET /analyses/:analysis/signals` -> `getAnalysisSignals`, see {@link operationIdOf}).
 * - `431`: every operation can answer it (the request line and headers exceed MAX_HEADER_SIZE;
 *   `answerClientError` in app.ts answers it for any path before routing, with the Error object).
 * - `400` on operations with a path parameter: a malformed percent-encoding in the path
 *   (`/analyses/%ZZ/signals`) is refused before the handler runs (the app's `frameworkErrors`
 *   answers it with the Error object).
 * - `503` with `Retry-After`: every request has a deadline (deadline.ts); an operation that
 *   already documents a 503 gets the deadline added to its description and the header.
 *
 * The transform builds new objects: route schemas are shared constants (and Fastify's own
 * validation and serialization read them), so they are never modified.
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import { errorResponse } from '../serve/query/responses.js';
import { DEADLINE_RETRY_AFTER_SECONDS } from './deadline.js';

/** The sentence of every operation's 503 about the request deadline (`deadlineMs`: the server's). */
function deadlineDoc(deadlineMs: number): string {
  return `Past its deadline (${deadlineMs} ms, REPORTING_SIGNALS_DEADLINE_MS) the request is stopped and answered 503 with an Error object and \`Retry-After: ${DEADLINE_RETRY_AFTER_SECONDS}\`; /cases also answers so when too much work already waits (busy).`;
}

/** The Retry-After header of a 503. */
const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' } } as const;

/** `info.license`: the project's licence (package.json `license`). */
export const LICENSE = { name: 'MIT', url: 'https://opensource.org/license/mit' } as const;

/**
 * `servers`: the origin that serves the document (a relative URL: the paths are resolved
 * against wherever /openapi.json was fetched from; the service has no fixed host).
 */
export const SERVERS = [{ url: '/', description: 'The origin serving this document.' }];

/**
 * Top-level `security`: an empty list of requirements, meaning that no operation requires
 * authentication (OpenAPI 3.0.3, 4.7.1 "security"; Redocly's `security-defined` documents
 * `security: []` as the way to say an API is public).
 */
export const SECURITY: never[] = [];

/**
 * A stable camelCase operation id from a method and a Fastify URL: the method, then each path
 * segment in PascalCase, where a segment followed by a parameter is replaced by the parameter's
 * name (the singular): `GET /signals` -> `getSignals`, `GET /analyses/:analysis/cases` ->
 * `getAnalysisCases`, `GET /.well-known/api-catalog` -> `getWellKnownApiCatalog`.
 */
export function operationIdOf(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s !== '');
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith(':')) return;
    const next = segments[i + 1];
    words.push(next?.startsWith(':') ? next.slice(1) : segment);
  });
  const pascal = words
    .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
    .filter((w) => w !== '')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
  return method.toLowerCase() + pascal;
}

/** Route options and schema as `@fastify/swagger` gives them to its `transform`. */
interface TransformInput {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}

/**
 * The `transform` option of `@fastify/swagger` (documentation only; see the module comment).
 * `maxHeaderSize` is the server's limit on the request line and headers (app.ts MAX_HEADER_SIZE);
 * `deadlineMs` the deadline of every request (deadline.ts).
 */
export function documentRoutes(maxHeaderSize: number, deadlineMs: number): (input: TransformInput) => { schema: FastifySchema; url: string } {
  return ({ schema, url, route }) => {
    const given = (schema ?? {}) as FastifySchema & { hide?: boolean; operationId?: string; response?: Record<string, unknown> };
    if (given.hide) return { schema, url };
    const response: Record<string, unknown> = { ...given.response };
    response['431'] ??= errorResponse(`The request line and headers exceed ${maxHeaderSize / 1024} KiB; answered before routing, with an Error object and CORS *.`);
    if (url.includes(':')) response['400'] ??= errorResponse('A path parameter is not valid percent-encoding (for example `%ZZ`); answered before the route, with an Error object.');
    const unavailable = response['503'] as { description: string; headers?: Record<string, unknown> } | undefined;
    response['503'] = unavailable
      ? { ...unavailable, description: `${unavailable.description} ${deadlineDoc(deadlineMs)}`, headers: { ...RETRY_AFTER, ...unavailable.headers } }
      : { ...errorResponse(deadlineDoc(deadlineMs)), headers: RETRY_AFTER };
    const completed: FastifySchema & { operationId?: string } = { ...given, response };
    // One id per operation: a route documented under several methods gets none (the lint test
    // then names it) rather than the same id on two operations.
    const methods = typeof route.method === 'string' ? [route.method] : route.method;
    if (!given.operationId && methods.length === 1) completed.operationId = operationIdOf(methods[0], url);
    return { schema: completed, url };
  };
}
