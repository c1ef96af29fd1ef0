/**
 * Readiness per analysis and the honest wait (src/http/readiness.ts, health.ts, explorer.ts,
 * live-store.ts): while the default store is built, /readyz lists every analysis as building and
 * an analysis's route answers 503 with the Error object (the caveat) and Retry-After; while it
 * loads from the cache, /readyz, the resources and the explorer page say "loading", never "being
 * built"; a first store loaded `early` serves its default analysis before the others.
 */
import { describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { buildServedApp } from '../../src/http/app.js';
import { analysesReadiness } from '../../src/http/readiness.js';
import { writeFixtureStore } from '../serve/signals/fixture.js';
import { getJson } from './helpers.js';

const NAMES = ['all', 'stratified', 'serious'];

describe('readiness per analysis', () => {
  it('building: /readyz 503 lists every analysis as building with phase k of n and the time left; a route answers 503 with the caveat and Retry-After', async () => {
    const { app, live } = await buildServedApp({ storePath: null, analysisNames: NAMES });
    try {
      live.preparing = { state: 'building', phase: 'count all', percent: 45, step: 3, steps: 23, phaseLeft: 12, left: 130, pid: process.pid, since: Date.now() - 65_000 };
      const ready = await getJson(app, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.res.headers['retry-after']).toBe('10');
      expect(ready.body).toMatchObject({
        state: 'building', building: true, builder: 'this process', phase: 'count all', step: 3, steps: 23, percent: 45, left_seconds: 130,
        analyses: { ready: [], loading: [], building: NAMES }, hypothesis: HYPOTHESIS,
      });
      expect(ready.body.error).toMatch(/^the data is being prepared: the default store is being built from the official VAERS files \(phase 3 of 23: count all, 45%; started 1 min \d\d s ago, about 2 min 10 s left\); retry in a few seconds$/);
      const route = await getJson(app, '/analyses/serious/signals?vaccine=ROTAVIRUS');
      expect(route.status).toBe(503);
      expect(route.res.headers['retry-after']).toBe('10');
      expect(route.body).toMatchObject({ hypothesis: HYPOTHESIS });
      expect(route.body.error).toMatch(/is being built/);
      const page = await app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('<h2>The data is being prepared: the default store is being built</h2>');
    } finally {
      await app.close();
    }
  });

  it('loading from the cache: /readyz, the resources and the explorer page say loading, never "being built"', async () => {
    const { app, live } = await buildServedApp({ storePath: null, analysisNames: NAMES });
    try {
      live.preparing = { state: 'loading', phase: 'load', percent: 0, step: 1, steps: 1, left: null, pid: process.pid, since: Date.now() };
      const ready = await getJson(app, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ state: 'loading', phase: 'load', analyses: { ready: [], loading: NAMES, building: [] } });
      expect(ready.body).not.toHaveProperty('building');
      expect(ready.body.error).toMatch(/^the data is being prepared: the default store is loading from the cache, nothing is built \(phase 1 of 1: load, 0%; started \d+ s ago\)/);
      const route = await getJson(app, '/signals?vaccine=ROTAVIRUS');
      expect(route.status).toBe(503);
      expect(route.body.error).toContain('loading from the cache');
      expect(route.body.error).not.toContain('being built');
      const page = await app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('<h2>The data is loading</h2>');
      expect(page.body).not.toContain('being built');
    } finally {
      await app.close();
    }
  });

  it('only the first analysis served while the others are built: it answers 200; the others, /triage (stratified) and /readyz answer 503 with Retry-After; then ready', async () => {
    const path = await writeFixtureStore(); // one analysis, all: what the build writes first (build.ts firstAnalysis)
    const { app, live } = await buildServedApp({ storePath: null, analysisNames: NAMES });
    try {
      live.preparing = { state: 'building', phase: 'fit serious', percent: 40, step: 14, steps: 29, left: 60, pid: process.pid, since: Date.now() - 70_000 };
      live.building = ['stratified', 'serious'];
      expect((await live.reload(path, { early: true })).ok).toBe(true);
      const signals = await getJson(app, '/signals?vaccine=ROTAVIRUS');
      expect(signals.status).toBe(200);
      expect((await getJson(app, '/analyses/all/signals?vaccine=ROTAVIRUS')).status).toBe(200);
      for (const url of ['/analyses/serious/signals?vaccine=ROTAVIRUS', '/analyses/stratified', '/triage', '/analyses/serious/triage']) {
        const route = await getJson(app, url);
        expect(route.status, url).toBe(503);
        expect(route.res.headers['retry-after'], url).toBe('10');
        expect(route.body, url).toMatchObject({ hypothesis: HYPOTHESIS });
        expect(route.body.error, url).toMatch(/^analysis (serious|stratified) is being built \(phase 14 of 29: fit serious, 40%\): the default store's first analysis \(all\) answers meanwhile; retry in a few seconds$/);
      }
      expect((await getJson(app, '/analyses/nonsense/signals')).status).toBe(404); // not being built: unknown
      const ready = await getJson(app, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.res.headers['retry-after']).toBe('10');
      expect(ready.body).toMatchObject({ state: 'building', building: true, phase: 'fit serious', step: 14, steps: 29, analyses: { ready: ['all'], loading: [], building: ['stratified', 'serious'] } });
      expect(ready.body.error).toBe('the default store is being built: its first analysis (all) answers now; stratified, serious are being built (phase 14 of 29: fit serious); retry in a few seconds');
      // The full store is served: nothing is building any more.
      live.building = [];
      live.preparing = null;
      expect((await getJson(app, '/readyz')).status).toBe(200);
      expect((await getJson(app, '/analyses/serious/signals')).status).toBe(404); // this fixture has no serious analysis
    } finally {
      await app.close();
    }
  });

  it('a first store loaded early: its default analysis is served before /readyz says ready, then every analysis is ready', async () => {
    const path = await writeFixtureStore({ analyses: true });
    const { app, live } = await buildServedApp({ storePath: null, analysisNames: NAMES });
    try {
      live.preparing = { state: 'loading', phase: 'load', percent: 0, pid: process.pid, since: Date.now() };
      const loading = live.reload(path, { early: true });
      while (!live.current) await new Promise((resolve) => setTimeout(resolve, 1));
      // Served at once: the default analysis is loaded (early swaps in only then), the rest may still load.
      expect(analysesReadiness(live, NAMES).ready[0]).toBe('all');
      const signals = await getJson(app, '/signals?vaccine=ROTAVIRUS');
      expect(signals.status).toBe(200);
      const result = await loading;
      expect(result.ok).toBe(true);
      expect(analysesReadiness(live, NAMES)).toEqual({ ready: NAMES, loading: [], building: [] });
      live.preparing = null;
      const ready = await getJson(app, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.analyses).toEqual(NAMES);
    } finally {
      await app.close();
    }
  });
});
