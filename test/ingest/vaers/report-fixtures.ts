/**
 * A small VAERS folder with every report-level field filled in, for the report tables (the
 * case series' data), written by the tests themselves: 2004 and 2005 in the 2014 layout (29 DATA
 * columns, VAX_DOSE), 2021 in the current layout (35 DATA columns, VAX_DOSE_SERIES, 7-digit
 * zero-padded ids, and the 2025 release's trailing ORDER column in VAX and SYMPTOMS). Blank
 * cells, unreadable cells, duplicate terms, a VAX row without a name and skipped reports included;
 * `EXPECTED_*` are the store rows worked out by hand.
 */
import { mkdir } from 'node:fs/promises';
import type { ReportEventRow, ReportRow, ReportVaccineRow } from '../../../src/domain/store-schema.js';
import { csvBytes, MODERN_DATA_HEADER, MODERN_VAX_HEADER, OLD_DATA_HEADER, OLD_VAX_HEADER, SYMPTOMS_HEADER, writeFiles, type Layout } from './fixtures.js';

type Cells = Record<string, string>;

/** A DATA file of `layout` with the given cells per row (other columns empty). */
export function fullDataCsv(layout: Layout, rows: Cells[]): Buffer {
  const header = layout === 'old' ? OLD_DATA_HEADER : MODERN_DATA_HEADER;
  return csvBytes([header, ...rows.map((r) => header.map((name) => r[name] ?? ''))]);
}

/** A VAX file of `layout` (plus an ORDER column when `order`): rows [id, type, manu, lot, dose, route, site, name]. */
export function fullVaxCsv(layout: Layout, rows: string[][], order = false): Buffer {
  const header = [...(layout === 'old' ? OLD_VAX_HEADER : MODERN_VAX_HEADER), ...(order ? ['ORDER'] : [])];
  return csvBytes([header, ...rows.map((r) => [...r, ...(order ? ['1'] : [])])]);
}

/** A SYMPTOMS file (plus an ORDER column, every row version 1 as the VAX file's, when `order`): rows [id, [term, version] x up to 5]. */
export function fullSymptomsCsv(rows: Array<[string, Array<[string, string]>]>, order = false): Buffer {
  const header = [...SYMPTOMS_HEADER, ...(order ? ['ORDER'] : [])];
  return csvBytes([header, ...rows.map(([id, terms]) => [id, ...[0, 1, 2, 3, 4].flatMap((i) => terms[i] ?? ['', '']), ...(order ? ['1'] : [])])]);
}

/** The narrative of report 101 (a comma, quotes and a line break). */
export const NARRATIVE_101 = 'Fever 39C, then a "seizure";\r\nrecovered next day';

