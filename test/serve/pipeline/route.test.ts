import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REGISTRY_CAVEAT } from '../../../src/serve/query/caveats.js';
import { STATUS_VALUES } from '../../../src/serve/pipeline/params.js';
import { FakeCtgov, refusedBaseUrl, apiStudy } from './fake-ctgov.js';
import { BROWSER_ACCEPT, FIXTURE_STUDIES, HOSTILE_TITLE, ids, pipelineApp, writeFixture } from './helpers.js';

let fake: FakeCtgov;
let app: FastifyInstance;

beforeAll(async () => {
  fake = await FakeCtgov.start(writeFixture());
  app = await pipelineApp(fake.baseUrl, 300);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});
beforeEach(() => fake.reset());

async function getJson(url: string) {
  const res = await app.inject({ method: 'GET', url });
  return { res, body: res.json() };
}

const ONGOING_LEAD = ['NCT00000001', 'NCT00000002', 'NCT00000004', 'NCT00000005', 'NCT00000007', 'NCT00000010', 'NCT00000014'];

describe('GET /pipeline sponsor matching (spec 4.2: trimmed, family name, not expanded)', () => {
  it('"Pfizer" matches "Pfizer" and "Pfizer Inc." as lead, never Pfizerville or Wyeth', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=%20%20Pfizer%20&status=ALL');
    expect(res.statusCode).toBe(200);
    expect(body.sponsor).toBe('Pfizer');
    expect(ids(body).sort()).toEqual(['NCT00000001', 'NCT00000002', 'NCT00000003', 'NCT00000004', 'NCT00000005', 'NCT00000006', 'NCT00000007', 'NCT00000010', 'NCT00000014']);
    expect(body.n_studies).toBe(9);
    expect(body.studies.every((s: { role: string }) => s.role === 'lead')).toBe(true);
  });

  it('sends the sponsor upstream as an exact-word Essie phrase with only the needed fields', async () => {
    await getJson('/pipeline?sponsor=Merck%20Sharp%20%26%20Dohme&status=ALL');
    const q = fake.requests[0];
    expect(q.get('filter.advanced')).toBe('AREA[LeadSponsorName]EXPANSION[Term]"merck sharp dohme"');
    expect(q.get('fields')).toBe('NCTId,BriefTitle,OverallStatus,Phase,LeadSponsorName,StartDate');
    expect(q.get('countTotal')).toBe('true');
    expect(q.has('filter.overallStatus')).toBe(false);
  });

  it('unknown sponsor: 200 with n_studies 0 (spec 7 Pipeline)', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Nonexistent%20Pharma');
    expect(res.statusCode).toBe(200);
    expect(body.n_studies).toBe(0);
    expect(body.studies).toEqual([]);
    expect(body.phase_counts).toEqual({});
  });

  it('a sponsor with no letters or digits is an unknown sponsor, without an upstream request', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=%26%26%26');
    expect(res.statusCode).toBe(200);
    expect(body.n_studies).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('rows the registry matched loosely (plural variant) are rejected locally and n_studies says so', async () => {
    fake.studies.push(apiStudy({ nct: 'NCT00000013', lead: 'Pfizers Lab', status: 'RECRUITING', phases: ['PHASE2'] }));
    try {
      const { body } = await getJson('/pipeline?sponsor=Pfizer');
      expect(ids(body)).toEqual(ONGOING_LEAD);
      expect(body.n_rejected).toBe(1);
      expect(body.n_studies).toBe(7);
      expect(body.notes.join(' ')).toMatch(/1 registry rows did not name the sponsor/);
    } finally {
      fake.studies.pop();
    }
  });
});

