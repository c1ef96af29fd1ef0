import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/domain/user-error.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { csvBytes, dataCsv, hasZipTool, makeZip, sampleYear, SYMPTOMS_HEADER, tempDir, writeFiles } from './fixtures.js';

/** The UserError `readVaers(dir)` rejects with (fails the test on any other outcome). */
async function userError(dir: string, options?: Parameters<typeof readVaers>[1]): Promise<string> {
  try {
    await readVaers(dir, options);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }
  throw new Error('expected a UserError');
}

/** A folder with a good 1999 and `files` replacing some of its files. */
async function year1999With(files: Record<string, Buffer>): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, { ...sampleYear(1999, 'old', 1), ...files });
  return dir;
}

describe('readVaers: bad input is a UserError naming the file and line', () => {
  it('folder missing, not a folder, or without VAERS files', async () => {
    const dir = await tempDir();
    expect(await userError(join(dir, 'nope'))).toBe(`--vaers ${join(dir, 'nope')}: folder not found or not readable`);
    await writeFile(join(dir, 'file.txt'), 'x');
    expect(await userError(join(dir, 'file.txt'))).toBe(`--vaers ${join(dir, 'file.txt')}: not a folder`);
    expect(await userError(dir)).toMatch(new RegExp(`^${dir}: no VAERS files found \\(expected <YEAR>VAERSDATA.csv, .*AllVAERSDataCSVS.zip\\)$`));
  });

  it('only NonDomestic files without the option', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'NonDomesticVAERSDATA.csv': dataCsv('old', []) });
    expect(await userError(dir)).toBe(`${dir}: only NonDomestic VAERS files found; pass --include-nondomestic to read them`);
  });

  it('a missing file kind for a year names the year and the kind', async () => {
    const dir = await tempDir();
    const year = sampleYear(2003, 'old', 1);
    await writeFiles(dir, { '2003VAERSDATA.csv': year['2003VAERSDATA.csv'], '2003VAERSSYMPTOMS.csv': year['2003VAERSSYMPTOMS.csv'] });
    expect(await userError(dir)).toBe(`${dir}: year 2003 has 2003VAERSDATA.csv, 2003VAERSSYMPTOMS.csv but no VAERSVAX file (2003VAERSVAX.csv, .csv.gz or in a zip)`);
    const dir2 = await tempDir();
    await writeFiles(dir2, { '2004VAERSVAX.csv': year['2003VAERSVAX.csv'] });
    expect(await userError(dir2)).toMatch(/year 2004 has 2004VAERSVAX.csv but no VAERSDATA file/);
  });

  it('the same year and kind twice (plain and .gz) would count twice', async () => {
    const dir = await year1999With({});
    await writeFiles(dir, { '1999VAERSVAX.csv': sampleYear(1999, 'old', 1)['1999VAERSVAX.csv'] }, true);
    expect(await userError(dir)).toBe(`${dir}: 1999 VAERSVAX found twice (1999VAERSVAX.csv and 1999VAERSVAX.csv.gz); keep one copy, or the same reports would be counted twice`);
  });

  it('headers without the needed columns', async () => {
    let dir = await year1999With({ '1999VAERSDATA.csv': csvBytes([['VAERS_ID', 'RPT_DATE'], ['1', '01/01/1999']]) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSDATA.csv')} line 1: header lacks column RECVDATE (found: VAERS_ID, RPT_DATE)`);
    dir = await year1999With({ '1999VAERSVAX.csv': csvBytes([['VAERS_ID', 'VAX_TYPE'], ['1', 'X']]) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSVAX.csv')} line 1: header lacks column VAX_NAME (found: VAERS_ID, VAX_TYPE)`);
    dir = await year1999With({ '1999VAERSSYMPTOMS.csv': csvBytes([['ID', 'TERM'], ['1', 'X']]) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSSYMPTOMS.csv')} line 1: header lacks columns VAERS_ID, SYMPTOM1 (found: ID, TERM)`);
  });

  it('a file that is not CSV text (binary junk, a gzip named .csv)', async () => {
    let dir = await year1999With({ '1999VAERSDATA.csv': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0xff, 0xfe]) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSDATA.csv')}: not a CSV text file (binary data at byte 5)`);
    dir = await year1999With({ '1999VAERSVAX.csv': gzipSync(Buffer.from('VAERS_ID,VAX_NAME\n1,X\n')) });
    expect(await userError(dir)).toMatch(new RegExp(`^${join(dir, '1999VAERSVAX.csv')}: not a CSV text file \\(binary data at byte \\d+\\)$`));
  });

  it('a corrupt .gz', async () => {
    const dir = await tempDir();
    await writeFiles(dir, sampleYear(1999, 'old', 1), true);
    await writeFile(join(dir, '1999VAERSSYMPTOMS.csv.gz'), Buffer.from('this is not gzip at all'));
    expect(await userError(dir)).toMatch(new RegExp(`^${join(dir, '1999VAERSSYMPTOMS.csv.gz')}: not a valid gzip file \\(incorrect header check\\)$`));
    const truncated = gzipSync(sampleYear(1999, 'old', 1)['1999VAERSSYMPTOMS.csv']);
    await writeFile(join(dir, '1999VAERSSYMPTOMS.csv.gz'), truncated.subarray(0, truncated.length - 12));
    expect(await userError(dir)).toMatch(/1999VAERSSYMPTOMS.csv.gz: not a valid gzip file \(unexpected end of file\)$/);
  });

  it('an empty file', async () => {
    const dir = await year1999With({ '1999VAERSVAX.csv': Buffer.alloc(0) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSVAX.csv')}: empty file (no header line)`);
  });

  it('malformed quoting names the line, counting line breaks inside quoted fields', async () => {
    const header = dataCsv('old', []).toString('latin1');
    const good = '1,01/01/1999,,,,,,,"multi\r\nline",,,,,,,,,,,,,,,,,,,,\r\n';
    let dir = await year1999With({ '1999VAERSDATA.csv': Buffer.from(`${header}${good}2,01/01/1999,,,,,,,"text"x,,,,,,,,,,,,,,,,,,,,\r\n`, 'latin1') });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSDATA.csv')} line 4: not valid CSV: a quote inside an unquoted field, or text after a closing quote`);
    dir = await year1999With({ '1999VAERSDATA.csv': Buffer.from(`${header}${good}2,01/01/1999,,,,,,,"never closed,,,,\r\n3,x\r\n`, 'latin1') });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSDATA.csv')} line 4: not valid CSV: a quoted field that is never closed`);
  });

  it('a record whose field count differs from the header', async () => {
    const dir = await year1999With({ '1999VAERSSYMPTOMS.csv': Buffer.from(`${SYMPTOMS_HEADER.join(',')}\r\n1,Rash,8.1,,,,,,,,\r\n2,Rash,8.1\r\n`) });
    expect(await userError(dir)).toBe(`${join(dir, '1999VAERSSYMPTOMS.csv')} line 3: 3 fields where the header has 11 (broken quoting, or not a VAERS CSV)`);
  });
});

describe.skipIf(!hasZipTool())('readVaers: bad zips', () => {
  it('a corrupt zip', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'AllVAERSDataCSVS.zip'), Buffer.from('PK\x03\x04 truncated download'));
    expect(await userError(dir)).toMatch(new RegExp(`^${join(dir, 'AllVAERSDataCSVS.zip')}: not a valid zip file \\(.+\\)$`));
  });

  it('a VAERS zip without VAERS CSVs', async () => {
    const dir = await tempDir();
    await makeZip(join(dir, '2006VAERSData.zip'), { 'readme.txt': Buffer.from('hello') });
    expect(await userError(dir)).toBe(`${join(dir, '2006VAERSData.zip')}: holds no VAERS CSV files (<YEAR>VAERSDATA.csv, ...)`);
  });

  it('a year in both a per-year zip and the all-years zip', async () => {
    const dir = await tempDir();
    await makeZip(join(dir, '2006VAERSData.zip'), sampleYear(2006, 'old', 1));
    await makeZip(join(dir, 'AllVAERSDataCSVS.zip'), sampleYear(2006, 'old', 1));
    expect(await userError(dir)).toBe(
      `${dir}: 2006 VAERSDATA found twice (2006VAERSData.zip:2006VAERSDATA.csv and AllVAERSDataCSVS.zip:2006VAERSDATA.csv); keep one copy, or the same reports would be counted twice`,
    );
  });

  it('bad CSV inside a zip names zip, member and line', async () => {
    const dir = await tempDir();
    const year = sampleYear(2006, 'old', 1);
    await makeZip(join(dir, '2006VAERSData.zip'), { ...year, '2006VAERSVAX.csv': Buffer.from('VAERS_ID,VAX_NAME\r\n1,"A"B\r\n') });
    expect(await userError(dir)).toBe(`${join(dir, '2006VAERSData.zip')}:2006VAERSVAX.csv line 2: not valid CSV: a quote inside an unquoted field, or text after a closing quote`);
  });
});
