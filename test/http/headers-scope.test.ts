/**
 * Spec 4.1 / 5 / 9 header scope: the X-REPORTS-* headers belong to the signals service (every
 * /signals answer and the app's own routes); /pipeline is a separate service with its own
 * caveat and carries none of them; CORS `*` is on every answer. No network: /pipeline is asked
 * without a sponsor (a 400 before any upstream call). The /signals tests run at both places
 * the /signals contract is served (SIGNALS_PATHS: /signals and /analyses/NAME/signals).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPipelinePath } from '../../src/http/app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { fixtureApp, SIGNALS_PATHS } from './helpers.js';

describe.each(SIGNALS_PATHS)('GET $path: the X-REPORTS-* headers', ({ path, analyses, analysis }) => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp({ analyses }); });
  afterAll(async () => { await app.close(); });

  it('/signals (200 and 400) and /healthz carry X-REPORTS-Build and X-REPORTS-Hypothesis; the /signals answers X-REPORTS-Analysis', async () => {
    for (const url of [`${path}?vaccine=COVID19`, `${path}?format=label`, '/healthz']) {
      const res = await app.inject(url);
      expect(res.headers['x-reports-build'], url).toMatch(/^api-[0-9a-f]{12} src-/);
      expect(res.headers['x-reports-hypothesis'], url).toBe(HYPOTHESIS);
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
      expect(res.headers['x-reports-analysis'], url).toBe(url === '/healthz' ? undefined : analysis);
    }
  });
});

describe('X-REPORTS-* on the signals service only; CORS everywhere', () => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp(); });
  afterAll(async () => { await app.close(); });

  it('/pipeline carries no X-REPORTS-* header, and CORS *', async () => {
    const res = await app.inject('/pipeline?format=json');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('x-reports-'))).toEqual([]);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('isPipelinePath matches the /pipeline resource only', () => {
    expect(['/pipeline', '/pipeline?sponsor=x', '/pipeline/'].map(isPipelinePath)).toEqual([true, true, true]);
    expect(['/pipelines', '/signals?q=/pipeline', '/'].map(isPipelinePath)).toEqual([false, false, false]);
  });
});