/** Writes the folder into `dir`. */
export async function writeReportFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFiles(dir, {
    '2004VAERSDATA.csv': fullDataCsv('old', [
      { VAERS_ID: '101', RECVDATE: '03/05/2004', STATE: 'CA', AGE_YRS: '0.4', SEX: 'F', VAX_DATE: '03/01/2004', ONSET_DATE: '3/2/2004', NUMDAYS: '1', DIED: 'Y', ER_VISIT: 'Y', RECOVD: 'N', SYMPTOM_TEXT: NARRATIVE_101,
        RPT_DATE: '03/04/2004', DATEDIED: '03/10/2004', V_ADMINBY: 'PVT', V_FUNDBY: ' PUB ', SPLTTYPE: 'WAES0403USA01', LAB_DATA: 'WBC 12.1', HISTORY: ' Prematurity' },
      { VAERS_ID: '102', RECVDATE: '03/05/2004', CAGE_YR: '1', CAGE_MO: '.5' }, // AGE_YRS blank: the calculated age 1.5
      { VAERS_ID: '104', RECVDATE: '04/01/2004', AGE_YRS: 'zzz' }, // no VAX row: skipped, its bad age not counted
    ]),
    '2004VAERSVAX.csv': fullVaxCsv('old', [
      ['101', 'DTAP', 'AVENTIS PASTEUR', 'U0550AA', '1', 'IM', 'LL', 'DTAP (TRIPEDIA)'],
      ['101', 'HEPB', 'MERCK & CO. INC.', '', '', 'SC', '', 'HEP B (RECOMBIVAX HB)'],
      ['102', 'FLU3', '', '', '', '', '', '  INFLUENZA (SEASONAL) (FLUZONE)  '],
    ]),
    '2004VAERSSYMPTOMS.csv': fullSymptomsCsv([
      ['101', [['Pyrexia', '8.1'], ['Seizure', '8.1']]],
      ['101', [['Pyrexia', '8.1'], ['Rash', '']]],
      ['102', [['Headache', '8.1']]],
      ['104', [['Rash', '8.1']]],
    ]),
    '2005VAERSDATA.csv': fullDataCsv('old', [
      { VAERS_ID: '103', RECVDATE: '12/31/2005', STATE: 'TX', AGE_YRS: 'abc', CAGE_YR: '30', SEX: 'X', VAX_DATE: '02/30/2005', ONSET_DATE: '13/01/2005', NUMDAYS: 'two', L_THREAT: 'Y', HOSPITAL: 'y', X_STAY: 'Y', DISABLE: 'Y', RECOVD: 'Q' },
      { VAERS_ID: '105', RECVDATE: '06/15/2005', AGE_YRS: '70', SEX: 'M', NUMDAYS: '-2', RECOVD: 'y' },
      { VAERS_ID: '106', RECVDATE: '2005-07-01' }, // not MM/DD/YYYY: skipped
    ]),
    '2005VAERSVAX.csv': fullVaxCsv('old', [
      ['103', 'PPV', 'MERCK & CO. INC.', 'X1', '1', 'IM', 'RA', 'PNEUMO (PNEUMOVAX)'],
      ['105', 'MMR', 'MERCK & CO. INC.', '', '2', 'SC', 'LA', ''], // no VAX_NAME: names no vaccine
      ['105', 'MMR', 'MERCK & CO. INC.', '0001', '2', 'SC', 'LA', 'MEASLES + MUMPS + RUBELLA (MMR II)'],
      ['106', 'MMR', '', '', '', '', '', 'MEASLES + MUMPS + RUBELLA (MMR II)'],
    ]),
    '2005VAERSSYMPTOMS.csv': fullSymptomsCsv([
      ['103', [['Pneumonia', '8.1']]],
      ['105', [['Rash', '8.1'], ['Pyrexia', '8.1']]],
      ['106', [['Rash', '8.1']]],
    ]),
    '2021VAERSDATA.csv': fullDataCsv('modern', [
      { VAERS_ID: '0900001', RECVDATE: '01/10/2021', STATE: 'NY', AGE_YRS: '45.0', SEX: 'M', VAX_DATE: '01/08/2021', ONSET_DATE: '01/09/2021', NUMDAYS: '1.0', OFC_VISIT: 'Y', ER_ED_VISIT: 'Y', RECOVD: 'U', SYMPTOM_TEXT: 'Sore arm',
        HOSPDAYS: '3', FORM_VERS: '2', TODAYS_DATE: '01/09/2021', ALLERGIES: 'Penicillin', CUR_ILL: 'None', OTHER_MEDS: 'Tylenol', PRIOR_VAX: 'Fever after flu shot, 2019' },
      { VAERS_ID: '0900002', RECVDATE: '02/29/2021' }, // not a date (2021 is no leap year): skipped
      { VAERS_ID: '0900003', RECVDATE: '03/01/2021', AGE_YRS: '0.1', SEX: 'F', DIED: 'Y', BIRTH_DEFECT: 'Y', SYMPTOM_TEXT: '  ' },
    ]),
    '2021VAERSVAX.csv': fullVaxCsv('modern', [
      ['0900001', 'COVID19', 'PFIZER\\BIONTECH', 'EL9261', '1', 'IM', 'LA', 'COVID19 (COVID19 (PFIZER-BIONTECH))'],
      ['0900002', 'COVID19', 'MODERNA', '', '1', '', '', 'COVID19 (COVID19 (MODERNA))'],
      ['0900003', 'COVID19', 'MODERNA', '', 'UNK', '', '', 'COVID19 (COVID19 (MODERNA))'],
      ['0900003', 'COVID19', 'MODERNA', '', '1', '', '', 'COVID19 (COVID19 (MODERNA))'],
    ], true),
    '2021VAERSSYMPTOMS.csv': fullSymptomsCsv([
      ['0900001', [['Pain in extremity', '23.1'], ['Injection site pain', '23.1']]],
      ['0900002', [['Rash', '23.1']]],
      ['0900003', [['Death', '23.1']]],
    ], true),
  });
}

