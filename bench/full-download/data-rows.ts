/**
 * Synthetic VAERSDATA rows in the current 35-column layout (../shared/data/vaers-modern-layout,
 * SOURCES.md there), for the synthetic full-size download: the cells a build reads (RECVDATE,
 * age, sex, state, outcomes, dates, the narratives) drawn from a seeded generator, every other
 * cell blank. Nothing here is real data: only the VAX and SYMPTOMS rows it goes with are.
 */
import type { PoolReport } from './pools.js';

/** The 35 columns of the current VAERSDATA layout, in order. */
export const DATA_HEADER = (
  'VAERS_ID,RECVDATE,STATE,AGE_YRS,CAGE_YR,CAGE_MO,SEX,RPT_DATE,SYMPTOM_TEXT,DIED,DATEDIED,L_THREAT,ER_VISIT,HOSPITAL,HOSPDAYS,' +
  'X_STAY,DISABLE,RECOVD,VAX_DATE,ONSET_DATE,NUMDAYS,LAB_DATA,V_ADMINBY,V_FUNDBY,OTHER_MEDS,CUR_ILL,HISTORY,PRIOR_VAX,SPLTTYPE,' +
  'FORM_VERS,TODAYS_DATE,BIRTH_DEFECT,OFC_VISIT,ER_ED_VISIT,ALLERGIES'
).split(',');

const STATES = 'CA,TX,FL,NY,PA,IL,OH,GA,NC,MI,NJ,VA,WA,AZ,MA,TN,IN,MO,MD,WI,CO,MN,SC,AL,LA,KY,OR,OK,CT,UT,IA,NV,AR,MS,KS,NM,NE,ID,WV,HI'.split(',');
const ADMIN = ['PVT', 'PUB', 'PHM', 'WRK', 'OTH', 'UNK', 'SEN', 'SCH'];
const MEDS = ['None', 'Lisinopril', 'Metformin', 'Levothyroxine', 'Atorvastatin', 'Multivitamin', 'Ibuprofen', 'Albuterol inhaler'];
const HISTORY = ['None', 'Hypertension', 'Asthma', 'Diabetes mellitus type 2', 'Hypothyroidism', 'Anxiety', 'No known history'];
const ALLERGIES = ['NKDA', 'None', 'Penicillin', 'Sulfa drugs', 'Latex', 'Shellfish', 'Codeine'];
const COURSE = [
  'Symptoms started the evening of vaccination and resolved within two days.',
  'Patient was seen at urgent care, treated and released.',
  'Patient reports the symptoms are ongoing at the time of this report.',
  'Information has been requested; no further details were available.',
  'The event was reported by the patient\'s mother by phone.',
  'Patient recovered without treatment.',
];

/** MM/DD/YYYY of a day number (days since 1970-01-01, UTC). */
function mdy(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

const pick = <T>(u: number, list: readonly T[]): T => list[Math.floor(u * list.length)];

/**
 * Words of a narrative's free text: drawn at random from `vocabulary` (the words of the pools'
 * MedDRA terms), 12 to 40 of them, so that narratives differ as real ones do (a templated text
 * would make every narrative look like every other to the duplicate linkage's narrative blocks).
 */
function freeText(vocabulary: readonly string[], uniform: () => number): string {
  const words: string[] = [];
  const count = 12 + Math.floor(uniform() * 29);
  for (let k = 0; k < count; k++) words.push(vocabulary[Math.floor(uniform() * vocabulary.length)]);
  return `${words.join(' ')}.`;
}

/**
 * The cells of one synthetic VAERSDATA row for `report` with id `id`, received on day `received`
 * (days since 1970-01-01); `uniform` is the seeded generator. Outcomes at about VAERS's rates
 * (death 1%, hospital 8%, life-threatening 1%, disability 1%); a COVID-19 report is an adult's;
 * the narrative names the vaccine and terms, then free text from `vocabulary` (freeText).
 */
export function dataRow(id: string, received: number, report: PoolReport, uniform: () => number, vocabulary: readonly string[]): string[] {
  const age = report.covid ? 18 + Math.floor(uniform() * 70) : Math.floor(uniform() ** 1.6 * 85);
  const lag = Math.floor(uniform() ** 3 * 120);
  const onset = Math.min(lag, Math.floor(uniform() ** 4 * 30));
  const vaxDay = received - lag;
  const died = uniform() < 0.01;
  const hospital = uniform() < 0.08;
  const terms = report.terms.join(', ').toLowerCase();
  const text = `Patient received ${report.vaccine || 'a vaccine'} and developed ${terms || 'a reaction'} ${onset} day(s) later. ${pick(uniform(), COURSE)} ${freeText(vocabulary, uniform)}`;
  const cells: Record<string, string> = {
    VAERS_ID: id, RECVDATE: mdy(received), STATE: pick(uniform(), STATES), AGE_YRS: `${age}.0`, CAGE_YR: String(age),
    SEX: uniform() < 0.6 ? 'F' : uniform() < 0.95 ? 'M' : 'U', SYMPTOM_TEXT: text,
    DIED: died ? 'Y' : '', DATEDIED: died ? mdy(vaxDay + onset + 1) : '', L_THREAT: uniform() < 0.01 ? 'Y' : '',
    HOSPITAL: hospital ? 'Y' : '', HOSPDAYS: hospital ? String(1 + Math.floor(uniform() * 9)) : '', DISABLE: uniform() < 0.01 ? 'Y' : '',
    RECOVD: pick(uniform(), ['Y', 'N', 'U']), VAX_DATE: mdy(vaxDay), ONSET_DATE: mdy(vaxDay + onset), NUMDAYS: String(onset),
    LAB_DATA: uniform() < 0.3 ? 'None' : '', V_ADMINBY: pick(uniform(), ADMIN), OTHER_MEDS: pick(uniform(), MEDS),
    CUR_ILL: uniform() < 0.5 ? 'None' : '', HISTORY: pick(uniform(), HISTORY), FORM_VERS: '2', TODAYS_DATE: mdy(received),
    OFC_VISIT: uniform() < 0.2 ? 'Y' : '', ER_ED_VISIT: uniform() < 0.15 ? 'Y' : '', ALLERGIES: pick(uniform(), ALLERGIES),
  };
  return DATA_HEADER.map((name) => cells[name] ?? '');
}

/** One CSV line (CRLF) with the official files' quoting: quoted when a cell holds a comma, quote or line break. */
export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (i > 0) line += ',';
    line += /[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c;
  }
  return `${line}\r\n`;
}
