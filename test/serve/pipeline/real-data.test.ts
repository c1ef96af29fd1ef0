/**
 * /pipeline against real ClinicalTrials.gov API v2 responses recorded in
 * ../shared/data/ctgov (SOURCES.md): (a) the fake registry serves the union of every recorded
 * study object and evaluates our queries on them; (b) recorded pages are replayed verbatim
 * (real page tokens, totalCount only on page 1, a real empty result, a real 400 body).
 * Skipped with a message when the shared data is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REGISTRY_CAVEAT } from '../../../src/serve/query/caveats.js';
import { FakeCtgov } from './fake-ctgov.js';
import { ids, pipelineApp } from './helpers.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const CTGOV = path.resolve(SHARED_DATA, 'ctgov');
const present = existsSync(path.join(CTGOV, 'SOURCES.md'));
if (!present) console.warn(`pipeline real-data tests skipped: ${CTGOV} not found`);

const read = (name: string): string => readFileSync(path.join(CTGOV, name), 'utf8');
type Study = { protocolSection?: { identificationModule?: { nctId?: string }; sponsorCollaboratorsModule?: { leadSponsor?: { name?: string }; collaborators?: { name: string }[] } } };
const nctOf = (s: Study) => s.protocolSection?.identificationModule?.nctId ?? '';
const leadOf = (s: Study) => s.protocolSection?.sponsorCollaboratorsModule?.leadSponsor?.name ?? '';

/** Every recorded study object (listing pages and single records), richest copy per NCT id. */
function recordedStudies(): Study[] {
  const byId = new Map<string, Study>();
  for (const file of readdirSync(CTGOV)) {
    if (!file.endsWith('.json') || !(file.startsWith('studies_') || file.startsWith('study_'))) continue;
    const body = JSON.parse(read(file)) as { studies?: Study[] } & Study;
    for (const s of file.startsWith('study_') ? [body] : (body.studies ?? [])) {
      const prev = byId.get(nctOf(s));
      if (!prev || JSON.stringify(s).length > JSON.stringify(prev).length) byId.set(nctOf(s), s);
    }
  }
  return [...byId.values()];
}

describe.skipIf(!present)('GET /pipeline on real recorded registry data (shared/data/ctgov)', () => {
  let fake: FakeCtgov;
  let app: FastifyInstance;
  let studies: Study[];

  beforeAll(async () => {
    fake = await FakeCtgov.start();
    studies = recordedStudies();
    app = await pipelineApp(fake.baseUrl);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.studies = studies;
  });

  it('"Merck Sharp & Dohme" as lead: exactly the recorded studies led by Merck Sharp & Dohme LLC', async () => {
    const expected = studies.filter((s) => leadOf(s) === 'Merck Sharp & Dohme LLC').map(nctOf);
    expect(expected.length).toBe(4);
    const body = (await app.inject({ url: '/pipeline?sponsor=Merck%20Sharp%20%26%20Dohme&status=ALL' })).json();
    expect(ids(body).sort()).toEqual(expected.sort());
    expect(body.n_studies).toBe(4);
    expect(body.n_rejected).toBe(0);
  });

  it('"Merck" as a family name also matches a lead name containing the word Merck (whole words, documented)', async () => {
    const body = (await app.inject({ url: '/pipeline?sponsor=Merck&status=ALL' })).json();
    const leads = new Set(body.studies.map((s: { lead_sponsor: string }) => s.lead_sponsor));
    expect([...leads].sort()).toEqual(['Merck Sharp & Dohme LLC', 'Oncoimmune, Inc., a subsidiary of Merck & Co., Inc. (Rahway, New Jersey USA)']);
  });

  it('Pfizer as collaborator: the PALLAS record (lead Alliance Foundation Trials), role collaborator', async () => {
    const body = (await app.inject({ url: '/pipeline?sponsor=pfizer&role=collaborator&status=ALL' })).json();
    expect(body.studies).toEqual([
      {
        nct_id: 'NCT02513394',
        title: expect.any(String),
        role: 'collaborator',
        lead_sponsor: 'Alliance Foundation Trials, LLC.',
        overall_status: 'ACTIVE_NOT_RECRUITING',
        phases: ['PHASE3'],
        start_date: expect.any(String),
        url: 'https://clinicaltrials.gov/study/NCT02513394',
      },
    ]);
    expect(body.n_studies).toBe(1);
  });

  it('Sanofi with role any: lead on one study, collaborator (of Regeneron) on another', async () => {
    const body = (await app.inject({ url: '/pipeline?sponsor=Sanofi&role=any&status=ALL' })).json();
    const roles = Object.fromEntries(body.studies.map((s: { nct_id: string; role: string }) => [s.nct_id, s.role]));
    expect(roles).toEqual({ NCT04394624: 'lead', NCT02210780: 'collaborator' });
    expect(body.status_counts).toEqual({ TERMINATED: 1, COMPLETED: 1 });
  });

  it('brief and html render real rows with the caveat', async () => {
    const brief = (await app.inject({ url: '/pipeline?sponsor=Merck%20Sharp%20%26%20Dohme&status=ALL&format=brief' })).body;
    expect(brief).toContain(REGISTRY_CAVEAT);
    expect(brief.match(/^\| \[NCT\d{8}\]/gm)).toHaveLength(4);
    const html = (await app.inject({ url: '/pipeline?sponsor=Merck%20Sharp%20%26%20Dohme&status=ALL&format=html' })).body;
    expect(html).toContain('Merck Sharp &amp; Dohme LLC');
    expect(html.match(/<tr><th scope="row">/g)).toHaveLength(4);
  });

  it('replayed real pages: pageToken from page 1 is sent, totalCount is read from page 1 only', async () => {
    const page1 = read('studies_query-cond_PhelanMcDermid_pageSize5_countTotal_page1_biomcp.json');
    const page2 = read('studies_query-cond_PhelanMcDermid_pageSize5_countTotal_page2_pageToken_biomcp.json');
    fake.replay = [page1, page2];
    const body = (await app.inject({ url: '/pipeline?sponsor=Icahn%20School%20of%20Medicine%20at%20Mount%20Sinai&status=ALL&limit=2' })).json();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1].get('pageToken')).toBe(JSON.parse(page1).nextPageToken);
    expect(ids(body)).toEqual(['NCT01525901', 'NCT05187377']);
    // The replay ignores the query, so the local whole-word check rejects the 4 other rows of page 1.
    expect(body.n_rejected).toBe(4);
    expect(body.n_studies).toBe(21 - 4);
  });

  it('a real empty answer (totalCount 0): 200 with n_studies 0', async () => {
    fake.replay = [read('studies_filter-advanced_AREA-LeadSponsorName-COVERAGE-FullMatch_Merck-bare_EMPTY_countTotal_cheiron-akkikens.json')];
    const res = await app.inject({ url: '/pipeline?sponsor=Merck' });
    expect(res.statusCode).toBe(200);
    expect(res.json().n_studies).toBe(0);
  });

  it('a real 400 text/plain body of the API: 502 without trial identifiers', async () => {
    const manifest = JSON.parse(read('manifest_fullmatch-recordings_incl-400-error-bodies_cheiron-akkikens.json')) as {
      rejected_spellings: { http_status: number; content_type: string; body_prefix: string }[];
    };
    for (const r of manifest.rejected_spellings) {
      fake.replay = [{ status: r.http_status, body: r.body_prefix, type: r.content_type }];
      const res = await app.inject({ url: '/pipeline?sponsor=Merck' });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('ClinicalTrials.gov: the registry answered with HTTP status 400');
      expect(res.body).not.toMatch(/NCT\d/);
    }
  });
});
