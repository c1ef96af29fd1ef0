/**
 * PipelineService without a transport (src/serve/pipeline/service.ts): the answer is a value with
 * status, headers, content type and body; the renderer registry's keys are the format enum and
 * the unknown-format answer's `allowed` list. The HTTP behaviour is covered by route.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_VALUES, rawQueryFromUrl } from '../../../src/serve/pipeline/params.js';
import { RENDERERS } from '../../../src/serve/pipeline/render.js';
import { PipelineService } from '../../../src/serve/pipeline/service.js';
import { FakeCtgov, refusedBaseUrl } from './fake-ctgov.js';
import { BROWSER_ACCEPT, writeFixture } from './helpers.js';

describe('PipelineService.answer (transport-free)', () => {
  let fake: FakeCtgov;
  let service: PipelineService;
  beforeAll(async () => {
    fake = await FakeCtgov.start(writeFixture());
    service = new PipelineService({ baseUrl: fake.baseUrl, timeoutMs: 2000 });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('the renderer registry is keyed by exactly the format enum, which the unknown-format 400 lists', async () => {
    expect(Object.keys(RENDERERS)).toEqual([...FORMAT_VALUES]);
    const answer = await service.answer(rawQueryFromUrl('/pipeline?sponsor=Pfizer&format=pdf'), BROWSER_ACCEPT);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body).allowed).toEqual(Object.keys(RENDERERS));
  });

  it('a 200 carries vary, cache-control and content-type, in that order', async () => {
    const answer = await service.answer(rawQueryFromUrl('/pipeline?sponsor=Pfizer&limit=2'), undefined);
    expect(answer.status).toBe(200);
    expect(Object.entries(answer.headers)).toEqual([
      ['vary', 'Accept'],
      ['cache-control', 'public, max-age=60'],
      ['content-type', 'application/json; charset=utf-8'],
    ]);
    expect(JSON.parse(answer.body)).toMatchObject({ sponsor: 'Pfizer', n_studies: 7, n_returned: 2 });
    expect(answer.upstreamFailure).toBeUndefined();
  });

  it('html without a sponsor is the search form (200, with the CSP); json without one is a 400 with usage', async () => {
    const page = await service.answer({}, BROWSER_ACCEPT);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<form method="get" role="search"');
    const json = await service.answer({ format: 'json' }, BROWSER_ACCEPT);
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body)).toMatchObject({ error: 'sponsor is required' });
    expect(json.headers['cache-control']).toBeUndefined();
  });

  it('an unreachable registry is a 503 value naming the failure for the log', async () => {
    const refused = new PipelineService({ baseUrl: await refusedBaseUrl(), timeoutMs: 2000 });
    const answer = await refused.answer({ sponsor: 'Pfizer', format: 'brief' }, undefined);
    expect(answer.status).toBe(503);
    expect(answer.upstreamFailure).toBe('unavailable');
    expect(JSON.parse(answer.body).error).toBe('ClinicalTrials.gov: the registry could not be reached');
  });
});
