/**
 * `text` on /cases and /analyses/NAME/cases, and the report view GET /reports/{vaers_id}, on the
 * hand-made fixture of test/serve/cases/fixture.ts with narratives written for the purpose (built
 * with --narratives by the real build, served by the real app). Every answer is worked by hand
 * from the texts below.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { HYPOTHESIS } from '../../../src/serve/query/caveats.js';
import { TEXT_USAGE } from '../../../src/serve/narratives/query.js';
import { CASE_NARRATIVES, ROTA, writeCaseFolder } from './fixture.js';

const TEXTS = CASE_NARRATIVES;

const dir = mkdtempSync(join(tmpdir(), 'cases-text-'));
let app: FastifyInstance;
let plain: FastifyInstance;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(url: string, on = app, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Record<string, unknown>; text: string }> {
  const res = await on.inject({ method: 'GET', url, headers });
  const json = (res.headers['content-type'] ?? '').toString().startsWith('application/json');
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : null, headers: res.headers, text: res.body };
}
const ids = async (url: string): Promise<number[]> => (await get(url)).body.reports.map((r: { vaers_id: number }) => r.vaers_id);

beforeAll(async () => {
  const vaers = await writeCaseFolder(join(dir, 'vaers'), TEXTS);
  await buildStore({ vaers, out: join(dir, 'text.parquet'), analyses: 'all,serious', workers: 1, narratives: true });
  await buildStore({ vaers, out: join(dir, 'plain.parquet'), analyses: 'all', workers: 1 });
  app = await buildApp({ storePath: join(dir, 'text.parquet') });
  plain = await buildApp({ storePath: join(dir, 'plain.parquet') });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await plain?.close();
});

describe('text on /cases', () => {
  it('whole words ignoring case; prefix; exclusion; phrase within one field; words across fields; diacritics; punctuation as plain text', async () => {
    expect(await ids('/cases?text=intussusception')).toEqual([102, 101]);
    expect(await ids('/cases?text=intussuscep*')).toEqual([106, 102, 101]);
    expect(await ids('/cases?text=intussuscep*+-enema')).toEqual([106, 101]);
    expect(await ids('/cases?text=%22guillain+barre%22')).toEqual([105]);
    expect(await ids('/cases?text=guillain+barre')).toEqual([107, 105]);
    expect(await ids('/cases?text=DIARRH%C3%89E')).toEqual([104]);
    expect(await ids('/cases?text=diarrhee')).toEqual([104]);
    expect(await ids('/cases?text=40%25_C')).toEqual([106]);
    expect(await ids('/cases?text=attorney')).toEqual([108, 103]);
    expect(await ids('/cases?text=premature')).toEqual([102]);
  });

  it('with vaccine, event, from/to and an analysis; the breakdowns count the matched reports', async () => {
    const { body, headers } = await get('/cases?vaccine=ROTAVIRUS&text=attorney');
    expect(body.reports.map((r: { vaers_id: number }) => r.vaers_id)).toEqual([103]);
    expect(body.vaccines).toEqual([ROTA]);
    expect(body.query).toEqual({ vaccine: 'ROTAVIRUS', event: null, q: null, text: 'attorney', from: null, to: null });
    expect(headers['x-total-count']).toBe('1');
    expect(body.breakdowns.sex).toEqual({ F: 0, M: 1, U: 0 });
    expect(await ids('/cases?event=Intussusception&text=intussuscep*')).toEqual([106, 102, 101]);
    expect(await ids('/cases?text=intussuscep*&from=2001Q1')).toEqual([106]);
    expect(await ids('/analyses/serious/cases?text=intussuscep*')).toEqual([106, 101]);
    expect(await ids('/cases?vaccine=ROTAVIRUS&text=guillain')).toEqual([]);
  });

  it('each listed report carries its snippet: the field of the first match, the text, the match positions', async () => {
    const { body } = await get('/cases?text=intussusception+target');
    expect(body.reports.map((r: { vaers_id: number }) => r.vaers_id)).toEqual([101]);
    expect(body.reports[0].snippet).toEqual({ field: 'SYMPTOM_TEXT', text: 'Intussusception on day 3; surgery.', matches: [{ start: 0, end: 15 }] });
    expect(body.reports[0].narrative).toBe('Intussusception on day 3; surgery.');
    expect((await get('/cases?text=target')).body.reports[0].snippet).toEqual({ field: 'LAB_DATA', text: 'Ultrasound: target sign', matches: [{ start: 12, end: 18 }] });
    expect((await get('/cases?vaccine=ROTAVIRUS')).body.reports[0].snippet).toBeUndefined();
  });

  it('format=csv carries the narrative and the snippet columns', async () => {
    const { text } = await get('/cases?text=attorney&format=csv');
    const rows = parse(text) as string[][];
    expect(rows[0].slice(-3)).toEqual(['narrative', 'snippet_field', 'snippet']);
    expect(rows.slice(1).map((r) => [r[0], ...r.slice(-3)])).toEqual([
      ['108', '', 'PRIOR_VAX', 'Rash after attorney visit'],
      ['103', 'Died. Attorney requested records.', 'SYMPTOM_TEXT', 'Died. Attorney requested records.'],
    ]);
  });

  it.each([
    ['ab', 'text must hold at least 3 letters or digits in the terms to find (got 2)'],
    ['-fever', 'text must hold at least one term to find, not only exclusions (-word)'],
    ['%22fever', 'text has an unbalanced quote: every " must be closed (got 1 quote)'],
    ['x'.repeat(201), 'text must be at most 200 characters (got 201)'],
    ['%25_%25', 'text must hold at least 3 letters or digits in the terms to find (got 0)'],
  ])('text=%s is a 400 Error object', async (text, message) => {
    const { status, body } = await get(`/cases?text=${text}`);
    expect(status).toBe(400);
    expect(body.error).toBe(message);
    expect(body.usage).toBe(TEXT_USAGE);
    expect(body.hypothesis).toBe(HYPOTHESIS);
    expect((await get(`/analyses/serious/cases?text=${text}`)).status).toBe(400);
  });

  it('a store without narratives: text is a 400 saying so; /cases without text is unchanged (no narrative field)', async () => {
    const { status, body } = await get('/cases?text=attorney', plain);
    expect(status).toBe(400);
    expect(body.error).toMatch(/keeps no narratives/);
    const listed = await get('/cases?vaccine=ROTAVIRUS', plain);
    expect(listed.body.reports[0].narrative).toBeUndefined();
  });
});

describe('GET /reports/{vaers_id}', () => {
  it('is documented in /openapi.json (schemas as data), text on /cases too', async () => {
    const doc = (await get('/openapi.json')).body;
    const op = doc.paths['/reports/{vaers_id}'].get;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '404', '503']));
    const schema = op.responses['200'].content['application/json'].schema;
    expect(schema.required).toContain('lab_data');
    expect(schema.required).toContain('todays_date');
    expect(schema.properties.events.items.required).toEqual(['term', 'version']);
    expect(doc.paths['/cases'].get.parameters.map((p: { name: string }) => p.name)).toContain('text');
  });

  it('JSON: the case series fields, every further field, vaccines, events with versions, analyses, caveat', async () => {
    const { status, body, headers } = await get('/reports/101');
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    expect(headers.etag).toMatch(/^W\/"[0-9a-f]{20}"$/);
    expect(body).toMatchObject({
      vaers_id: 101, received: '2000-01-10', quarter: '2000Q1', age_yrs: 0.3, sex: 'F', state: 'CA', serious: true, hospital: true,
      narrative: 'Intussusception on day 3; surgery.', lab_data: 'Ultrasound: target sign', history: null, cur_ill: null, other_meds: null, prior_vax: null,
      allergies: null, rpt_date: '2000-01-09', datedied: null, hospdays: 4, v_adminby: 'PVT', v_fundby: 'PUB', splttype: 'WAES0001', form_vers: null, todays_date: null,
      events: [{ term: 'Intussusception', version: '3.0' }, { term: 'Vomiting', version: '3.0' }],
      analyses: ['all', 'serious'], reports_through: '2001Q4', hypothesis: HYPOTHESIS,
    });
    expect(body.vaccines).toEqual([
      { name: ROTA, type: 'RV', manufacturer: 'WYETH', lot: 'A1', dose: '1', route: 'IM', site: 'LA' },
      { name: 'DTAP (TRIPEDIA)', type: 'DTAP', manufacturer: 'AVENTIS', lot: 'D1', dose: '1', route: 'IM', site: 'LA' },
    ]);
    expect((await get('/reports/102')).body.analyses).toEqual(['all']);
    expect((await get('/reports/103')).body.datedied).toBe('2000-05-01');
  });

  it('HTML for a browser or format=html, readable sections, escaped; JSON with format=json', async () => {
    const html = await get('/reports/106', app, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('<h1>VAERS report 106</h1>');
    expect(html.text).toContain('<p class="narrative">Fever 40%_C; intussusceptions ruled out</p>');
    expect(html.text).toContain('Intussusception <small>(MedDRA 3.0)</small>');
    expect(html.text).toContain(HYPOTHESIS);
    // One URL, two bodies chosen by Accept: a shared cache must key on Accept, and the ETags differ.
    const json = await get('/reports/106');
    expect([html.headers.vary, json.headers.vary]).toEqual(['Accept, Accept-Encoding', 'Accept, Accept-Encoding']);
    expect(html.headers.etag).not.toBe(json.headers.etag);
    expect((await get('/reports/106?format=html')).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/reports/106?format=json', app, { accept: 'text/html' })).body.vaers_id).toBe(106);
  });

  it('an unknown id is a 404, an id that is not a positive integer a 400, a bad format a 400; a store without narratives serves the report with null narratives', async () => {
    expect((await get('/reports/999')).status).toBe(404);
    expect((await get('/reports/999')).body.error).toBe('no report with VAERS_ID 999 in this store');
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3']) {
      const { status, body } = await get(`/reports/${bad}`);
      expect([bad, status]).toEqual([bad, 400]);
      expect(body.error).toMatch(/^vaers_id must be a positive integer/);
    }
    expect((await get('/reports/101?format=xml')).body.allowed).toEqual(['json', 'html']);
    expect((await get('/reports/101?foo=1')).status).toBe(400);
    const { body } = await get('/reports/108', plain);
    expect([body.vaers_id, body.narrative, body.prior_vax, body.analyses]).toEqual([108, null, null, ['all']]);
  });
});
