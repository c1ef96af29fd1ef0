/**
 * The real default store's app for the triage real-data tests: registers the app's start and
 * close in the calling describe block and returns `queue(query)`, the `pairs` of GET
 * /triage?query (asserting a 200). Call it inside a `describe.skipIf(!haveStore)` block.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { DEFAULT_STORE } from '../../helpers/default-store.js';

/** Starts the app on the default store for the enclosing describe block; returns the queue reader. */
export function realTriageQueue<P>(): (query: string) => Promise<P[]> {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ storePath: DEFAULT_STORE! });
  }, 300_000);
  afterAll(async () => app?.close());
  return async (query: string): Promise<P[]> => {
    const res = await app.inject({ url: `/triage?${query}` });
    expect(res.statusCode, query).toBe(200);
    return res.json().pairs;
  };
}