describe('GET /pipeline role (spec 4.2, 2.6: each row states the role; n_studies counts the same role)', () => {
  it('lead (default): lead sponsor only', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer');
    expect(body.role).toBe('lead');
    expect(ids(body)).toEqual(ONGOING_LEAD);
    expect(body.n_studies).toBe(7);
  });

  it('collaborator: collaborator and not lead (NCT00000010 has Pfizer as both and is excluded)', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&role=collaborator&status=ALL');
    expect(ids(body)).toEqual(['NCT00000009', 'NCT00000012']);
    expect(body.n_studies).toBe(2);
    expect(body.studies.map((s: { role: string }) => s.role)).toEqual(['collaborator', 'collaborator']);
    expect(body.studies[1].lead_sponsor).toBe('Merck Sharp & Dohme LLC');
    expect(fake.requests[0].get('fields')).toContain('CollaboratorName');
    expect(fake.requests[0].get('filter.advanced')).toBe(
      '(AREA[CollaboratorName]EXPANSION[Term]"pfizer" AND NOT AREA[LeadSponsorName]EXPANSION[Term]"pfizer")',
    );
  });

  it('any: lead or collaborator, each row saying which', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&role=ANY');
    expect(body.role).toBe('any');
    expect(body.n_studies).toBe(8);
    const roles = Object.fromEntries(body.studies.map((s: { nct_id: string; role: string }) => [s.nct_id, s.role]));
    expect(roles.NCT00000009).toBe('collaborator');
    expect(roles.NCT00000010).toBe('lead');
    expect(Object.keys(roles).sort()).toEqual([...ONGOING_LEAD, 'NCT00000009'].sort());
  });

  it('unknown role: 400 with allowed', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Pfizer&role=sponsor');
    expect(res.statusCode).toBe(400);
    expect(body.allowed).toEqual(['lead', 'collaborator', 'any']);
    expect(typeof body.hypothesis).toBe('string');
  });
});

describe('GET /pipeline status (spec 4.2: none = ongoing, ALL = every status, else registry values)', () => {
  it('absent: the four ongoing statuses, sent upstream as filter.overallStatus', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer');
    expect(body.status).toEqual(['RECRUITING', 'NOT_YET_RECRUITING', 'ACTIVE_NOT_RECRUITING', 'ENROLLING_BY_INVITATION']);
    expect(fake.requests[0].get('filter.overallStatus')).toBe('RECRUITING,NOT_YET_RECRUITING,ACTIVE_NOT_RECRUITING,ENROLLING_BY_INVITATION');
    expect(body.status_counts).toEqual({ RECRUITING: 4, NOT_YET_RECRUITING: 1, ACTIVE_NOT_RECRUITING: 1, ENROLLING_BY_INVITATION: 1 });
  });

  it('ALL (any case) includes completed and stopped trials', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&status=all');
    expect(body.status).toBe('ALL');
    expect(body.status_counts.COMPLETED).toBe(1);
    expect(body.status_counts.TERMINATED).toBe(1);
  });

  it('comma-separated registry values, case-insensitive', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&status=completed,%20Terminated');
    expect(body.status).toEqual(['COMPLETED', 'TERMINATED']);
    expect(ids(body)).toEqual(['NCT00000003', 'NCT00000006']);
    expect(body.n_studies).toBe(2);
  });

  it('unknown value: 400 with allowed = ALL and the 14 registry statuses', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Pfizer&status=ONGOING');
    expect(res.statusCode).toBe(400);
    expect(body.allowed).toEqual(['ALL', ...STATUS_VALUES]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('GET /pipeline phase (registry values and 1,2,3,4,early1,na)', () => {
  it('phase=3 keeps PHASE3 studies; sent upstream as AREA[Phase]', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&phase=3');
    expect(body.phase).toEqual(['PHASE3']);
    expect(ids(body)).toEqual(['NCT00000001', 'NCT00000010']);
    expect(body.phase_counts).toEqual({ PHASE3: 2 });
    expect(fake.requests[0].get('filter.advanced')).toBe('AREA[LeadSponsorName]EXPANSION[Term]"pfizer" AND (AREA[Phase]PHASE3)');
  });

  it('a PHASE1/PHASE2 study matches phase=2; counts key combined phases', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&phase=phase2');
    expect(ids(body)).toEqual(['NCT00000002', 'NCT00000014']);
    expect(body.phase_counts).toEqual({ 'PHASE1/PHASE2': 1, PHASE2: 1 });
  });

  it('early1 and na aliases, duplicates merged', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&phase=early1,NA,EARLY_PHASE1');
    expect(body.phase).toEqual(['EARLY_PHASE1', 'NA']);
    expect(ids(body)).toEqual(['NCT00000005', 'NCT00000007']);
  });

  it('phase and status counts cover only the studies in the response (spec 2.6)', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&status=ALL&limit=3');
    expect(body.n_studies).toBe(9);
    expect(body.n_returned).toBe(3);
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(sum(body.phase_counts)).toBe(3);
    expect(sum(body.status_counts)).toBe(3);
    expect(body.phase_counts).toEqual({ PHASE3: 1, 'PHASE1/PHASE2': 1, PHASE2: 1 });
  });

  it('a study without phases counts as NONE', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer');
    expect(body.phase_counts.NONE).toBe(1);
  });

  it('unknown phase: 400 with allowed', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Pfizer&phase=5');
    expect(res.statusCode).toBe(400);
    expect(body.allowed).toEqual(['NA', 'EARLY_PHASE1', 'PHASE1', 'PHASE2', 'PHASE3', 'PHASE4', '1', '2', '3', '4', 'early1', 'na']);
  });
});

