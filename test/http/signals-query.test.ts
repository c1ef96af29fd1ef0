/**
 * GET /signals over the fixture store: matching (spec 4.1 vaccine, drug, event, q), min_eb05 /
 * min_n (spec 4.1), sorting, order, paging, headers (spec 4.1 response headers), at both places
 * the /signals contract is served (SIGNALS_PATHS: /signals and /analyses/NAME/signals).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { GARDASIL9, MODERNA, PFIZER, RASH, SHINGRIX, TENIVAC, ZOSTAVAX } from '../serve/signals/fixture.js';
import { fixtureApp, getJson, keys, SIGNALS_PATHS } from './helpers.js';

describe.each(SIGNALS_PATHS)('GET $path', ({ path, analyses, analysis }) => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp({ analyses }); });
  afterAll(async () => { await app.close(); });

  describe('spec 4.1 matching', () => {
    it('vaccine: an exact name', async () => {
      const { body } = await getJson(app, `${path}?vaccine=${encodeURIComponent(ZOSTAVAX)}`);
      expect(keys(body)).toEqual([`${ZOSTAVAX}|Herpes zoster`]);
    });

    it('vaccine: the exact type COVID19 expands to every product of that type (case-insensitive)', async () => {
      for (const v of ['COVID19', 'covid19']) {
        const { body } = await getJson(app, `${path}?vaccine=${v}`);
        expect(new Set(body.map((p: { vaccine: string }) => p.vaccine))).toEqual(new Set([PFIZER, MODERNA]));
        expect(body).toHaveLength(3);
      }
    });

    it('vaccine: a VAERS VAX_TYPE abbreviation (HPV9, td) expands to its products, case-insensitive', async () => {
      expect((await getJson(app, `${path}?vaccine=HPV9`)).body.every((p: { vaccine: string }) => p.vaccine === GARDASIL9)).toBe(true);
      expect((await getJson(app, `${path}?vaccine=hpv9`)).body).toHaveLength(4);
      expect((await getJson(app, `${path}?vaccine=td`)).body.map((p: { vaccine: string }) => p.vaccine)).toEqual([TENIVAC, TENIVAC, TENIVAC]);
    });

    it('vaccine is not a substring search: a partial name is an unknown vaccine (200, [])', async () => {
      const { status, body } = await getJson(app, `${path}?vaccine=SHINGR`);
      expect([status, body]).toEqual([200, []]);
    });

    it('drug is an alias of vaccine; identical values are accepted', async () => {
      const a = await app.inject(`${path}?drug=ZOSTER`);
      const b = await app.inject(`${path}?vaccine=ZOSTER&drug=ZOSTER`);
      const c = await app.inject(`${path}?vaccine=ZOSTER`);
      expect(a.body).toBe(c.body);
      expect(b.body).toBe(c.body);
    });

    it('"+" in the query string is a space', async () => {
      const { body } = await getJson(app, `${path}?event=Herpes+zoster`);
      expect(keys(body)).toEqual([`${SHINGRIX}|Herpes zoster`, `${ZOSTAVAX}|Herpes zoster`]);
    });

    it('event: an exact preferred term selects only that term', async () => {
      expect(keys((await getJson(app, `${path}?event=Syncope`)).body)).toEqual([`${GARDASIL9}|Syncope`]);
    });

    it('event: a case-insensitive substring of at least 3 characters', async () => {
      const { body } = await getJson(app, `${path}?event=SYNCOP&sort=n`);
      expect(keys(body)).toEqual([`${GARDASIL9}|Syncope vasovagal`, `${GARDASIL9}|Syncope`]);
      expect(keys((await getJson(app, `${path}?event=myo`)).body)).toHaveLength(2);
    });

    it('event: the exact-term test ignores case (a value equal to a term selects that term only)', async () => {
      for (const v of ['Pain', 'pain', 'PAIN', '+pAiN+']) {
        expect(keys((await getJson(app, `${path}?event=${v}`)).body), v).toEqual([`${TENIVAC}|Pain`]);
      }
      for (const v of ['syncope', 'SYNCOPE']) expect(keys((await getJson(app, `${path}?event=${v}`)).body), v).toEqual([`${GARDASIL9}|Syncope`]);
      // not equal to a term: the substring rule
      expect(new Set(keys((await getJson(app, `${path}?event=ain`)).body))).toEqual(new Set([`${TENIVAC}|Injection site pain`, `${TENIVAC}|Pain`]));
    });

    it('q: its event part uses the same case-insensitive exact-term test', async () => {
      for (const v of ['Pain', 'pain', 'PAIN']) expect(keys((await getJson(app, `${path}?q=${v}`)).body), v).toEqual([`${TENIVAC}|Pain`]);
      expect(new Set(keys((await getJson(app, `${path}?q=PAI`)).body))).toEqual(new Set([`${TENIVAC}|Injection site pain`, `${TENIVAC}|Pain`]));
    });

    it('event: a 2-character exact term is not too short', async () => {
      expect(keys((await getJson(app, `${path}?event=MS`)).body)).toEqual([`${GARDASIL9}|MS`]);
      expect(keys((await getJson(app, `${path}?event=ms`)).body)).toEqual([`${GARDASIL9}|MS`]);
    });

    it('vaccine and event together: pairs of both', async () => {
      const { body } = await getJson(app, `${path}?vaccine=COVID19&event=myocarditis`);
      expect(keys(body)).toEqual([`${PFIZER}|Myocarditis`, `${MODERNA}|Myocarditis`]);
    });

    it('q: union of vaccine matches and event matches', async () => {
      const { body } = await getJson(app, `${path}?q=zoster`);
      expect(new Set(keys(body))).toEqual(new Set([`${SHINGRIX}|Herpes zoster`, `${ZOSTAVAX}|Herpes zoster`]));
      const union = await getJson(app, `${path}?q=ain`);
      expect(new Set(keys(union.body))).toEqual(new Set([`${TENIVAC}|Injection site pain`, `${TENIVAC}|Pain`]));
      const byType = await getJson(app, `${path}?q=hpv9`);
      expect(byType.body).toHaveLength(4);
    });

    it('q is ignored when vaccine or event is given', async () => {
      const a = await app.inject(`${path}?vaccine=ZOSTER&q=covid19`);
      expect(a.body).toBe((await app.inject(`${path}?vaccine=ZOSTER`)).body);
    });

    it('spec 7: an unknown vaccine or event is 200 with an empty list', async () => {
      for (const url of [`${path}?vaccine=NOSUCHVACCINE`, `${path}?event=Nosuchterm`, `${path}?q=zzzzzz`, `${path}?vaccine=COVID19&event=Syncope`]) {
        const { status, body, res } = await getJson(app, url);
        expect([status, body, res.headers['x-total-count']]).toEqual([200, [], '0']);
      }
    });
  });

  describe('spec 4.1 min_eb05 / min_n: after the aggregate, before the total', () => {
    it('min_eb05 keeps pairs whose eb05 is at least the value; a null eb05 does not pass', async () => {
      const { body, res } = await getJson(app, `${path}?vaccine=COVID19&min_eb05=0`);
      expect(keys(body)).toEqual([`${PFIZER}|Myocarditis`, `${MODERNA}|Myocarditis`]);
      expect(res.headers['x-total-count']).toBe('2');
      expect(keys((await getJson(app, `${path}?vaccine=COVID19&min_eb05=4.5`)).body)).toEqual([`${PFIZER}|Myocarditis`]);
      expect(keys((await getJson(app, `${path}?vaccine=COVID19&min_eb05=5`)).body)).toEqual([`${PFIZER}|Myocarditis`]);
    });

    it('min_n keeps pairs whose n is at least the value, and X-Total-Count counts after it', async () => {
      const { body, res } = await getJson(app, `${path}?vaccine=COVID19&min_n=85&limit=1`);
      expect(keys(body)).toEqual([`${PFIZER}|Myocarditis`]);
      expect(res.headers['x-total-count']).toBe('2'); // Pfizer 85 and Moderna Pyrexia 90
    });
  });

  describe('spec 4.1 sort, order, limit, offset', () => {
    it('default sort eb05 desc; nulls last; ties by vaccine then event', async () => {
      const { body } = await getJson(app, `${path}?q=HPV9&limit=500`);
      expect(keys(body)).toEqual([`${GARDASIL9}|Syncope`, `${GARDASIL9}|Syncope vasovagal`, `${GARDASIL9}|MS`, `${GARDASIL9}|${RASH}`]);
      const covid = await getJson(app, `${path}?vaccine=COVID19`);
      expect(covid.body.at(-1).eb05).toBeNull();
      const asc = await getJson(app, `${path}?vaccine=COVID19&order=asc`);
      expect(keys(asc.body)).toEqual([`${MODERNA}|Myocarditis`, `${PFIZER}|Myocarditis`, `${MODERNA}|Pyrexia`]); // null still last
    });

    it('ties across vaccines: eb05 3 for Gardasil 9 (Syncope, Syncope vasovagal) and Zostavax, by vaccine then event', async () => {
      const { body } = await getJson(app, `${path}?event=syncop&order=asc`);
      expect(keys(body)).toEqual([`${GARDASIL9}|Syncope`, `${GARDASIL9}|Syncope vasovagal`]);
      const hz = await getJson(app, `${path}?q=o&vaccine=ZOSTER&order=asc`);
      expect(keys(hz.body)).toEqual([`${ZOSTAVAX}|Herpes zoster`, `${SHINGRIX}|Herpes zoster`]);
    });

    it('sort=n and sort=latest, both orders, ties by vaccine then event', async () => {
      const n = await getJson(app, `${path}?vaccine=HPV9&sort=n&order=asc`);
      expect(keys(n.body)).toEqual([`${GARDASIL9}|MS`, `${GARDASIL9}|${RASH}`, `${GARDASIL9}|Syncope`, `${GARDASIL9}|Syncope vasovagal`]);
      const latest = await getJson(app, `${path}?vaccine=td&sort=latest`);
      expect(keys(latest.body)).toEqual([`${TENIVAC}|Injection site pain`, `${TENIVAC}|Pain`, `${TENIVAC}|Erythema`]);
      const latestAsc = await getJson(app, `${path}?vaccine=HPV9&sort=latest&order=asc`);
      expect(keys(latestAsc.body)).toEqual([`${GARDASIL9}|MS`, `${GARDASIL9}|${RASH}`, `${GARDASIL9}|Syncope`, `${GARDASIL9}|Syncope vasovagal`]);
    });

    it('limit and offset page through the same order; X-Total-Count is before paging', async () => {
      const full = (await getJson(app, `${path}?vaccine=HPV9`)).body;
      const pages = [];
      for (let offset = 0; offset < 4; offset += 3) {
        const { body, res } = await getJson(app, `${path}?vaccine=HPV9&limit=3&offset=${offset}`);
        expect([res.headers['x-total-count'], res.headers['x-limit'], res.headers['x-offset']]).toEqual(['4', '3', String(offset)]);
        pages.push(...body);
      }
      expect(pages).toEqual(full);
      expect((await getJson(app, `${path}?vaccine=HPV9&offset=10`)).body).toEqual([]);
    });

    it('defaults: limit 50, offset 0 (headers)', async () => {
      const { res } = await getJson(app, `${path}?vaccine=HPV9`);
      expect([res.headers['x-limit'], res.headers['x-offset']]).toEqual(['50', '0']);
    });
  });

  describe('spec 4.1 response headers on every 200', () => {
    it('X-Total-Count, X-Limit, X-Offset, X-REPORTS-Through, X-REPORTS-Build, X-REPORTS-Hypothesis, X-REPORTS-Analysis, Cache-Control, for every format', async () => {
      for (const format of ['json', 'csv', 'series', 'profile', 'brief', 'class']) {
        const res = await app.inject(`${path}?vaccine=COVID19&event=Myocarditis&format=${format}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-total-count']).toBe('2');
        expect(res.headers['x-limit']).toBe('50');
        expect(res.headers['x-offset']).toBe('0');
        expect(res.headers['x-reports-through']).toBe('2023Q4');
        expect(res.headers['x-reports-build']).toMatch(/^api-[0-9a-f]{12} src-\S+$/);
        expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
        expect(res.headers['x-reports-analysis']).toBe(analysis);
        expect(res.headers['cache-control']).toBe('public, max-age=60');
        expect(res.headers['access-control-allow-origin']).toBe('*');
      }
    });
  });
});