const NO_OUTCOME = { died: false, l_threat: false, er_visit: false, hospital: false, x_stay: false, disable: false };
const OLD = { birth_defect: null, ofc_visit: null };
/** The report-view columns of a report without them (and every narrative, without `--narratives`). */
const NO_DETAILS = {
  lab_data: null, history: null, cur_ill: null, other_meds: null, prior_vax: null, allergies: null,
  rpt_date: null, datedied: null, hospdays: null, v_adminby: null, v_fundby: null, splttype: null, form_vers: null, todays_date: null, cluster: null,
};

/** The `reports` rows of the folder (without narratives), in store order: newest RECVDATE first, then VAERS_ID descending. */
export const EXPECTED_REPORTS: ReportRow[] = [
  { vaers_id: 900003, received: '2021-03-01', quarter: '2021Q1', age_yrs: 0.1, age_source: 'AGE_YRS', age_group: '<6 months', sex: 'F', state: null, vax_date: null, onset_date: null, numdays: null,
    ...NO_OUTCOME, died: true, birth_defect: true, ofc_visit: false, recovd: null, narrative: null, ...NO_DETAILS },
  { vaers_id: 900001, received: '2021-01-10', quarter: '2021Q1', age_yrs: 45, age_source: 'AGE_YRS', age_group: '40-49 years', sex: 'M', state: 'NY', vax_date: '2021-01-08', onset_date: '2021-01-09', numdays: 1,
    ...NO_OUTCOME, er_visit: true, birth_defect: false, ofc_visit: true, recovd: 'U', narrative: null, ...NO_DETAILS, hospdays: 3, form_vers: '2', todays_date: '2021-01-09' },
  { vaers_id: 103, received: '2005-12-31', quarter: '2005Q4', age_yrs: null, age_source: null, age_group: 'Unknown', sex: 'U', state: 'TX', vax_date: null, onset_date: null, numdays: null,
    died: false, l_threat: true, er_visit: false, hospital: true, x_stay: true, disable: true, ...OLD, recovd: null, narrative: null, ...NO_DETAILS },
  { vaers_id: 105, received: '2005-06-15', quarter: '2005Q2', age_yrs: 70, age_source: 'AGE_YRS', age_group: '65-79 years', sex: 'M', state: null, vax_date: null, onset_date: null, numdays: -2,
    ...NO_OUTCOME, ...OLD, recovd: 'Y', narrative: null, ...NO_DETAILS },
  { vaers_id: 102, received: '2004-03-05', quarter: '2004Q1', age_yrs: 1.5, age_source: 'CAGE', age_group: '1-2 years', sex: 'U', state: null, vax_date: null, onset_date: null, numdays: null,
    ...NO_OUTCOME, ...OLD, recovd: null, narrative: null, ...NO_DETAILS },
  { vaers_id: 101, received: '2004-03-05', quarter: '2004Q1', age_yrs: 0.4, age_source: 'AGE_YRS', age_group: '<6 months', sex: 'F', state: 'CA', vax_date: '2004-03-01', onset_date: '2004-03-02', numdays: 1,
    ...NO_OUTCOME, died: true, er_visit: true, ...OLD, recovd: 'N', narrative: null,
    ...NO_DETAILS, rpt_date: '2004-03-04', datedied: '2004-03-10', v_adminby: 'PVT', v_fundby: 'PUB', splttype: 'WAES0403USA01' },
];

/** The narratives of EXPECTED_REPORTS with `--narratives` (a blank SYMPTOM_TEXT is null). */
export const EXPECTED_NARRATIVES = [null, 'Sore arm', null, null, null, NARRATIVE_101];

