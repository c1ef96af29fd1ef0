/**
 * The columns of a kept report, in one table (the report side's `columns.ts`): per column its
 * source field(s) in both official VAERS layouts, its store column and type, how it is held in
 * memory, its name in the case series' JSON and CSV, and what it means. Everything that lists
 * these columns derives from `REPORT_COLUMNS` and `VACCINE_COLUMNS`:
 * - the reader of the VAERS files (src/ingest/vaers/rows.ts: the header columns by source name, the
 *   `cell` columns read by their encoding; src/ingest/vaers/report-details.ts: the build's columns);
 * - the store: the `reports` and `report_vaccines` DDL and row types (src/domain/store-schema.ts), the
 *   build's rows (src/ingest/mining/report-tables.ts) and the server's read by column name
 *   (src/serve/store/reports.ts, whose `ReportData` is mapped from the table);
 * - the case series: each report's JSON and CSV fields (src/serve/cases/render.ts), their JSON schema
 *   (src/serve/cases/schemas.ts) and the notes (src/http/notes-resources.ts).
 * A new report field is one row here plus the code that computes it (nothing for a `cell`
 * column: its source cell is read by its encoding).
 *
 * Layouts: the 1990-2006 layout (the 2014 CDC release, ../shared/data/vaers) and the current
 * layout (../shared/data/vaers-modern-layout: adds `BIRTH_DEFECT`, `OFC_VISIT`, `ER_ED_VISIT`,
 * and names the dose `VAX_DOSE_SERIES`). Ground floor: this file imports nothing outside src/domain.
 */
import { AGE_GROUP_LABELS, AGE_SOURCES, RECOVD_CODES, SEX_CODES, type OutcomeName } from './report-rules.js';

/** DuckDB type of a report store column. */
export type ReportStoreType = 'BIGINT' | 'VARCHAR' | 'DOUBLE' | 'BOOLEAN';

/**
 * How a column is held in memory, by the build (ReportDetails) and by the server (ReportData),
 * and stored:
 * - `id`: VAERS_ID, a double; BIGINT;
 * - `date`: the build's `yyyymmdd` integer (0: null), the server's ISO `YYYY-MM-DD` string; VARCHAR ISO;
 * - `quarter`: a quarter index (src/domain/quarter.ts); VARCHAR `YYYYQn`;
 * - `number`: a double, NaN for null; DOUBLE;
 * - `code`: an index into the row's `codes`; VARCHAR code, never null;
 * - `text`: the build's string number (-1: null), the server's string or null; VARCHAR;
 * - `outcome`: a bit of the report's OUTCOME bits (`outcomes`) and of the bits whose column
 *   its file had (`outcomesKnown`); BOOLEAN, null when the file had no such column;
 * - `narrative`: a string or null per report, the whole column null when not kept; VARCHAR.
 */
export type ReportEncoding = 'id' | 'date' | 'quarter' | 'number' | 'code' | 'text' | 'outcome' | 'narrative';

/** A field's VAERS source columns: in the 1990-2006 layout and in the current one (empty: not in that layout), in order of preference. */
export interface SourceFields {
  readonly older: readonly string[];
  readonly current: readonly string[];
}

/** A field of the case series' JSON report: its name and its JSON schema (as /openapi.json shows it). */
export interface JsonField {
  readonly name: string;
  readonly schema: { readonly type: string | readonly string[]; readonly [key: string]: unknown };
  /** Only when the store has the column's values (narratives). */
  readonly optional?: true;
  /** How the notes (/llms.txt) name it (default: the name; null: not named). */
  readonly notes?: string | null;
}

