/**
 * A small VAERS folder for the case-series tests, counted by hand in test/serve/cases/cases.test.ts:
 * eight reports of 2000-2001 in the 2014 layout, with ages, sexes, states, outcomes, onset
 * intervals, doses and co-administered vaccines chosen so that every breakdown is exercised.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { csvBytes, OLD_DATA_HEADER, OLD_VAX_HEADER, SYMPTOMS_HEADER } from '../../ingest/vaers/fixtures.js';

export const ROTA = 'ROTAVIRUS (ROTASHIELD)';
export const DTAP = 'DTAP (TRIPEDIA)';
export const HEPB = 'HEP B (ENGERIX-B)';

/** One report: its DATA fields, its VAX rows [name, code, manufacturer, lot, dose] and its terms. */
export interface CaseFixture {
  id: number; recvdate: string; age: string; sex: string; state: string; outcomes: string[]; numdays: string;
  vaccines: Array<[string, string, string, string, string]>; events: string[];
}

/** The eight reports (see test/serve/cases/cases.test.ts for the hand counts). */
export const CASE_REPORTS: CaseFixture[] = [
  { id: 101, recvdate: '01/10/2000', age: '0.3', sex: 'F', state: 'CA', outcomes: ['HOSPITAL'], numdays: '0',
    vaccines: [[ROTA, 'RV', 'WYETH', 'A1', '1'], [DTAP, 'DTAP', 'AVENTIS', 'D1', '1']], events: ['Intussusception', 'Vomiting'] },
  { id: 102, recvdate: '02/20/2000', age: '0.4', sex: 'M', state: 'NY', outcomes: [], numdays: '5',
    vaccines: [[ROTA, 'RV', 'WYETH', 'A2', '2']], events: ['Intussusception'] },
  { id: 103, recvdate: '05/05/2000', age: '0.2', sex: 'M', state: 'CA', outcomes: ['DIED'], numdays: '1',
    vaccines: [[ROTA, 'RV', 'WYETH', 'A1', '1'], [HEPB, 'HEP', 'MERCK', 'H1', '1']], events: ['Intussusception', 'Death'] },
  { id: 104, recvdate: '07/07/2000', age: '1.5', sex: 'F', state: '', outcomes: [], numdays: '',
    vaccines: [[ROTA, 'RV', 'WYETH', 'A3', '3']], events: ['Diarrhoea'] },
  { id: 105, recvdate: '08/08/2000', age: '30', sex: 'F', state: 'TX', outcomes: ['ER_VISIT'], numdays: '200',
    vaccines: [[HEPB, 'HEP', 'MERCK', 'H2', '2']], events: ['Intussusception'] },
  { id: 106, recvdate: '01/15/2001', age: '0.5', sex: '', state: 'CA', outcomes: ['L_THREAT'], numdays: '-1',
    vaccines: [[ROTA, 'RV', 'WYETH', 'A4', ''], [DTAP, 'DTAP', 'AVENTIS', 'D2', '2']], events: ['Intussusception', 'Fever'] },
  { id: 107, recvdate: '03/03/2001', age: '', sex: 'F', state: 'WA', outcomes: [], numdays: '2.5',
    vaccines: [[DTAP, 'DTAP', 'AVENTIS', 'D3', '3']], events: ['Fever'] },
  { id: 108, recvdate: '12/12/2001', age: '70', sex: 'M', state: 'CA', outcomes: ['DISABLE'], numdays: '10',
    vaccines: [[HEPB, 'HEP', 'MERCK', 'H3', '3']], events: ['Rash'] },
];

/** Narratives and further DATA cells of the eight reports, for the text-search and report-view tests (test/serve/cases/text.test.ts works their answers by hand). */
export const CASE_NARRATIVES: Record<number, Record<string, string>> = {
  101: { SYMPTOM_TEXT: 'Intussusception on day 3; surgery.', LAB_DATA: 'Ultrasound: target sign', RPT_DATE: '01/09/2000', V_ADMINBY: 'PVT', V_FUNDBY: 'PUB', SPLTTYPE: 'WAES0001', HOSPDAYS: '4' },
  102: { SYMPTOM_TEXT: 'INTUSSUSCEPTION reduced by enema', HISTORY: 'Premature' },
  103: { SYMPTOM_TEXT: 'Died. Attorney requested records.', DATEDIED: '05/01/2000' },
  104: { SYMPTOM_TEXT: 'Diarrhée for two days' },
  105: { SYMPTOM_TEXT: 'Guillain-Barré syndrome suspected' },
  106: { SYMPTOM_TEXT: 'Fever 40%_C; intussusceptions ruled out' },
  107: { SYMPTOM_TEXT: 'Barre', CUR_ILL: 'Guillain syndrome' },
  108: { OTHER_MEDS: 'Aspirin', PRIOR_VAX: 'Rash after attorney visit', SYMPTOM_TEXT: '' },
};

