import { describe, expect, it } from 'vitest';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { dataCsv, skipFiles, symptomsCsv, tempDir, vaxCsv, writeFiles } from './fixtures.js';

describe('readVaers: reports skipped and why, with a few examples for the summary', () => {
  it('counts every reason with examples naming id, file and line; each DATA record lands in one bucket', async () => {
    const dir = await tempDir();
    await writeFiles(dir, skipFiles());
    const data = await readVaers(dir);
    expect(data.reports).toMatchObject([{ id: 1, quarter: 1999 * 4, vaccines: [0], events: [0] }]);
    expect(data.reports).toHaveLength(1);
    expect(data.vaccines).toEqual(['KEPT VACCINE']);
    expect(data.events).toEqual(['Pyrexia']);
    expect([...data.vaxTypeCodes.keys()]).toEqual([0]);
    expect(data.reportsRead).toBe(9);
    expect(data.skipped).toEqual([
      { reason: SKIP.BAD_RECVDATE, count: 2, examples: ["VAERS_ID 2 (1999VAERSDATA.csv line 3): RECVDATE '13/45/1999'", "VAERS_ID 3 (1999VAERSDATA.csv line 4): RECVDATE ''"] },
      { reason: SKIP.NO_VACCINE, count: 2, examples: ['VAERS_ID 4 (1999VAERSDATA.csv line 5)', 'VAERS_ID 5 (1999VAERSDATA.csv line 6)'] },
      { reason: SKIP.NO_EVENT, count: 2, examples: ['VAERS_ID 6 (1999VAERSDATA.csv line 7)', 'VAERS_ID 7 (1999VAERSDATA.csv line 8)'] },
      { reason: SKIP.DUPLICATE_ID, count: 1, examples: ['VAERS_ID 1 (1999VAERSDATA.csv line 9)'] },
      { reason: SKIP.BAD_ID, count: 2, examples: ["1999VAERSDATA.csv line 10: VAERS_ID '12a'", "1999VAERSVAX.csv line 8: VAERS_ID ''"] },
      { reason: SKIP.VAX_ORPHAN, count: 1, examples: ['VAERS_ID 99 (1999VAERSVAX.csv line 7)'] },
      { reason: SKIP.SYMPTOMS_ORPHAN, count: 2, examples: ['VAERS_ID 98 (1999VAERSSYMPTOMS.csv line 7)', 'VAERS_ID 97 (1999VAERSSYMPTOMS.csv line 8)'] },
    ]);
    const dataBuckets = data.reports.length + 1 /* bad DATA id */ + data.skipped
      .filter((s) => [SKIP.BAD_RECVDATE, SKIP.NO_VACCINE, SKIP.NO_EVENT, SKIP.DUPLICATE_ID].includes(s.reason as never))
      .reduce((sum, s) => sum + s.count, 0);
    expect(dataBuckets).toBe(data.reportsRead);
  });

  it('keeps at most 5 examples per reason but counts all', async () => {
    const dir = await tempDir();
    const ids = Array.from({ length: 8 }, (_, i) => String(i + 1));
    await writeFiles(dir, {
      '2000VAERSDATA.csv': dataCsv('old', ids.map((id) => ({ id, recvdate: 'UNKNOWN' }))),
      '2000VAERSVAX.csv': vaxCsv('old', []),
      '2000VAERSSYMPTOMS.csv': symptomsCsv([]),
    });
    const data = await readVaers(dir);
    expect(data.reports).toEqual([]);
    expect(data.skipped).toHaveLength(1);
    expect(data.skipped[0].count).toBe(8);
    expect(data.skipped[0].examples).toHaveLength(5);
  });

  it('a duplicate VAERS_ID across years keeps the first year\'s report', async () => {
    const dir = await tempDir();
    for (const year of [2001, 2002]) {
      await writeFiles(dir, {
        [`${year}VAERSDATA.csv`]: dataCsv('old', [{ id: '5', recvdate: `03/03/${year}` }]),
        [`${year}VAERSVAX.csv`]: vaxCsv('old', [{ id: '5', type: 'T', name: `V${year}` }]),
        [`${year}VAERSSYMPTOMS.csv`]: symptomsCsv([{ id: '5', terms: ['E'] }]),
      });
    }
    const data = await readVaers(dir);
    expect(data.reports).toMatchObject([{ id: 5, quarter: 2001 * 4, vaccines: [0], events: [0] }]);
    expect(data.reports).toHaveLength(1);
    expect(data.vaccines).toEqual(['V2001']);
    expect(data.skipped.map((s) => [s.reason, s.count, s.examples])).toEqual([
      [SKIP.DUPLICATE_ID, 1, ['VAERS_ID 5 (2002VAERSDATA.csv line 2)']],
      [SKIP.VAX_ORPHAN, 1, ['VAERS_ID 5 (2002VAERSVAX.csv line 2)']],
      [SKIP.SYMPTOMS_ORPHAN, 1, ['VAERS_ID 5 (2002VAERSSYMPTOMS.csv line 2)']],
    ]);
  });
});
