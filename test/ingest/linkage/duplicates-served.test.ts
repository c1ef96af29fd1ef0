/**
 * Duplicate-report linkage, wired through the build, the store and the server, on the case
 * fixture (test/serve/cases/fixture.ts) with planted duplicates: report 201 is report 101 again and
 * reports 202 and 203 are report 102 again, identical but for VAERS_ID (same dates, ages,
 * sexes, states, vaccines, lots, events and narrative), which any linkage links. The fixture's
 * eight reports differ from each other (age, sex, vaccines or events), so the clusters are
 * {101, 201} and {102, 202, 203}: 3 reports folded. Counts are worked by hand from the fixture.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKAGE_MEASURED } from '../../../src/serve/signals/linkage-measured.js';
import { collapseClusters } from '../../../src/serve/cases/duplicates.js';
import { formatSummary } from '../../../src/commands/build.js';
import { buildApp } from '../../../src/http/app.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../../src/ingest/mining/summary.js';
import { CASE_REPORTS, writeCaseFolder } from '../../serve/cases/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'duplicates-test-'));
const store = join(dir, 'dups.duckdb');
let app: FastifyInstance;
let summary: BuildSummary;

/** The planted copies: [copy, original]. */
const PLANTED: Array<[number, number]> = [[201, 101], [202, 102], [203, 102]];
const CLUSTERS = [[101, 201], [102, 202, 203]];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(url: string): Promise<{ status: number; body: any; text: string }> {
  const res = await app.inject({ method: 'GET', url });
  const json = (res.headers['content-type'] ?? '').toString().startsWith('application/json');
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : null, text: res.body };
}

async function query(sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(store, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  const reports = [...CASE_REPORTS, ...PLANTED.map(([copy, original]) => ({ ...CASE_REPORTS.find((r) => r.id === original)!, id: copy }))];
  // The fixture's VAX_DATE, 1 January, may be imputed (issue 43: only partial agreement); the planted
  // clusters' reports carry a day that is not.
  const days = { VAX_DATE: '01/04/2000', ONSET_DATE: '01/05/2000' };
  const cells = Object.fromEntries([
    ...CLUSTERS.flat().map((id) => [id, { ...days, SYMPTOM_TEXT: `narrative of ${id}` }]),
    ...PLANTED.map(([copy, original]) => [copy, { ...days, SYMPTOM_TEXT: `narrative of ${original}` }]),
  ]);
  const vaers = await writeCaseFolder(join(dir, 'vaers'), cells, reports);
  summary = await buildStore({ vaers, out: store, analyses: 'all,stratified,stratified@dedup', workers: 1 });
  app = await buildApp({ storePath: store });
}, 120_000);
afterAll(async () => app?.close());

describe('the build links the planted duplicates', () => {
  it('report_links joins only reports of one planted cluster, and connects each cluster', async () => {
    const links = await query('SELECT vaers_id::INTEGER AS a, linked_vaers_id::INTEGER AS b, weight, agreed FROM report_links');
    const clusterOf = (id: number): number => CLUSTERS.findIndex((c) => c.includes(id));
    for (const l of links) {
      expect(clusterOf(l.a as number)).toBeGreaterThanOrEqual(0);
      expect(clusterOf(l.a as number)).toBe(clusterOf(l.b as number));
      expect(Array.isArray(l.agreed) && (l.agreed as unknown[]).length).toBeGreaterThan(0);
      expect(Number.isFinite(l.weight)).toBe(true);
    }
    for (const cluster of CLUSTERS) {
      // Connected: union the links and check each member reaches the first.
      const reached = new Set([cluster[0]]);
      for (let grew = true; grew;) {
        grew = false;
        for (const l of links) {
          const [a, b] = [l.a as number, l.b as number];
          if (reached.has(a) !== reached.has(b)) { reached.add(a); reached.add(b); grew = true; }
        }
      }
      expect([...reached].sort()).toEqual(cluster);
    }
  });

  it('each report of a cluster holds its representative (one of the cluster), the others null', async () => {
    const rows = await query('SELECT vaers_id::INTEGER AS id, cluster::INTEGER AS cluster FROM reports');
    const clusterOf = new Map(rows.map((r) => [r.id as number, r.cluster as number | null]));
    expect(rows.length).toBe(11);
    for (const cluster of CLUSTERS) {
      const representative = clusterOf.get(cluster[0])!;
      expect(cluster).toContain(representative);
      for (const id of cluster) expect(clusterOf.get(id)).toBe(representative);
    }
    for (const r of CASE_REPORTS.filter((c) => !CLUSTERS.flat().includes(c.id))) expect(clusterOf.get(r.id)).toBeNull();
  });

  it('the metadata and the build summary carry the linkage summary: 2 clusters, 3 reports folded', async () => {
    expect(summary.linkage.warning).toBeNull();
    expect(summary.linkage.summary).toMatchObject({ reports: 11, clusters: 2, reports_folded: 3 });
    expect(formatSummary(summary, store)).toMatch(/\n {2}duplicates {8}\d+ links, 2 clusters, 3 reports folded by @dedup \(/);
    const [meta] = await query(`SELECT value FROM meta WHERE key = 'linkage'`);
    expect(JSON.parse(meta.value as string)).toMatchObject({ reports: 11, clusters: 2, reports_folded: 3 });
  });

  it('stratified@dedup counts each cluster once: 8 reports against 11, and says it is deduplicated', async () => {
    expect(summary.analyses.map((a) => [a.name, a.reports])).toEqual([['all', 11], ['stratified', 11], ['stratified@dedup', 8]]);
    const { status, body } = await get('/analyses');
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.analyses.map((a: { name: string }) => [a.name, a]));
    expect(byName['stratified@dedup']).toMatchObject({ deduplicated: true, reports: 8 });
    expect(byName.stratified).toMatchObject({ deduplicated: false, reports: 11 });
    // the linkage's figures, served beside the analyses
    expect(body.linkage).toMatchObject({ reports: 11, clusters: 2, reports_folded: 3, threshold: 23 });
    expect(typeof body.linkage.different_patients).toBe('object');
    // with the linkage's figures on the labelled set (src/serve/signals/linkage-measured.ts)
    expect(body.linkage.measured).toEqual(LINKAGE_MEASURED);
    expect(body.linkage.measured.pair_precision_post_hoc.n).toBeGreaterThan(0);
  });
});