/**
 * Writes the folder (one DATA, VAX and SYMPTOMS file per year, the reports in the order given)
 * and returns it; `cells` overrides DATA cells per VAERS_ID (e.g. the narratives); `all` are the
 * reports (default CASE_REPORTS).
 */
export async function writeCaseFolder(dir: string, cells: Record<number, Record<string, string>> = {}, all: readonly CaseFixture[] = CASE_REPORTS): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const year of ['2000', '2001']) {
    const reports = all.filter((r) => r.recvdate.endsWith(year));
    const data = reports.map((r) => OLD_DATA_HEADER.map((column) => {
      const values: Record<string, string> = {
        VAERS_ID: String(r.id), RECVDATE: r.recvdate, STATE: r.state, AGE_YRS: r.age, SEX: r.sex, NUMDAYS: r.numdays,
        SYMPTOM_TEXT: `narrative of ${r.id}`, VAX_DATE: '01/01/2000', ONSET_DATE: '01/02/2000', RECOVD: 'N', ...cells[r.id],
      };
      return r.outcomes.includes(column) ? 'Y' : (values[column] ?? '');
    }));
    const vax = reports.flatMap((r) => r.vaccines.map(([name, code, manu, lot, dose]) => [String(r.id), code, manu, lot, dose, 'IM', 'LA', name]));
    const symptoms = reports.map((r) => [String(r.id), ...SYMPTOMS_HEADER.slice(1).map((column) => {
      const k = Number(column.replace(/\D/g, '')) - 1;
      return column.startsWith('SYMPTOMVERSION') ? (r.events[k] ? '3.0' : '') : (r.events[k] ?? '');
    })]);
    await writeFile(join(dir, `${year}VAERSDATA.csv`), csvBytes([OLD_DATA_HEADER, ...data]));
    await writeFile(join(dir, `${year}VAERSVAX.csv`), csvBytes([OLD_VAX_HEADER, ...vax]));
    await writeFile(join(dir, `${year}VAERSSYMPTOMS.csv`), csvBytes([SYMPTOMS_HEADER, ...symptoms]));
  }
  return dir;
}

/**
 * Writes the folder into `dir`/vaers (with `cells`; `reports` replaces the eight reports), builds a store of `analyses` from it by the
 * real build and serves it by the real app.
 */
export async function serveCaseFolder(dir: string, cells: Record<number, Record<string, string>> = {}, analyses = 'all', reports: readonly CaseFixture[] = CASE_REPORTS): Promise<FastifyInstance> {
  const vaers = await writeCaseFolder(join(dir, 'vaers'), cells, reports);
  const store = join(dir, 'cases.duckdb');
  await buildStore({ vaers, out: store, analyses, workers: 1 });
  return buildApp({ storePath: store });
}

const MIXED_VACCINES: Array<[string, string]> = [[ROTA, 'RV'], [DTAP, 'DTAP'], [HEPB, 'HEP'], ['MEASLES + MUMPS + RUBELLA (MMR II)', 'MMR']];
const MIXED_TERMS = ['Fever', 'Rash', 'Vomiting', 'Irritability', 'Urticaria'];

/**
 * 240 reports of 2000-2001 with deterministic mixes of four vaccines, five common terms, ages and
 * sexes (so strata differ), and two associations: RotaShield x Intussusception (every other
 * RotaShield report) and ENGERIX-B x Urticaria (every third one); enough for the build to keep pairs.
 */
export function mixedCaseReports(): CaseFixture[] {
  return Array.from({ length: 240 }, (_, k): CaseFixture => {
    const v = k % 4;
    const vaccines = [v, ...(k % 3 === 0 ? [(v + 1) % 4] : [])].map((i): [string, string, string, string, string] => [MIXED_VACCINES[i][0], MIXED_VACCINES[i][1], 'MANU', `L${k}`, '1']);
    const events = [MIXED_TERMS[(k * 7) % 5], ...(v === 0 && k % 8 === 0 ? ['Intussusception'] : []), ...(v === 2 && k % 12 === 2 ? ['Urticaria'] : [])];
    return {
      id: 1000 + k, recvdate: `${String((k % 12) + 1).padStart(2, '0')}/15/${2000 + (k % 2)}`, age: ['0.3', '1', '5', '30', '70'][k % 5],
      sex: ['F', 'M', ''][k % 3], state: 'CA', outcomes: k % 7 === 0 ? ['HOSPITAL'] : [], numdays: '1', vaccines, events: [...new Set(events)],
    };
  });
}
