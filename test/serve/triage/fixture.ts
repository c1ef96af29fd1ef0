/**
 * A small store for the triage tests, written with `writeStore`: one analysis (`all`), quarters
 * 2005Q1..2006Q4, eleven pairs flagged in 2006Q4 with hand-set evidence and one not flagged:
 * - ROTAVIRUS (ROTASHIELD) x Intussusception: flagged from 2006Q3 (new), serious, onset clustered,
 *   related to its Vomiting (overlap 0.8);
 * - ROTAVIRUS (ROTASHIELD) x Vomiting: new, both onset p < 0.01 but 3 comparator onsets (no reason);
 * - MMR x Fever: flagged only in 2006Q4, 2 reports (few_reports);
 * - LYMERIX x Arthritis: flagged since 2005Q1, median delay from onset 700 days (late_reports);
 * - VARICELLA (VARIVAX) x Herpes zoster: 511.5 days from vaccination, 200 from onset: not late;
 * - DTAP (CERTIVA) x Nervous system disorder: legal share 0.8 (legal_reports);
 * - HEP B (ENGERIX-B) x Wrong drug administered: a medication error term (non_clinical_term);
 * - POLIO VIRUS, INACT. (POLIOVAX) x Intussusception: EB05 1.7, 96.4% co-reported with type RV (ROTASHIELD; co_reported);
 * - INFLUENZA (SEASONAL) (FLUZONE) x Haematemesis: EB05 0.7 (two methods), new, serious, well
 *   documented, 3 reports of one case (no credit below EB05 1; few_reports);
 * - VARICELLA (VARIVAX) x Varicella: the disease the vaccine prevents (vaccine_failure);
 * - INFLUENZA (SEASONAL) (FLUARIX) x Skin irritation: template share 0.625 (template_reports);
 * - MMR x Rash: EB05 1.2, one method: not flagged, never in the queue.
 * The 2006Q3 window's fit has `p` on a bound (fit_at_bound there).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvidenceValues } from '../../../src/domain/columns.js';
import type { QuarterlyRow, StoreMeta, VaccineRow, WindowRow } from '../../../src/domain/store-schema.js';
import { writeStore } from '../../../src/ingest/store/write.js';
import { plainTriageRow, type TriageWindow, type TriageWindows } from '../../../src/serve/store/triage-rows.js';

const QUARTERS = ['2005Q1', '2005Q2', '2005Q3', '2005Q4', '2006Q1', '2006Q2', '2006Q3', '2006Q4'];

/** Evidence of a well-behaved pair; tests override fields. */
export const PLAIN_EVIDENCE: EvidenceValues = {
  lag_n: 10, lag_excluded: 0, lag_median_days: 20, lag_q1_days: 5, lag_q3_days: 60, lag_share_over_365: 0,
  legal_share: 0, onset_n: 8, onset_median_days: 3, onset_d_other_vaccines: 0.2, onset_p_other_vaccines: 0.5,
  onset_d_other_events: 0.2, onset_p_other_events: 0.4, completeness_mean: 0.6, well_documented_share: 0.2,
  serious_share: 0.1, deaths: 0, onset_lag_n: 10, onset_lag_median_days: 15, onset_lag_q1_days: 4, onset_lag_q3_days: 50,
  onset_n_other_vaccines: 200, onset_n_other_events: 300, n_cases: null, template_share: 0.1, co_vaccine: null, co_share: null, related_events: null,
  co_type_event: null, co_type_reports: null, co_own_event: null, co_own_reports: null, co_products: null,
  failure_n: null, failure_lack_n: null, failure_disease_n: null, failure_late_n: null,
  vaccine_last_vax_date: null, vaccine_dated_n: null, received_median_date: null, received_iqr_days: null,
};

interface PairSpec { drug: string; event: string; n: number; eb05: number; nmf: number; firstFlagged: number; evidence: Partial<EvidenceValues> }

