/**
 * The DuckDB read path (src/ingest/vaers/transcode.ts, duckdb-load.ts, duckdb-join.ts): the
 * Windows-1252 characters decoded exactly (hand-worked code points of the bytes where cp1252
 * differs from Latin-1), plain, gzip and zip inputs, follow-up versions, and the streaming
 * reader's errors naming file and line; the joined reports checked against readVaers.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/domain/user-error.js';
import { joinVaersTables } from '../../../src/ingest/vaers/duckdb-join.js';
import { vaersSkipped } from '../../../src/ingest/vaers/duckdb-skips.js';
import { vaersReportLists, type VaersReportLists } from '../../../src/ingest/vaers/duckdb-reports.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { loadVaersTables } from '../../../src/ingest/vaers/duckdb-load.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { scanFolder, SourceHashes, type SourceFile, type VaersProgress } from '../../../src/ingest/vaers/sources.js';
import { Cp1252ToUtf8 } from '../../../src/ingest/vaers/transcode.js';
import { dataCsv, followUpFiles, hasZipTool, makeZip, sampleYear, skipFiles, symptomsCsv, SYMPTOMS_HEADER, tempDir, vaxCsv, writeFiles } from './fixtures.js';

/** The stream's output for `chunks`, as text. */
async function transcode(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const piece of Readable.from(chunks).pipe(new Cp1252ToUtf8('test.csv'))) out.push(piece as Buffer);
  return Buffer.concat(out).toString('utf8');
}

interface Joined { id: number; received: string; vaccines: string[]; events: string[]; text: string | null }

/** Loads and joins `dir` in a fresh in-memory DuckDB; the kept reports in reading order with their SYMPTOM_TEXT. */
async function duckRead(dir: string): Promise<Joined[] & { counts?: Awaited<ReturnType<typeof vaersSkipped>>; lists?: VaersReportLists; sources?: SourceFile[]; progress?: VaersProgress[] }> {
  const folder = await scanFolder(dir, false);
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const hashes = new SourceHashes(folder);
    const progress: VaersProgress[] = [];
    await loadVaersTables(folder, connection, await tempDir('vaers-scratch-'), undefined, { hashes, onProgress: (e) => progress.push(e) });
    await joinVaersTables(connection);
    const rows = (await connection.runAndReadAll(`
      SELECT r.id::INTEGER AS id, strftime(r.received, '%Y-%m-%d') AS received, r.vaccines, r.events, d.SYMPTOM_TEXT AS text
      FROM vaers_reports r JOIN raw_data d ON d.rowid = r.seq ORDER BY r.seq`)).getRowObjectsJS();
    const joined = rows.map((r) => ({ ...(r as unknown as Joined), vaccines: [...(r.vaccines as string[])], events: [...(r.events as string[])] }));
    return Object.assign(joined, { counts: await vaersSkipped(connection, folder), lists: await vaersReportLists(connection), sources: await hashes.list(), progress });
  } finally {
    connection.closeSync();
    db.closeSync();
    folder.close();
  }
}

/** readVaers's kept reports, shaped as duckRead's (vaccines and events sorted by name on both sides for the comparison). */
async function streamRead(dir: string): Promise<Array<[number, string[], string[], string | null]>> {
  const data = await readVaers(dir, { narratives: true });
  return data.reports.map((r, i) => [r.id, r.vaccines.map((k) => data.vaccines[k]).sort(), r.events.map((k) => data.events[k]).sort(), data.details.narrative?.[i] ?? null]);
}
const shape = (rows: Joined[]): Array<[number, string[], string[], string | null]> =>
  rows.map((r) => [r.id, [...r.vaccines].sort(), [...r.events].sort(), r.text]);

/** The report lists, names, VAX_TYPE codes (Map and Set order kept) and follow-up counts, comparable with toEqual. */
const listsOf = (d: VaersReportLists): unknown => [d.reports, d.vaccines, d.events, [...d.vaxTypeCodes].map(([k, codes]) => [k, [...codes]]), d.versions];

async function userError(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }
  throw new Error('expected a UserError');
}

