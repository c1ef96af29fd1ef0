/**
 * The build's read through DuckDB (src/ingest/vaers/duckdb-read.ts readVaersWithDuckdb, with
 * duckdb-details.ts): a hand-worked year (cells trimmed, an unreadable AGE_YRS and SEX named by
 * file and line, the outcome columns the file has, a VAX header with both VAX_DOSE_SERIES and
 * VAX_DOSE, repeated terms keeping their first version, narratives copied into the scratch text
 * file as written, a blank one null), the same values as readVaers on the shared fixtures, and the
 * scratch folder removed after a read and after a failed one.
 */
import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVaersWithDuckdb } from '../../../src/ingest/vaers/duckdb-read.js';
import { readVaers, type VaersData } from '../../../src/ingest/vaers/read.js';
import { ReportText } from '../../../src/ingest/vaers/report-text.js';
import { OUTCOME } from '../../../src/domain/report-rules.js';
import { resolvedReports } from '../../../bench/resolved-details.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { csvBytes, followUpFiles, MODERN_DATA_HEADER, MODERN_VAX_HEADER, sampleYear, skipFiles, SYMPTOMS_HEADER, tempDir, writeFiles } from './fixtures.js';

/** readVaersWithDuckdb on `dir` with its narratives in a scratch text file under a fresh folder; `use` sees the data before the file goes. */
async function duckdbRead<T>(dir: string, use: (data: VaersData, scratch: string) => Promise<T>, detailsBatch?: number): Promise<T> {
  const work = await tempDir('vaers-build-read-');
  const text = await ReportText.create(join(work, 'text.duckdb'));
  try {
    const scratch = join(work, 'out.duckdb.tmp-1.read');
    return await use(await readVaersWithDuckdb(dir, { narratives: true, text, scratch, ...(detailsBatch ? { detailsBatch } : {}) }), scratch);
  } finally {
    await text.remove();
  }
}

/** The hand-worked year: 2021 files with a header of our own. */
function handWorkedYear(): Record<string, Buffer> {
  return {
    '2021VAERSDATA.csv': csvBytes([
      ['VAERS_ID', 'RECVDATE', 'STATE', 'AGE_YRS', 'SEX', 'SYMPTOM_TEXT', 'DIED', 'HOSPITAL', 'LAB_DATA'],
      ['1', '02/03/2021', ' MA ', '45', 'f', 'Fever\r\nthen rash ', 'Y', '', 'CBC ok'],
      ['2', '04/05/2021', '', 'forty', 'X', '   ', '', 'Y', ''],
      ['3', '13/01/2021', 'NY', '30', 'M', 'bad date', '', '', ''],
    ]),
    '2021VAERSVAX.csv': csvBytes([
      ['VAERS_ID', 'VAX_TYPE', 'VAX_MANU', 'VAX_LOT', 'VAX_DOSE_SERIES', 'VAX_DOSE', 'VAX_ROUTE', 'VAX_SITE', 'VAX_NAME'],
      ['1', 'FLU3', 'SANOFI', 'L1', '', '2', 'IM', 'LA', ' FLUZONE '],
      ['1', 'COVID19', 'PFIZER', 'L2', '1', '', 'IM', 'RA', 'COVID19 (PFIZER)'],
      ['2', 'FLU3', 'SANOFI', 'L3', '', '', '', '', ''],
      ['2', 'FLU3', 'SANOFI', 'L4', '2', '', 'SC', '', 'FLUZONE'],
      ['3', 'FLU3', 'SANOFI', 'L5', '', '', '', '', 'FLUZONE'],
    ]),
    '2021VAERSSYMPTOMS.csv': csvBytes([
      SYMPTOMS_HEADER,
      ['1', 'Pyrexia', '24.0', 'Rash', '24.0', '', '', '', '', '', ''],
      ['1', 'Rash', '25.0', 'Headache', '24.1', '', '', '', '', '', ''],
      ['2', 'Pyrexia', '', '', '', '', '', '', '', '', ''],
      ['3', 'Pyrexia', '24.0', '', '', '', '', '', '', '', ''],
    ]),
  };
}

/**
 * A 2022 year (current layout) whose DATA cells take every form: plain ones (read in SQL) and others
 * (`1e1`, `+5`, `0x10`, `-1`, `5.`, lower-case codes, `Yes`, a 29 February, a year 1899, blanks around)
 * that send their row to the streaming reader's functions (duckdb-cells.ts).
 */
