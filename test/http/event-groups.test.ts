/**
 * Event groups end to end on a fixture (test/ingest/mining/fixtures.ts historyFixture): `build
 * --event-groups FILE` with a user's grouping file (a group with a broad term, a term in two
 * groups, a term no report carries), then every route on the groups: /analyses lists the file's
 * digest, groups, items and the term in no report; /analyses/groups/signals matches the group
 * label; /analyses/groups/cases selects the reports carrying any of the item's terms (counted here
 * from the fixture's own reports) with the reports per term; /triage of the term analysis lists
 * each pair's groups. Bad grouping files stop the build with errors by line and leave no store.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { buildStore } from '../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../src/ingest/mining/summary.js';
import { formatSummary } from '../../src/commands/build.js';
import { likeOptions } from '../../src/commands/build-like.js';
import { historyFixture, writeVaersFolder, type FixtureReport } from '../ingest/mining/fixtures.js';
import { GARDASIL, GROUPS_CSV as GROUPS, writeGroupsStore } from '../helpers/groups-fixture.js';

/** Reports of the fixture naming `vaccine` and any of `terms`, received in 2000Q1..2000Q2 (plain filtering of the fixture's own list). */
function reportsWith(reports: FixtureReport[], vaccine: string, terms: string[]): FixtureReport[] {
  return reports.filter((r) => r.recvdate.endsWith('/2000') && Number(r.recvdate.slice(0, 2)) <= 6
    && r.vaccines.some(([name]) => name === vaccine) && r.events.some((e) => terms.includes(e)));
}