describe('GET /pipeline limit (spec 8: default 50, stops at 200)', () => {
  it('default 50, asked upstream as pageSize', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer');
    expect(body.limit).toBe(50);
    expect(body.limit_requested).toBeNull();
    expect(fake.requests[0].get('pageSize')).toBe('50');
  });

  it('above 200 is served as 200 and the response says so', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Pfizer&limit=500');
    expect(res.statusCode).toBe(200);
    expect(body.limit).toBe(200);
    expect(body.limit_requested).toBe(500);
    expect(body.notes[0]).toBe('limit 500 is above the maximum of 200; 200 served.');
    expect(fake.requests[0].get('pageSize')).toBe('200');
  });

  it('limit=200 is not clamped', async () => {
    const { body } = await getJson('/pipeline?sponsor=Pfizer&limit=200');
    expect(body.limit_requested).toBeNull();
  });

  it.each(['0', '-1', '2.5', 'abc', ''.padEnd(3, ' ') + 'x', '1e3'])('limit=%s: 400 with usage', async (limit) => {
    const { res, body } = await getJson(`/pipeline?sponsor=Pfizer&limit=${encodeURIComponent(limit)}`);
    expect(res.statusCode).toBe(400);
    expect(body.usage).toMatch(/^GET \/pipeline\?sponsor=/);
  });
});

describe('GET /pipeline paging (pageToken until limit rows)', () => {
  it('follows nextPageToken with identical parameters; totalCount from the first page only', async () => {
    fake.maxPageSize = 2;
    const { body } = await getJson('/pipeline?sponsor=Pfizer&status=ALL&limit=5');
    expect(ids(body)).toEqual(['NCT00000001', 'NCT00000002', 'NCT00000003', 'NCT00000004', 'NCT00000005']);
    expect(body.n_studies).toBe(9);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.map((q) => q.get('pageSize'))).toEqual(['5', '3', '1']);
    expect(fake.requests[0].has('pageToken')).toBe(false);
    expect(fake.requests.slice(1).every((q) => q.has('pageToken') && !q.has('countTotal'))).toBe(true);
    const same = (q: URLSearchParams) => [q.get('filter.advanced'), q.get('fields'), q.get('filter.overallStatus')].join('|');
    expect(new Set(fake.requests.map(same)).size).toBe(1);
  });

  it('stops when the registry has no more pages', async () => {
    fake.maxPageSize = 4;
    const { body } = await getJson('/pipeline?sponsor=Pfizer&status=ALL&limit=200');
    expect(body.n_returned).toBe(9);
    expect(fake.requests).toHaveLength(3);
  });
});

describe('GET /pipeline formats and Accept negotiation (spec 4.2)', () => {
  it('no format, no Accept: JSON stating the registry caveat', async () => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().caveat).toBe(REGISTRY_CAVEAT);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  it.each([
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['text/html;q=0.5, application/json', 'application/json'],
    [BROWSER_ACCEPT, 'text/html'],
    ['text/html', 'text/html'],
  ])('Accept %s -> %s', async (accept, type) => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer', headers: { accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(new RegExp(`^${type}`));
  });

  it('format=json wins over a browser Accept', async () => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer&format=json', headers: { accept: BROWSER_ACCEPT } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('format=brief: text/plain Markdown with caveat, counts and an escaped table', async () => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer&format=brief' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toContain(`> ${REGISTRY_CAVEAT}`);
    expect(text).toContain('# Pfizer: 7 studies as lead sponsor');
    expect(text).toContain('- Status counts (shown studies): RECRUITING 4, NOT_YET_RECRUITING 1, ACTIVE_NOT_RECRUITING 1, ENROLLING_BY_INVITATION 1');
    expect(text).toContain('| [NCT00000001](https://clinicaltrials.gov/study/NCT00000001) | Pfizer phase 3 recruiting | lead | RECRUITING | PHASE3 | Pfizer | 2024-01 |');
    expect(text).not.toContain('<script>');
    expect(text).toContain('\\<script\\>');
    const hostileRow = text.split('\n').find((l) => l.includes('NCT00000014'))!;
    expect(hostileRow.split(/(?<!\\)\|/).length).toBe(9);
  });

  it('format=html: page with caveat, counts, form and table, upstream strings escaped', async () => {
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer&format=html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    expect(html).toContain(REGISTRY_CAVEAT);
    expect(html).toContain('<span id="n-studies">7</span>');
    expect(html).toContain('<form');
    expect(html).not.toContain(HOSTILE_TITLE);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html.match(/<tr>/g)).toHaveLength(1 + 7);
  });

  it('unknown format: 400 with allowed', async () => {
    const { res, body } = await getJson('/pipeline?sponsor=Pfizer&format=pdf');
    expect(res.statusCode).toBe(400);
    expect(body.allowed).toEqual(['json', 'brief', 'html']);
  });
});

