import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatQuarter } from '../../../src/domain/quarter.js';
import { readVaers, type VaersData, type VaersProgress } from '../../../src/ingest/vaers/read.js';
import { dataCsv, hasZipTool, makeZip, sampleYear, SYMPTOMS_HEADER, symptomsCsv, tempDir, vaxCsv, writeFiles } from './fixtures.js';

/** Reports with names instead of indexes, for readable expectations. */
function named(data: VaersData): { id: number; quarter: string; vaccines: string[]; events: string[] }[] {
  return data.reports.map((r) => ({
    id: r.id,
    quarter: formatQuarter(r.quarter),
    vaccines: r.vaccines.map((i) => data.vaccines[i]),
    events: r.events.map((i) => data.events[i]),
  }));
}

const FLU = 'INFLUENZA (SEASONAL) (FLUZONE)';
const MMR = 'MEASLES + MUMPS + RUBELLA (MMR II)';

/** The three reports of `sampleYear(year, layout, firstId)`. */
function sampleReports(year: number, firstId: number) {
  return [
    { id: firstId, quarter: `${year}Q1`, vaccines: [FLU], events: ['Pyrexia', 'Rash'] },
    { id: firstId + 1, quarter: `${year}Q2`, vaccines: [MMR], events: ['Rash'] },
    { id: firstId + 2, quarter: `${year}Q4`, vaccines: [FLU, MMR], events: ['Pyrexia', 'Headache'] },
  ];
}

