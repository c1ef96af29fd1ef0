/**
 * Deadline answers are always the Error object (issue 45): a route that has set a static file's
 * headers (Content-Type application/javascript, ETag, Cache-Control public, as @fastify/static
 * does before it streams) and answers after the deadline gets the 503 Error object with
 * Retry-After, CORS, the caveat and `Cache-Control: no-store`, no ETag (before: a 500 with
 * Fastify's default body, FST_ERR_REP_INVALID_PAYLOAD_TYPE, and the file's cache headers); the
 * route's late answer is dropped and counted in /metrics.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { DEADLINE_RETRY_AFTER_SECONDS, deadlineMessage } from '../../src/http/deadline.js';

const DEADLINE_MS = 100;

describe('a deadline answer after a route set its own headers', () => {
  let app: FastifyInstance;
  let destroyed = 0;
  beforeAll(async () => {
    app = await buildApp({ storePath: null, deadlineMs: DEADLINE_MS });
    // What @fastify/static does for /explorer/js/app.js: its headers first, then the stream, here after the deadline.
    app.get('/test/slow-static', async (_request, reply) => {
      reply.type('application/javascript; charset=utf-8').header('etag', '"abc"').header('cache-control', 'public, max-age=60').header('last-modified', 'Sat, 28 Nov 2026 00:00:00 GMT');
      reply.raw.setHeader('accept-ranges', 'bytes');
      await new Promise((done) => setTimeout(done, DEADLINE_MS * 3));
      const stream = Readable.from(['console.log(1)']);
      stream.on('close', () => { destroyed++; });
      return reply.send(stream);
    });
    app.get('/test/slow-json', async () => {
      await new Promise((done) => setTimeout(done, DEADLINE_MS * 3));
      return { late: true };
    });
  });
  afterAll(async () => { await app?.close(); });

  const lateAnswers = async (): Promise<number> => {
    const found = /^reporting_signals_late_answers_total (\d+)$/m.exec((await app.inject({ url: '/metrics' })).body);
    if (!found) throw new Error('no reporting_signals_late_answers_total in /metrics');
    return Number(found[1]);
  };

  it('is the 503 Error object with no-store, CORS and the caveat; none of the file\'s headers', async () => {
    const before = await lateAnswers();
    const res = await app.inject({ url: '/test/slow-static', headers: { origin: 'https://example.org' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: deadlineMessage(DEADLINE_MS), hypothesis: HYPOTHESIS });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['retry-after']).toBe(String(DEADLINE_RETRY_AFTER_SECONDS));
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    expect([res.headers.etag, res.headers['last-modified'], res.headers['accept-ranges']]).toEqual([undefined, undefined, undefined]);
    // The route's late answer: dropped (its stream closed) and counted.
    await new Promise((done) => setTimeout(done, DEADLINE_MS * 4));
    expect(destroyed).toBe(1);
    expect(await lateAnswers()).toBe(before + 1);
  });

  it('a late JSON answer is dropped and counted too', async () => {
    const before = await lateAnswers();
    const res = await app.inject({ url: '/test/slow-json' });
    expect(res.statusCode).toBe(503);
    await new Promise((done) => setTimeout(done, DEADLINE_MS * 4));
    expect(await lateAnswers()).toBe(before + 1);
  });
});