/** One column of a kept report. */
export interface ReportColumnSpec {
  /** Store column of `reports`, or null for a field the server computes (`serious`) or gathers from the other tables (`vaccines`, `events`). */
  readonly store: string | null;
  readonly type?: ReportStoreType;
  /** Never null in the store. */
  readonly notNull?: true;
  readonly encoding?: ReportEncoding;
  /** The property of ReportDetails (build) and ReportData (server) that holds it. */
  readonly field?: string;
  /** The VAERSDATA field(s) it comes from (for a derived column, what it is computed from). */
  readonly source: SourceFields | null;
  /** `cell`: read from its source cell by its encoding (src/ingest/vaers/rows.ts), an unreadable cell counted; `checked`: computed elsewhere, but an unreadable source cell is counted too. */
  readonly read?: 'cell' | 'checked';
  /** For `code` columns, the codes in index order; for `text` columns, the only codes read (others: null, counted). */
  readonly codes?: readonly string[];
  /** For `outcome` columns, the OUTCOME flag. */
  readonly outcome?: OutcomeName;
  /** Its field in the case series' JSON (and, unless `csv` is false, CSV). */
  readonly json: JsonField | null;
  readonly csv?: false;
  /** Meaning, units and source. */
  readonly description: string;
}

const both = (...fields: string[]): SourceFields => ({ older: fields, current: fields });
const STRING_OR_NULL = ['string', 'null'] as const;

/** The columns of one VAX row of a report (table `report_vaccines`, after its `vaers_id`), in order. */
export const VACCINE_COLUMNS = [
  { store: 'vax_name', field: 'name', notNull: true, source: both('VAX_NAME'), json: { name: 'name', schema: { type: 'string', description: 'VAX_NAME.' } },
    description: 'Vaccine name as reported (a row without one names no vaccine and is not kept).' },
  { store: 'vax_type_code', field: 'type', source: both('VAX_TYPE'), json: { name: 'type', notes: 'type code', schema: { type: STRING_OR_NULL, description: 'VAX_TYPE code.' } },
    description: 'VAERS vaccine type code (e.g. HPV4).' },
  { store: 'vax_manu', field: 'manufacturer', source: both('VAX_MANU'), json: { name: 'manufacturer', schema: { type: STRING_OR_NULL, description: 'VAX_MANU.' } },
    description: 'Manufacturer.' },
  { store: 'vax_lot', field: 'lot', source: both('VAX_LOT'), json: { name: 'lot', schema: { type: STRING_OR_NULL, description: 'VAX_LOT.' } },
    description: 'Lot number as reported.' },
  { store: 'vax_dose', field: 'dose', source: { older: ['VAX_DOSE'], current: ['VAX_DOSE_SERIES'] },
    json: { name: 'dose', schema: { type: STRING_OR_NULL, description: 'VAX_DOSE (or VAX_DOSE_SERIES in the current layout).' } },
    description: 'Dose number in the series (VAX_DOSE in the 1990-2006 layout, VAX_DOSE_SERIES in the current one).' },
  { store: 'vax_route', field: 'route', source: both('VAX_ROUTE'), json: { name: 'route', schema: { type: STRING_OR_NULL, description: 'VAX_ROUTE.' } },
    description: 'Route of administration code.' },
  { store: 'vax_site', field: 'site', source: both('VAX_SITE'), json: { name: 'site', schema: { type: STRING_OR_NULL, description: 'VAX_SITE.' } },
    description: 'Site of administration code.' },
] as const satisfies ReadonlyArray<{ store: string; field: string; notNull?: true; source: SourceFields; json: JsonField; description: string }>;

/** One column of a VAX row. */
export type VaccineColumn = (typeof VACCINE_COLUMNS)[number];

/** JSON schema of one VAX row of a report in the case series. */
export const VACCINE_ROW_SCHEMA = {
  type: 'object', required: VACCINE_COLUMNS.map((c) => c.json.name),
  properties: Object.fromEntries(VACCINE_COLUMNS.map((c) => [c.json.name, c.json.schema])),
} as const;

/** An outcome flag column (BOOLEAN, a bit of `outcomes`). */
const outcome = <const S extends string, const F extends OutcomeName, const J extends JsonField>(store: S, flag: F, source: SourceFields, json: J, description: string) =>
  ({ store, type: 'BOOLEAN', encoding: 'outcome', field: 'outcomes', outcome: flag, source, json, description }) as const;