function oddCellsYear(): Record<string, Buffer> {
  const cells: Array<Record<string, string>> = [
    { AGE_YRS: '1e1', SEX: 'u', RECOVD: 'y', DIED: 'y', NUMDAYS: '-3', VAX_DATE: '2/29/2020' },
    { AGE_YRS: ' +5 ', SEX: ' F ', RECOVD: 'Yes', HOSPITAL: ' Y ', NUMDAYS: '+2', ONSET_DATE: '2/29/2021' },
    { AGE_YRS: '0x10', SEX: 'Female', ER_VISIT: 'Y', ER_ED_VISIT: 'y', NUMDAYS: '1e2', RPT_DATE: '1/1/1899' },
    { AGE_YRS: '-1', SEX: 'm', L_THREAT: 'yes', NUMDAYS: '0.25', HOSPDAYS: '5.', DATEDIED: '12/31/2999' },
    { AGE_YRS: '5.', CAGE_YR: '3', NUMDAYS: '.5', TODAYS_DATE: ' 01/02/2022 ', V_ADMINBY: ' pvt ', FORM_VERS: '2' },
    { AGE_YRS: '12.50', SEX: 'M', RECOVD: 'n', HOSPDAYS: '007', VAX_DATE: '1/2/2022', ONSET_DATE: '01/2/2022' },
    { CAGE_YR: '3', CAGE_MO: '0.5', SEX: 'U', STATE: ' tx ', SPLTTYPE: 'WAES1', OFC_VISIT: 'Y', BIRTH_DEFECT: 'N' },
    { CAGE_YR: '2', CAGE_MO: '1', X_STAY: 'Y', DISABLE: 'n', RECOVD: 'U', NUMDAYS: '123456789012345.123456789012345' },
    { CAGE_YR: '2', CAGE_MO: 'x', SEX: 'X', RECOVD: 'u', HOSPDAYS: '1.5e1' },
    { CAGE_YR: ' 0 ', CAGE_MO: '.25', AGE_YRS: '', VAX_DATE: '13/1/2022', ONSET_DATE: '2/30/2022' },
    { CAGE_YR: 'Infinity', AGE_YRS: 'Infinity', NUMDAYS: '0.1', HOSPDAYS: '0.30000000000000004' },
  ];
  const header = [...MODERN_DATA_HEADER];
  const data = cells.map((c, k) => header.map((name) => (name === 'VAERS_ID' ? String(5000 + k) : name === 'RECVDATE' ? '03/04/2022' : c[name] ?? '')));
  return {
    '2022VAERSDATA.csv': csvBytes([header, ...data]),
    '2022VAERSVAX.csv': csvBytes([MODERN_VAX_HEADER, ...cells.map((_, k) => [String(5000 + k), 'FLU3', ' sanofi ', '', '1', 'IM', '', 'FLUZONE'])]),
    '2022VAERSSYMPTOMS.csv': csvBytes([SYMPTOMS_HEADER, ...cells.map((_, k) => [String(5000 + k), 'Pyrexia', '25.0', '', '', '', '', '', '', '', ''])]),
  };
}

