import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli.js';
import { readReportData } from '../../src/serve/store/reports.js';
import { historyFixture, writeVaersFolder } from '../ingest/mining/fixtures.js';
import { EXPECTED_NARRATIVES, writeReportFolder } from '../ingest/vaers/report-fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-build-reports-cli-'));
  await writeReportFolder(join(dir, 'vaers'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reporting-signals build: the report tables in the summary, --narratives', () => {
  it('prints the rows written and each unreadable field with examples; --narratives keeps SYMPTOM_TEXT', async () => {
    const out = join(dir, 'store.parquet');
    const { code, stderr } = await cli(['build', '--vaers', join(dir, 'vaers'), '--out', out, '--workers', '1', '--narratives']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^ {2}report tables {5}6 reports, 8 vaccine rows, 10 event rows \(narratives kept; [\d.]+ s\)$/m);
    expect(stderr).toMatch(/^ {2}values not read {3}\(stored as null; SEX as U\)$/m);
    for (const [field, cell] of [['AGE_YRS', 'abc'], ['SEX', 'X'], ['VAX_DATE', '02/30/2005'], ['ONSET_DATE', '13/01/2005'], ['NUMDAYS', 'two'], ['RECOVD', 'Q']]) {
      expect(stderr).toContain(`\n    ${field}: 1 (e.g. VAERS_ID 103 (2005VAERSDATA.csv line 2): '${cell}')\n`);
    }
    expect((await readReportData(out))!.narrative).toEqual(EXPECTED_NARRATIVES);
  });

  it('without --narratives: none kept; a folder without unreadable cells says "none"', async () => {
    await writeVaersFolder(join(dir, 'clean'), historyFixture().slice(0, 40));
    const out = join(dir, 'plain.duckdb');
    const { code, stderr } = await cli(['build', '--vaers', join(dir, 'clean'), '--out', out, '--workers', '1']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^ {2}report tables {5}40 reports, \d+ vaccine rows, \d+ event rows \(narratives not kept; [\d.]+ s\)$/m);
    expect(stderr).toMatch(/^ {2}values not read {3}none$/m);
    expect((await readReportData(out))!.narrative).toBeNull();
  });
});
