/**
 * Text search and the report view on the real 1990-2006 default store (built once per run by
 * test/global-setup.ts; it keeps the narratives),
 * against the raw VAERSDATA files read here without project code (gunzip, iconv-lite
 * Windows-1252, csv-parse; fields folded NFKD without marks, lower case; one regular expression
 * per query). Skipped with a message when ../shared/data/vaers or such a store is absent.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { curlPaths } from '../../helpers/recipes.js';
import { defaultApp } from '../../helpers/default-app.js';
import { hasDefaultStore } from '../../helpers/default-store.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { rawCsvRecords } from '../../helpers/raw-csv.js';

const vaers = path.resolve(SHARED_DATA, 'vaers');
const YEARS = Array.from({ length: 17 }, (_, i) => 1990 + i);

const haveData = YEARS.every((year) => existsSync(path.join(vaers, `${year}VAERSDATA.csv.gz`)));
if (!haveData) console.warn(`text search real-data test skipped: ${vaers} lacks the 1990-2006 <YEAR>VAERSDATA.csv.gz files`);
const haveStore = haveData && hasDefaultStore('text search real-data test');

const COLUMNS = ['SYMPTOM_TEXT', 'LAB_DATA', 'HISTORY', 'CUR_ILL', 'OTHER_MEDS', 'PRIOR_VAX'];
type Row = Record<string, string>;

/** Every report's raw row (first row per integer VAERS_ID). */
function rawRows(): Map<number, Row> {
  const out = new Map<number, Row>();
  for (const year of YEARS) {
    for (const row of rawCsvRecords(path.join(vaers, `${year}VAERSDATA.csv.gz`))) {
      const id = row.VAERS_ID.trim();
      if (/^\d+$/.test(id) && !out.has(Number(id))) out.set(Number(id), row);
    }
  }
  return out;
}

const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const wordRe = (words: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])${words.split(' ').join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`, 'u');
const holds = (row: Row, words: string): boolean => COLUMNS.some((c) => wordRe(words).test(fold(row[c] ?? '')));
const iso = (cell: string): string | null => {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(cell.trim());
  return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : null;
};
const blankNull = (cell: string | undefined): string | null => (cell === undefined || cell.trim() === '' ? null : cell);

describe.skipIf(!haveStore)('text search and the report view on the real 1990-2006 store', () => {
  let app: FastifyInstance;
  let raw: Map<number, Row>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (url: string): Promise<any> => JSON.parse((await app.inject({ method: 'GET', url })).body);
  /** Every VAERS_ID a /cases query lists (all pages). */
  async function listed(query: string): Promise<number[]> {
    const out: number[] = [];
    for (let offset = 0; ; offset += 500) {
      const body = await json(`/cases?${query}&limit=500&offset=${offset}`);
      out.push(...body.reports.map((r: { vaers_id: number }) => r.vaers_id));
      if (offset + 500 >= body.n_reports) return out;
    }
  }

  beforeAll(async () => {
    raw = rawRows();
    app = await defaultApp();
  }, 600_000);

  it.each([['intussusception', 'intussusception'], ['%22guillain+barre%22', 'guillain barre'], ['attorney', 'attorney']])(
    'text=%s lists exactly the kept reports whose raw narratives hold it', async (text, words) => {
      const found = (await listed(`text=${text}`)).sort((a, b) => a - b);
      const expected = [...raw].filter(([, row]) => holds(row, words)).map(([id]) => id).sort((a, b) => a - b);
      expect(expected.length).toBeGreaterThan(100);
      // The store keeps the reports with a vaccine and a readable RECVDATE: every one found is in the scan,
      // and every one of the scan not found is not in the store.
      const inScan = new Set(expected);
      expect(found.filter((id) => !inScan.has(id))).toEqual([]);
      const missing = expected.filter((id) => !new Set(found).has(id));
      for (const id of missing.slice(0, 20)) expect([id, (await app.inject({ method: 'GET', url: `/reports/${id}` })).statusCode]).toEqual([id, 404]);
      expect(missing.length).toBeLessThan(expected.length / 50);
    }, 300_000);

  it('RotaShield x Intussusception: the reports whose text mentions intussusception are those of the pair that the scan finds', async () => {
    const pair = await listed('vaccine=ROTAVIRUS&event=Intussusception');
    const withText = await listed('vaccine=ROTAVIRUS&event=Intussusception&text=intussusception');
    expect(withText).toEqual(pair.filter((id) => holds(raw.get(id)!, 'intussusception')));
    expect(pair.length).toBeGreaterThan(100);
    expect(withText.length).toBeGreaterThan(pair.length / 2);
  }, 300_000);

  it('the /cases text and /reports commands of docs/api.md answer 200 on this store', async () => {
    const urls = curlPaths('docs/api.md', '/').filter((p) => /^\/(?:cases\?.*text=|reports\/)/.test(p)).map((p) => new URL(p, 'http://127.0.0.1:8080'));
    expect(urls.length).toBe(4);
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url: url.pathname + url.search });
      expect([url.pathname + url.search, res.statusCode]).toEqual([url.pathname + url.search, 200]);
    }
  }, 120_000);

  it('/reports/{id} of three reports gives their raw fields', async () => {
    const ids = [(await listed('text=attorney'))[0], (await listed('text=%22guillain+barre%22'))[0], (await listed('text=intussusception'))[0]];
    for (const id of ids) {
      const row = raw.get(id)!;
      const body = await json(`/reports/${id}`);
      expect(body.vaers_id).toBe(id);
      expect({ narrative: body.narrative, lab_data: body.lab_data, history: body.history, cur_ill: body.cur_ill, other_meds: body.other_meds, prior_vax: body.prior_vax })
        .toEqual({ narrative: blankNull(row.SYMPTOM_TEXT), lab_data: blankNull(row.LAB_DATA), history: blankNull(row.HISTORY), cur_ill: blankNull(row.CUR_ILL),
          other_meds: blankNull(row.OTHER_MEDS), prior_vax: blankNull(row.PRIOR_VAX) });
      expect({ received: body.received, rpt_date: body.rpt_date, datedied: body.datedied, v_adminby: body.v_adminby, v_fundby: body.v_fundby, splttype: body.splttype })
        .toEqual({ received: iso(row.RECVDATE), rpt_date: iso(row.RPT_DATE), datedied: iso(row.DATEDIED), v_adminby: blankNull(row.V_ADMINBY)?.trim() ?? null,
          v_fundby: blankNull(row.V_FUNDBY)?.trim() ?? null, splttype: blankNull(row.SPLTTYPE)?.trim() ?? null });
      expect(body.hospdays).toBe(row.HOSPDAYS.trim() === '' ? null : Number(row.HOSPDAYS));
      expect(body.analyses).toContain('all');
    }
  }, 300_000);
});
