/**
 * Issue 35 items 6 and 7: the headers every answer carries (nosniff), the explorer's CSP and
 * framing protection, the API catalog from a configured or relative base (never the Host
 * header) with its caching headers, and an Error object for the 400s that used to be bare: an
 * OPTIONS request that is not a preflight, and an HTTP/1.1 request without Host (a real socket:
 * inject() always sends a Host). Issue 45: `format=brief` keeps a query's raw HTML and
 * `javascript:` link as text (escaped as the /pipeline brief escapes a registry's); `Expect: 999-x`
 * is 417 with the Error object, CORS and the caveat (was a bare 417 from Node); two Host lines are
 * 400 (RFC 9112 3.2; Node kept the first); TRACE and PROPFIND are 405 with Allow (were 404);
 * CONNECT is 405 with Allow (Node dropped the connection).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { buildApp } from '../../src/http/app.js';
import { EXPLORER_CSP, publicBase } from '../../src/http/guards.js';
import { fixtureApp, rawExchange } from './helpers.js';

describe('headers and refusals (issue 35)', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await fixtureApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => { await app.close(); });

  it('X-Content-Type-Options: nosniff on every answer: 200s, 304, 400, 404, 405, preflight, the explorer and its assets', async () => {
    const requests = [
      { url: '/signals?vaccine=COVID19' }, { url: '/signals?vaccine=COVID19&format=csv' }, { url: '/signals?format=pdf' }, { url: '/nope' },
      { url: '/signals', method: 'POST' as const }, { url: '/healthz' }, { url: '/readyz' }, { url: '/openapi.json' }, { url: '/llms.txt' },
      { url: '/.well-known/api-catalog' }, { url: '/' }, { url: '/explorer/js/app.js' }, { url: '/analyses/%ZZ/signals' },
      { url: '/signals', method: 'OPTIONS' as const, headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } },
      { url: '/signals', method: 'OPTIONS' as const },
    ];
    for (const request of requests) {
      const res = await app.inject(request);
      expect(res.headers['x-content-type-options'], `${request.method ?? 'GET'} ${request.url}`).toBe('nosniff');
    }
  });

  it('the explorer page: a CSP without inline script and with frame-ancestors none, and X-Frame-Options DENY', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(EXPLORER_CSP);
    expect(EXPLORER_CSP).toContain("frame-ancestors 'none'");
    expect(EXPLORER_CSP).toContain("script-src 'self';");
    expect(EXPLORER_CSP).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // The page it governs has no inline script or style attribute.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body).not.toMatch(/\sstyle=/);
  });

  it('OPTIONS without Access-Control-Request-Method (or without Origin): 400 with the Error object, CORS * and the allowed methods', async () => {
    for (const headers of [{}, { origin: 'https://example.org' }, { 'access-control-request-method': 'GET' }]) {
      const res = await app.inject({ method: 'OPTIONS', url: '/signals?vaccine=X', headers });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: expect.stringMatching(/only as a CORS preflight/), hypothesis: HYPOTHESIS, allowed: ['GET', 'HEAD'] });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    }
    const preflight = await app.inject({ method: 'OPTIONS', url: '/signals', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
    expect(preflight.statusCode).toBe(204);
  });

  it('an HTTP/1.1 request without Host: 400 with the Error object (was a bare 400); HTTP/1.0 without Host is served', async () => {
    const res = await rawExchange(port, 'GET /signals?vaccine=COVID19 HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(res.head).toMatch(/\r\ncontent-type: application\/json/i);
    expect(res.head).toMatch(/\r\nx-content-type-options: nosniff/i);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/no Host header/), hypothesis: HYPOTHESIS });
    // A request the HTTP parser rejects (answered raw, before any route) carries it too.
    const malformed = await rawExchange(port, 'GET /signals HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n');
    expect(malformed.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(malformed.head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    const old = await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.head).toMatch(/^HTTP\/1\.[01] 200 /);
  });

  it('the API catalog: relative links whatever the Host, cached for an hour with an ETag and 304', async () => {
    const plain = await app.inject({ url: '/.well-known/api-catalog' });
    const hosted = await app.inject({ url: '/.well-known/api-catalog', headers: { host: 'evil.example:8443' } });
    expect(plain.statusCode).toBe(200);
    expect(hosted.body).toBe(plain.body);
    expect(plain.body).not.toContain('evil');
    expect(plain.json().linkset[0].anchor).toBe('/signals');
    expect(plain.json().linkset[0]['service-desc'][0].href).toBe('/openapi.json');
    expect(plain.headers['cache-control']).toBe('public, max-age=3600');
    expect(plain.headers.etag).toMatch(/^W\/"[0-9a-f]{20}"$/);
    expect(hosted.headers.etag).toBe(plain.headers.etag);
    const again = await app.inject({ url: '/.well-known/api-catalog', headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  // Issue 45: the smaller points, on a real socket where inject() cannot send the request.
  const header = (head: string, name: string): string | undefined => new RegExp(`\\r\\n${name}: ([^\\r]*)`, 'i').exec(head)?.[1];

  it('format=brief: the query\'s raw HTML and javascript: link stay text', async () => {
    const vaccine = '<img src=x onerror=alert(1)>';
    const q = '[x](javascript:alert(1))';
    const res = await app.inject({ url: `/signals?vaccine=${encodeURIComponent(vaccine)}&q=${encodeURIComponent(q)}&format=brief` });
    expect(res.statusCode).toBe(200);
    const line = res.body.split('\n').find((l) => l.startsWith('- Query: '));
    expect(line).toBe('- Query: vaccine=\\<img src=x onerror=alert\\(1\\)\\>, q=\\[x\\]\\(javascript:alert\\(1\\)\\)');
    // No `<` or link bracket a Markdown renderer would read as HTML or a link (every one is backslash-escaped).
    expect(res.body).not.toMatch(/(^|[^\\])<img/);
    expect(res.body).not.toMatch(/(^|[^\\])\]\(javascript:/);
  });

  it('Expect: 999-x is 417 with the Error object, CORS and the caveat', async () => {
    const { head, body } = await rawExchange(port, 'GET /signals?vaccine=X HTTP/1.1\r\nHost: a\r\nExpect: 999-x\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 417 Expectation Failed');
    expect(JSON.parse(body)).toEqual({ error: 'the expectation "999-x" cannot be met: the service knows only Expect: 100-continue (RFC 9110 10.1.1)', hypothesis: HYPOTHESIS });
    expect([header(head, 'access-control-allow-origin'), header(head, 'x-reports-hypothesis'), header(head, 'x-content-type-options')]).toEqual(['*', HYPOTHESIS, 'nosniff']);
  });

  it('two Host lines are 400 with the Error object, the same or different', async () => {
    for (const hosts of ['Host: a\r\nHost: a', 'Host: a\r\nHost: evil.example']) {
      const { head, body } = await rawExchange(port, `GET /healthz HTTP/1.1\r\n${hosts}\r\nConnection: close\r\n\r\n`);
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(body)).toEqual({ error: 'the request has 2 Host headers; a request has one (RFC 9112 3.2)', hypothesis: HYPOTHESIS });
    }
    const one = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(one.head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('TRACE and PROPFIND are 405 with Allow and the Error object, on a known path and an unknown one', async () => {
    for (const method of ['TRACE', 'PROPFIND'] as const) {
      for (const url of ['/signals', '/nope']) {
        const { head, body } = await rawExchange(port, `${method} ${url} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
        expect([method, url, head.split('\r\n')[0]]).toEqual([method, url, 'HTTP/1.1 405 Method Not Allowed']);
        expect(header(head, 'allow')).toBe('GET, HEAD');
        expect(header(head, 'access-control-allow-origin')).toBe('*');
        expect(JSON.parse(body)).toEqual({ error: `method ${method} is not allowed: the service is read-only (allowed: GET, HEAD)`, allowed: ['GET', 'HEAD'], hypothesis: HYPOTHESIS });
      }
    }
  });

  it('CONNECT is answered 405 with Allow and the Error object, not dropped', async () => {
    const { head, body } = await rawExchange(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(header(head, 'allow')).toBe('GET, HEAD');
    expect(header(head, 'x-reports-hypothesis')).toBe(HYPOTHESIS);
    expect(JSON.parse(body)).toEqual({ error: 'method CONNECT is not allowed: the service is read-only (allowed: GET, HEAD)', hypothesis: HYPOTHESIS });
  });
});

describe('the API catalog from PUBLIC_BASE_URL', () => {
  it('links start with the configured base (a path prefix kept, the trailing slash dropped)', async () => {
    const app = await buildApp({ storePath: null, publicBaseUrl: 'https://signals.example.org/api/' });
    try {
      const res = await app.inject({ url: '/.well-known/api-catalog', headers: { host: 'evil.example' } });
      expect(res.json().linkset[0].anchor).toBe('https://signals.example.org/api/signals');
      expect(res.json().linkset[0].status[0].href).toBe('https://signals.example.org/api/readyz');
    } finally {
      await app.close();
    }
  });

  it('a value that is not an http(s) URL without query is refused with the variable named', () => {
    expect(publicBase(undefined)).toBe('');
    expect(publicBase('http://a.example:8080')).toBe('http://a.example:8080');
    expect(() => publicBase('signals.example.org')).toThrow(/PUBLIC_BASE_URL must be an http\(s\) URL/);
    expect(() => publicBase('ftp://a.example')).toThrow(/PUBLIC_BASE_URL/);
    expect(() => publicBase('https://a.example/?x=1')).toThrow(/without query/);
  });
});
