/**
 * The real default store's app for the triage real-data tests: takes the process's shared app
 * (test/helpers/default-app.ts) in the calling describe block and returns `queue(query)`, the
 * `pairs` of GET /triage?query (asserting a 200). Call it inside a `describe.skipIf(!haveStore)` block.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';

/** Takes the shared app on the default store for the enclosing describe block; returns the queue reader. */
export function realTriageQueue<P>(): (query: string) => Promise<P[]> {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await defaultApp();
  }, 300_000);
  return async (query: string): Promise<P[]> => {
    const res = await app.inject({ url: `/triage?${query}` });
    expect(res.statusCode, query).toBe(200);
    return res.json().pairs;
  };
}
