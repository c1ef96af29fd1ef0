import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { narrativeCell, readNarratives } from './narrative-records.js';

const dir = mkdtempSync(path.join(tmpdir(), 'narratives-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = 'VAERS_ID,RECVDATE,SYMPTOM_TEXT,LAB_DATA,HISTORY,CUR_ILL,OTHER_MEDS,PRIOR_VAX\r\n';
/** Windows-1252 bytes: 0xE9 is é, 0x92 is a right single quote. */
const win1252 = (text: string): Buffer => iconv.encode(text, 'win1252');

describe('readNarratives', () => {
  it('reads the six fields of each VAERSDATA file in the year range, Windows-1252 decoded, as written', async () => {
    writeFileSync(path.join(dir, '1999VAERSDATA.csv.gz'), gzipSync(win1252(`${HEADER}12,01/02/1999,"Guillain-Barré, Bell’s palsy\r\nline 2",lab,,  ,none,\r\nx,01/02/1999,bad id,,,,,\r\n12,01/03/1999,repeated,,,,,\r\n`)));
    writeFileSync(path.join(dir, '2000VAERSDATA.csv'), win1252(`${HEADER} 13 ,01/02/2000, fever ,,,,,DTP\r\n`));
    writeFileSync(path.join(dir, '2000VAERSDATA.csv.gz'), gzipSync(win1252(`${HEADER}99,01/02/2000,ignored (the plain file wins),,,,,\r\n`)));
    writeFileSync(path.join(dir, '2001VAERSDATA.csv'), win1252(`${HEADER}14,01/02/2001,out of range,,,,,\r\n`));
    expect(await readNarratives(dir, 1999, 2000)).toEqual([
      { id: 12, fields: ['Guillain-Barré, Bell’s palsy\r\nline 2', 'lab', null, null, 'none', null] },
      { id: 13, fields: [' fever ', null, null, null, null, 'DTP'] },
    ]);
  });

  it('reads nothing from a missing folder', async () => {
    expect(await readNarratives(path.join(dir, 'absent'))).toEqual([]);
  });

  it('keeps a cell as written unless blank', () => {
    expect([narrativeCell(undefined), narrativeCell(''), narrativeCell(' \r\n'), narrativeCell(' a ')]).toEqual([null, null, null, ' a ']);
  });
});
