/**
 * The store's `triage_rows` (src/domain/store-schema.ts TRIAGE_ROWS_SQL, written by
 * src/ingest/store/write.ts) and the triage read over it (src/serve/store/triage-rows.ts): the
 * flagged rows of the fixture store (test/serve/triage/fixture.ts) in quarter order, each pair's
 * first flagged quarter as the fixture sets it, and the same read as from `quarterly` in a store
 * written before the table (the table dropped from a copy).
 */
import { copyFile } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { readTriageWindows } from '../../../src/serve/store/triage-rows.js';
import { PAIRS, plainWindow, plainWindows, writeTriageStore } from '../triage/fixture.js';

const QUARTERS = ['2005Q1', '2005Q2', '2005Q3', '2005Q4', '2006Q1', '2006Q2', '2006Q3', '2006Q4'];

async function query(path: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('triage_rows: the flagged rows in quarter order, derived from quarterly', () => {
  it('holds every flagged row once, in (analysis, quarter, drug, event) order, with the pair\'s first flagged quarter', async () => {
    const path = await writeTriageStore();
    const rows = await query(path, 'SELECT analysis, quarter, drug, event, n_methods_flagged, first_flagged, lag_n FROM triage_rows');
    // The fixture flags pair p from quarter index p.firstFlagged on (99: never).
    const expected = QUARTERS.flatMap((quarter, i) => PAIRS.filter((p) => i >= p.firstFlagged)
      .map((p) => ({ analysis: 'all', quarter, drug: p.drug, event: p.event, n_methods_flagged: p.nmf, first_flagged: QUARTERS[p.firstFlagged] })))
      .sort((a, b) => (a.quarter < b.quarter ? -1 : a.quarter > b.quarter ? 1 : a.drug < b.drug ? -1 : a.drug > b.drug ? 1 : a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
    expect(rows.map(({ lag_n: _lag, ...key }) => key)).toEqual(expected);
    expect(rows.length).toBe(PAIRS.reduce((sum, p) => sum + Math.max(0, QUARTERS.length - p.firstFlagged), 0));
    expect(rows.find((r) => r.drug === 'MMR' && r.event === 'Rash')).toBeUndefined(); // one method: never flagged
    expect(rows.every((r) => r.lag_n === 10 || r.drug === 'LYMERIX')).toBe(true); // the evidence columns copied (PLAIN_EVIDENCE lag_n 10; LYMERIX 40)
  });

  it('reads the same windows as the read from quarterly in a store without the table', async () => {
    const path = await writeTriageStore();
    const without = `${path}.without.duckdb`;
    await copyFile(path, without);
    await query(without, 'DROP TABLE triage_rows');
    expect((await query(without, "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'triage_rows'"))[0].n).toBe(0);
    const all = await readTriageWindows(path, 'all');
    expect(all.windows.size).toBe(QUARTERS.length);
    expect(all.windows.get('2006Q4')!.rows.find((r) => r.vaccine === 'LYMERIX')).toMatchObject({ event: 'Arthritis', n: 40, eb05: 5, first_flagged: '2005Q1', lag_median_days: 800 });
    expect(plainWindows(await readTriageWindows(without, 'all'))).toEqual(plainWindows(all));
    for (const quarter of [...QUARTERS, 'last']) {
      const one = await readTriageWindows(path, 'all', quarter);
      expect(plainWindows(await readTriageWindows(without, 'all', quarter)), quarter).toEqual(plainWindows(one));
      const at = quarter === 'last' ? '2006Q4' : quarter;
      expect(plainWindow(one.windows.get(at)), quarter).toEqual(plainWindow(all.windows.get(at)));
    }
  });
});