describe('Cp1252ToUtf8', () => {
  it('decodes the bytes where Windows-1252 differs from Latin-1, and keeps the undefined ones as the reader does (U+FFFD)', async () => {
    const bytes = [0x80, 0x92, 0x96, 0x93, 0x94, 0x85, 0x9f, 0x81, 0x8d, 0x8f, 0x90, 0x9d, 0xa0, 0xe9, 0x41];
    const text = await transcode([Buffer.from(bytes.slice(0, 4)), Buffer.from(bytes.slice(4))]);
    expect([...text].map((c) => c.codePointAt(0))).toEqual(
      [0x20ac, 0x2019, 0x2013, 0x201c, 0x201d, 0x2026, 0x0178, 0xfffd, 0xfffd, 0xfffd, 0xfffd, 0xfffd, 0xa0, 0xe9, 0x41]);
  });

  it('reads a file with a UTF-8 byte-order mark as UTF-8 (mark dropped), a sequence split across chunks included', async () => {
    const utf8 = Buffer.from('\ufeffcaf\u00e9 \u2019', 'utf8');
    expect(await transcode([utf8.subarray(0, 6), utf8.subarray(6)])).toBe('caf\u00e9 \u2019');
  });

  it('passes ASCII through and rejects binary data naming the file', async () => {
    expect(await transcode([Buffer.from('VAERS_ID,X\r\n1,a\r\n')])).toBe('VAERS_ID,X\r\n1,a\r\n');
    await expect(transcode([Buffer.from([0x41, 0x00, 0x42])])).rejects.toThrow('test.csv: not a CSV text file (binary data at byte 1)');
  });
});