const CURRENT_ONLY = (field: string): SourceFields => ({ older: [], current: [field] });
/** A further narrative field of a report (kept as written with `--narratives`; not in the case series' listing, shown by the report view). */
const narrative = <const S extends string, const F extends string>(store: S, field: F, source: SourceFields, description: string) =>
  ({ store, type: 'VARCHAR', encoding: 'narrative', field, source, json: null, description }) as const;
/**
 * A report field read from its cell (a date as ISO VARCHAR, a number, a free text or code kept
 * trimmed), served by the report view only (`json: null`: not in the case series' listing).
 */
const detail = <const S extends string, const E extends 'date' | 'number' | 'text', const F extends string>(
  store: S, type: 'DATE' | 'DOUBLE' | 'VARCHAR', encoding: E, field: F, source: SourceFields, description: string) =>
  ({ store, type: type === 'DATE' ? 'VARCHAR' : type, encoding, field, source, read: 'cell', json: null, description }) as const;

/** The columns of a kept report, in store order (`reports`) and in the case series' order. */
export const REPORT_COLUMNS = [
  { store: 'vaers_id', type: 'BIGINT', notNull: true, encoding: 'id', field: 'id', source: both('VAERS_ID'),
    json: { name: 'vaers_id', schema: { type: 'integer' } }, description: 'VAERS report id.' },
  { store: 'received', type: 'VARCHAR', notNull: true, encoding: 'date', field: 'received', source: both('RECVDATE'),
    json: { name: 'received', schema: { type: 'string', description: 'RECVDATE, ISO YYYY-MM-DD.' } }, description: 'Date VAERS received the report, ISO.' },
  { store: 'quarter', type: 'VARCHAR', notNull: true, encoding: 'quarter', field: 'quarter', source: both('RECVDATE'),
    json: { name: 'quarter', schema: { type: 'string', pattern: '^\\d{4}Q[1-4]$' } }, description: 'Quarter of RECVDATE, `YYYYQn`.' },
  { store: 'age_yrs', type: 'DOUBLE', encoding: 'number', field: 'age', source: both('AGE_YRS', 'CAGE_YR', 'CAGE_MO'), read: 'checked',
    json: { name: 'age_yrs', schema: { type: ['number', 'null'], description: 'Age in years: AGE_YRS, else CAGE_YR + CAGE_MO when AGE_YRS is blank (age_source says which); null when unknown.' } },
    description: 'Age in years: AGE_YRS, else the calculated age CAGE_YR + CAGE_MO (a fraction of a year) when AGE_YRS is blank (src/domain/report-rules.ts ageOf); null when unknown or AGE_YRS is not a number >= 0.' },
  { store: 'age_source', type: 'VARCHAR', encoding: 'text', field: 'ageSource', codes: AGE_SOURCES, source: both('AGE_YRS', 'CAGE_YR', 'CAGE_MO'),
    json: { name: 'age_source', schema: { type: STRING_OR_NULL, enum: [...AGE_SOURCES, null], description: 'Where age_yrs comes from: AGE_YRS, or CAGE (CAGE_YR + CAGE_MO, AGE_YRS being blank); null without an age.' } },
    description: 'Source of age_yrs: `AGE_YRS`, `CAGE` (CAGE_YR + CAGE_MO, used when AGE_YRS is blank), or null without an age.' },
  { store: 'age_group', type: 'VARCHAR', notNull: true, encoding: 'code', field: 'ageGroup', codes: AGE_GROUP_LABELS, source: both('AGE_YRS', 'CAGE_YR', 'CAGE_MO'),
    json: { name: 'age_group', schema: { type: 'string', enum: AGE_GROUP_LABELS } }, description: 'CDC WONDER age group of age_yrs (src/domain/report-rules.ts AGE_GROUPS).' },
  { store: 'sex', type: 'VARCHAR', notNull: true, encoding: 'code', field: 'sex', codes: SEX_CODES, source: both('SEX'), read: 'checked',
    json: { name: 'sex', schema: { type: 'string', enum: SEX_CODES } }, description: 'F, M or U (blank and other codes).' },
  { store: 'state', type: 'VARCHAR', encoding: 'text', field: 'state', source: both('STATE'), read: 'cell',
    json: { name: 'state', schema: { type: STRING_OR_NULL } }, description: 'US state or territory code as reported.' },
  { store: 'vax_date', type: 'VARCHAR', encoding: 'date', field: 'vaxDate', source: both('VAX_DATE'), read: 'cell',
    json: { name: 'vax_date', schema: { type: STRING_OR_NULL, description: 'ISO date or null.' } }, description: 'Vaccination date, ISO; null when blank or not a real date.' },
  { store: 'onset_date', type: 'VARCHAR', encoding: 'date', field: 'onsetDate', source: both('ONSET_DATE'), read: 'cell',
    json: { name: 'onset_date', schema: { type: STRING_OR_NULL, description: 'ISO date or null.' } }, description: 'Onset date, ISO; null when blank or not a real date.' },
  { store: 'numdays', type: 'DOUBLE', encoding: 'number', field: 'numdays', source: both('NUMDAYS'), read: 'cell',
    json: { name: 'onset_days', schema: { type: ['number', 'null'], description: 'NUMDAYS as reported.' } }, description: 'Days from vaccination to onset, as reported.' },
  { store: null, source: both('VAX_DATE', 'RECVDATE'),
    json: { name: 'lag_days', schema: { type: ['number', 'null'], description: 'Days from vaccination to receipt (RECVDATE - VAX_DATE); null when VAX_DATE is unknown or after RECVDATE.' } },
    description: 'Lag from vaccination to receipt in days (src/domain/report-days.ts lagDaysOf), computed from vax_date and received when served.' },
  { store: null, source: { older: ['DIED', 'L_THREAT', 'HOSPITAL', 'X_STAY', 'DISABLE'], current: ['DIED', 'L_THREAT', 'HOSPITAL', 'X_STAY', 'DISABLE', 'BIRTH_DEFECT'] },
    json: { name: 'serious', schema: { type: 'boolean', description: 'Any of DIED, L_THREAT, HOSPITAL, X_STAY, DISABLE, BIRTH_DEFECT (21 CFR 600.80).' } },
    description: 'Serious report (21 CFR 600.80; src/domain/report-rules.ts isSerious), computed from the outcome flags when served.' },
  outcome('died', 'DIED', both('DIED'), { name: 'died', notes: 'the outcome flags', schema: { type: 'boolean' } }, 'The patient died.'),
  outcome('l_threat', 'L_THREAT', both('L_THREAT'), { name: 'l_threat', notes: null, schema: { type: 'boolean' } }, 'Life-threatening event.'),
  outcome('er_visit', 'ER_VISIT', { older: ['ER_VISIT'], current: ['ER_VISIT', 'ER_ED_VISIT'] },
    { name: 'er_visit', notes: null, schema: { type: 'boolean', description: 'ER_VISIT or ER_ED_VISIT.' } }, 'Emergency room (or department) visit.'),
  outcome('hospital', 'HOSPITAL', both('HOSPITAL'), { name: 'hospital', notes: null, schema: { type: 'boolean' } }, 'Hospitalised.'),
  outcome('x_stay', 'X_STAY', both('X_STAY'), { name: 'x_stay', notes: null, schema: { type: 'boolean' } }, 'Prolonged hospitalisation.'),
  outcome('disable', 'DISABLE', both('DISABLE'), { name: 'disable', notes: null, schema: { type: 'boolean' } }, 'Disability.'),
  outcome('birth_defect', 'BIRTH_DEFECT', CURRENT_ONLY('BIRTH_DEFECT'),
    { name: 'birth_defect', notes: null, schema: { type: ['boolean', 'null'], description: 'Null when the report\'s file has no BIRTH_DEFECT column (older layout).' } },
    'Congenital anomaly or birth defect (current layout only).'),
  outcome('ofc_visit', 'OFC_VISIT', CURRENT_ONLY('OFC_VISIT'),
    { name: 'ofc_visit', notes: null, schema: { type: ['boolean', 'null'], description: 'Null when the report\'s file has no OFC_VISIT column.' } },
    'Doctor\'s office visit (current layout only).'),
  { store: 'recovd', type: 'VARCHAR', encoding: 'text', field: 'recovd', codes: RECOVD_CODES, source: both('RECOVD'), read: 'cell',
    json: { name: 'recovd', notes: null, schema: { type: STRING_OR_NULL } }, description: 'Recovered: Y, N, U; null when blank or another code.' },
  { store: 'cluster', type: 'BIGINT', encoding: 'number', field: 'cluster', source: null,
    json: { name: 'cluster', schema: { type: ['integer', 'null'], description: 'Suspected-duplicate cluster: the VAERS_ID of the report standing for the cluster this report belongs to (itself for that report); null in no cluster. GET /reports/{vaers_id} lists the linked reports.' } },
    description: 'Suspected-duplicate cluster: the VAERS_ID of its representative (the report that stands for the cluster when each cluster is counted once; the representative itself holds its own id), null for a report in no cluster. Computed by the build after reading, from the duplicate-report linkage (src/ingest/linkage, after vigiMatch, Noren 2007); null throughout when the linkage did not run.' },
  { store: null, source: null, json: { name: 'vaccines', notes: `vaccines (${VACCINE_COLUMNS.map((c) => ('notes' in c.json ? c.json.notes : c.json.name)).join(', ')})`, schema: { type: 'array', items: VACCINE_ROW_SCHEMA } },
    description: 'The report\'s VAX rows (table `report_vaccines`, VACCINE_COLUMNS).' },
  { store: null, source: null, json: { name: 'events', schema: { type: 'array', items: { type: 'string' } } },
    description: 'The report\'s distinct MedDRA terms (table `report_events`), in file order.' },
  { store: 'narrative', type: 'VARCHAR', encoding: 'narrative', field: 'narrative', source: both('SYMPTOM_TEXT'),
    json: { name: 'narrative', optional: true, notes: 'and narrative when the store has them',
      schema: { type: STRING_OR_NULL, description: 'SYMPTOM_TEXT; present only when the store was built with --narratives.' } },
    description: 'SYMPTOM_TEXT as written, only in a build with `--narratives`.' },
  narrative('lab_data', 'labData', both('LAB_DATA'), 'Laboratory results (LAB_DATA) as written.'),
  narrative('history', 'history', both('HISTORY'), 'Medical history (HISTORY) as written.'),
  narrative('cur_ill', 'curIll', both('CUR_ILL'), 'Illness at vaccination (CUR_ILL) as written.'),
  narrative('other_meds', 'otherMeds', both('OTHER_MEDS'), 'Other medications (OTHER_MEDS) as written.'),
  narrative('prior_vax', 'priorVax', both('PRIOR_VAX'), 'Earlier adverse events after vaccination (PRIOR_VAX) as written.'),
  narrative('allergies', 'allergies', CURRENT_ONLY('ALLERGIES'), 'Allergies to medications, food or other products (ALLERGIES, current layout only) as written.'),
  detail('rpt_date', 'DATE', 'date', 'rptDate', both('RPT_DATE'), 'Date the report form was completed (RPT_DATE), ISO; null when blank or not a real date.'),
  detail('datedied', 'DATE', 'date', 'dateDied', both('DATEDIED'), 'Date of death (DATEDIED), ISO; null when blank or not a real date.'),
  detail('hospdays', 'DOUBLE', 'number', 'hospdays', both('HOSPDAYS'), 'Days in hospital (HOSPDAYS) as reported; null when blank or not a number.'),
  detail('v_adminby', 'VARCHAR', 'text', 'adminBy', both('V_ADMINBY'), 'Type of facility that administered the vaccine (V_ADMINBY code, e.g. PVT, PUB, MIL, WRK, OTH, UNK).'),
  detail('v_fundby', 'VARCHAR', 'text', 'fundBy', both('V_FUNDBY'), 'Funding of the vaccine (V_FUNDBY code, e.g. PVT, PUB, MIL, OTH, UNK).'),
  detail('splttype', 'VARCHAR', 'text', 'splttype', both('SPLTTYPE'), 'Manufacturer or immunization project report number (SPLTTYPE) as written.'),
  detail('form_vers', 'VARCHAR', 'text', 'formVers', CURRENT_ONLY('FORM_VERS'), 'VAERS form version (FORM_VERS: 1 the older form, 2 the 2017 one; current layout only).'),
  detail('todays_date', 'DATE', 'date', 'todaysDate', CURRENT_ONLY('TODAYS_DATE'), 'Date the form was completed (TODAYS_DATE, current layout only), ISO; null when blank or not a real date.'),
] as const satisfies readonly ReportColumnSpec[];

