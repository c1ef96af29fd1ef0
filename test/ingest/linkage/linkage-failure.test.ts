/**
 * A linkage that throws does not fail the build: the build warns, goes on without links (no
 * `report_links` rows, every `cluster` null, metadata `linkage` null) and `@dedup` then keeps
 * every report. The linkage module is replaced by one that throws.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, vi } from 'vitest';
import { formatSummary } from '../../../src/commands/build.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { CASE_REPORTS, writeCaseFolder } from '../../serve/cases/fixture.js';

vi.mock('../../../src/ingest/linkage/link.js', () => ({
  linkReports: () => {
    throw new Error('EM did not converge (planted)');
  },
}));

describe('a failing linkage', () => {
  it('warns, and the build goes on without links', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkage-failure-'));
    // Report 201 is report 101 again: a linkage would link them, this one throws.
    const reports = [...CASE_REPORTS, { ...CASE_REPORTS[0], id: 201 }];
    const vaers = await writeCaseFolder(join(dir, 'vaers'), { 201: { SYMPTOM_TEXT: 'narrative of 101' } }, reports);
    const out = join(dir, 'store.duckdb');
    const warnings: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      warnings.push(String(chunk));
      return true;
    });
    let summary;
    try {
      summary = await buildStore({ vaers, out, analyses: 'stratified,stratified@dedup', workers: 1 });
    } finally {
      write.mockRestore();
    }
    expect(warnings.join('')).toMatch(/warning: duplicate-report linkage failed, the build goes on without links: EM did not converge \(planted\)/);
    expect(summary.linkage).toEqual({ summary: null, warning: expect.stringMatching(/EM did not converge/) });
    expect(formatSummary(summary, out)).toMatch(/\n {2}duplicates {8}not linked \(duplicate-report linkage failed, the build goes on without links: EM did not converge/);
    expect(summary.analyses.map((a) => [a.name, a.reports])).toEqual([['stratified', 9], ['stratified@dedup', 9]]);
    const instance = await DuckDBInstance.create(out, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    try {
      const one = async (sql: string): Promise<unknown> => Object.values((await connection.runAndReadAll(sql)).getRowObjectsJS()[0])[0];
      expect(await one('SELECT count(*)::INTEGER FROM report_links')).toBe(0);
      expect(await one('SELECT count(cluster)::INTEGER FROM reports')).toBe(0);
      expect(await one(`SELECT value FROM meta WHERE key = 'linkage'`)).toBe('null');
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }, 120_000);
});
