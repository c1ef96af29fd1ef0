/**
 * A small signal store for the explorer tests, written with `writeStore` into a temp dir.
 *
 * Shape: quarters 2019Q1..2023Q4 (so the COVID-era band 2021Q1-2022Q4 is in range);
 * - `ROTAVIRUS (ROTASHIELD)` x 30 events `Test event 01..30` (enough rows for two pages of 20)
 *   and x `Intussusception`; `ROTAVIRUS (ROTATEQ)` x `Intussusception` (a second product of the
 *   type ROTAVIRUS, for the class view);
 * - `HEP B (ENGERIX-B)` x an event whose name is HTML (`<img src=x onerror=...>`), which must be
 *   shown as text, never parsed.
 * Values are deterministic: pair k has eb05 = 1 + k / 10 in flagged quarters, so the default
 * sort (eb05 desc) puts `Test event 30` first.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuarterlyRow, StoreMeta, VaccineRow } from '../../src/domain/store-schema.js';
import { writeStore } from '../../src/ingest/store/write.js';

export const HTML_EVENT = '<img src=x onerror="window.__xss=1">Rash & <b>bold</b>';
export const PAGED_VACCINE = 'ROTAVIRUS (ROTASHIELD)';
export const SECOND_PRODUCT = 'ROTAVIRUS (ROTATEQ)';
export const CLASS_EVENT = 'Intussusception';
export const PAGED_EVENTS = 30;

const QUARTERS: string[] = [];
for (let year = 2019; year <= 2023; year++) for (let q = 1; q <= 4; q++) QUARTERS.push(`${year}Q${q}`);

function quarterRow(drug: string, event: string, quarter: string, i: number, level: number, flagged: boolean): QuarterlyRow {
  const eb05 = flagged ? level : 0.5 + (i % 3) * 0.1;
  return {
    analysis: 'all', drug, event, quarter, n: 3 + i, expected: 1.5, n_vaccine: 100, n_event: 50, n_reports: 10_000, qn: 0.9,
    ebgm: eb05 * 1.4, eb05, eb50: eb05 * 1.4, eb95: eb05 * 2, prr: 2.5, prr_lci: 1.5, prr_uci: 4, prr_chisq: 6,
    ror: 2.6, ror_lci: 1.6, ror_uci: 4.2, ic: 1.1, ic025: 0.4, ic975: 1.8,
    n_methods_flagged: flagged ? 3 : 1, is_signal_any: flagged, ewma_eb05: null,
  };
}

/** Quarterly rows of one pair: flagged from the 4th to the 14th quarter (2019Q4..2022Q2). */
function pairRows(drug: string, event: string, level: number): QuarterlyRow[] {
  return QUARTERS.map((quarter, i) => quarterRow(drug, event, quarter, i, level, i >= 3 && i <= 13));
}

/** Writes the fixture store and returns its path. */
export async function writeExplorerStore(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'explorer-store-'));
  const path = join(dir, 'store.duckdb');
  const quarterly: QuarterlyRow[] = [];
  for (let k = 1; k <= PAGED_EVENTS; k++) {
    quarterly.push(...pairRows(PAGED_VACCINE, `Test event ${String(k).padStart(2, '0')}`, 1 + k / 10));
  }
  quarterly.push(...pairRows(PAGED_VACCINE, CLASS_EVENT, 2.5));
  quarterly.push(...pairRows(SECOND_PRODUCT, CLASS_EVENT, 1.8));
  quarterly.push(...pairRows('HEP B (ENGERIX-B)', HTML_EVENT, 1.3));
  const vaccines: VaccineRow[] = [
    { vax_name: PAGED_VACCINE, vax_type: 'ROTAVIRUS', vax_type_codes: ['RV'] },
    { vax_name: SECOND_PRODUCT, vax_type: 'ROTAVIRUS', vax_type_codes: ['RV5'] },
    { vax_name: 'HEP B (ENGERIX-B)', vax_type: 'HEP B', vax_type_codes: ['HEP'] },
  ];
  const meta: StoreMeta = {
    reports_through: '2023Q4', sources: [], parameters: {}, program_version: 'test', built_at: '2024-01-01T00:00:00Z',
    origin: 'import', has_ic025: true,
  };
  await writeStore(path, { quarterly, vaccines, windows: [], meta });
  return path;
}
