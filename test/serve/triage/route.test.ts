/**
 * GET /triage and GET /analyses/NAME/triage over the fixture store (test/serve/triage/fixture.ts):
 * the order (artefact cautions after the others, then score), the reasons and cautions with
 * their figures, novelty, the filters, csv, and the 400/404 answers.
 */
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { HYPOTHESIS } from '../../../src/serve/query/caveats.js';
import { getJson, keys } from '../../http/helpers.js';
import { writeExplorerStore } from '../../explorer/fixture.js';
import { plainWindow, writeTriageStore } from './fixture.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ storePath: await writeTriageStore() });
});
afterAll(async () => app.close());

const codes = (notes: Array<{ code: string }>): string[] => notes.map((n) => n.code);

describe('GET /triage', () => {
  it('ranks the latest window\'s flagged pairs: artefact cautions last, never hidden', async () => {
    const { status, body, res } = await getJson(app, '/triage');
    expect(status).toBe(200);
    expect(res.headers['x-reports-analysis']).toBe('all');
    expect([res.headers['x-total-count'], res.headers['x-limit'], res.headers['x-offset'], res.headers['x-reports-through']]).toEqual(['10', '50', '0', '2006Q4']);
    expect(body.analysis).toBe('all');
    expect(body.quarter).toBe('2006Q4');
    expect(body.hypothesis).toBe(HYPOTHESIS);
    expect(body.note).toMatch(/does not assess causality/);
    expect(body.total).toBe(10); // 11 pairs, ROTASHIELD x Vomiting folded under x Intussusception (group=signal)
    expect(body.group).toBe('signal');
    // Scores by hand (evidence weight w = min(1, max(0, EB05 - 1)) on new, serious, onset, documented):
    // ROTASHIELD log2(2.5) + 4 * 0.25 + new 1 + serious 0.9 + onset 1 + 0.5 * 0.6 = 5.522;
    // MMR x Fever log2(2.1) + 0.5 + new 1 - few 0.5 = 2.070; VARIVAX x Herpes zoster log2(2.2) + 0.75 = 1.888;
    // FLUZONE x Haematemesis (EB05 0.7, w 0): 0.5 - few 0.5 = 0; then the artefacts by score:
    // FLUARIX log2(5) + 1 + new 1 = 4.322, LYMERIX log2(5) + 1 = 3.322, ENGERIX-B log2(4) + 1 = 3,
    // POLIOVAX log2(1.7) + 0.5 + 0.7 * (1 + 0.9 + 0.3) = 2.806, VARIVAX x Varicella log2(3) + 1 = 2.585, CERTIVA log2(3) + 0.75 = 2.335.
    expect(keys(body.pairs)).toEqual([
      'ROTAVIRUS (ROTASHIELD)|Intussusception', 'MMR|Fever', 'VARICELLA (VARIVAX)|Herpes zoster', 'INFLUENZA (SEASONAL) (FLUZONE)|Haematemesis',
      'INFLUENZA (SEASONAL) (FLUARIX)|Skin irritation', 'LYMERIX|Arthritis', 'HEP B (ENGERIX-B)|Wrong drug administered',
      'POLIO VIRUS, INACT. (POLIOVAX)|Intussusception', 'VARICELLA (VARIVAX)|Varicella', 'DTAP (CERTIVA)|Nervous system disorder',
    ]);
    expect(body.pairs.map((p: { score: number }) => p.score)).toEqual([5.522, 2.07, 1.888, 0, 4.322, 3.322, 3, 2.806, 2.585, 2.335]);
    const [rota, fever, , , , lymerix, engerix, , , certiva] = body.pairs;
    expect(codes(rota.reasons)).toEqual(['strong_disproportionality', 'new', 'serious', 'onset_clustered', 'well_documented']);
    expect(rota.cautions).toEqual([]);
    expect(rota.new).toBe(true);
    expect(rota.first_flagged).toBe('2006Q3');
    expect(rota.vax_type).toBe('ROTAVIRUS');
    expect(rota.reasons[2].text).toBe('90% of the 12 reports are serious (1 deaths).');
    expect(rota.onset).toEqual({ n: 10, median_days: 4, vs_other_vaccines: { d: 0.2, p: 0.001, n: 200 }, vs_other_events: { d: 0.2, p: 0.0001, n: 300 }, comparator_min: 10, note: null });
    expect(rota.related_events).toEqual([{ event: 'Vomiting', n: 30, overlap: 0.8, via: null }]);
    expect(codes(fever.cautions)).toEqual(['few_reports']);
    expect(codes(lymerix.cautions)).toEqual(['late_reports']);
    expect(lymerix.cautions[0].text).toBe('Median 700 days from onset to receipt (quartiles 450 to 900; 40 of 40 reports with an onset date), over 365; from vaccination to receipt: median 800 days (quartiles 500 to 1000; 90% over 365 days).');
    expect(lymerix.new).toBe(false);
    expect(lymerix.lag).toEqual({ median_days: 800, q1_days: 500, q3_days: 1000, share_over_365: 0.9, from_onset: { n: 40, median_days: 700, q1_days: 450, q3_days: 900 } });
    expect(codes(engerix.cautions)).toEqual(['non_clinical_term']);
    expect(engerix.term_category).toBe('medication_error');
    expect(codes(certiva.cautions)).toEqual(['legal_reports']);
    expect(certiva.legal_share).toBe(0.8);
  });

  it('a window whose fit is on a bound says so; caution=exclude drops the artefacts, caution=only keeps just them', async () => {
    const q3 = (await getJson(app, '/triage?quarter=2006Q3')).body;
    expect(keys(q3.pairs)).not.toContain('MMR|Fever');
    for (const p of q3.pairs) expect(codes(p.cautions)).toContain('fit_at_bound');
    const excluded = (await getJson(app, '/triage?caution=exclude')).body;
    expect(excluded.total).toBe(4);
    expect(keys(excluded.pairs)).toEqual(['ROTAVIRUS (ROTASHIELD)|Intussusception', 'MMR|Fever', 'VARICELLA (VARIVAX)|Herpes zoster', 'INFLUENZA (SEASONAL) (FLUZONE)|Haematemesis']);
    const only = (await getJson(app, '/triage?caution=only')).body;
    expect(only.total).toBe(6);
    const all = keys((await getJson(app, '/triage')).body.pairs);
    expect(keys(only.pairs)).toEqual(all.slice(4)); // the artefacts, in their rank order after the others
    const bad = await app.inject({ url: '/triage?caution=some' });
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'caution must be include, exclude or only (got "some")']);
  });

  it('filters as /signals matches, pages, and answers CSV', async () => {
    expect(keys((await getJson(app, '/triage?vaccine=MMR')).body.pairs)).toEqual(['MMR|Fever']);
    expect(keys((await getJson(app, '/triage?event=intussusception')).body.pairs)).toEqual(['ROTAVIRUS (ROTASHIELD)|Intussusception', 'POLIO VIRUS, INACT. (POLIOVAX)|Intussusception']);
    expect((await getJson(app, '/triage?q=rota')).body.total).toBe(1);
    const page = (await getJson(app, '/triage?limit=2&offset=1')).body;
    expect(page.total).toBe(10);
    expect(keys(page.pairs)).toEqual(['MMR|Fever', 'VARICELLA (VARIVAX)|Herpes zoster']);
    const csv = await app.inject({ url: '/triage?format=csv&limit=2' });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0].split(',').slice(0, 4)).toEqual(['rank', 'vaccine', 'vax_type', 'event']);
    expect(lines[1]).toMatch(/^1,ROTAVIRUS \(ROTASHIELD\),ROTAVIRUS,Intussusception,12,12,2.5,/);
    expect(lines[0].split(',')[13]).toBe('related_events');
    expect(lines[1]).toContain(',Vomiting (30),');
    expect(lines).toHaveLength(3);
  });

  it('answers bad input with a 400 Error object and an unknown analysis with 404', async () => {
    for (const url of ['/triage?quarter=2006-4', '/triage?limit=0', '/triage?limit=501', '/triage?offset=-1', '/triage?format=xml', '/triage?caution=maybe', '/triage?group=pairs', '/triage?nope=1', '/triage?limit=1&limit=2', '/triage?event=ab']) {
      const { status, body } = await getJson(app, url);
      expect(status, url).toBe(400);
      expect(body.hypothesis).toBe(HYPOTHESIS);
      expect(typeof body.error).toBe('string');
    }
    const missing = await getJson(app, '/analyses/nope/triage');
    expect(missing.status).toBe(404);
    expect(missing.body.allowed).toEqual(['all']);
    const named = await getJson(app, '/analyses/all/triage?limit=1');
    expect(named.status).toBe(200);
    expect(named.body.pairs).toHaveLength(1);
  });

  it('a store without the build\'s evidence (an import) says so and still ranks by disproportionality', async () => {
    const imported = await buildApp({ storePath: await writeExplorerStore() });
    try {
      const { status, body } = await getJson(imported, '/triage?quarter=2021Q4&limit=1');
      expect(status).toBe(200);
      expect(body.evidence_note).toMatch(/no triage evidence/);
      expect(body.pairs[0].lag).toEqual({ median_days: null, q1_days: null, q3_days: null, share_over_365: null, from_onset: { n: null, median_days: null, q1_days: null, q3_days: null } });
      expect(body.total).toBeGreaterThan(0);
    } finally {
      await imported.close();
    }
  });

  it('revalidates as /signals: a weak ETag per store build and normalised query, 304 on If-None-Match, brotli on request', async () => {
    const first = await app.inject({ method: 'GET', url: '/triage?limit=3' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{20}"$/);
    expect(first.headers.vary).toBe('Accept-Encoding');
    // The same query written differently (order, default spelled out) is the same answer and tag.
    const same = await app.inject({ method: 'GET', url: '/triage?caution=include&limit=3&offset=0' });
    expect(same.headers.etag).toBe(etag);
    expect(same.body).toBe(first.body);
    const other = await app.inject({ method: 'GET', url: '/triage?limit=2' });
    expect(other.headers.etag).not.toBe(etag);
    const analysis = await app.inject({ method: 'GET', url: '/analyses/all/triage?limit=3' });
    expect(analysis.body).toBe(first.body);
    const revalidated = await app.inject({ method: 'GET', url: '/triage?limit=3', headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers['x-total-count']).toBe('10');
    const br = await app.inject({ method: 'GET', url: '/triage', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8')).total).toBe(10);
  });

  it('a quarter outside the analysis\'s quarters is a 400 naming them (issue 35: a typo such as 9999Q4 is not an empty queue)', async () => {
    for (const quarter of ['1999Q1', '9999Q4', '0000Q1', '1990Q1', '2004Q4', '2007Q1']) {
      for (const path of ['/triage', '/analyses/all/triage']) {
        const { status, body } = await getJson(app, `${path}?quarter=${quarter}`);
        expect(status, `${path} ${quarter}`).toBe(400);
        expect(body).toEqual({ error: `quarter "${quarter}" is outside the quarters of analysis all: 2005Q1 to 2006Q4`, hypothesis: HYPOTHESIS, usage: expect.stringContaining('/triage?quarter=') });
      }
    }
    for (const quarter of ['2005Q1', '2006Q4']) expect((await getJson(app, `/triage?quarter=${quarter}`)).status, quarter).toBe(200);
    // The bounds hold in CSV too: the Error object, not an empty table.
    expect((await app.inject('/triage?quarter=9999Q4&format=csv')).headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the triage windows: one read per window and store generation (issue 28: no store read per request; issue 29: a cold window reads one window)', () => {
  it('each window is read at its first request, alone, with the rows and first flagged quarters of the whole analysis; a later request answers from memory', async () => {
    const { buildServedApp } = await import('../../../src/http/app.js');
    const { readTriageWindows } = await import('../../../src/serve/store/triage-rows.js');
    const path = await writeTriageStore();
    const served = await buildServedApp({ storePath: path });
    try {
      const generation = served.live.current!;
      await generation.complete;
      const analysis = generation.triageAnalysis;
      const all = await readTriageWindows(path, analysis);
      expect(all.range).toEqual({ first: expect.stringMatching(/^\d{4}Q[1-4]$/), last: '2006Q4' });
      expect(all.windows.size).toBeGreaterThan(1);
      expect((await getJson(served.app, '/triage?limit=1')).status).toBe(200);
      const last = generation.triageWindow(analysis, null);
      expect((await last).windows.size).toBe(1);
      expect(plainWindow((await last).windows.get('2006Q4'))).toEqual(plainWindow(all.windows.get('2006Q4')));
      for (const quarter of [...all.windows.keys()]) {
        const { status, body } = await getJson(served.app, `/triage?quarter=${quarter}&group=none&limit=500`);
        expect(status, quarter).toBe(200);
        expect(body.total, quarter).toBe(all.windows.get(quarter)!.rows.length);
        const one = await generation.triageWindow(analysis, quarter);
        expect([...one.windows.keys()], quarter).toEqual([quarter]);
        expect(plainWindow(one.windows.get(quarter)), quarter).toEqual(plainWindow(all.windows.get(quarter))); // first_flagged as the whole analysis's
        expect(one.range).toEqual(all.range);
      }
      // Read once: the same read answers again.
      expect(generation.triageWindow(analysis, null)).toBe(last);
    } finally {
      await served.app.close();
    }
  });
});
