import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { readReportData } from '../../../src/serve/store/reports.js';
import { EXPECTED_REPORTS, writeReportFolder } from '../vaers/report-fixtures.js';
import { historyFixture, writeVaersFolder } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-report-tables-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the build writes the report tables once (the case series\' reports)', () => {
  it('--scale replays the counts, not the reports: the tables hold the real kept reports once', async () => {
    await writeVaersFolder(join(dir, 'history'), historyFixture());
    const out = join(dir, 'scaled.parquet');
    const summary = await buildStore({ vaers: join(dir, 'history'), out, workers: 2, scale: 3 });
    expect(summary.reportsCounted).toBe(3 * summary.reportsKept);
    expect(summary.reportValues.reports).toBe(summary.reportsKept);
    const data = await readReportData(out);
    expect(data!.count).toBe(summary.reportsKept);
    expect(new Set(data!.id).size).toBe(summary.reportsKept);
    expect(data!.vaccines.name.length).toBe(summary.reportValues.vaccineRows);
    expect(data!.events.term.length).toBe(summary.reportValues.eventRows);
    // historyFixture: the last report names VARIVAX twice on two VAX rows, and three vaccines in all.
    const last = data!.id.indexOf(Math.max(...historyFixture().map((r) => r.id)));
    expect(Array.from({ length: data!.vaccines.start[last + 1] - data!.vaccines.start[last] }, (_, k) => data!.vaccines.name.at(data!.vaccines.start[last] + k))).toEqual([
      'INFLUENZA (SEASONAL) (NO BRAND NAME)', 'VARICELLA (VARIVAX)', 'VARICELLA (VARIVAX)',
    ]);
  });

  it('every analysis shares the tables: a subset analysis first still writes every kept report', async () => {
    await writeReportFolder(join(dir, 'reports'));
    const out = join(dir, 'death.duckdb');
    const summary = await buildStore({ vaers: join(dir, 'reports'), out, workers: 1, analyses: 'death,all' });
    expect(summary.analyses[0].reports).toBe(2);
    expect([...(await readReportData(out))!.id]).toEqual(EXPECTED_REPORTS.map((r) => r.vaers_id));
  });
});
