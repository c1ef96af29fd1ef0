/**
 * Small VAERS files written by the tests themselves: both column layouts, CRLF or LF,
 * Windows-1252 bytes, gzip, and zips made with the `zip` command-line tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';

/** VAERSDATA header of the 2014 release (29 columns), as in ../shared/data/vaers. */
export const OLD_DATA_HEADER =
  'VAERS_ID,RECVDATE,STATE,AGE_YRS,CAGE_YR,CAGE_MO,SEX,RPT_DATE,SYMPTOM_TEXT,DIED,DATEDIED,L_THREAT,ER_VISIT,HOSPITAL,HOSPDAYS,X_STAY,DISABLE,RECOVD,VAX_DATE,ONSET_DATE,NUMDAYS,LAB_DATA,V_ADMINBY,V_FUNDBY,OTHER_MEDS,CUR_ILL,HISTORY,PRIOR_VAX,SPLTTYPE'.split(',');
/** VAERSDATA header of the current releases (35 columns), as in ../shared/data/vaers-modern-layout. */
export const MODERN_DATA_HEADER = [...OLD_DATA_HEADER, 'FORM_VERS', 'TODAYS_DATE', 'BIRTH_DEFECT', 'OFC_VISIT', 'ER_ED_VISIT', 'ALLERGIES'];
export const OLD_VAX_HEADER = 'VAERS_ID,VAX_TYPE,VAX_MANU,VAX_LOT,VAX_DOSE,VAX_ROUTE,VAX_SITE,VAX_NAME'.split(',');
export const MODERN_VAX_HEADER = 'VAERS_ID,VAX_TYPE,VAX_MANU,VAX_LOT,VAX_DOSE_SERIES,VAX_ROUTE,VAX_SITE,VAX_NAME'.split(',');
export const SYMPTOMS_HEADER =
  'VAERS_ID,SYMPTOM1,SYMPTOMVERSION1,SYMPTOM2,SYMPTOMVERSION2,SYMPTOM3,SYMPTOMVERSION3,SYMPTOM4,SYMPTOMVERSION4,SYMPTOM5,SYMPTOMVERSION5'.split(',');

export type Layout = 'old' | 'modern';

/** CSV quoting as the official files do it: quote when the value holds a comma, quote or line break. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows (header first) -> Windows-1252 bytes with the given line ending. */
export function csvBytes(rows: string[][], eol = '\r\n'): Buffer {
  return iconv.encode(rows.map((r) => r.map(field).join(',')).join(eol) + eol, 'win1252');
}

export interface DataRow { id: string; recvdate: string; text?: string }
export interface VaxRow { id: string; type: string; name: string }
export interface SymptomsRow { id: string; terms: string[] }

/** A VAERSDATA file: every column empty except VAERS_ID, RECVDATE, SYMPTOM_TEXT and RPT_DATE. */
export function dataCsv(layout: Layout, rows: DataRow[], eol = '\r\n'): Buffer {
  const header = layout === 'old' ? OLD_DATA_HEADER : MODERN_DATA_HEADER;
  const out = rows.map((r) => header.map((name) =>
    name === 'VAERS_ID' ? r.id : name === 'RECVDATE' ? r.recvdate : name === 'SYMPTOM_TEXT' ? (r.text ?? 'pt had a reaction') : name === 'RPT_DATE' ? '01/01/1999' : ''));
  return csvBytes([header, ...out], eol);
}

/** A VAERSVAX file (old layout: VAX_DOSE; modern: VAX_DOSE_SERIES). */
export function vaxCsv(layout: Layout, rows: VaxRow[], eol = '\r\n'): Buffer {
  const header = layout === 'old' ? OLD_VAX_HEADER : MODERN_VAX_HEADER;
  return csvBytes([header, ...rows.map((r) => [r.id, r.type, 'MANU', 'LOT1', '1', 'IM', 'LA', r.name])], eol);
}

/** A VAERSSYMPTOMS file; each row holds up to 5 terms with version 8.10. */
export function symptomsCsv(rows: SymptomsRow[], eol = '\r\n'): Buffer {
  const out = rows.map((r) => [r.id, ...[0, 1, 2, 3, 4].flatMap((i) => (r.terms[i] ? [r.terms[i], '8.10'] : ['', '']))]);
  return csvBytes([SYMPTOMS_HEADER, ...out], eol);
}