describe('event groups on a fixture store (build --event-groups FILE)', () => {
  let dir: string;
  let app: FastifyInstance;
  let summary: BuildSummary;
  let reports: FixtureReport[];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-groups-http-'));
    const built = await writeGroupsStore(dir);
    ({ reports, summary } = built);
    app = await buildApp({ storePath: built.store });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (url: string): Promise<any> => {
    const res = await app.inject({ method: 'GET', url });
    expect([url, res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([url, 200, '']);
    return res.json();
  };

  it('the build summary names the file, its digest and its term in no report, by line', () => {
    const digest = createHash('sha256').update(GROUPS).digest('hex');
    expect(summary.eventGroups).toEqual({
      file: 'mine.csv', shipped: false, digest, groups: 3, terms: 6, items: 5,
      terms_in_no_report: [{ line: 6, group_id: 'skin', term: 'Angioedema' }],
    });
    expect(formatSummary(summary, 'x')).toContain('terms in no report 1 (warning: line 6: "Angioedema" (skin))');
  });

  it('build --like carries the user\'s grouping file over (written from the store\'s record)', async () => {
    const like = await likeOptions(path.join(dir, 'store.duckdb'));
    expect(like.analyses).toBe('stratified,groups');
    expect(path.basename(like.eventGroups!)).toBe('mine.csv');
    expect(readFileSync(like.eventGroups!, 'utf8')).toBe(GROUPS);
  });

  it('/analyses lists the groups analysis with its file, digest, groups, items and terms', async () => {
    const listing = await json('/analyses');
    const groups = listing.analyses.find((a: { name: string }) => a.name === 'groups');
    expect(groups).toMatchObject({ items: 'event_group', strata: 'sex,age6,year', signals: '/analyses/groups/signals' });
    expect(groups.event_groups.file).toBe('mine.csv');
    expect(groups.event_groups.digest).toBe(createHash('sha256').update(GROUPS).digest('hex'));
    expect(groups.event_groups.groups.map((g: { id: string; items: string[]; terms: unknown[] }) => [g.id, g.items, g.terms.length])).toEqual([
      ['faint', ['Fainting', 'Fainting (broad)'], 2], ['skin', ['Skin eruptions', 'Skin eruptions (broad)'], 3], ['dizzy', ['Dizziness group'], 1],
    ]);
    expect(groups.event_groups.terms_in_no_report).toEqual([{ line: 6, group_id: 'skin', term: 'Angioedema' }]);
    expect(listing.analyses.find((a: { name: string }) => a.name === 'stratified').event_groups).toBeUndefined();
  });

  it('/analyses/groups/signals: the group label matches event; n counts a report once however many of the item\'s terms it carries', async () => {
    const series = await json(`/analyses/groups/signals?vaccine=${encodeURIComponent(GARDASIL)}&event=Fainting&format=series`);
    expect(series.event).toBe('Fainting');
    const broad = await json(`/analyses/groups/signals?vaccine=${encodeURIComponent(GARDASIL)}&event=${encodeURIComponent('Fainting (broad)')}&format=series`);
    const both = reportsWith(reports, GARDASIL, ['Syncope', 'Dizziness']);
    expect(both.filter((r) => r.events.includes('Syncope') && r.events.includes('Dizziness')).length).toBeGreaterThan(0);
    expect(broad.quarters.find((q: { quarter: string }) => q.quarter === '2000Q2').n).toBe(both.length);
    expect(series.quarters.find((q: { quarter: string }) => q.quarter === '2000Q2').n).toBe(reportsWith(reports, GARDASIL, ['Syncope']).length);
  });

  it('/analyses/groups/cases: the reports carrying any of the item\'s terms, with the reports per term', async () => {
    const cases = await json(`/analyses/groups/cases?vaccine=${encodeURIComponent(GARDASIL)}&event=${encodeURIComponent('Fainting (broad)')}&from=2000Q1&to=2000Q2&limit=500`);
    const expected = reportsWith(reports, GARDASIL, ['Syncope', 'Dizziness']);
    expect(cases.events).toEqual(['Fainting (broad)']);
    expect(cases.n_reports).toBe(expected.length);
    expect(cases.reports.map((r: { vaers_id: number }) => r.vaers_id).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(cases.group_terms).toEqual([
      { event: 'Fainting (broad)', group_id: 'faint', term: 'Syncope', scope: 'narrow', reports: expected.filter((r) => r.events.includes('Syncope')).length },
      { event: 'Fainting (broad)', group_id: 'faint', term: 'Dizziness', scope: 'broad', reports: expected.filter((r) => r.events.includes('Dizziness')).length },
    ]);
    // A substring matches every item containing it; a name no item has selects nothing, as an unknown term does.
    expect((await json(`/analyses/groups/cases?event=faint&limit=1`)).events).toEqual(['Fainting', 'Fainting (broad)']);
    expect((await json('/analyses/groups/cases?event=Syncope&limit=1'))).toMatchObject({ events: [], n_reports: 0 });
    // The same query on the term analysis: the terms themselves, no group_terms.
    const terms = await json(`/analyses/stratified/cases?vaccine=${encodeURIComponent(GARDASIL)}&event=Syncope&from=2000Q1&to=2000Q2&limit=1`);
    expect([terms.n_reports, terms.group_terms]).toEqual([reportsWith(reports, GARDASIL, ['Syncope']).length, undefined]);
  });

  it('/triage: the groups analysis has its queue; a term pair lists its groups (JSON and CSV)', async () => {
    const quarters = ['2000', '2001', '2002'].flatMap((y) => [1, 2, 3, 4].map((q) => `${y}Q${q}`));
    type Pair = { vaccine: string; event: string; event_groups?: string[] };
    const queue = async (analysis: string, quarter: string): Promise<Pair[]> => (await json(`/analyses/${analysis}/triage?quarter=${quarter}&group=none&limit=500`)).pairs;
    const groupPairs = (await Promise.all(quarters.map((q) => queue('groups', q)))).flat();
    expect(groupPairs.some((p) => p.vaccine === GARDASIL && p.event.startsWith('Fainting'))).toBe(true);
    expect(groupPairs.every((p) => p.event_groups === undefined)).toBe(true);
    let syncope: Pair | undefined;
    let found = '';
    for (const q of quarters) {
      syncope = (await queue('stratified', q)).find((p) => p.vaccine === GARDASIL && p.event === 'Syncope');
      if (syncope) { found = q; break; }
    }
    expect(found).not.toBe('');
    expect(syncope?.event_groups).toEqual(['Fainting', 'Fainting (broad)']);
    const termPairs = await queue('stratified', found);
    expect(termPairs.find((p) => p.event === 'Pyrexia')?.event_groups ?? []).toEqual([]);
    const csv = await app.inject({ method: 'GET', url: `/analyses/stratified/triage?quarter=${found}&group=none&format=csv&vaccine=${encodeURIComponent(GARDASIL)}&event=Syncope` });
    const [header, row] = csv.body.trim().split('\r\n');
    expect(header.split(',').at(-1)).toBe('event_groups');
    expect(row.split(',').at(-1)).toBe('Fainting;Fainting (broad)');
  });
});

describe('bad grouping files stop the build: errors by line, no store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-groups-bad-'));
    await writeVaersFolder(path.join(dir, 'vaers'), historyFixture().slice(0, 50));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const build = (file: string, analyses = 'groups'): Promise<BuildSummary> =>
    buildStore({ vaers: path.join(dir, 'vaers'), out: path.join(dir, 'store.duckdb'), analyses, eventGroups: file, workers: 1 });

  it('an unknown column, an empty group and a duplicate row: one error naming each line', async () => {
    const file = path.join(dir, 'bad.csv');
    writeFileSync(file, 'group_id,group_label,term,scope,source,version,weight\n');
    await expect(build(file)).rejects.toThrow('line 1: unknown column "weight"');
    writeFileSync(file, ['group_id,group_label,term,scope,source,version', 'a,A,Rash,narrow,s,1', 'b,B,,narrow,s,1', 'a,A,Rash,broad,s,1'].join('\n'));
    const error = await build(file).catch((e: Error) => e);
    expect((error as Error).name).toBe('UserError');
    expect((error as Error).message).toContain('line 3: empty term (group "b" needs a term on every row)');
    expect((error as Error).message).toContain('line 4: duplicate row: term "Rash" is already in group "a" (line 2)');
    expect(existsSync(path.join(dir, 'store.duckdb'))).toBe(false);
  });

  it('a file past the size limit stops the build before anything is written, refused from its size before it is read (issue 45: 50 MB cells and a million rows built a store the server refused)', async () => {
    const file = path.join(dir, 'huge.csv');
    writeFileSync(file, `group_id,group_label,term,scope,source,version\na,A,${'x'.repeat(2_000_000)},narrow,s,1\n`);
    const error = await build(file).catch((e: Error) => e);
    expect((error as Error).name).toBe('UserError');
    expect((error as Error).message).toBe(`--event-groups: ${file}: 1 problem in the grouping file:\n  the file has ${statSync(file).size} bytes, more than the 1048576 a grouping file may have (docs/event-groups.md, limits)`);
    expect(existsSync(path.join(dir, 'store.duckdb'))).toBe(false);
  });

  it('a file at the limits (10,000 rows, 500 terms a group, 9,999 terms no report carries) builds a store the server serves', async () => {
    const file = path.join(dir, 'full.csv');
    const rows = Array.from({ length: 9_999 }, (_, i) => `g${Math.floor(i / 500)},Group ${Math.floor(i / 500)},Term ${i} ${'y'.repeat(60)},narrow,s,1`);
    writeFileSync(file, ['group_id,group_label,term,scope,source,version', ...rows, 'g0,Group 0,Rash,broad,s,1'].join('\n').replace('g0,Group 0,Term 0', 'g20,Group 20,Term 0'));
    const summary = await build(file);
    expect(summary.eventGroups?.terms).toBe(10_000);
    expect(summary.eventGroups?.terms_in_no_report).toHaveLength(9_999);
    const app = await buildApp({ storePath: path.join(dir, 'store.duckdb') });
    try {
      while ((await app.inject({ url: '/readyz' })).statusCode === 503) await new Promise((r) => setTimeout(r, 100));
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      const groups = (await app.inject({ url: '/analyses' })).json().analyses.find((a: { name: string }) => a.name === 'groups');
      expect(groups.event_groups.groups).toHaveLength(21);
    } finally {
      await app.close();
      await rm(path.join(dir, 'store.duckdb'), { force: true });
    }
  }, 300_000);

  it('a missing file, and a file without an analysis of groups, are refused', async () => {
    await expect(build(path.join(dir, 'absent.csv'))).rejects.toThrow(/--event-groups: cannot read .*absent\.csv: ENOENT/);
    await expect(build(path.join(dir, 'absent.csv'), 'stratified')).rejects.toThrow('--event-groups: no analysis counts event groups');
    await expect(build(path.join(dir, 'absent.csv'), 'stratified@types@groups')).rejects.toThrow('@types and @groups cannot be combined');
  });
});
