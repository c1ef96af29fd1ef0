/**
 * Headers every answer carries and requests refused before any route (issue 35):
 * - `X-Content-Type-Options: nosniff` on every answer (a browser never reads a CSV or JSON body
 *   as HTML or script), including the raw answers of app.ts `answerClientError`;
 * - `Content-Security-Policy` of the explorer page (EXPLORER_CSP): scripts, styles, images and
 *   fetches from this origin only, no inline script, no framing (`frame-ancestors 'none'`, and
 *   `X-Frame-Options: DENY` for browsers without CSP level 2);
 * - a 400 Error object (spec 2.5) instead of a bare answer for an HTTP/1.1 request without
 *   `Host` (RFC 9112 3.2; Node's own check answers a bodiless 400, so the app does it), for a
 *   request with more than one `Host` line (RFC 9112 3.2; Node kept the first) and for
 *   an `OPTIONS` request that is not a CORS preflight (no `Origin` or no
 *   `Access-Control-Request-Method`; @fastify/cors answered those with text/plain);
 * - the base of the API catalog's links (`PUBLIC_BASE_URL`, else relative links: the catalog never
 *   reflects the request's `Host`).
 */
import type { FastifyRequest } from 'fastify';
import { UserError } from '../domain/user-error.js';

/** Header every answer carries. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/**
 * Content-Security-Policy of the explorer page (`/`, the preparing page and its assets): every
 * resource from this origin (the page is plain ES modules and CSS, public/), the blank favicon
 * as a data: URL, no inline script or style element, no plugin, no framing.
 */
export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "manifest-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'";

/** Headers of the explorer's answers. */
export const EXPLORER_HEADERS = { 'content-security-policy': EXPLORER_CSP, 'x-frame-options': 'DENY' } as const;

/**
 * Why a request is refused before any route (the 400 Error message), or null to go on:
 * an HTTP/1.1 request without `Host`; a request with several `Host` lines; an `OPTIONS` request without `Origin` or
 * `Access-Control-Request-Method` (the service answers OPTIONS only as a CORS preflight; `allowed`: the
 * resources' methods, named in the message).
 */
export function refusal(request: FastifyRequest, allowed: readonly string[]): string | null {
  const headers = request.headers;
  if (request.raw.httpVersion === '1.1' && (headers.host === undefined || headers.host === '')) {
    return 'the request has no Host header, which HTTP/1.1 requires (RFC 9112 3.2)';
  }
  // Node keeps the first of several Host lines: a proxy that read another one would route the request elsewhere.
  const hosts = request.raw.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'host').length;
  if (hosts > 1) return `the request has ${hosts} Host headers; a request has one (RFC 9112 3.2)`;
  if (request.method === 'OPTIONS' && (!headers.origin || !headers['access-control-request-method'])) {
    return `OPTIONS is answered only as a CORS preflight, with the Origin and Access-Control-Request-Method headers; the resources allow ${allowed.join(', ')}`;
  }
  return null;
}

/**
 * The origin the API catalog's links start with: `PUBLIC_BASE_URL` (`https://signals.example.org`
 * or with a path prefix, no trailing slash kept), else '' (links relative to the catalog's origin).
 * @throws UserError when the value is not an http(s) URL without query or fragment.
 */
export function publicBase(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`PUBLIC_BASE_URL must be an http(s) URL such as https://signals.example.org (got ${JSON.stringify(value)})`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new UserError(`PUBLIC_BASE_URL must be an http(s) URL without query, fragment or credentials (got ${JSON.stringify(value)})`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
