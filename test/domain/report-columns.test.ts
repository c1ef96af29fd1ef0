/**
 * The one table of report columns (src/domain/report-columns.ts): its source fields against the
 * headers of the two official layouts in ../shared/data, and what derives from it (the store
 * DDL, the checked fields, the case series' CSV header and JSON schema).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CASES_CSV_COLUMNS } from '../../src/serve/cases/render.js';
import { CASE_SERIES_SCHEMA } from '../../src/serve/cases/schemas.js';
import { CHECKED_FIELDS, REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type SourceFields } from '../../src/domain/report-columns.js';
import { REPORT_TABLES_SQL } from '../../src/domain/store-schema.js';
import { SHARED_DATA } from '../helpers/paths.js';

const data = SHARED_DATA;
const LAYOUTS = { older: path.join(data, 'vaers', '1999'), current: path.join(data, 'vaers-modern-layout', '1999') };
const present = existsSync(`${LAYOUTS.older}VAERSDATA.csv.gz`) && existsSync(`${LAYOUTS.current}VAERSDATA.csv.gz`);
if (!present) console.warn(`report columns against the layouts skipped: ${data} is absent`);

/** The header of a gzipped VAERS CSV. */
async function header(file: string): Promise<string[]> {
  return gunzipSync(await readFile(file)).toString('latin1').split(/\r?\n/, 1)[0].split(',');
}

describe('the report columns table', () => {
  it.skipIf(!present)('each source field is in its layout\'s header, and a field missing from a layout is missing from its header', async () => {
    for (const [layout, prefix] of Object.entries(LAYOUTS) as Array<[keyof SourceFields, string]>) {
      const headers = { DATA: await header(`${prefix}VAERSDATA.csv.gz`), VAX: await header(`${prefix}VAERSVAX.csv.gz`) };
      const tables = [['DATA', REPORT_COLUMNS], ['VAX', VACCINE_COLUMNS]] as const;
      for (const [kind, columns] of tables) {
        for (const c of columns) {
          if (c.source === null) continue;
          for (const field of c.source[layout]) expect(headers[kind], `${layout} ${kind} ${field}`).toContain(field);
        }
      }
    }
    const older = await header(`${LAYOUTS.older}VAERSDATA.csv.gz`);
    const currentOnly = REPORT_COLUMNS.flatMap((c): string[] => (c.source ? c.source.current.filter((f) => !(c.source.older as readonly string[]).includes(f)) : []));
    expect([...new Set(currentOnly)]).toEqual(['BIRTH_DEFECT', 'ER_ED_VISIT', 'OFC_VISIT', 'ALLERGIES', 'FORM_VERS', 'TODAYS_DATE']);
    for (const field of currentOnly) expect(older).not.toContain(field);
    expect(await header(`${LAYOUTS.older}VAERSVAX.csv.gz`)).not.toContain('VAX_DOSE_SERIES');
  });

  it('the store DDL, checked fields and CSV header derive from it, in table order', () => {
    expect(STORED_REPORT_COLUMNS.map((c) => c.store)).toEqual(['vaers_id', 'received', 'quarter', 'age_yrs', 'age_source', 'age_group', 'sex', 'state', 'vax_date',
      'onset_date', 'numdays', 'died', 'l_threat', 'er_visit', 'hospital', 'x_stay', 'disable', 'birth_defect', 'ofc_visit', 'recovd', 'cluster', 'narrative',
      'lab_data', 'history', 'cur_ill', 'other_meds', 'prior_vax', 'allergies', 'rpt_date', 'datedied', 'hospdays', 'v_adminby', 'v_fundby', 'splttype', 'form_vers', 'todays_date']);
    expect(REPORT_TABLES_SQL.split('\n')).toEqual([
      'CREATE TABLE reports (vaers_id BIGINT NOT NULL, received VARCHAR NOT NULL, quarter VARCHAR NOT NULL, age_yrs DOUBLE, age_source VARCHAR, age_group VARCHAR NOT NULL, '
        + 'sex VARCHAR NOT NULL, state VARCHAR, vax_date VARCHAR, onset_date VARCHAR, numdays DOUBLE, died BOOLEAN, l_threat BOOLEAN, er_visit BOOLEAN, '
        + 'hospital BOOLEAN, x_stay BOOLEAN, disable BOOLEAN, birth_defect BOOLEAN, ofc_visit BOOLEAN, recovd VARCHAR, cluster BIGINT, narrative VARCHAR, '
        + 'lab_data VARCHAR, history VARCHAR, cur_ill VARCHAR, other_meds VARCHAR, prior_vax VARCHAR, allergies VARCHAR, rpt_date VARCHAR, datedied VARCHAR, '
        + 'hospdays DOUBLE, v_adminby VARCHAR, v_fundby VARCHAR, splttype VARCHAR, form_vers VARCHAR, todays_date VARCHAR);',
      'CREATE TABLE report_vaccines (vaers_id BIGINT NOT NULL, vax_name VARCHAR NOT NULL, vax_type_code VARCHAR, vax_manu VARCHAR, vax_lot VARCHAR, '
        + 'vax_dose VARCHAR, vax_route VARCHAR, vax_site VARCHAR);',
      'CREATE TABLE report_events (vaers_id BIGINT NOT NULL, term VARCHAR NOT NULL, version VARCHAR);',
    ]);
    expect(CHECKED_FIELDS).toEqual(['AGE_YRS', 'SEX', 'VAX_DATE', 'ONSET_DATE', 'NUMDAYS', 'RECOVD', 'RPT_DATE', 'DATEDIED', 'HOSPDAYS', 'TODAYS_DATE']);
    expect(CASES_CSV_COLUMNS).toEqual(['vaers_id', 'received', 'quarter', 'age_yrs', 'age_source', 'age_group', 'sex', 'state', 'vax_date', 'onset_date', 'onset_days', 'lag_days',
      'serious', 'died', 'l_threat', 'er_visit', 'hospital', 'x_stay', 'disable', 'birth_defect', 'ofc_visit', 'recovd', 'cluster', 'vaccines', 'events']);
    const report = CASE_SERIES_SCHEMA.properties.reports.items;
    expect(report.required).toEqual(CASES_CSV_COLUMNS);
    expect(Object.keys(report.properties)).toEqual([...CASES_CSV_COLUMNS, 'narrative', 'snippet']);
    expect((report.properties.vaccines as { items: { required: string[] } }).items.required).toEqual(['name', 'type', 'manufacturer', 'lot', 'dose', 'route', 'site']);
  });
});
