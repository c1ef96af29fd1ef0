/**
 * A small store for the evaluation tests, written by the tests in two forms (`full`: every
 * column; `served`: prr_chisq and ror_lci NULL, as an imported table of the served columns holds
 * them), with report tables, and a reference set. The
 * expected results in evaluate.test.ts are worked by hand from the rows below.
 *
 * Analyses: `all` and `serious` (the rows of `serious`: the RotaShield pair only). Windows (a
 * row per quarter; `n_methods_flagged` consistent with the flags of each row):
 * - RotaShield x Intussusception: 1998Q4 nothing; 1999Q1 ROR and IC (PRR 1.8 < 2); 1999Q3 all
 *   four. Emerged 1999Q3: ROR, IC and the floor flag 2 quarters before it, GPS and PRR at it.
 * - MMR II x Febrile convulsion: 1999Q4 ROR alone (PRR 2.5 but chi-square 3 < 4: in the Parquet
 *   form PRR or ROR, undetermined); 2000Q2 GPS, PRR, ROR (IC025 < 0). MMR (NO BRAND NAME) x
 *   Febrile convulsion is not stored but reported (report 1, 2000Q1, hospitalised): recomputed from
 *   the report tables, 1 report a window, nothing flags.
 * - MMR II x Autism: 2000Q1 PRR and ROR (an artefact: flagged by PRR, ROR and the floor).
 * - FLUZONE x Facial palsy: 2000Q3, nothing flags (negative).
 * - ENGERIX-B x Anaphylactic reaction: not stored, reported (reports 6 of 1998Q1, 4 of 2000Q1, 2 and
 *   5 of 2000Q2, none serious): recomputed, 3 reports in the window 2000Q2 (a 2x2 table 3, 0, 0, 1:
 *   PRR and ROR undefined, EB05 and IC025 low), nothing flags.
 * - ENGERIX-B x Multiple sclerosis: not stored, reported only in 2001Q1 (report 3), after 2000Q4.
 *
 * The windows of `all`, 1998Q1 to 2001Q1, share the prior alpha1 0.2, beta1 0.1, alpha2 2, beta2 2.
 * `serious` has no windows (no EB05 for a recomputed pair).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStore } from '../../../src/ingest/store/write.js';
import type { AnalysisMeta, QuarterlyRow, ReportRow, ReportTables, StoreMeta, VaccineRow, WindowRow } from '../../../src/domain/store-schema.js';
import { formatQuarter } from '../../../src/domain/quarter.js';

export const ROTASHIELD = 'ROTAVIRUS (ROTASHIELD)';
export const MMR_II = 'MEASLES + MUMPS + RUBELLA (MMR II)';
export const MMR_NO_BRAND = 'MEASLES + MUMPS + RUBELLA (NO BRAND NAME)';
export const FLUZONE = 'INFLUENZA (SEASONAL) (FLUZONE)';
export const ENGERIX = 'HEP B (ENGERIX-B)';

export const FIXTURE_VACCINES: VaccineRow[] = [
  { vax_name: ROTASHIELD, vax_type: 'ROTAVIRUS', vax_type_codes: ['RV'] },
  { vax_name: MMR_II, vax_type: 'MEASLES + MUMPS + RUBELLA', vax_type_codes: ['MMR'] },
  { vax_name: MMR_NO_BRAND, vax_type: 'MEASLES + MUMPS + RUBELLA', vax_type_codes: ['MMR'] },
  { vax_name: FLUZONE, vax_type: 'INFLUENZA (SEASONAL)', vax_type_codes: ['FLU3'] },
  { vax_name: ENGERIX, vax_type: 'HEP B', vax_type_codes: ['HEP'] },
];

/** [drug, event, quarter, n, eb05, prr, prr_chisq, ror_lci, ic025, n_methods_flagged] */
type W = [string, string, string, number, number, number, number, number, number, number];

export const FIXTURE_WINDOWS: W[] = [
  [ROTASHIELD, 'Intussusception', '1998Q4', 2, 1.0, 1.2, 1, 0.8, -0.5, 0],
  [ROTASHIELD, 'Intussusception', '1999Q1', 5, 1.5, 1.8, 5, 1.2, 0.3, 2],
  [ROTASHIELD, 'Intussusception', '1999Q3', 9, 2.4, 2.5, 8, 1.6, 0.9, 4],
  [MMR_II, 'Febrile convulsion', '1999Q4', 5, 1.2, 2.5, 3, 1.1, -0.1, 1],
  [MMR_II, 'Febrile convulsion', '2000Q2', 6, 2.2, 2.1, 4.5, 1.3, -0.2, 3],
  [MMR_II, 'Autism', '2000Q1', 4, 1.5, 2.2, 5, 1.4, -0.1, 2],
  [FLUZONE, 'Facial palsy', '2000Q3', 3, 0.8, 1.1, 0.2, 0.6, -1, 0],
];

/** The reference set of the tests (valid rows) and three bad rows (lines 10 to 12). */
export const FIXTURE_REFERENCE = [
  'id,vaccine,event,class,emerged,source',
  '# a comment line',
  'rota-intussusception,ROTAVIRUS (ROTASHIELD),Intussusception,positive,1999Q3,MMWR 1999',
  'mmr-febrile,MMR,Febrile convulsion,positive,,IOM 2011',
  'hepb-anaphylaxis,hep,Anaphylactic reaction,positive,,IOM 2011',
  'yf-pyrexia,YELLOW FEVER,Pyrexia,positive,,label',
  'mmr-autism,MEASLES + MUMPS + RUBELLA,Autism,artefact,,Goodman and Nordin 2006',
  '"flu-palsy",FLU3,Facial palsy,negative,,"IOM 2011, Bell\'s palsy"',
  'hepb-ms,HEP B (ENGERIX-B),Multiple sclerosis,negative,,IOM 2002',
  'bad-class,MMR,Arthralgia,probable,,IOM 2011',
  'bad-quarter,MMR,Arthralgia,positive,1999-13,IOM 2011',
  'missing-source,MMR,Arthralgia,positive,,',
].join('\n');

