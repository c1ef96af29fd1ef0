/**
 * The type-level analysis `types` of the real default store (VAX_TYPE codes as items): the
 * commands of docs/api.md on it answer 200, and FLU3 x Guillain-Barre syndrome in 2006 holds the 48
 * reports that the raw files give (test/ingest/mining/types-real.test.ts recomputes that count and PRR
 * 7.10 from the raw 2006 files). Skipped with a message without the default store.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { curlPaths } from '../helpers/recipes.js';
import { defaultApp } from '../helpers/default-app.js';
import { vaxTypeName } from '../../src/domain/vax-type-names.js';
import { hasDefaultStore } from '../helpers/default-store.js';

const present = hasDefaultStore('the types analysis of the default store');

describe.skipIf(!present)('the types analysis of the default store', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await defaultApp();
  }, 300_000);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (url: string): Promise<any> => {
    const res = await app.inject({ method: 'GET', url });
    expect([url, res.statusCode]).toEqual([url, 200]);
    return res.json();
  };

  it('runs the commands of docs/api.md on /analyses/types verbatim: 200 each', async () => {
    const urls = curlPaths('docs/api.md', '/analyses/types/').map((p) => new URL(p, 'http://127.0.0.1:8080'));
    expect(urls.length).toBe(2);
    for (const url of urls) await json(url.pathname + url.search);
  }, 120_000);

  it('FLU3 x Guillain-Barre syndrome: the 2006Q4 window has n 48; the 2006 case series holds 48 reports, by code or long name', async () => {
    const series = await json('/analyses/types/signals?vaccine=FLU3&event=Guillain-Barre+syndrome&format=series');
    expect([series.vaccine, series.vax_type]).toEqual(['FLU3', 'FLU3']);
    expect(series.quarters.find((q: { quarter: string }) => q.quarter === '2006Q4')).toMatchObject({ n: 48 });
    const cases = await json('/analyses/types/cases?vaccine=INFLUENZA+(SEASONAL)+TRIVALENT&event=Guillain-Barre+syndrome&from=2006Q1&to=2006Q4');
    expect([cases.n_reports, cases.vaccines]).toEqual([48, ['FLU3']]);
    const listing = await json('/analyses');
    expect(listing.analyses.find((a: { name: string }) => a.name === 'types')).toMatchObject({ items: 'vax_type_code', strata: 'sex,age6,year', reports: 203445 });
    const vaccines = await json('/analyses/types/vaccines');
    expect(vaccines.vaccines.find((v: { vaccine: string }) => v.vaccine === 'RV')).toMatchObject({ vax_type: 'RV', vax_type_codes: ['RV'], first_quarter: '1998Q4' });
    // Every entry names each code's long name from the committed table (data/vax-types/vax-types.csv), which covers every code of data/vaers.
    for (const listing of [vaccines, await json('/vaccines')]) {
      for (const v of listing.vaccines as Array<{ vaccine: string; vax_type_codes: string[]; vax_type_names: Array<string | null> }>) {
        expect(v.vax_type_names, v.vaccine).toEqual(v.vax_type_codes.map((code) => vaxTypeName(code)));
        expect(v.vax_type_names.every((name) => typeof name === 'string' && name.length > 0), v.vaccine).toBe(true);
      }
    }
  }, 120_000);
});