/** One entry of {@link REPORT_COLUMNS}, with its literal types. */
export type ReportColumn = (typeof REPORT_COLUMNS)[number];
/** A column of the `reports` table. */
export type StoredReportColumn = Extract<ReportColumn, { store: string }>;
/** A column of the case series' JSON report. */
export type JsonReportColumn = Extract<ReportColumn, { json: JsonField }>;

/** The columns of `reports`, in table order. */
export const STORED_REPORT_COLUMNS: readonly StoredReportColumn[] = REPORT_COLUMNS.filter((c): c is StoredReportColumn => c.store !== null);

/** The outcome columns, in table order. */
export const OUTCOME_REPORT_COLUMNS: ReadonlyArray<Extract<StoredReportColumn, { encoding: 'outcome' }>> =
  REPORT_COLUMNS.filter((c): c is Extract<StoredReportColumn, { encoding: 'outcome' }> => 'encoding' in c && c.encoding === 'outcome');

/** A column's source fields in either layout (the older first), each once: what a header is searched for. */
export function sourceFieldsOf(column: { source: SourceFields | null }): string[] {
  return [...new Set([...(column.source?.older ?? []), ...(column.source?.current ?? [])])];
}

/**
 * The fields whose unreadable cells the build counts, in table order (their first source
 * field): the `read` columns whose cell can fail (a date, a number, a code; free text cannot).
 */
