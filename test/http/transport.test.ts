/**
 * Spec 1 / 5 on every answer, including those Fastify's defaults got wrong: requests whose head
 * is too large (431 before any route), CORS headers a page may read (Expose-Headers), the
 * read-only methods in preflight, and 405 for other methods. The 431 tests use a real socket on
 * 127.0.0.1 (inject() skips Node's HTTP parser, where the limit lives); no network. Every test
 * runs at both places the /signals contract is served (SIGNALS_PATHS: /signals and /analyses/NAME/signals).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPOSED_HEADERS, MAX_HEADER_SIZE } from '../../src/http/app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { fixtureApp, getJson, rawGet, SIGNALS_PATHS } from './helpers.js';

describe.each(SIGNALS_PATHS)('GET $path', ({ path, analyses }) => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await fixtureApp({ analyses });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => { await app.close(); });

  const get = (target: string) => rawGet(port, target, { origin: 'https://example.org' });

  describe('spec 1 / 5: long requests (10,000-character values)', () => {
    it('a 10k-character value (30k bytes percent-encoded) reaches /signals: 200 with the 4.1 headers, not a bare 431', async () => {
      for (const value of ['a'.repeat(17_000), encodeURIComponent('é'.repeat(5_000)), encodeURIComponent('💉'.repeat(2_500))]) {
        const res = await get(`${path}?q=${value}`);
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body)).toEqual([]);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
      }
    });

    it('a request head above the limit: 431 with an Error object, the caveat header and CORS *', async () => {
      const res = await get(`${path}?q=${'a'.repeat(MAX_HEADER_SIZE + 10)}`);
      expect(res.status).toBe(431);
      const body = JSON.parse(res.body);
      expect(body).toEqual({ error: expect.stringMatching(/exceed 65536 bytes/), hypothesis: HYPOTHESIS });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    });

    it('malformed HTTP: 400 with an Error object and CORS *', async () => {
      const { connect } = await import('node:net');
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path}?q=x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n`));
        let out = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => { out += d; });
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
      expect(text).toContain(`X-REPORTS-Hypothesis: ${HYPOTHESIS}`);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).hypothesis).toBe(HYPOTHESIS);
    });
  });

  describe('spec 5 / 4.1: a cross-origin page can read the 4.1 headers (Access-Control-Expose-Headers)', () => {
    const exposed = (value: unknown) => String(value).split(',').map((h) => h.trim().toLowerCase());
    const names = ['X-Total-Count', 'X-Limit', 'X-Offset', 'X-REPORTS-Through', 'X-REPORTS-Build', 'X-REPORTS-Hypothesis', 'X-REPORTS-Analysis'];

    it('on a 200 and on a 400', async () => {
      expect([...EXPOSED_HEADERS]).toEqual(names);
      for (const [url, status] of [[`${path}?vaccine=COVID19`, 200], [`${path}?format=pdf`, 400]] as const) {
        const res = await app.inject({ url, headers: { origin: 'https://example.org' } });
        expect(res.statusCode).toBe(status);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(exposed(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(names.map((h) => h.toLowerCase())));
      }
    });
  });

  describe('spec 4.1 / 4.2: the service is read-only', () => {
    it('preflight advertises GET and HEAD only', async () => {
      const res = await app.inject({ method: 'OPTIONS', url: path, headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods']).split(',').map((m) => m.trim()).sort()).toEqual(['GET', 'HEAD']);
    });

    it('POST, PUT, PATCH, DELETE on /signals and /pipeline: 405 Error object with Allow: GET, HEAD', async () => {
      for (const url of [path, `${path}?vaccine=COVID19`, '/pipeline']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          const res = await app.inject({ method, url });
          expect(res.statusCode, `${method} ${url}`).toBe(405);
          expect(res.headers.allow).toBe('GET, HEAD');
          expect(res.headers['access-control-allow-origin']).toBe('*');
          const body = JSON.parse(res.body);
          expect(body.error).toMatch(/not allowed.*read-only/);
          expect(body.hypothesis).toBe(HYPOTHESIS);
        }
      }
      expect((await getJson(app, `${path}?vaccine=COVID19`)).status).toBe(200); // GET unchanged
      expect((await app.inject({ method: 'HEAD', url: `${path}?vaccine=COVID19` })).statusCode).toBe(200);
    });

    it('every GET path registered answers other methods with 405 (derived from the routes, not a list): /reports/1, /triage, /healthz, /openapi.json', async () => {
      for (const url of ['/reports/1', '/triage', '/analyses/all/triage', '/healthz', '/readyz', '/metrics', '/openapi.json', '/llms.txt', '/.well-known/api-catalog', '/']) {
        const res = await app.inject({ method: 'POST', url });
        expect(res.statusCode, `POST ${url}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(JSON.parse(res.body).error).toMatch(/not allowed/);
      }
      expect((await app.inject({ method: 'POST', url: '/no-such-path' })).statusCode).toBe(404);
    });
  });
});