describe('readVaers: the official yearly files', () => {
  it('reads the 2014 layout (29 columns, VAX_DOSE, CRLF) into report rows joined by VAERS_ID', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 25001));
    const data = await readVaers(dir);
    expect(named(data)).toEqual(sampleReports(1999, 25001));
    expect(data.reportsRead).toBe(3);
    expect(data.skipped).toEqual([]);
    expect(data.vaccines).toEqual([FLU, MMR]);
    expect(data.events).toEqual(['Pyrexia', 'Rash', 'Headache']);
    expect(data.vaxTypeCodes).toEqual(new Map([[0, new Set(['FLU3'])], [1, new Set(['MMR'])]]));
  });

  it('reads the current layout (35 columns, VAX_DOSE_SERIES, 7-digit zero-padded ids, LF)', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(2021, 'modern', 900001, '\n'));
    const data = await readVaers(dir);
    expect(named(data)).toEqual(sampleReports(2021, 900001));
  });

  it('vaccine and event indexes are distinct and ascending; a name given twice counts once', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      '2001VAERSDATA.csv': dataCsv('old', [{ id: '1', recvdate: '02/03/2001' }, { id: '2', recvdate: '02/03/2001' }]),
      '2001VAERSVAX.csv': vaxCsv('old', [
        { id: '1', type: 'B', name: 'VAX B' }, { id: '2', type: 'A', name: 'VAX A' },
        { id: '2', type: 'B', name: 'VAX B' }, { id: '2', type: 'A2', name: ' VAX A ' },
      ]),
      '2001VAERSSYMPTOMS.csv': symptomsCsv([{ id: '1', terms: ['E1'] }, { id: '2', terms: ['E2', 'E1', 'E2'] }, { id: '2', terms: ['E3', 'E1'] }]),
    });
    const data = await readVaers(dir);
    expect(data.reports.map((r) => [r.vaccines, r.events])).toEqual([[[0], [0]], [[0, 1], [0, 1, 2]]]);
    expect(named(data)[1]).toEqual({ id: 2, quarter: '2001Q1', vaccines: ['VAX B', 'VAX A'], events: ['E1', 'E2', 'E3'] });
    expect(data.vaxTypeCodes.get(1)).toEqual(new Set(['A', 'A2']));
  });

  it('decodes Windows-1252 (0x93, 0x94, 0x92 are curly quotes, not control characters)', async () => {
    const dir = await tempDir();
    const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
    await writeFiles(dir, {
      '2003VAERSDATA.csv': Buffer.concat([
        bytes(dataCsv('old', []).toString('latin1')),
        bytes('7,06/01/2003,,,,,,,"pt said \x93arm hurt\x94, can\x92t move",,,,,,,,,,,,,,,,,,,,\r\n'),
      ]),
      '2003VAERSVAX.csv': Buffer.concat([bytes('VAERS_ID,VAX_TYPE,VAX_MANU,VAX_LOT,VAX_DOSE,VAX_ROUTE,VAX_SITE,VAX_NAME\r\n'), bytes('7,X,,,,,,SMITH\x92S VACCINE\r\n')]),
      '2003VAERSSYMPTOMS.csv': Buffer.concat([bytes(`${SYMPTOMS_HEADER.join(',')}\r\n`), bytes('7,\x93Odd\x94 term,8.1,,,,,,,,\r\n')]),
    });
    const data = await readVaers(dir);
    expect(data.vaccines).toEqual(['SMITH\u2019S VACCINE']);
    expect(data.events).toEqual(['\u201cOdd\u201d term']);
  });

  it('reads quoted fields holding line breaks and numbers later lines by the physical line', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      '2002VAERSDATA.csv': dataCsv('old', [
        { id: '1', recvdate: '01/01/2002', text: 'line one\r\nline two\r\nline three' },
        { id: '2', recvdate: '99/99/2002', text: 'a\nb' },
        { id: '3', recvdate: '03/01/2002' },
      ]),
      '2002VAERSVAX.csv': vaxCsv('old', [{ id: '1', type: 'T', name: 'V' }, { id: '2', type: 'T', name: 'V' }, { id: '3', type: 'T', name: 'V' }]),
      '2002VAERSSYMPTOMS.csv': symptomsCsv([{ id: '1', terms: ['E'] }, { id: '2', terms: ['E'] }]),
    });
    const data = await readVaers(dir);
    expect(data.reports.map((r) => r.id)).toEqual([1]);
    // Header line 1; report 1 on lines 2-4; report 2 on lines 5-6; report 3 on line 7.
    expect(data.skipped).toEqual([
      { reason: 'report skipped: RECVDATE missing or not a MM/DD/YYYY date', count: 1, examples: ["VAERS_ID 2 (2002VAERSDATA.csv line 5): RECVDATE '99/99/2002'"] },
      { reason: 'report skipped: no SYMPTOMS row with a term in SYMPTOM1..5', count: 1, examples: ['VAERS_ID 3 (2002VAERSDATA.csv line 7)'] },
    ]);
  });

  it('reads .gz files, and records each source file with its sha256 and size on disk', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(2000, 'old', 100), true);
    await writeFiles(dir, { 'SOURCES.md': Buffer.from('not a VAERS file') });
    const data = await readVaers(dir);
    expect(named(data)).toEqual(sampleReports(2000, 100));
    const expected = [];
    for (const name of ['2000VAERSDATA.csv.gz', '2000VAERSSYMPTOMS.csv.gz', '2000VAERSVAX.csv.gz']) {
      const bytes = await readFile(join(dir, name));
      expected.push({ name, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    }
    expect(data.sources).toEqual(expected);
  });

  it('reads several years in year order, matching file names case-insensitively', async () => {
    const dir = await tempDir();
    const y2005 = sampleYear(2005, 'old', 500);
    await writeFiles(dir, { '2005vaersdata.csv': y2005['2005VAERSDATA.csv'], '2005VaersVax.CSV': y2005['2005VAERSVAX.csv'], '2005VAERSSYMPTOMS.csv': y2005['2005VAERSSYMPTOMS.csv'] });
    await writeFiles(dir, sampleYear(1991, 'old', 10), true);
    const data = await readVaers(dir);
    expect(named(data)).toEqual([...sampleReports(1991, 10), ...sampleReports(2005, 500)]);
  });

  it('reports progress per file (phase = kind) and prints nothing itself', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 1), true);
    const events: VaersProgress[] = [];
    await readVaers(dir, { onProgress: (e) => events.push(e) });
    const last = new Map(events.map((e) => [e.file, e]));
    expect([...last.keys()].sort()).toEqual(['1999VAERSDATA.csv.gz', '1999VAERSSYMPTOMS.csv.gz', '1999VAERSVAX.csv.gz']);
    for (const e of last.values()) {
      expect(e.bytesRead).toBe(e.bytesTotal);
      expect(e.bytesTotal).toBe((await stat(join(dir, e.file))).size);
      expect(e.fileCount).toBe(3);
    }
    expect(last.get('1999VAERSDATA.csv.gz')?.phase).toBe('DATA');
    expect(last.get('1999VAERSVAX.csv.gz')?.phase).toBe('VAX');
    expect(last.get('1999VAERSSYMPTOMS.csv.gz')?.phase).toBe('SYMPTOMS');
    expect(events[0]).toMatchObject({ file: '1999VAERSDATA.csv.gz', bytesRead: 0, fileIndex: 0 });
  });

  it('reads NonDomestic files only with includeNondomestic', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(2004, 'old', 40));
    const foreign = sampleYear(2004, 'modern', 70);
    await writeFiles(dir, {
      'NonDomesticVAERSDATA.csv': foreign['2004VAERSDATA.csv'],
      'NonDomesticVAERSVAX.csv': foreign['2004VAERSVAX.csv'],
      'NonDomesticVAERSSYMPTOMS.csv': foreign['2004VAERSSYMPTOMS.csv'],
    });
    const without = await readVaers(dir);
    expect(named(without)).toEqual(sampleReports(2004, 40));
    expect(without.sources.map((s) => s.name)).not.toContain('NonDomesticVAERSDATA.csv');
    const withNd = await readVaers(dir, { includeNondomestic: true });
    expect(named(withNd)).toEqual([...sampleReports(2004, 40), ...sampleReports(2004, 70)]);
    expect(withNd.reportsRead).toBe(6);
  });
});