/** Every narrative column of EXPECTED_REPORTS with `--narratives`, by store column (as written: untrimmed). */
export const EXPECTED_NARRATIVE_COLUMNS: Record<string, Array<string | null>> = {
  narrative: EXPECTED_NARRATIVES,
  lab_data: [null, null, null, null, null, 'WBC 12.1'],
  history: [null, null, null, null, null, ' Prematurity'],
  cur_ill: [null, 'None', null, null, null, null],
  other_meds: [null, 'Tylenol', null, null, null, null],
  prior_vax: [null, 'Fever after flu shot, 2019', null, null, null, null],
  allergies: [null, 'Penicillin', null, null, null, null],
};

/** The `report_vaccines` rows, in store order. */
export const EXPECTED_VACCINES: ReportVaccineRow[] = [
  { vaers_id: 900003, vax_name: 'COVID19 (COVID19 (MODERNA))', vax_type_code: 'COVID19', vax_manu: 'MODERNA', vax_lot: null, vax_dose: 'UNK', vax_route: null, vax_site: null },
  { vaers_id: 900003, vax_name: 'COVID19 (COVID19 (MODERNA))', vax_type_code: 'COVID19', vax_manu: 'MODERNA', vax_lot: null, vax_dose: '1', vax_route: null, vax_site: null },
  { vaers_id: 900001, vax_name: 'COVID19 (COVID19 (PFIZER-BIONTECH))', vax_type_code: 'COVID19', vax_manu: 'PFIZER\\BIONTECH', vax_lot: 'EL9261', vax_dose: '1', vax_route: 'IM', vax_site: 'LA' },
  { vaers_id: 103, vax_name: 'PNEUMO (PNEUMOVAX)', vax_type_code: 'PPV', vax_manu: 'MERCK & CO. INC.', vax_lot: 'X1', vax_dose: '1', vax_route: 'IM', vax_site: 'RA' },
  { vaers_id: 105, vax_name: 'MEASLES + MUMPS + RUBELLA (MMR II)', vax_type_code: 'MMR', vax_manu: 'MERCK & CO. INC.', vax_lot: '0001', vax_dose: '2', vax_route: 'SC', vax_site: 'LA' },
  { vaers_id: 102, vax_name: 'INFLUENZA (SEASONAL) (FLUZONE)', vax_type_code: 'FLU3', vax_manu: null, vax_lot: null, vax_dose: null, vax_route: null, vax_site: null },
  { vaers_id: 101, vax_name: 'DTAP (TRIPEDIA)', vax_type_code: 'DTAP', vax_manu: 'AVENTIS PASTEUR', vax_lot: 'U0550AA', vax_dose: '1', vax_route: 'IM', vax_site: 'LL' },
  { vaers_id: 101, vax_name: 'HEP B (RECOMBIVAX HB)', vax_type_code: 'HEPB', vax_manu: 'MERCK & CO. INC.', vax_lot: null, vax_dose: null, vax_route: 'SC', vax_site: null },
];

/** The `report_events` rows, in store order (a term given twice counts once, with its first version). */
export const EXPECTED_EVENTS: ReportEventRow[] = [
  { vaers_id: 900003, term: 'Death', version: '23.1' },
  { vaers_id: 900001, term: 'Pain in extremity', version: '23.1' },
  { vaers_id: 900001, term: 'Injection site pain', version: '23.1' },
  { vaers_id: 103, term: 'Pneumonia', version: '8.1' },
  { vaers_id: 105, term: 'Rash', version: '8.1' },
  { vaers_id: 105, term: 'Pyrexia', version: '8.1' },
  { vaers_id: 102, term: 'Headache', version: '8.1' },
  { vaers_id: 101, term: 'Pyrexia', version: '8.1' },
  { vaers_id: 101, term: 'Seizure', version: '8.1' },
  { vaers_id: 101, term: 'Rash', version: null },
];

/** The cells of the kept reports that cannot be read (report 103, line 2 of 2005VAERSDATA.csv), per field in summary order. */
export const EXPECTED_UNPARSEABLE = [
  { field: 'AGE_YRS', cell: 'abc' }, { field: 'SEX', cell: 'X' }, { field: 'VAX_DATE', cell: '02/30/2005' },
  { field: 'ONSET_DATE', cell: '13/01/2005' }, { field: 'NUMDAYS', cell: 'two' }, { field: 'RECOVD', cell: 'Q' },
].map(({ field, cell }) => ({ field, count: 1, examples: [{ vaers_id: 103, file: '2005VAERSDATA.csv', line: 2, cell }] }));
