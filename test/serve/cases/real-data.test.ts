/**
 * /cases on the embedded default store (the real 1990-2006 files) against counts computed
 * independently from the raw files (test/helpers/raw-vaers.ts, no project code), for three known
 * pairs: RotaShield x Intussusception, Gardasil x Syncope, Dryvax x
 * Myocarditis; and /vaccines against the same count. Skipped with a message when ../shared/data/vaers or the store's report tables are absent.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { DEFAULT_STORE } from '../../helpers/default-store.js';
import { caseCounts, loadRawReports, quarterOf, type RawReport } from '../../helpers/raw-vaers.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const vaers = path.resolve(SHARED_DATA, 'vaers');
const present = existsSync(path.join(vaers, '2006VAERSDATA.csv.gz')) && DEFAULT_STORE !== null;
if (!present) console.warn(`/cases real-data test skipped: ${vaers} or the default store (data/vaers) is absent`);

const PAIRS: Array<[string, string]> = [
  ['ROTAVIRUS (ROTASHIELD)', 'Intussusception'],
  ['HPV (GARDASIL)', 'Syncope'],
  ['SMALLPOX (DRYVAX)', 'Myocarditis'],
];

describe.skipIf(!present)('/cases on the real 1990-2006 reports against an independent count', () => {
  let app: FastifyInstance;
  let raw: RawReport[];
  beforeAll(async () => {
    app = await defaultApp();
    raw = (await loadRawReports(vaers, Array.from({ length: 17 }, (_, i) => 1990 + i))).reports;
  }, 300_000);

  it.each(PAIRS)('%s x %s: n_reports, sex, age group, serious, deaths and years agree', async (vaccine, event) => {
    const expected = caseCounts(raw, { vaccines: [vaccine], events: [event] });
    expect(expected.reports).toBeGreaterThan(0);
    const res = await app.inject({ method: 'GET', url: `/cases?vaccine=${encodeURIComponent(vaccine)}&event=${encodeURIComponent(event)}&limit=500` });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.n_reports).toBe(expected.reports);
    const ids = new Set(expected.ids);
    expect(body.reports).toHaveLength(Math.min(500, expected.reports));
    for (const r of body.reports as Array<{ vaers_id: number }>) expect(ids.has(r.vaers_id), String(r.vaers_id)).toBe(true);
    const b = body.breakdowns;
    const bySex: Record<string, number> = expected.bySex;
    const byAgeGroup: Record<string, number> = expected.byAgeGroup;
    for (const sex of ['F', 'M', 'U']) expect(b.sex[sex], sex).toBe(bySex[sex] ?? 0);
    for (const [group, n] of Object.entries(b.age_group)) expect(n, group).toBe(byAgeGroup[group] ?? 0);
    expect(b.serious).toEqual({ serious: expected.serious, not_serious: expected.nonSerious });
    expect(b.outcomes.died).toBe(expected.died);
    for (const [year, n] of Object.entries(b.received_year)) expect(n, year).toBe(expected.byYear[Number(year)] ?? 0);
  });

  it('/vaccines: every vaccine name with its reports, first and latest quarter and VAX_TYPE codes as the raw files give them', async () => {
    const expected = new Map<string, { reports: number; first: string; latest: string; codes: Set<string> }>();
    for (const r of raw) {
      const quarter = quarterOf(r.recvdate!);
      for (const name of r.vaccines) {
        const e = expected.get(name) ?? { reports: 0, first: quarter, latest: quarter, codes: new Set<string>() };
        e.reports++;
        if (quarter < e.first) e.first = quarter;
        if (quarter > e.latest) e.latest = quarter;
        expected.set(name, e);
      }
    }
    const body = JSON.parse((await app.inject('/vaccines')).body);
    expect(body.vaccines.map((v: { vaccine: string }) => v.vaccine).sort()).toEqual([...expected.keys()].sort());
    for (const v of body.vaccines) {
      const e = expected.get(v.vaccine)!;
      expect([v.vaccine, v.reports, v.first_quarter, v.latest_quarter]).toEqual([v.vaccine, e.reports, e.first, e.latest]);
    }
    const rota = body.vaccines.find((v: { vaccine: string }) => v.vaccine === 'ROTAVIRUS (ROTASHIELD)');
    expect(rota.vax_type_codes).toContain('RV');
  });

  it('/vaccines: flagged_pairs and emerging_pairs of every vaccine are those /signals serves', async () => {
    const body = JSON.parse((await app.inject('/vaccines')).body);
    let checked = 0;
    for (const v of body.vaccines) {
      const pairs: Array<{ vaccine: string; emerging: boolean }> = [];
      for (let offset = 0; ; offset += 500) {
        const res = await app.inject(`/signals?vaccine=${encodeURIComponent(v.vaccine)}&limit=500&offset=${offset}`);
        expect(res.statusCode, v.vaccine).toBe(200);
        pairs.push(...JSON.parse(res.body));
        if (offset + 500 >= Number(res.headers['x-total-count'])) break;
      }
      const own = pairs.filter((p) => p.vaccine === v.vaccine);
      expect(own.length, v.vaccine).toBe(v.flagged_pairs);
      expect(own.filter((p) => p.emerging).length, v.vaccine).toBe(v.emerging_pairs);
      if (v.flagged_pairs > 0) checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('/analyses/stratified/vaccines: flagged and emerging pairs are those of /analyses/stratified/signals', async () => {
    const body = JSON.parse((await app.inject('/analyses/stratified/vaccines')).body);
    expect(body.analysis).toBe('stratified');
    const flagged = body.vaccines.filter((v: { flagged_pairs: number }) => v.flagged_pairs > 0);
    expect(flagged.length).toBeGreaterThan(30);
    for (const v of flagged.slice(0, 30)) {
      const pairs: Array<{ vaccine: string; emerging: boolean }> = [];
      for (let offset = 0; ; offset += 500) {
        const res = await app.inject(`/analyses/stratified/signals?vaccine=${encodeURIComponent(v.vaccine)}&limit=500&offset=${offset}`);
        pairs.push(...JSON.parse(res.body));
        if (offset + 500 >= Number(res.headers['x-total-count'])) break;
      }
      const own = pairs.filter((p) => p.vaccine === v.vaccine);
      expect([v.vaccine, own.length, own.filter((p) => p.emerging).length]).toEqual([v.vaccine, v.flagged_pairs, v.emerging_pairs]);
    }
  });
});