describe.skipIf(!hasZipTool())('readVaers: the official zips as downloaded', () => {
  it('reads a per-year zip (2006VAERSData.zip holding 2006VAERS{DATA,VAX,SYMPTOMS}.csv)', async () => {
    const dir = await tempDir();
    await makeZip(join(dir, '2006VAERSData.zip'), sampleYear(2006, 'old', 260000));
    const data = await readVaers(dir);
    expect(named(data)).toEqual(sampleReports(2006, 260000));
    const zip = await readFile(join(dir, '2006VAERSData.zip'));
    expect(data.sources).toEqual([{ name: '2006VAERSData.zip', sha256: createHash('sha256').update(zip).digest('hex'), bytes: zip.length }]);
  });

  it('reads AllVAERSDataCSVS.zip with all years (and NonDomestic only with the option)', async () => {
    const dir = await tempDir();
    const foreign = sampleYear(2021, 'modern', 9000);
    await makeZip(join(dir, 'AllVAERSDataCSVS.zip'), {
      ...sampleYear(2020, 'modern', 8000),
      ...sampleYear(1990, 'modern', 1),
      'NonDomesticVAERSDATA.csv': foreign['2021VAERSDATA.csv'],
      'NonDomesticVAERSVAX.csv': foreign['2021VAERSVAX.csv'],
      'NonDomesticVAERSSYMPTOMS.csv': foreign['2021VAERSSYMPTOMS.csv'],
    });
    const events: VaersProgress[] = [];
    const data = await readVaers(dir, { onProgress: (e) => events.push(e) });
    expect(named(data)).toEqual([...sampleReports(1990, 1), ...sampleReports(2020, 8000)]);
    expect(data.sources.map((s) => s.name)).toEqual(['AllVAERSDataCSVS.zip']);
    expect(events.at(-1)).toMatchObject({ file: 'AllVAERSDataCSVS.zip:2020VAERSSYMPTOMS.csv', phase: 'SYMPTOMS' });
    const all = await readVaers(dir, { includeNondomestic: true });
    expect(named(all)).toEqual([...sampleReports(1990, 1), ...sampleReports(2020, 8000), ...sampleReports(2021, 9000)]);
  });

  it('finds members inside a folder of the zip', async () => {
    const dir = await tempDir();
    const year = sampleYear(1995, 'old', 5);
    await makeZip(join(dir, 'AllVAERSDataCSVS.zip'), Object.fromEntries(Object.entries(year).map(([n, b]) => [`AllVAERSDataCSVS/${n}`, b])));
    expect(named(await readVaers(dir))).toEqual(sampleReports(1995, 5));
  });

  it('reads a mix of per-year zips and loose files', async () => {
    const dir = await tempDir();
    await makeZip(join(dir, '1997VAERSData.zip'), sampleYear(1997, 'old', 97));
    await writeFiles(dir, sampleYear(1998, 'old', 198), true);
    expect(named(await readVaers(dir))).toEqual([...sampleReports(1997, 97), ...sampleReports(1998, 198)]);
  });
});
