/**
 * GET /signals on the default store (built from data/vaers, VAERS 1990-2006, by the test run's
 * global setup; spec 4.1, 2.1, 7). Skipped with a message when data/vaers is absent. No quarter of 1990-2006 lies in the COVID era.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../helpers/default-app.js';
import { hasDefaultStore } from '../helpers/default-store.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { PAIR_FIELDS } from '../../src/serve/signals/pair.js';
import { getJson } from './helpers.js';

const present = hasDefaultStore('default-store /signals tests');

describe.skipIf(!present)('spec 4.1 on the embedded default store (1990-2006)', () => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await defaultApp(); });

  it('ROTAVIRUS (ROTASHIELD) x Intussusception is served, with the 2.1 fields and no COVID-era flags', async () => {
    const { status, body, res } = await getJson(app, '/signals?vaccine=ROTAVIRUS+(ROTASHIELD)&event=Intussusception');
    expect(status).toBe(200);
    expect(body.length).toBe(1);
    expect(Object.keys(body[0])).toEqual(PAIR_FIELDS);
    expect(body[0]).toMatchObject({ vaccine: 'ROTAVIRUS (ROTASHIELD)', vax_type: 'ROTAVIRUS', event: 'Intussusception', peak_in_covid_era: false, background_note: null });
    expect(body[0].n_methods_max).toBeGreaterThanOrEqual(2);
    expect(res.headers['x-reports-through']).toMatch(/^200[0-6]Q[1-4]$/);
    expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
  });

  it('the vaccine type ROTAVIRUS expands to its products; event substring; series; every format answers 200', async () => {
    const byType = (await getJson(app, '/signals?vaccine=rotavirus&limit=500')).body;
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((p: { vax_type: string }) => p.vax_type === 'ROTAVIRUS')).toBe(true);
    const sub = (await getJson(app, '/signals?event=intussus')).body;
    expect(sub.some((p: { event: string }) => p.event === 'Intussusception')).toBe(true);
    const series = (await getJson(app, '/signals?vaccine=ROTAVIRUS+(ROTASHIELD)&event=Intussusception&format=series')).body;
    expect(series.quarters.length).toBeGreaterThan(0);
    const quarters = series.quarters.map((q: { quarter: string }) => q.quarter);
    expect([...quarters].sort()).toEqual(quarters);
    for (const format of ['json', 'csv', 'profile', 'brief', 'class']) {
      expect((await app.inject(`/signals?q=rota&format=${format}`)).statusCode).toBe(200);
    }
  });

  it('sorting is stable and pages concatenate; unknown names give []', async () => {
    const full = (await getJson(app, '/signals?event=pain&limit=100&sort=n')).body;
    const a = (await getJson(app, '/signals?event=pain&limit=50&sort=n')).body;
    const b = (await getJson(app, '/signals?event=pain&limit=50&offset=50&sort=n')).body;
    expect([...a, ...b]).toEqual(full);
    for (let i = 1; i < full.length; i++) expect(full[i - 1].n).toBeGreaterThanOrEqual(full[i].n);
    expect((await getJson(app, '/signals?vaccine=NO+SUCH+VACCINE')).body).toEqual([]);
  });

  it('spec 4.1 event: pain, Pain and PAIN select the exact term Pain alike; a substring reaches more terms', async () => {
    const total = async (url: string) => Number((await app.inject(url)).headers['x-total-count']);
    const exact = await total('/signals?event=Pain');
    expect(exact).toBeGreaterThan(0);
    expect(await total('/signals?event=pain')).toBe(exact);
    expect(await total('/signals?event=PAIN')).toBe(exact);
    expect((await getJson(app, '/signals?event=pain&limit=500')).body.every((p: { event: string }) => p.event === 'Pain')).toBe(true);
    expect(await total('/signals?event=ain')).toBeGreaterThan(exact);
  });
});
