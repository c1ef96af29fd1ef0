/**
 * A small hand-made store for the /signals tests: quarters 2019Q1-2023Q4 (reports through
 * 2023Q4), two COVID19 products, a non-COVID vaccine peaking in 2021-2022, ties, null EB05,
 * an unflagged-only pair, emerging pairs and CSV-hostile text. Every expected aggregate in the
 * tests is worked by hand from the rows below.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuarterlyRow, VaccineRow, WindowRow } from '../../../src/domain/store-schema.js';
import { writeStore } from '../../../src/ingest/store/write.js';
import type { AnalysisMeta } from '../../../src/domain/store-schema.js';

export const PFIZER = 'COVID19 (COVID19 (PFIZER-BIONTECH))';
export const MODERNA = 'COVID19 (COVID19 (MODERNA))';
export const SHINGRIX = 'ZOSTER (SHINGRIX)';
export const ZOSTAVAX = 'ZOSTER (ZOSTAVAX)';
export const GARDASIL9 = 'HPV (GARDASIL 9)';
export const TENIVAC = 'TD ADSORBED (TENIVAC)';
export const RASH = 'Rash, "generalised"';

/** [quarter, n, eb05, n_methods_flagged, ewma_eb05] */
type Q = [string, number, number | null, number, number | null];

/** The rows of every pair (drug, event, quarters). */
export const FIXTURE_SERIES: Array<[string, string, Q[]]> = [
  [PFIZER, 'Myocarditis', [
    ['2020Q4', 1, 0.5, 0, 0.5], ['2021Q1', 10, 2.0, 2, 0.95], ['2021Q2', 20, 4.0, 3, 1.87],
    ['2021Q3', 30, 5.0, 4, 2.81], ['2021Q4', 25, 5.0, 4, 3.46], ['2022Q1', 5, 1.5, 1, 2.87],
  ]],
  [MODERNA, 'Myocarditis', [['2021Q2', 8, 4.0, 3, 4.0], ['2021Q3', 12, 3.0, 2, 3.7]]],
  [MODERNA, 'Pyrexia', [['2021Q1', 50, null, 3, null], ['2021Q2', 40, null, 2, null]]],
  [SHINGRIX, 'Herpes zoster', [
    ['2019Q2', 3, 2.5, 2, 2.5], ['2020Q1', 4, 2.5, 2, 2.5], ['2021Q4', 9, 6.0, 3, 3.55], ['2022Q2', 2, 7.0, 1, 4.585],
  ]],
  [ZOSTAVAX, 'Herpes zoster', [['2019Q3', 2, 9.0, 1, 9.0], ['2020Q2', 6, 3.0, 2, 7.2]]],
  [GARDASIL9, 'Syncope', [['2020Q1', 5, 3.0, 2, 3.0]]],
  [GARDASIL9, 'Syncope vasovagal', [['2020Q1', 7, 3.0, 2, 3.0]]],
  [GARDASIL9, 'Headache', [['2020Q1', 4, 1.0, 1, 1.0]]],
  [GARDASIL9, 'MS', [['2019Q1', 3, 2.1, 2, 2.1]]],
  [GARDASIL9, RASH, [['2019Q1', 3, 1.2, 2, 1.2]]],
  [TENIVAC, 'Injection site pain', [['2023Q2', 4, 2.2, 2, 2.2], ['2023Q4', 6, 2.4, 3, 2.26]]],
  [TENIVAC, 'Erythema', [['2022Q4', 3, 2.0, 2, 2.0]]],
  [TENIVAC, 'Pain', [['2023Q1', 5, 2.05, 2, 2.05]]],
];

export const FIXTURE_VACCINES: VaccineRow[] = [
  { vax_name: PFIZER, vax_type: 'COVID19', vax_type_codes: ['COVID19'] },
  { vax_name: MODERNA, vax_type: 'COVID19', vax_type_codes: ['COVID19'] },
  { vax_name: SHINGRIX, vax_type: 'ZOSTER', vax_type_codes: ['VARZOS'] },
  { vax_name: ZOSTAVAX, vax_type: 'ZOSTER', vax_type_codes: ['ZOS'] },
  { vax_name: GARDASIL9, vax_type: 'HPV', vax_type_codes: ['HPV9'] },
  { vax_name: TENIVAC, vax_type: 'TD ADSORBED', vax_type_codes: ['TD'] },
];