describe('the server shows the duplicates', () => {
  it('GET /reports/201 lists 101 among possible_duplicates with weight and agreed fields (JSON)', async () => {
    const { status, body } = await get('/reports/201?format=json');
    expect(status).toBe(200);
    expect(body.possible_duplicates.map((d: { vaers_id: number }) => d.vaers_id)).toContain(101);
    for (const d of body.possible_duplicates) expect(Object.keys(d).sort()).toEqual(['agreed', 'vaers_id', 'weight']);
    expect([101, 201]).toContain(body.cluster);
    const lone = await get('/reports/105?format=json');
    expect(lone.body).toMatchObject({ possible_duplicates: [], cluster: null });
  });

  it('GET /reports/202 as HTML links each possible duplicate', async () => {
    const { status, text } = await get('/reports/202?format=html');
    expect(status).toBe(200);
    const section = text.slice(text.indexOf('Possible duplicates'), text.indexOf('Analyses keeping'));
    const { body } = await get('/reports/202?format=json');
    expect(body.possible_duplicates.length).toBeGreaterThan(0);
    for (const d of body.possible_duplicates) {
      expect(section).toContain(`<a href="/reports/${d.vaers_id}">${d.vaers_id}</a>`);
      // The weight read as a reader reads it (two decimals, in bits); the JSON keeps it whole.
      expect(section).toContain(`<td>${d.weight.toFixed(2)} bits</td>`);
    }
    expect(text).toContain('<nav><a href="/">Signal explorer</a></nav>');
  });

  it('/cases keeps every report by default and marks clustered ones; duplicates=collapse counts each cluster once', async () => {
    const keep = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception');
    // 7 reports, 4 distinct cases (101, 102, 103, 106 once each) beside them
    expect(keep.body).toMatchObject({ n_reports: 7, n_cases: 4, duplicates: 'keep', reports_folded: 0 });
    expect(keep.body.breakdowns.sex).toEqual({ F: 2, M: 4, U: 1 });
    const clusters = Object.fromEntries(keep.body.reports.map((r: { vaers_id: number; cluster: number | null }) => [r.vaers_id, r.cluster]));
    expect(clusters[106]).toBeNull();
    expect(clusters[203]).toBe(clusters[102]);
    const collapse = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&duplicates=collapse');
    expect(collapse.status).toBe(200);
    // 101, 102, 103, 106 once each (the fixture's hand counts of test/serve/cases/cases.test.ts).
    expect(collapse.body).toMatchObject({ n_reports: 4, n_cases: 4, duplicates: 'collapse', reports_folded: 3 });
    expect(collapse.body.breakdowns.sex).toEqual({ F: 1, M: 2, U: 1 });
    expect(collapse.body.breakdowns.received_year).toEqual({ 2000: 3, 2001: 1 });
    // The representatives stand for their clusters (both are in the series).
    expect(collapse.body.reports.map((r: { vaers_id: number }) => r.vaers_id)).toEqual([106, 103, clusters[102], clusters[101]]);
    const csv = await get('/cases?vaccine=ROTAVIRUS&event=Intussusception&duplicates=collapse&format=csv');
    const header = csv.text.split('\r\n')[0].split(',');
    expect(header).toContain('cluster');
  });

  it('/analyses/stratified@dedup/cases keeps only representatives', async () => {
    const { status, body } = await get('/analyses/stratified@dedup/cases?vaccine=ROTAVIRUS&event=Intussusception');
    expect(status).toBe(200);
    expect(body).toMatchObject({ n_reports: 4, analysis: 'stratified@dedup' });
  });

  it('a bad duplicates value is a 400 Error object listing the choices', async () => {
    const { status, body } = await get('/cases?vaccine=ROTAVIRUS&duplicates=fold');
    expect(status).toBe(400);
    expect(body.error).toMatch(/duplicates/);
    expect(body.allowed).toEqual(['keep', 'collapse']);
  });
});

describe('collapseClusters', () => {
  // Five reports in listing order, ids 50..10; 40, 30 and 20 form the cluster of 20 (its representative), 10 is alone.
  const data = { id: Float64Array.of(50, 40, 30, 20, 10), cluster: Float64Array.of(NaN, 20, 20, 20, NaN) };
  it('keeps the representative when the series holds it', () => {
    const { reports, folded } = collapseClusters(data, Int32Array.of(0, 1, 2, 3, 4));
    expect([Array.from(reports), folded]).toEqual([[0, 3, 4], 2]);
  });
  it('else the cluster\'s first report of the series', () => {
    const { reports, folded } = collapseClusters(data, Int32Array.of(1, 2, 4));
    expect([Array.from(reports), folded]).toEqual([[1, 4], 1]);
  });
});
