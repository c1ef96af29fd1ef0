/**
 * Small VAERS folders for the build tests, written by the tests themselves (official layout:
 * <YEAR>VAERSDATA.csv, <YEAR>VAERSVAX.csv, <YEAR>VAERSSYMPTOMS.csv, plain CSV).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { random } from '../../../bench/prng.js';

/** One report of a fixture: received date `MM/DD/YYYY`, vaccines as [VAX_NAME, VAX_TYPE], events. */
export interface FixtureReport {
  id: number;
  recvdate: string;
  vaccines: Array<[string, string]>;
  events: string[];
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes the three files per year into `dir` (created if needed). */
export async function writeVaersFolder(dir: string, reports: FixtureReport[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const years = new Map<string, FixtureReport[]>();
  for (const r of reports) {
    const year = r.recvdate.slice(-4);
    years.set(year, [...(years.get(year) ?? []), r]);
  }
  for (const [year, list] of years) {
    const data = ['VAERS_ID,RECVDATE,STATE,AGE_YRS,SYMPTOM_TEXT'];
    const vax = ['VAERS_ID,VAX_TYPE,VAX_MANU,VAX_LOT,VAX_DOSE,VAX_ROUTE,VAX_SITE,VAX_NAME'];
    const symptoms = ['VAERS_ID,SYMPTOM1,SYMPTOMVERSION1,SYMPTOM2,SYMPTOMVERSION2,SYMPTOM3,SYMPTOMVERSION3,SYMPTOM4,SYMPTOMVERSION4,SYMPTOM5,SYMPTOMVERSION5'];
    for (const r of list) {
      data.push(`${r.id},${r.recvdate},CA,30,"text, with a comma"`);
      for (const [name, type] of r.vaccines) vax.push(`${r.id},${type},MAKER,LOT1,1,IM,LA,${csvCell(name)}`);
      for (let i = 0; i < r.events.length; i += 5) {
        const cells = r.events.slice(i, i + 5).flatMap((e) => [csvCell(e), '8.1']);
        while (cells.length < 10) cells.push('');
        symptoms.push(`${r.id},${cells.join(',')}`);
      }
    }
    await writeFile(join(dir, `${year}VAERSDATA.csv`), `${data.join('\r\n')}\r\n`);
    await writeFile(join(dir, `${year}VAERSVAX.csv`), `${vax.join('\r\n')}\r\n`);
    await writeFile(join(dir, `${year}VAERSSYMPTOMS.csv`), `${symptoms.join('\r\n')}\r\n`);
  }
}

export const VACCINES: Array<[string, string]> = [
  ['VARICELLA (VARIVAX)', 'VARCEL'], ['HPV (GARDASIL)', 'HPV4'], ['HPV (GARDASIL 9)', 'HPV9'],
  ['INFLUENZA (SEASONAL) (FLUZONE)', 'FLU3'], ['INFLUENZA (SEASONAL) (NO BRAND NAME)', 'FLU3'],
  ['INFLUENZA (SEASONAL) (NO BRAND NAME)', 'FLUX'],
];
export const EVENTS = ['Pyrexia', 'Rash', 'Headache', 'Injection site pain', 'Nausea', 'Dizziness', 'Fatigue', 'Urticaria'];

/**
 * A history of 12 quarters (2000Q1..2002Q4), about 60 background reports per quarter, plus a
 * cluster of 25 reports naming `HPV (GARDASIL)` and `Syncope` received in 2000Q2 and a single
 * such report in 2002Q2 (so the pair's windows 2002Q2..2002Q4 hold n = 1); one report gives
 * `INFLUENZA (SEASONAL) (NO BRAND NAME)` the VAX_TYPE code FLUX and names VARIVAX twice.
 */
export function historyFixture(): FixtureReport[] {
  const next = random(42);
  const reports: FixtureReport[] = [];
  let id = 1000;
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  for (let year = 2000; year <= 2002; year++) {
    for (let month = 1; month <= 12; month++) {
      for (let k = 0; k < 20; k++) {
        const vaccines = [pick(VACCINES.slice(0, 5))];
        if (next() < 0.2) vaccines.push(pick(VACCINES.slice(0, 5)));
        const events = [...new Set([pick(EVENTS), pick(EVENTS), ...(next() < 0.5 ? [pick(EVENTS)] : [])])];
        reports.push({ id: id++, recvdate: `${String(month).padStart(2, '0')}/${String(1 + k).padStart(2, '0')}/${year}`, vaccines, events });
      }
    }
  }
  for (let k = 0; k < 25; k++) {
    reports.push({ id: id++, recvdate: `05/${String(1 + k).padStart(2, '0')}/2000`, vaccines: [['HPV (GARDASIL)', 'HPV4']], events: ['Syncope', pick(EVENTS)] });
  }
  reports.push({ id: id++, recvdate: '04/15/2002', vaccines: [['HPV (GARDASIL)', 'HPV4']], events: ['Syncope'] });
  // The same VAX_NAME with a second VAX_TYPE code, and a report naming one vaccine twice.
  reports.push({ id, recvdate: '06/15/2001', vaccines: [VACCINES[5], VACCINES[0], VACCINES[0]], events: ['Pyrexia'] });
  return reports;
}