describe('the build\'s read through DuckDB', () => {
  it('reads the hand-worked year\'s report values, VAX rows, events and narratives', async () => {
    const dir = await tempDir();
    await writeFiles(dir, handWorkedYear());
    await duckdbRead(dir, async (data) => {
      const d = data.details;
      const s = (n: number): string | null => (n < 0 ? null : d.strings[n]);
      expect(d.count).toBe(2);
      expect([...d.id]).toEqual([1, 2]);
      expect([...d.received]).toEqual([20210203, 20210405]);
      expect([...d.state].map(s)).toEqual(['MA', null]);
      expect([...d.age]).toEqual([45, NaN]);
      expect([...d.outcomes]).toEqual([OUTCOME.DIED, OUTCOME.HOSPITAL]);
      expect([...d.outcomesKnown]).toEqual([OUTCOME.DIED | OUTCOME.HOSPITAL, OUTCOME.DIED | OUTCOME.HOSPITAL]);
      // VAX rows with a name, file order; the current layout's VAX_DOSE_SERIES is read even where blank (VAX_DOSE ignored).
      const vax = (k: number): unknown[] => [s(d.vaccines.name[k]), s(d.vaccines.lot[k]), s(d.vaccines.dose[k]), s(d.vaccines.site[k])];
      expect([...d.vaccines.start]).toEqual([0, 2, 3]);
      expect([0, 1, 2].map(vax)).toEqual([['FLUZONE', 'L1', null, 'LA'], ['COVID19 (PFIZER)', 'L2', '1', 'RA'], ['FLUZONE', 'L4', '2', null]]);
      // Distinct terms in file order, each with the first version seen (Rash 24.0, not 25.0).
      expect([...d.events.start]).toEqual([0, 3, 4]);
      expect([...d.events.term].map((k, i) => [s(k), s(d.events.version[i])])).toEqual(
        [['Pyrexia', '24.0'], ['Rash', '24.0'], ['Headache', '24.1'], ['Pyrexia', null]]);
      // Report 2 starts on line 4: report 1's narrative holds a line break.
      expect(d.unparseable).toEqual([
        { field: 'AGE_YRS', count: 1, examples: [{ vaers_id: 2, file: '2021VAERSDATA.csv', line: 4, cell: 'forty' }] },
        { field: 'SEX', count: 1, examples: [{ vaers_id: 2, file: '2021VAERSDATA.csv', line: 4, cell: 'X' }] },
      ]);
      // The narratives as written (line break and trailing blank kept), a blank one null, read back from the scratch text file.
      expect(d.narrative).toBeNull();
      expect(await d.text!.read(['narrative', 'labData'], 0, 2)).toEqual({ narrative: ['Fever\r\nthen rash ', null], labData: ['CBC ok', null] });
      // Report 3 (RECVDATE 13/01/2021) is skipped; its VAX and SYMPTOMS rows are not orphans.
      expect(data.skipped).toEqual([{ reason: SKIP.BAD_RECVDATE, count: 1, examples: ["VAERS_ID 3 (2021VAERSDATA.csv line 5): RECVDATE '13/01/2021'"] }]);
    });
  });

  it('gives readVaers\'s values (strings resolved), lists, skips and sources on the shared fixtures, its details read whole or in batches', async () => {
    const years = await tempDir();
    await writeFiles(years, { ...sampleYear(1999, 'old', 1), ...sampleYear(2021, 'modern', 100), ...handWorkedYear(), ...oddCellsYear() }, true);
    const fixtures = [years];
    for (const files of [followUpFiles(), skipFiles()]) {
      const dir = await tempDir();
      await writeFiles(dir, files);
      fixtures.push(dir);
    }
    for (const dir of fixtures) {
      const streamed = await readVaers(dir, { narratives: true });
      // In one batch, and (as the full download's 2.1 million reports are) in batches of 3 reports.
      for (const batch of [undefined, 3]) {
        await duckdbRead(dir, async (data) => {
          expect(await resolvedReports(data)).toEqual(await resolvedReports(streamed));
          expect(data.details.unparseable).toEqual(streamed.details.unparseable);
          const { details: _a, ...rest } = data;
          const { details: _b, ...streamedRest } = streamed;
          expect(rest).toEqual(streamedRest);
        }, batch);
      }
    }
  });

  it('removes its scratch folder after a read and after a failed one', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 1));
    const left = await duckdbRead(dir, async (_, scratch) => access(scratch).then(() => true, () => false));
    expect(left).toBe(false);
    await writeFiles(dir, { '1999VAERSSYMPTOMS.csv': Buffer.from(`${SYMPTOMS_HEADER.join(',')}\r\n1,Rash,8.1\r\n`) });
    const work = await tempDir('vaers-build-read-');
    const text = await ReportText.create(join(work, 'text.duckdb'));
    try {
      await expect(readVaersWithDuckdb(dir, { narratives: true, text, scratch: join(work, 'x.read') })).rejects.toThrow(
        `${join(dir, '1999VAERSSYMPTOMS.csv')} line 2: 3 fields where the header has 11`);
    } finally {
      await text.remove();
    }
    expect(await readdir(work)).toEqual([]);
  });

  it('tells each step as it begins (the build shows them in its progress), in order', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 1));
    const work = await tempDir('vaers-build-read-');
    const started: string[] = [];
    await readVaersWithDuckdb(dir, { scratch: join(work, 'x.read'), onStepStart: (step) => started.push(step) });
    expect(started).toEqual(['read_csv DATA', 'read_csv VAX', 'read_csv SYMPTOMS', 'vax_rows', 'symptom_rows', 'vaers_latest', 'data_kept',
      'vaers_reports', 'report lists', 'skips', 'details']);
  });
});