function rows(): QuarterlyRow[] {
  const out: QuarterlyRow[] = [];
  for (const [drug, event, quarters] of FIXTURE_SERIES) {
    for (const [quarter, n, eb05, nmf, ewma] of quarters) {
      out.push({
        analysis: 'all', drug, event, quarter, n, expected: n / 2, n_vaccine: 100, n_event: 50, n_reports: 1000,
        qn: 0.5, ebgm: eb05 === null ? null : eb05 + 1, eb05, eb50: eb05 === null ? null : eb05 + 0.5,
        eb95: eb05 === null ? null : eb05 + 2, prr: 2.5, prr_lci: 1.5, prr_uci: 4, prr_chisq: 6,
        ror: 2.6, ror_lci: 1.4, ror_uci: 4.2, ic: 1.1, ic025: 0.3, ic975: 1.8,
        n_methods_flagged: nmf, is_signal_any: nmf >= 1, ewma_eb05: ewma,
      });
    }
  }
  return out;
}

/** The fitted windows of the `serious` analysis of the fixture store written with `analyses`: 2023Q4 on a bound, 2023Q3 not. */
export const FIXTURE_WINDOWS: WindowRow[] = [
  { analysis: 'serious', quarter: '2023Q4', alpha1: 1e-5, beta1: 0.5, alpha2: 2, beta2: 20, p: 0.25, neg_log_lik: 123.5, converged: true, at_bound: 'alpha1,beta2', n_pairs: 40, n_reports: 300 },
  { analysis: 'serious', quarter: '2023Q3', alpha1: 0.2, beta1: 0.3, alpha2: 2.1, beta2: 1.9, p: 0.15, neg_log_lik: 99.25, converged: true, at_bound: '', n_pairs: 38, n_reports: 280 },
];

/** The analysis metadata of the fixture store written with `analyses` (test/http: /analyses). */
export function fixtureAnalyses(): AnalysisMeta[] {
  const meta = (name: string, isDefault: boolean, subset: string | null, pairs: number, rowCount: number): AnalysisMeta => ({
    name, title: name, description: `Fixture analysis ${name}.`, subset, items: 'vaccine', stratified_by: name === 'all' ? [] : ['year of RECVDATE', 'age group (AGE_GROUP_6: 00_01, 02_05, 06_17, 18_64, 65_above, unknown)', 'sex (F, M, U)'],
    strata: name === 'all' ? null : 'sex,age6,year',
    default: isDefault, deduplicated: false, reports: 1000, pairs, rows: rowCount, windows: 20, reports_through: '2023Q4', fits_at_bound: 0, fits_not_converged: 0,
    windows_skipped: [], partial_windows: [],
  });
  const all = rows();
  return [
    meta('all', true, null, FIXTURE_SERIES.length, all.length),
    meta('stratified', false, null, FIXTURE_SERIES.length, all.length),
    meta('serious', false, 'fixture: the first series only', 1, FIXTURE_SERIES[0][2].length),
  ];
}

/**
 * Writes the fixture store (a DuckDB file, named `fixture.parquet` with `parquet`: a store is read
 * by its content, never its name) into a fresh temp folder and
 * returns its path. With `analyses`, the store holds three analyses: `all` (default)
 * and `stratified` with the same rows, and `serious` with the first series only.
 */
export async function writeFixtureStore(options: { hasIc025?: boolean; parquet?: boolean; analyses?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signals-fixture-'));
  const path = join(dir, options.parquet ? 'fixture.parquet' : 'fixture.duckdb');
  const all = rows();
  const [first] = FIXTURE_SERIES[0];
  const quarterly = options.analyses
    ? [...all, ...all.map((r) => ({ ...r, analysis: 'stratified' })), ...all.filter((r) => r.drug === first && r.event === FIXTURE_SERIES[0][1]).map((r) => ({ ...r, analysis: 'serious' }))]
    : all;
  await writeStore(path, {
    quarterly,
    vaccines: FIXTURE_VACCINES,
    windows: options.analyses ? FIXTURE_WINDOWS : [],
    meta: {
      reports_through: '2023Q4', sources: [], parameters: {}, program_version: 'test', built_at: '2024-01-01T00:00:00Z',
      origin: 'build', has_ic025: options.hasIc025 ?? true, ...(options.analyses ? { analyses: fixtureAnalyses() } : {}),
    },
  });
  return path;
}