describe('GET /pipeline without sponsor', () => {
  it.each(['', '&format=json', '&format=brief', '&sponsor=%20%20'])('json/brief (%s): 400 Error object with usage', async (extra) => {
    const { res, body } = await getJson(`/pipeline?role=lead${extra}`);
    expect(res.statusCode).toBe(400);
    expect(body.error).toBe('sponsor is required');
    expect(body.usage).toMatch(/sponsor=/);
    expect(typeof body.hypothesis).toBe('string');
  });

  it('html (format or browser Accept): 200 page with a search form and no table', async () => {
    for (const res of [
      await app.inject({ url: '/pipeline?format=html' }),
      await app.inject({ url: '/pipeline', headers: { accept: BROWSER_ACCEPT } }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<form method="get" role="search"');
      expect(res.body).toContain('<label for="sponsor">');
      expect(res.body).not.toContain('<table');
      expect(res.body).toContain(REGISTRY_CAVEAT);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('html with a bad parameter: the page with an alert, status 400', async () => {
    const res = await app.inject({ url: '/pipeline?format=html&sponsor=Pfizer&status=nope' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('Allowed: ALL, ACTIVE_NOT_RECRUITING');
  });
});

describe('GET /pipeline upstream faults (spec 7 Pipeline: 503 no answer, 502 error; no trial identifiers)', () => {
  const NCT = /NCT\s*\d/i;

  it('connection refused: 503', async () => {
    const refusedApp = await pipelineApp(await refusedBaseUrl(), 2000);
    try {
      for (const format of ['json', 'brief', 'html']) {
        const res = await refusedApp.inject({ url: `/pipeline?sponsor=Pfizer&format=${format}` });
        expect(res.statusCode).toBe(503);
        expect(res.body).not.toMatch(NCT);
      }
      const body = (await refusedApp.inject({ url: '/pipeline?sponsor=Pfizer' })).json();
      expect(body.error).toBe('ClinicalTrials.gov: the registry could not be reached');
      expect(typeof body.hypothesis).toBe('string');
    } finally {
      await refusedApp.close();
    }
  });

  it.each([
    ['hang', 503, 'did not answer within 300 ms'],
    ['hang-body', 503, 'did not answer within 300 ms'],
    ['status500', 502, 'HTTP status 500'],
    ['status400', 502, 'HTTP status 400'],
    ['invalid-json', 502, 'not the expected JSON'],
    ['wrong-shape', 502, 'no list of studies'],
  ] as const)('%s: %i, Error object without trial identifiers', async (mode, status, message) => {
    fake.mode = mode;
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer' });
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'hypothesis']);
    expect(body.error).toContain(message);
    expect(res.body).not.toMatch(NCT);
    const page = await app.inject({ url: '/pipeline?sponsor=Pfizer&format=html' });
    expect(page.statusCode).toBe(status);
    expect(page.body).not.toMatch(NCT);
  });

  it('a first page without totalCount is not the expected answer: 502', async () => {
    fake.replay = ['{"studies":[]}'];
    const res = await app.inject({ url: '/pipeline?sponsor=Pfizer' });
    expect(res.statusCode).toBe(502);
  });

  it('the fixture registry itself is what the tests think it is', () => {
    expect(FIXTURE_STUDIES).toHaveLength(13);
  });
});