describe('DuckDB read and join', () => {
  it('keeps the narratives\' cp1252 characters exactly as the streaming reader decodes them', async () => {
    const dir = await tempDir();
    const year = sampleYear(1999, 'old', 1);
    // The narrative's raw bytes (dataCsv would encode text to cp1252 itself): I, 0x92, m, space, 0x80, 5, space, 0x96, the five undefined bytes, 0xE9.
    const raw = Buffer.from([0x49, 0x92, 0x6d, 0x20, 0x80, 0x35, 0x20, 0x96, 0x20, 0x81, 0x8d, 0x8f, 0x90, 0x9d, 0x20, 0xe9]);
    const csv = dataCsv('old', [{ id: '1', recvdate: '01/15/1999', text: 'PLACEHOLDER' }, { id: '2', recvdate: '5/3/1999' }, { id: '3', recvdate: '11/30/1999' }]);
    const at = csv.indexOf('PLACEHOLDER');
    await writeFiles(dir, { ...year, '1999VAERSDATA.csv': Buffer.concat([csv.subarray(0, at), raw, csv.subarray(at + 'PLACEHOLDER'.length)]) });
    const rows = await duckRead(dir);
    expect(rows[0].text).toBe('I\u2019m \u20ac5 \u2013 \ufffd\ufffd\ufffd\ufffd\ufffd \u00e9');
    expect(shape(rows)).toEqual(await streamRead(dir));
    expect(rows.map((r) => r.received)).toEqual(['1999-01-15', '1999-05-03', '1999-11-30']);
  });

  it('reads gzip files and the official zips as the streaming reader does', async () => {
    const gz = await tempDir();
    await writeFiles(gz, { ...sampleYear(1999, 'old', 1), ...sampleYear(2021, 'modern', 100) }, true);
    const fromGz = await duckRead(gz);
    expect(fromGz.map((r) => r.id)).toEqual([1, 2, 3, 100, 101, 102]);
    expect(shape(fromGz)).toEqual(await streamRead(gz));
    // The sources' sha256 and each file's progress events as readVaers gives them (files in the load's order: DATA, VAX, SYMPTOMS).
    const progress: VaersProgress[] = [];
    const streamed = await readVaers(gz, { onProgress: (e) => progress.push(e) });
    expect(listsOf(fromGz.lists as VaersReportLists)).toEqual(listsOf(streamed));
    expect(fromGz.sources).toEqual(streamed.sources);
    expect(fromGz.sources?.[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    const byFile = (events: VaersProgress[]): unknown => events.map(({ fileIndex: _, ...e }) => e).sort((a, b) => a.file.localeCompare(b.file));
    expect(byFile(fromGz.progress ?? [])).toEqual(byFile(progress));
    expect(fromGz.progress?.map((e) => `${e.fileIndex}:${e.phase}`).filter((_, k) => k % 2 === 0)).toEqual(
      ['0:DATA', '1:DATA', '2:VAX', '3:VAX', '4:SYMPTOMS', '5:SYMPTOMS']);
    if (!hasZipTool()) return;
    const zip = await tempDir();
    await makeZip(join(zip, 'AllVAERSDataCSVS.zip'), { ...sampleYear(1999, 'old', 1), ...sampleYear(2021, 'modern', 100) });
    const fromZip = await duckRead(zip);
    expect(shape(fromZip)).toEqual(shape(fromGz));
    expect(fromZip.sources).toEqual((await readVaers(zip)).sources);
  });

  it('keeps the latest follow-up version of each report, across years', async () => {
    const dir = await tempDir();
    await writeFiles(dir, followUpFiles());
    const rows = await duckRead(dir);
    expect(rows.map((r) => [r.id, r.received, r.vaccines, r.events])).toEqual([
      [21, '2024-04-01', ['FLU OLD'], ['Rash']],
      [10, '2025-01-10', ['ZOSTER B', 'ZOSTER C'], ['Pain']],
      [11, '2025-02-10', ['ZOSTER A'], ['Pain']],
      [12, '2025-07-10', ['ZOSTER A'], ['Headache']],
      [20, '2024-03-15', ['FLU NEW'], ['Urticaria']],
    ]);
    expect(shape(rows)).toEqual(await streamRead(dir));
    const streamed = await readVaers(dir);
    expect(rows.counts).toEqual({ reportsRead: 6, kept: 5, skipped: streamed.skipped });
    // Numbered by first joined row in reading order (2024 first; 10's version-1 ZOSTER A is dropped, so B and C come before A).
    expect(listsOf(rows.lists as VaersReportLists)).toEqual([
      [{ id: 21, quarter: 2024 * 4 + 1, vaccines: [0], events: [0] }, { id: 10, quarter: 2025 * 4, vaccines: [1, 2], events: [1] },
        { id: 11, quarter: 2025 * 4, vaccines: [3], events: [1] }, { id: 12, quarter: 2025 * 4 + 2, vaccines: [3], events: [2] },
        { id: 20, quarter: 2024 * 4, vaccines: [4], events: [3] }],
      ['FLU OLD', 'ZOSTER B', 'ZOSTER C', 'ZOSTER A', 'FLU NEW'], ['Rash', 'Pain', 'Headache', 'Urticaria'],
      [[0, ['FLU3']], [1, ['VARZOS']], [2, ['VARZOS']], [3, ['VARZOS']], [4, ['VARZOS']]],
      { followUpReports: 3, reportsWithSeveralVersions: 2, vaxRowsDropped: 2, symptomsRowsDropped: 3, dataRowsDropped: 1 },
    ]);
    expect(listsOf(rows.lists as VaersReportLists)).toEqual(listsOf(streamed));
    expect(streamed.skipped.map((s) => [s.reason, s.count, s.examples[0]])).toEqual([
      [SKIP.EARLIER_VERSION_DATA, 1, 'VAERS_ID 20 (2024VAERSDATA.csv line 2)'],
      // report 20's 2024 rows (version 1 of 2), then 10's version-1 rows in 2025 (ZOSTER A; Pain in extremity and Dialysis)
      [SKIP.VAX_EARLIER_VERSION, 2, 'VAERS_ID 20 (2024VAERSVAX.csv line 2): ORDER 1 of 2'],
      [SKIP.SYMPTOMS_EARLIER_VERSION, 3, 'VAERS_ID 20 (2024VAERSSYMPTOMS.csv line 2): ORDER 1 of 2'],
    ]);
  });

  it('puts each DATA record in the bucket the streaming reader counts it in', async () => {
    const dir = await tempDir();
    await writeFiles(dir, skipFiles());
    const rows = await duckRead(dir);
    expect(rows.map((r) => [r.id, r.vaccines, r.events])).toEqual([[1, ['KEPT VACCINE'], ['Pyrexia']]]);
    // Every reason with its count and examples naming file and line, as readVaers tallies them (test/ingest/vaers/skips.test.ts).
    const streamed = await readVaers(dir);
    expect(rows.counts).toEqual({ reportsRead: 9, kept: 1, skipped: streamed.skipped });
    expect(listsOf(rows.lists as VaersReportLists)).toEqual(listsOf(streamed));
    expect(streamed.skipped.find((s) => s.reason === SKIP.BAD_ID)?.examples).toEqual(["1999VAERSDATA.csv line 10: VAERS_ID '12a'", "1999VAERSVAX.csv line 8: VAERS_ID ''"]);
  });

  it('words the skip examples as readVaers: cells as written, five per reason in reading order, across years', async () => {
    const dir = await tempDir();
    for (const year of [2001, 2002]) {
      await writeFiles(dir, {
        [`${year}VAERSDATA.csv`]: dataCsv('old', [{ id: '5', recvdate: `03/03/${year}` },
          ...Array.from({ length: 7 }, (_, k) => ({ id: ` ${year * 10 + k} `, recvdate: k % 2 ? ' UNKNOWN ' : 'a,"b"' })), { id: ' 1x ', recvdate: '01/01/2001' }]),
        [`${year}VAERSVAX.csv`]: vaxCsv('old', [{ id: '5', type: 'T', name: `V${year}` }, { id: '\t', type: 'T', name: 'V' }]),
        [`${year}VAERSSYMPTOMS.csv`]: symptomsCsv([{ id: '5', terms: ['E'] }]),
      });
    }
    const rows = await duckRead(dir);
    const streamed = await readVaers(dir);
    expect(rows.counts).toEqual({ reportsRead: 18, kept: 1, skipped: streamed.skipped });
    expect(listsOf(rows.lists as VaersReportLists)).toEqual(listsOf(streamed));
    expect(streamed.skipped.map((s) => [s.reason, s.count, s.examples.slice(0, 2)])).toEqual([
      [SKIP.BAD_RECVDATE, 14, ["VAERS_ID 20010 (2001VAERSDATA.csv line 3): RECVDATE 'a,\"b\"'", "VAERS_ID 20011 (2001VAERSDATA.csv line 4): RECVDATE ' UNKNOWN '"]],
      [SKIP.DUPLICATE_ID, 1, ['VAERS_ID 5 (2002VAERSDATA.csv line 2)']],
      [SKIP.BAD_ID, 4, ["2001VAERSDATA.csv line 10: VAERS_ID ' 1x '", "2001VAERSVAX.csv line 3: VAERS_ID '\t'"]],
      [SKIP.VAX_ORPHAN, 1, ['VAERS_ID 5 (2002VAERSVAX.csv line 2)']],
      [SKIP.SYMPTOMS_ORPHAN, 1, ['VAERS_ID 5 (2002VAERSSYMPTOMS.csv line 2)']],
    ]);
    expect(streamed.skipped[0].examples).toHaveLength(5);
  });

  it('a malformed row is a UserError naming the file and line', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { ...sampleYear(1999, 'old', 1), '1999VAERSSYMPTOMS.csv': Buffer.from(`${SYMPTOMS_HEADER.join(',')}\r\n1,Rash,8.1,,,,,,,,\r\n2,Rash,8.1\r\n`) });
    expect(await userError(duckRead(dir))).toBe(`${join(dir, '1999VAERSSYMPTOMS.csv')} line 3: 3 fields where the header has 11 (broken quoting, or not a VAERS CSV)`);
    const header = dataCsv('old', []).toString('latin1');
    const good = '1,01/01/1999,,,,,,,"multi\r\nline",,,,,,,,,,,,,,,,,,,,\r\n';
    await writeFiles(dir, { '1999VAERSDATA.csv': Buffer.from(`${header}${good}2,01/01/1999,,,,,,,"text"x,,,,,,,,,,,,,,,,,,,,\r\n`, 'latin1'), '1999VAERSSYMPTOMS.csv': sampleYear(1999, 'old', 1)['1999VAERSSYMPTOMS.csv'] });
    expect(await userError(duckRead(dir))).toBe(`${join(dir, '1999VAERSDATA.csv')} line 4: not valid CSV: a quote inside an unquoted field, or text after a closing quote`);
    await writeFiles(dir, { '1999VAERSDATA.csv': Buffer.from('VAERS_ID,RPT_DATE\r\n1,01/01/1999\r\n') });
    expect(await userError(duckRead(dir))).toBe(`${join(dir, '1999VAERSDATA.csv')} line 1: header lacks column RECVDATE (found: VAERS_ID, RPT_DATE)`);
  });

  it('DuckDB running out of memory in read_csv is said as memory, naming the files, not as bad CSV', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 1));
    const folder = await scanFolder(dir, false);
    // read_csv's buffers are 64 MB (duckdb-load.ts): a 16 MB cap cannot hold one.
    const db = await DuckDBInstance.create(':memory:', { memory_limit: '16MB' });
    const connection = await db.connect();
    try {
      const message = await userError(loadVaersTables(folder, connection, await tempDir('vaers-scratch-')));
      expect(message).toMatch(/^(.*): out of memory while DuckDB's read_csv read them \(Out of Memory Error: /);
      expect(message.startsWith(`${join(dir, '1999VAERSDATA.csv')}: out of memory`)).toBe(true);
      expect(message).not.toContain('not valid CSV');
    } finally {
      connection.closeSync();
      db.closeSync();
      folder.close();
    }
  });
});
