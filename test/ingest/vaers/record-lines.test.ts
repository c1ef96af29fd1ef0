/**
 * src/ingest/vaers/record-lines.ts: each record led by the physical line it starts on (hand-worked
 * on CRLF, CR and LF ends, line ends inside quoted fields, `""`, empty lines, chunks split anywhere),
 * the same lines as the streaming reader's (csv-records.ts), and DuckDB's `line` column after
 * duckdb-load.ts equal to readCsv's lines for every record of a file with multi-line narratives.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../src/ingest/vaers/csv.js';
import { CsvRecords } from '../../../src/ingest/vaers/csv-records.js';
import { loadVaersTables } from '../../../src/ingest/vaers/duckdb-load.js';
import { LINE_COLUMN, RecordLines } from '../../../src/ingest/vaers/record-lines.js';
import { scanFolder } from '../../../src/ingest/vaers/sources.js';
import { dataCsv, sampleYear, tempDir, writeFiles } from './fixtures.js';

/** The stage's output for `text` cut into `size`-byte chunks. */
async function numbered(text: string, size: number): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  const out: Buffer[] = [];
  for await (const piece of Readable.from(chunks).pipe(new RecordLines())) out.push(piece as Buffer);
  return Buffer.concat(out).toString('utf8');
}

/** The lines csv-records.ts gives the records of `text` (empty lines left out, as csv.ts does). */
function splitterLines(text: string): number[] {
  const lines: number[] = [];
  const splitter = new CsvRecords((fields, line) => {
    if (!(fields.length === 1 && fields[0] === '')) lines.push(line);
  }, 1 << 20);
  splitter.push(text);
  splitter.end();
  return lines;
}

const TEXT = 'VAERS_ID,X\r\n1,"a\r\nb"\r\n\r\n2,c\n3,"x""\ny"\r4,z\u2019';

describe('RecordLines', () => {
  it('leads each record with the line it starts on, the header with the column name', async () => {
    const expected = `${LINE_COLUMN},VAERS_ID,X\r\n2,1,"a\r\nb"\r\n\r\n5,2,c\n6,3,"x""\ny"\r8,4,z\u2019`;
    for (const size of [1, 2, 3, 7, 1 << 16]) expect(await numbered(TEXT, size)).toBe(expected);
    // The streaming reader's lines for the same records: the header's, then each record's.
    expect(splitterLines(TEXT)).toEqual([1, 2, 5, 6, 8]);
  });

  it('gives DuckDB\'s rows the streaming reader\'s lines (multi-line narratives, CRLF and LF files)', async () => {
    for (const eol of ['\r\n', '\n']) {
      const dir = await tempDir();
      const rows = Array.from({ length: 40 }, (_, k) => ({
        id: String(k + 1), recvdate: '01/15/1999', text: k % 3 === 0 ? `line one${eol}line "two"${eol.repeat(k % 4)}end` : `plain ${k}`,
      }));
      await writeFiles(dir, { ...sampleYear(1999, 'old', 1, eol), '1999VAERSDATA.csv': dataCsv('old', rows, eol) });
      const path = join(dir, '1999VAERSDATA.csv');
      const streamed: Array<[string, number]> = [];
      await readCsv([createReadStream(path)], path, {
        onHeader: () => undefined,
        onRecord: (fields, line) => streamed.push([fields[0], line]),
      });
      const folder = await scanFolder(dir, false);
      const db = await DuckDBInstance.create(':memory:');
      const connection = await db.connect();
      try {
        await loadVaersTables(folder, connection, await tempDir('vaers-scratch-'));
        const loaded = (await connection.runAndReadAll('SELECT VAERS_ID, line FROM raw_data ORDER BY rowid')).getRows();
        expect(loaded).toEqual(streamed);
        expect(streamed.slice(0, 5).map(([, line]) => line)).toEqual([2, 4, 5, 6, 11]);
      } finally {
        connection.closeSync();
        db.closeSync();
        folder.close();
      }
    }
  });
});
