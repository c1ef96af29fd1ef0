/**
 * The first analysis written on its own (build.ts BuildOptions.firstAnalysis; the default store's
 * first start serves it while the others are built): it is a complete store of that analysis
 * alone (its rows, windows and metadata, the report tables, links and interactions), written
 * before the other analyses are fitted; the full store written after it equals, table by table,
 * the store of a build without it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPhases, buildStore, parseAnalyses } from '../../../src/ingest/mining/build.js';
import { mixedCaseReports, writeCaseFolder } from '../../serve/cases/fixture.js';

const ANALYSES = 'all,stratified,types';
const TABLES = ['quarterly', 'windows', 'vaccines', 'reports', 'report_vaccines', 'report_events', 'report_links', 'interactions'];

/** Every row of `table` as JSON text, in a fixed order (all columns), or null when the store lacks the table. */
async function rowsOf(path: string, table: string): Promise<string[] | null> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const tables = (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables()')).getRowObjectsJS().map((r) => String(r.table_name));
    if (!tables.includes(table)) return null;
    const rows = (await connection.runAndReadAll(`SELECT * FROM ${table} ORDER BY ALL`)).getRowObjectsJson();
    return rows.map((r) => JSON.stringify(r));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function metaOf(path: string): Promise<Record<string, unknown>> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const rows = (await connection.runAndReadAll('SELECT key, value FROM meta')).getRowObjectsJS();
    return Object.fromEntries(rows.map((r) => [String(r.key), JSON.parse(String(r.value))]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('the first analysis written on its own (BuildOptions.firstAnalysis)', () => {
  let dir: string;
  let plain: string;
  let staged: string;
  let first: string;
  let fullExistedWhenWritten: boolean | null = null;
  let firstRowsWhenWritten: string[] | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-first-analysis-'));
    const vaers = await writeCaseFolder(join(dir, 'vaers'), {}, mixedCaseReports());
    plain = join(dir, 'plain.duckdb');
    staged = join(dir, 'staged.duckdb');
    first = join(dir, 'first.duckdb');
    await buildStore({ vaers, out: plain, analyses: ANALYSES, workers: 1 });
    await buildStore({
      vaers, out: staged, analyses: ANALYSES, workers: 1,
      firstAnalysis: {
        out: first,
        written: async (path) => {
          fullExistedWhenWritten = existsSync(staged);
          firstRowsWhenWritten = await rowsOf(path, 'quarterly');
        },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is written, complete, before the full store exists', () => {
    expect(fullExistedWhenWritten).toBe(false);
    expect(firstRowsWhenWritten!.length).toBeGreaterThan(0);
  });

  it('holds the first analysis alone: its rows and windows, one analysis in its metadata', async () => {
    const meta = await metaOf(first);
    expect((meta.analyses as Array<{ name: string; default: boolean }>).map((a) => [a.name, a.default])).toEqual([['all', true]]);
    const rows = (await rowsOf(first, 'quarterly'))!.map((r) => JSON.parse(r) as { analysis: string });
    expect(new Set(rows.map((r) => r.analysis))).toEqual(new Set(['all']));
    const plainAll = (await rowsOf(plain, 'quarterly'))!.filter((r) => (JSON.parse(r) as { analysis: string }).analysis === 'all');
    expect(await rowsOf(first, 'quarterly')).toEqual(plainAll);
    const windows = (await rowsOf(first, 'windows'))!.map((r) => JSON.parse(r) as { analysis: string });
    expect(windows.length).toBeGreaterThan(0);
    expect(new Set(windows.map((w) => w.analysis))).toEqual(new Set(['all']));
  });

  it('holds the report tables, links and interactions of the full build', async () => {
    for (const table of ['reports', 'report_vaccines', 'report_events', 'report_links', 'interactions']) {
      expect(await rowsOf(first, table), table).toEqual(await rowsOf(plain, table));
    }
    expect((await rowsOf(first, 'reports'))!.length).toBe(240);
  });

  it('the full store equals the store of a build without it, table by table, and its metadata but for the time of the build', async () => {
    for (const table of TABLES) expect(await rowsOf(staged, table), table).toEqual(await rowsOf(plain, table));
    const [a, b] = [await metaOf(plain), await metaOf(staged)];
    const stable = (m: Record<string, unknown>): unknown => JSON.parse(JSON.stringify({ ...m, built_at: null, extra: null }), (k, v) => (k === 'seconds' || k === 'peakRssBytes' ? null : v));
    expect(stable(b)).toEqual(stable(a));
    expect((b.analyses as Array<{ name: string }>).map((x) => x.name)).toEqual(['all', 'stratified', 'types']);
  });

  it('the plan of phases puts the first analysis\'s fit, rows and write before the others\' fits', () => {
    expect(buildPhases(parseAnalyses(ANALYSES), true)).toEqual([
      'read', 'count all', 'count types', 'interactions', 'fit all', 'link', 'rows all', 'write all',
      'fit stratified', 'fit types', 'rows stratified', 'rows types', 'write',
    ]);
    expect(buildPhases(parseAnalyses('all'), true)).toEqual(buildPhases(parseAnalyses('all')));
  });
});
