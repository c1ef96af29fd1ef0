/**
 * The smaller HTTP points of issue 45, on a real socket where inject() cannot send the request:
 * `format=brief` keeps a query's raw HTML and `javascript:` link as text (escaped as the /pipeline
 * brief escapes a registry's); `Expect: 999-x` is 417 with the Error object, CORS and the caveat
 * (was a bare 417 from Node); two Host lines are 400 (RFC 9112 3.2; Node kept the first); TRACE and
 * PROPFIND are 405 with Allow (were 404); CONNECT is 405 with Allow (Node dropped the connection).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/domain/caveats.js';
import { fixtureApp, rawExchange } from './helpers.js';

describe('smaller refusals and escapes (issue 45)', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await fixtureApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => { await app.close(); });

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