export const PAIRS: PairSpec[] = [
  { drug: 'ROTAVIRUS (ROTASHIELD)', event: 'Intussusception', n: 12, eb05: 2.5, nmf: 4, firstFlagged: 6,
    evidence: { serious_share: 0.9, deaths: 1, onset_n: 10, onset_median_days: 4, onset_p_other_vaccines: 0.001, onset_p_other_events: 0.0001, well_documented_share: 0.6, related_events: '[["Vomiting",0.8]]' } },
  { drug: 'ROTAVIRUS (ROTASHIELD)', event: 'Vomiting', n: 30, eb05: 2.6, nmf: 3, firstFlagged: 6,
    evidence: { onset_n: 10, onset_p_other_vaccines: 0.001, onset_p_other_events: 0.001, onset_n_other_vaccines: 3, related_events: '[["Intussusception",0.8]]' } },
  { drug: 'MMR', event: 'Fever', n: 2, eb05: 2.1, nmf: 2, firstFlagged: 7, evidence: {} },
  { drug: 'LYMERIX', event: 'Arthritis', n: 40, eb05: 5, nmf: 4, firstFlagged: 0,
    evidence: { lag_n: 40, lag_median_days: 800, lag_q1_days: 500, lag_q3_days: 1000, lag_share_over_365: 0.9, onset_lag_n: 40, onset_lag_median_days: 700, onset_lag_q1_days: 450, onset_lag_q3_days: 900 } },
  { drug: 'VARICELLA (VARIVAX)', event: 'Herpes zoster', n: 46, eb05: 2.2, nmf: 3, firstFlagged: 0,
    evidence: { lag_median_days: 511.5, lag_q1_days: 300, lag_q3_days: 700, lag_share_over_365: 0.6, onset_lag_n: 40, onset_lag_median_days: 200, onset_lag_q1_days: 100, onset_lag_q3_days: 400 } },
  { drug: 'DTAP (CERTIVA)', event: 'Nervous system disorder', n: 20, eb05: 3, nmf: 3, firstFlagged: 2, evidence: { legal_share: 0.8 } },
  { drug: 'HEP B (ENGERIX-B)', event: 'Wrong drug administered', n: 30, eb05: 4, nmf: 4, firstFlagged: 3, evidence: {} },
  { drug: 'POLIO VIRUS, INACT. (POLIOVAX)', event: 'Intussusception', n: 56, eb05: 1.7, nmf: 2, firstFlagged: 6,
    evidence: {
      serious_share: 0.9, well_documented_share: 0.6, co_vaccine: 'RV', co_share: 54 / 56, co_products: '[["ROTAVIRUS (ROTASHIELD)",54]]',
      co_type_event: 40, co_type_reports: 200, co_own_event: 2, co_own_reports: 500,
    } },
  { drug: 'INFLUENZA (SEASONAL) (FLUZONE)', event: 'Haematemesis', n: 3, eb05: 0.7, nmf: 2, firstFlagged: 7,
    evidence: { serious_share: 1, well_documented_share: 1, n_cases: 1 } },
  { drug: 'VARICELLA (VARIVAX)', event: 'Varicella', n: 20, eb05: 3, nmf: 4, firstFlagged: 0, evidence: {} },
  { drug: 'INFLUENZA (SEASONAL) (FLUARIX)', event: 'Skin irritation', n: 9, eb05: 5, nmf: 4, firstFlagged: 7, evidence: { template_share: 0.625 } },
  { drug: 'MMR', event: 'Rash', n: 5, eb05: 1.2, nmf: 1, firstFlagged: 99, evidence: {} },
];

function row(p: PairSpec, quarter: string, i: number): QuarterlyRow {
  const flagged = i >= p.firstFlagged;
  const eb05 = flagged ? p.eb05 : 1.1;
  return {
    analysis: 'all', drug: p.drug, event: p.event, quarter, n: p.n, expected: 1.5, n_vaccine: 100, n_event: 50, n_reports: 10_000, qn: 0.9,
    ebgm: eb05 * 1.4, eb05, eb50: eb05 * 1.4, eb95: eb05 * 2, prr: 2.5, prr_lci: 1.5, prr_uci: 4, prr_chisq: 6,
    ror: 2.6, ror_lci: 1.6, ror_uci: 4.2, ic: 1.1, ic025: 0.4, ic975: 1.8,
    n_methods_flagged: flagged ? p.nmf : 1, is_signal_any: true, ewma_eb05: null, ...PLAIN_EVIDENCE, n_cases: p.n, ...p.evidence,
  };
}

function fit(quarter: string, atBound: string): WindowRow {
  return { analysis: 'all', quarter, alpha1: 0.2, beta1: 0.1, alpha2: 2, beta2: 4, p: 0.1, neg_log_lik: 100, converged: true, at_bound: atBound, n_pairs: 100, n_reports: 10_000 };
}

/** Writes the fixture store and returns its path. */
export async function writeTriageStore(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'triage-store-'));
  const path = join(dir, 'store.duckdb');
  const quarterly = PAIRS.flatMap((p) => QUARTERS.map((q, i) => row(p, q, i)));
  const vaccines: VaccineRow[] = [...new Set(PAIRS.map((p) => p.drug))].map((name) => ({ vax_name: name, vax_type: name.replace(/ \(.*\)$/, ''), vax_type_codes: [] }));
  const meta: StoreMeta = {
    reports_through: '2006Q4', sources: [], parameters: {}, program_version: 'test', built_at: '2024-01-01T00:00:00Z', origin: 'build', has_ic025: true,
  };
  await writeStore(path, { quarterly, vaccines, windows: QUARTERS.map((q) => fit(q, q === '2006Q3' ? 'p' : '')), meta });
  return path;
}

/** A window read from the store with its rows as plain objects (plainTriageRow: a read row's properties are getters), to compare two reads. */
export function plainWindow(window: TriageWindow | undefined): unknown {
  return window && { ...window, rows: window.rows.map(plainTriageRow) };
}

/** Every window of a read as plainWindow gives it. */
export function plainWindows(read: TriageWindows): unknown {
  return { ...read, windows: new Map([...read.windows].map(([quarter, window]) => [quarter, plainWindow(window)])) };
}
