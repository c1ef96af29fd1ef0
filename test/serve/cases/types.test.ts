/**
 * The case series and vaccine listing of type-level analyses (`types`, `serious@types`: items
 * are VAERS VAX_TYPE codes) on a hand-made fixture of seven reports, built by the real build and
 * served by the real app. The case series of a code is every report with a VAX row of that code,
 * whatever its product: `INFLUENZA (SEASONAL) (NO BRAND NAME)` is coded FLU3 on report 305 and
 * FLUX on report 306, so FLU3's series holds 305 and not 306 (the product-level /cases, which
 * expands FLU3 to the products seen with it, holds both). Every count is worked from the table below.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCaseFolder, type CaseFixture } from './fixture.js';

const FZ = 'INFLUENZA (SEASONAL) (FLUZONE)';
const FV = 'INFLUENZA (SEASONAL) (FLUVIRIN)';
const FM = 'INFLUENZA (SEASONAL) (FLUMIST)';
const NB = 'INFLUENZA (SEASONAL) (NO BRAND NAME)';
const HB = 'HEP B (ENGERIX-B)';
const GBS = 'Guillain-Barre syndrome';

const report = (id: number, month: number, age: string, sex: string, outcomes: string[], vaccines: Array<[string, string]>, events: string[]): CaseFixture => ({
  id, recvdate: `${String(month).padStart(2, '0')}/10/2000`, age, sex, state: 'CA', outcomes, numdays: '1',
  vaccines: vaccines.map(([name, code], k) => [name, code, 'MAKER', `L${id}${k}`, '1']), events,
});

/** id: VAX rows (product, code); events. 301 names two FLU3 products (FLU3 once). Serious: 301 (HOSPITAL), 304 (DIED). */
const REPORTS: CaseFixture[] = [
  report(301, 1, '70', 'F', ['HOSPITAL'], [[FZ, 'FLU3'], [FV, 'FLU3']], [GBS]),
  report(302, 2, '65', 'M', [], [[FZ, 'FLU3']], [GBS, 'Fever']),
  report(303, 3, '10', 'F', [], [[FM, 'FLUN3']], ['Fever']),
  report(304, 4, '30', 'M', ['DIED'], [[HB, 'HEP'], [FV, 'FLU3']], ['Rash']),
  report(305, 5, '50', 'F', [], [[NB, 'FLU3']], ['Pain']),
  report(306, 6, '40', 'M', [], [[NB, 'FLUX']], ['Pain']),
  report(307, 7, '20', 'F', [], [[HB, 'HEP']], ['Rash']),
];

const dir = mkdtempSync(join(tmpdir(), 'cases-types-'));
let app: FastifyInstance;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(url: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
}

const ids = (body: { reports: Array<{ vaers_id: number }> }): number[] => body.reports.map((r) => r.vaers_id);

beforeAll(async () => {
  app = await serveCaseFolder(dir, {}, 'all,types,serious@types', REPORTS);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('type-level analyses on the hand-made fixture', () => {
  it('GET /analyses records each analysis\'s items', async () => {
    const { body } = await get('/analyses');
    expect(body.analyses.map((a: { name: string; items: string; reports: number }) => [a.name, a.items, a.reports]))
      .toEqual([['all', 'vaccine', 7], ['types', 'vax_type_code', 7], ['serious@types', 'vax_type_code', 2]]);
  });

  it('the case series of a code: every report with a VAX row of that code (301, 302, 304, 305; not 306, whose NO BRAND NAME row is FLUX)', async () => {
    const { status, body, headers } = await get('/analyses/types/cases?vaccine=FLU3');
    expect(status).toBe(200);
    expect(headers['x-reports-analysis']).toBe('types');
    expect([body.n_reports, body.vaccines, ids(body)]).toEqual([4, ['FLU3'], [305, 304, 302, 301]]);
    // The product-level series expands FLU3 to the products seen with it, NO BRAND NAME included.
    expect(ids((await get('/cases?vaccine=FLU3')).body)).toEqual([306, 305, 304, 302, 301]);
  });

  it('the long name matches like the code, ignoring case; q reaches long names by substring', async () => {
    expect(ids((await get('/analyses/types/cases?vaccine=influenza+(seasonal)+trivalent')).body)).toEqual([305, 304, 302, 301]);
    // "trivalent": FLU3 (INFLUENZA (SEASONAL) TRIVALENT) and FLUN3 (... TRIVALENT LIVE INTRANASAL).
    const q = (await get('/analyses/types/cases?q=trivalent')).body;
    expect([q.vaccines.sort(), ids(q)]).toEqual([['FLU3', 'FLUN3'], [305, 304, 303, 302, 301]]);
  });

  it('a pair: FLU3 x Guillain-Barre syndrome is 302 and 301; the co-administered vaccines leave out FLU3\'s own products', async () => {
    const { body } = await get(`/analyses/types/cases?vaccine=FLU3&event=${encodeURIComponent(GBS)}`);
    expect([body.n_reports, ids(body)]).toEqual([2, [302, 301]]);
    expect(body.breakdowns.co_vaccines).toEqual({ top: [], other: 0 });
    const rash = (await get('/analyses/types/cases?vaccine=FLU3&event=Rash')).body;
    expect([ids(rash), rash.breakdowns.co_vaccines.top]).toEqual([[304], [{ name: HB, reports: 1 }]]);
  });

  it('serious@types restricts to the serious reports (the name with @ as is or encoded)', async () => {
    expect(ids((await get('/analyses/serious@types/cases?vaccine=FLU3')).body)).toEqual([304, 301]);
    expect(ids((await get('/analyses/serious%40types/cases?vaccine=FLU3')).body)).toEqual([304, 301]);
  });

  it('GET /analyses/types/vaccines lists the codes, each its own vax_type, with the reports naming it', async () => {
    const { status, body } = await get('/analyses/types/vaccines');
    expect(status).toBe(200);
    expect(body.vaccines.map((v: { vaccine: string; vax_type: string; vax_type_codes: string[]; reports: number }) => [v.vaccine, v.vax_type, v.vax_type_codes, v.reports]))
      .toEqual([['FLU3', 'FLU3', ['FLU3'], 4], ['FLUN3', 'FLUN3', ['FLUN3'], 1], ['FLUX', 'FLUX', ['FLUX'], 1], ['HEP', 'HEP', ['HEP'], 2]]);
    expect(body.vaccines[0]).toMatchObject({ first_quarter: '2000Q1', latest_quarter: '2000Q2' });
    // The long names: the committed table's (data/vax-types/vax-types.csv).
    expect(body.vaccines.map((v: { vax_type_names: Array<string | null> }) => v.vax_type_names))
      .toEqual([['INFLUENZA (SEASONAL) TRIVALENT'], ['INFLUENZA (SEASONAL) TRIVALENT LIVE INTRANASAL'], ['INFLUENZA (SEASONAL) UNKNOWN FORMULATION'], ['HEP B']]);
  });

  it('GET /analyses/types/signals answers with the /signals contract; an unknown modifier is a 404 naming the analyses', async () => {
    const signals = await get('/analyses/types/signals?vaccine=FLU3');
    expect(signals.status).toBe(200);
    expect(Array.isArray(signals.body)).toBe(true);
    const unknown = await get('/analyses/serious@nope/cases?vaccine=FLU3');
    expect(unknown.status).toBe(404);
    expect(unknown.body.allowed).toEqual(['all', 'types', 'serious@types']);
  });

  it('GET /reports/301 names the type-level analyses that keep it', async () => {
    expect((await get('/reports/301')).body.analyses).toEqual(['all', 'types', 'serious@types']);
  });
});
