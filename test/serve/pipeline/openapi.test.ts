/**
 * /pipeline in the assembled server (src/http/app.ts): the route is registered, reads
 * CTGOV_BASE_URL / CTGOV_TIMEOUT_MS from the environment, and /openapi.json documents it
 * (parameters with their enums, the 200 content types and the 400/502/503 Error object).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { DEFAULT_STORE } from '../../helpers/default-store.js';
import { FakeCtgov } from './fake-ctgov.js';
import { writeFixture } from './helpers.js';

describe('GET /pipeline in the assembled app and /openapi.json', () => {
  let fake: FakeCtgov;
  let app: FastifyInstance;
  const saved = { base: process.env.CTGOV_BASE_URL, timeout: process.env.CTGOV_TIMEOUT_MS };

  beforeAll(async () => {
    fake = await FakeCtgov.start(writeFixture());
    process.env.CTGOV_BASE_URL = fake.baseUrl;
    process.env.CTGOV_TIMEOUT_MS = '2000';
    app = await buildApp({ storePath: DEFAULT_STORE });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    for (const [key, value] of [['CTGOV_BASE_URL', saved.base], ['CTGOV_TIMEOUT_MS', saved.timeout]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('serves /pipeline from the registry named by CTGOV_BASE_URL, with CORS *', async () => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer', headers: { origin: 'https://example.org' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json().n_studies).toBe(7);
    expect(fake.requests).toHaveLength(1);
  });

  it('/openapi.json documents /pipeline: parameters, formats and error statuses', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/pipeline']?.get;
    expect(op).toBeDefined();
    const params = Object.fromEntries(op.parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]));
    expect(Object.keys(params).sort()).toEqual(['format', 'limit', 'phase', 'role', 'sponsor', 'status']);
    expect(params.format.enum).toEqual(['json', 'brief', 'html']);
    expect(params.role.enum).toEqual(['lead', 'collaborator', 'any']);
    expect(params.limit).toMatchObject({ type: 'integer', default: 50 });
    // 431 (request head over the limit) is added to every operation by the app (src/http/openapi.ts).
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '431', '502', '503']);
    expect(Object.keys(op.responses['200'].content).sort()).toEqual(['application/json', 'text/html', 'text/plain']);
    const json = op.responses['200'].content['application/json'].schema;
    expect(json.properties.n_studies.type).toBe('integer');
    expect(json.properties.studies.items.properties.role.enum).toEqual(['lead', 'collaborator']);
    expect(op.responses['503'].content['application/json'].schema.required).toEqual(['error', 'hypothesis']);
  });
});