export const CHECKED_FIELDS: readonly string[] = REPORT_COLUMNS.flatMap((c) =>
  ('read' in c && !(c.encoding === 'text' && !('codes' in c)) ? [sourceFieldsOf(c)[0]] : []));

/** A narrative column (free text kept as written, only in a build with `--narratives`). */
export type NarrativeReportColumn = Extract<StoredReportColumn, { encoding: 'narrative' }>;

/** The narrative columns, in table order (SYMPTOM_TEXT first). */
export const NARRATIVE_REPORT_COLUMNS: readonly NarrativeReportColumn[] =
  REPORT_COLUMNS.filter((c): c is NarrativeReportColumn => 'encoding' in c && c.encoding === 'narrative');

/**
 * The indexed narrative fields (text search, snippets), by their VAERSDATA column names: the
 * narrative columns that both file layouts carry, in table order: `SYMPTOM_TEXT` (the reporter's
 * own words), `LAB_DATA`, `HISTORY`, `CUR_ILL` (illness at vaccination), `OTHER_MEDS`, `PRIOR_VAX`
 * (earlier reactions). This order is the index's field numbering and the snippet's choice when a
 * match lies in several fields.
 */
export const NARRATIVE_FIELDS: readonly string[] = NARRATIVE_REPORT_COLUMNS.filter((c) => c.source.older.length > 0).map((c) => sourceFieldsOf(c)[0]);

/** One indexed narrative field (a VAERSDATA column name of NARRATIVE_FIELDS). */
export type NarrativeField = string;

/** The case series' JSON report fields, in order. */
export const JSON_REPORT_COLUMNS: readonly JsonReportColumn[] = REPORT_COLUMNS.filter((c): c is JsonReportColumn => c.json !== null);

/** A JSON report field's name. */
export type JsonReportField = JsonReportColumn['json']['name'];