/** A fresh temp folder. */
export async function tempDir(prefix = 'vaers-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Writes `files` (name -> bytes) into `dir`, gzipping with `-n` semantics when `gzip` is set. */
export async function writeFiles(dir: string, files: Record<string, Buffer>, gzip = false): Promise<void> {
  for (const [name, bytes] of Object.entries(files)) {
    await writeFile(join(dir, gzip ? `${name}.gz` : name), gzip ? gzipSync(bytes) : bytes);
  }
}

/** True when the `zip` tool is on the PATH. */
export function hasZipTool(): boolean {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes `zipPath` holding `files` (member path -> bytes; folders allowed) with the `zip` tool. */
export async function makeZip(zipPath: string, files: Record<string, Buffer>): Promise<void> {
  const staging = await tempDir('vaers-zip-');
  for (const [name, bytes] of Object.entries(files)) {
    const target = join(staging, name);
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, bytes);
  }
  execFileSync('zip', ['-q', '-X', zipPath, ...Object.keys(files)], { cwd: staging });
}

/** One consistent year of reports in one layout: three reports, two vaccines, several events. */
export function sampleYear(year: number, layout: Layout, firstId: number, eol = '\r\n'): Record<string, Buffer> {
  const pad = layout === 'old' ? 6 : 7;
  const id = (k: number): string => String(firstId + k).padStart(pad, '0');
  return {
    [`${year}VAERSDATA.csv`]: dataCsv(layout, [
      { id: id(0), recvdate: `01/15/${year}` },
      { id: id(1), recvdate: `05/02/${year}` },
      { id: id(2), recvdate: `12/31/${year}` },
    ], eol),
    [`${year}VAERSVAX.csv`]: vaxCsv(layout, [
      { id: id(0), type: 'FLU3', name: 'INFLUENZA (SEASONAL) (FLUZONE)' },
      { id: id(1), type: 'MMR', name: 'MEASLES + MUMPS + RUBELLA (MMR II)' },
      { id: id(2), type: 'FLU3', name: 'INFLUENZA (SEASONAL) (FLUZONE)' },
      { id: id(2), type: 'MMR', name: 'MEASLES + MUMPS + RUBELLA (MMR II)' },
    ], eol),
    [`${year}VAERSSYMPTOMS.csv`]: symptomsCsv([
      { id: id(0), terms: ['Pyrexia', 'Rash'] },
      { id: id(1), terms: ['Rash'] },
      { id: id(2), terms: ['Headache', 'Pyrexia'] },
    ], eol),
  };
}

const VAX_ORDER_HEADER = [...MODERN_VAX_HEADER, 'ORDER'];
const SYMPTOMS_ORDER_HEADER = [...SYMPTOMS_HEADER, 'ORDER'];
const vaxRow = (id: string, name: string, order: string): string[] => [id, 'VARZOS', 'MANU', '', '1', 'IM', 'LA', name, order];
const symptomsRow = (id: string, term: string, order: string): string[] => [id, term, '28.00', '', '', '', '', '', '', '', '', order];

/**
 * 2024 and 2025 files with follow-up versions (the 2025 files have ORDER): report 10 has versions
 * 1 and 2, 11 only version 2, 12 only version 1, and 20 (2024) a follow-up in 2025's files.
 */
export function followUpFiles(): Record<string, Buffer> {
  return {
    // 2024: files without ORDER (every row is version 1); report 20 has a follow-up in 2025.
    '2024VAERSDATA.csv': dataCsv('modern', [{ id: '0000020', recvdate: '03/15/2024' }, { id: '0000021', recvdate: '04/01/2024' }]),
    '2024VAERSVAX.csv': csvBytes([MODERN_VAX_HEADER, ['0000020', 'FLU3', 'M', '', '1', 'IM', 'LA', 'FLU OLD'], ['0000021', 'FLU3', 'M', '', '1', 'IM', 'LA', 'FLU OLD']]),
    '2024VAERSSYMPTOMS.csv': csvBytes([SYMPTOMS_HEADER, ['0000020', 'Rash', '27.0', '', '', '', '', '', '', '', ''], ['0000021', 'Rash', '27.0', '', '', '', '', '', '', '', '']]),
    // 2025: ORDER column. 10: versions 1 and 2; 11: version 2 only; 12: version 1 only; 20: follow-up of 2024's report.
    '2025VAERSDATA.csv': dataCsv('modern', [
      { id: '0000010', recvdate: '01/10/2025' }, { id: '0000011', recvdate: '02/10/2025' },
      { id: '0000012', recvdate: '07/10/2025' }, { id: '0000020', recvdate: '03/15/2024' },
    ]),
    '2025VAERSVAX.csv': csvBytes([VAX_ORDER_HEADER,
      vaxRow('0000010', 'ZOSTER A', '1'), vaxRow('0000010', 'ZOSTER B', '2'), vaxRow('0000010', 'ZOSTER C', '2'),
      vaxRow('0000011', 'ZOSTER A', '2'), vaxRow('0000012', 'ZOSTER A', '1'), vaxRow('0000020', 'FLU NEW', '2')]),
    '2025VAERSSYMPTOMS.csv': csvBytes([SYMPTOMS_ORDER_HEADER,
      symptomsRow('0000010', 'Pain in extremity', '1'), symptomsRow('0000010', 'Dialysis', '1'), symptomsRow('0000010', 'Pain', '2'),
      symptomsRow('0000011', 'Pain', '2'), symptomsRow('0000012', 'Headache', '1'), symptomsRow('0000020', 'Urticaria', '2')]),
  };
}

/**
 * A 1999 whose nine DATA records land one in each of the reader's buckets (line numbers in the
 * comments): kept, bad or missing RECVDATE, no VAX row, an empty VAX_NAME only, no SYMPTOMS row,
 * empty terms only, a repeated VAERS_ID, a bad VAERS_ID; plus orphan and bad-id VAX/SYMPTOMS rows.
 */
export function skipFiles(): Record<string, Buffer> {
  return {
    '1999VAERSDATA.csv': dataCsv('old', [
      { id: '000001', recvdate: '01/10/1999' }, // line 2: kept
      { id: '000002', recvdate: '13/45/1999' }, // line 3: bad date
      { id: '000003', recvdate: '' }, // line 4: missing date
      { id: '000004', recvdate: '02/10/1999' }, // line 5: no VAX row
      { id: '000005', recvdate: '02/10/1999' }, // line 6: VAX row with empty VAX_NAME only
      { id: '000006', recvdate: '02/10/1999' }, // line 7: no SYMPTOMS row
      { id: '000007', recvdate: '02/10/1999' }, // line 8: SYMPTOMS row with empty terms only
      { id: '000001', recvdate: '12/10/1999' }, // line 9: duplicate of line 2
      { id: '12a', recvdate: '02/10/1999' }, // line 10: bad id
    ]),
    '1999VAERSVAX.csv': vaxCsv('old', [
      { id: '000001', type: 'T', name: 'KEPT VACCINE' }, // line 2
      { id: '000002', type: 'T', name: 'SKIPPED REPORT VACCINE' }, // line 3: report skipped for its date: not an orphan
      { id: '000005', type: 'T', name: '  ' }, // line 4: empty name ignored
      { id: '000006', type: 'T', name: 'NO EVENT VACCINE' }, // line 5
      { id: '000007', type: 'T', name: 'NO EVENT VACCINE' }, // line 6
      { id: '000099', type: 'T', name: 'ORPHAN' }, // line 7: orphan
      { id: '', type: 'T', name: 'X' }, // line 8: bad id
    ]),
    '1999VAERSSYMPTOMS.csv': symptomsCsv([
      { id: '000001', terms: ['Pyrexia'] }, // line 2
      { id: '000003', terms: ['Rash'] }, // line 3: skipped report, not orphan
      { id: '000004', terms: ['Rash'] }, // line 4
      { id: '000005', terms: ['Rash'] }, // line 5
      { id: '000007', terms: [] }, // line 6: empty terms
      { id: '000098', terms: ['Orphan term'] }, // line 7: orphan
      { id: '000097', terms: ['Orphan term'] }, // line 8: orphan
    ]),
  };
}