const ANALYSIS = (name: string, subset: string | null, isDefault: boolean): AnalysisMeta => ({
  name, title: name, description: `Fixture analysis ${name}.`, subset, items: 'vaccine', stratified_by: [], strata: null, default: isDefault, deduplicated: false, reports: 3, pairs: null,
  rows: null, windows: null, reports_through: '2001Q1', fits_at_bound: 0, fits_not_converged: 0, windows_skipped: [], partial_windows: [],
});

function quarterly(form: 'full' | 'served'): QuarterlyRow[] {
  const rows = FIXTURE_WINDOWS.map(([drug, event, quarter, n, eb05, prr, prr_chisq, ror_lci, ic025, nmf]): QuarterlyRow => ({
    analysis: 'all', drug, event, quarter, n, expected: 1, n_vaccine: 50, n_event: 20, n_reports: 1000, qn: 0.5, ebgm: eb05 + 0.5, eb05,
    eb50: eb05 + 0.4, eb95: eb05 + 2, prr, prr_lci: prr / 2, prr_uci: prr * 2, prr_chisq: form === 'full' ? prr_chisq : null, ror: prr + 0.1, ror_lci: form === 'full' ? ror_lci : null, ror_uci: 9, ic: ic025 + 1,
    ic025, ic975: ic025 + 2, n_methods_flagged: nmf, is_signal_any: nmf >= 1, ewma_eb05: eb05,
  }));
  return [...rows, ...rows.filter((r) => r.drug === ROTASHIELD).map((r) => ({ ...r, analysis: 'serious' }))];
}

function report(vaers_id: number, received: string, quarter: string, hospital: boolean): ReportRow {
  return {
    vaers_id, received, quarter, age_yrs: 1, age_source: 'AGE_YRS', age_group: '1-2 years', sex: 'F', state: null, vax_date: null, onset_date: null, numdays: null,
    died: false, l_threat: false, er_visit: false, hospital, x_stay: false, disable: false, birth_defect: null, ofc_visit: null, recovd: null, narrative: null,
    lab_data: null, history: null, cur_ill: null, other_meds: null, prior_vax: null, allergies: null,
    rpt_date: null, datedied: null, hospdays: null, v_adminby: null, v_fundby: null, splttype: null, form_vers: null, todays_date: null, cluster: null,
  };
}

/** Reports newest first (the store order): 3 (2001Q1), 5 and 2 (2000Q2), 1 and 4 (2000Q1), 6 (1998Q1). */
function reportTables(): ReportTables {
  const vaccine = (vaers_id: number, vax_name: string, vax_type: string) => ({ vaers_id, vax_name, vax_type_code: vax_type, vax_manu: null, vax_lot: null, vax_dose: null, vax_route: null, vax_site: null });
  return {
    reports: [
      report(3, '2001-02-01', '2001Q1', false), report(5, '2000-05-20', '2000Q2', false), report(2, '2000-05-01', '2000Q2', false),
      report(1, '2000-02-10', '2000Q1', true), report(4, '2000-01-15', '2000Q1', false), report(6, '1998-01-10', '1998Q1', false),
    ],
    vaccines: [vaccine(3, ENGERIX, 'HEP'), vaccine(5, ENGERIX, 'HEP'), vaccine(2, ENGERIX, 'HEP'), vaccine(1, MMR_NO_BRAND, 'MMR'), vaccine(4, ENGERIX, 'HEP'), vaccine(6, ENGERIX, 'HEP')],
    events: [
      { vaers_id: 3, term: 'Multiple sclerosis', version: null }, { vaers_id: 5, term: 'Anaphylactic reaction', version: null },
      { vaers_id: 2, term: 'Anaphylactic reaction', version: null }, { vaers_id: 1, term: 'Febrile convulsion', version: null },
      { vaers_id: 4, term: 'Anaphylactic reaction', version: null }, { vaers_id: 6, term: 'Anaphylactic reaction', version: null },
    ],
  };
}

/** The prior of every window of `all`. */
export const FIXTURE_PRIOR = { alpha1: 0.2, beta1: 0.1, alpha2: 2, beta2: 2, p: 0.1 };

function windows(): WindowRow[] {
  return Array.from({ length: 13 }, (_, i) => ({
    analysis: 'all', quarter: formatQuarter(1998 * 4 + i), ...FIXTURE_PRIOR, neg_log_lik: 1, converged: true, at_bound: '', n_pairs: 10, n_reports: 100,
  }));
}

/**
 * Writes the fixture store into a fresh temp folder: `form` `full` (every column) or `served`
 * (prr_chisq and ror_lci NULL); `reports` false leaves out the report tables. Returns its path.
 */
export async function writeEvaluationStore(form: 'full' | 'served', options: { reports?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-evaluate-'));
  const path = join(dir, `fixture-${form}.duckdb`);
  const meta: StoreMeta = {
    reports_through: '2001Q1', sources: [], parameters: {}, program_version: 'test', built_at: '2024-01-01T00:00:00Z', origin: 'build',
    has_ic025: true, analyses: [ANALYSIS('all', null, true), ANALYSIS('serious', 'serious reports', false)],
  };
  await writeStore(path, { quarterly: quarterly(form), vaccines: FIXTURE_VACCINES, windows: windows(), meta, ...(options.reports === false ? {} : { reports: reportTables() }) });
  return path;
}
