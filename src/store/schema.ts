/**
 * The signal store: one embedded DuckDB database file (DESIGN.md "Decisions already taken").
 * This file defines its tables and the TypeScript shapes of their rows. Only `src/store/`
 * holds SQL.
 *
 * Tables
 * - `quarterly`: one row per (analysis, drug, event, quarter) for every pair that has at least
 *   one quarter with `n_methods_flagged >= 2` in that analysis (the pair's full series).
 *   Statistics of the 4-quarter window ending at `quarter` (DESIGN.md "Statistics, precisely").
 * - `vaccines`: one row per vaccine name (`VAX_NAME`) with its `vax_type` (spec 2.1) and the
 *   VAERS `VAX_TYPE` codes seen with it.
 * - `windows`: per analysis and window, the MGPS hyperparameters and fit diagnostics.
 * - `meta`: build metadata as key -> JSON text.
 */
import { COLUMNS, type ColumnName, type QuarterlyRow, type StoreType } from '../domain/columns.js';

/**
 * One quarterly row of a pair (spec 2.3 quarter object plus the build's extra columns): the
 * window's counts, every statistic and flag of the window and the EWMA of EB05. Its shape
 * follows the column table (src/domain/columns.ts `COLUMNS`, the one list of them).
 */
export type { QuarterlyRow };

/** Column order of `quarterly`, with DuckDB types (from src/domain/columns.ts `COLUMNS`). */
export const QUARTERLY_COLUMNS: ReadonlyArray<readonly [ColumnName, StoreType]> = COLUMNS.map((c) => [c.name, c.type] as const);

/** One vaccine (spec 2.1 `vax_name`, `vax_type`; VAERS `VAX_TYPE` codes). */
export interface VaccineRow {
  vax_name: string;
  /** Spec 2.1 vax_type: the name without its parenthetical product suffix. */
  vax_type: string;
  /** VAERS `VAX_TYPE` abbreviations seen with this name (e.g. `HPV4`); empty for an import. */
  vax_type_codes: string[];
}

/** MGPS fit of one window (DESIGN.md: "record per window the hyperparameters ..."). */
export interface WindowRow {
  /** The analysis fitted (a store written before analyses existed has none: `all`). */
  analysis?: string;
  quarter: string;
  alpha1: number;
  beta1: number;
  alpha2: number;
  beta2: number;
  p: number;
  neg_log_lik: number;
  converged: boolean;
  /** Names of parameters that sit on a bound of the box, comma-separated; '' when none. */
  at_bound: string;
  /** Distinct pairs (n >= 1) in the window. */
  n_pairs: number;
  /** Reports in the window (N). */
  n_reports: number;
}

/** A window left out of an analysis, with the reason (a window too small to fit is recorded and skipped, not fatal). */
export interface SkippedWindowMeta {
  quarter: string;
  reason: string;
}

/**
 * One analysis of a store (its subset rule, strata, reports kept, pairs, fits on a
 * bound); served by `GET /analyses`. Counts are null when unknown (an import).
 */
export interface AnalysisMeta {
  name: string;
  title: string;
  /** One sentence on what the analysis is. */
  description: string;
  /** The subset rule in words, or null for every report. */
  subset: string | null;
  /** What E is stratified by (empty: crude E). */
  stratified_by: string[];
  /** Whether this is the default analysis (served at /signals). */
  default: boolean;
  /** Reports the subset rule kept. */
  reports: number | null;
  /** Pairs stored (n_methods_flagged >= 2 in some window). */
  pairs: number | null;
  /** Quarterly rows stored. */
  rows: number | null;
  /** Windows fitted. */
  windows: number | null;
  reports_through: string | null;
  /** Fitted windows with a hyperparameter on a bound of the box. */
  fits_at_bound: number | null;
  fits_not_converged: number | null;
  windows_skipped: SkippedWindowMeta[];
  /** Windows of the first three quarters that cover fewer than 4 quarters. */
  partial_windows: string[];
}

/** Build metadata (table `meta`). */
export interface StoreMeta {
  /** Latest quarter in the data, `<year>Q<1-4>`, or null for an empty store. */
  reports_through: string | null;
  /** Source files with their sha256. */
  sources: Array<{ name: string; sha256: string; bytes?: number }>;
  /** Build parameters (window length, lambda, floor, options). */
  parameters: Record<string, unknown>;
  /** Version of reporting-signals that wrote the store. */
  program_version: string;
  /** ISO timestamp of the build. */
  built_at: string;
  /** How the store was made. */
  origin: 'build' | 'import';
  /** Whether the quarterly rows carry `ic025` (spec 2.3: present only when the data has it). */
  has_ic025: boolean;
  /** The analyses of the store, the default first (absent in an import and in stores written before analyses existed). */
  analyses?: AnalysisMeta[];
  /** Anything else worth keeping (summary counts, warnings). */
  extra?: Record<string, unknown>;
}

/** DDL of the four tables above (`quarterly` columns from QUARTERLY_COLUMNS). */
export const SCHEMA_SQL = `
CREATE TABLE quarterly (${QUARTERLY_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')});
CREATE TABLE vaccines (vax_name VARCHAR PRIMARY KEY, vax_type VARCHAR NOT NULL, vax_type_codes VARCHAR[] NOT NULL);
CREATE TABLE windows (analysis VARCHAR NOT NULL, quarter VARCHAR NOT NULL, alpha1 DOUBLE, beta1 DOUBLE, alpha2 DOUBLE, beta2 DOUBLE, p DOUBLE,
  neg_log_lik DOUBLE, converged BOOLEAN, at_bound VARCHAR, n_pairs INTEGER, n_reports INTEGER, PRIMARY KEY (analysis, quarter));
CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
`;

/*
 * Report tables (the case series behind every signal). A build writes, for
 * the reports it kept (every analysis shares them):
 * - `reports`: one row per report, newest RECVDATE first, then VAERS_ID descending;
 * - `report_vaccines`: one row per VAX row with a VAX_NAME, in report order, then file order;
 * - `report_events`: one row per distinct term of a report, in report order, then file order.
 * An import or a store written before them has none (serving: src/store/reports.ts).
 */

/**
 * One kept report (table `reports`). Dates are ISO `YYYY-MM-DD`; a blank or unreadable value is
 * null; an outcome flag is null when the report's file has no such column (`birth_defect` and
 * `ofc_visit` exist only in the current layout; `er_visit` is `ER_VISIT` or `ER_ED_VISIT`).
 */
export interface ReportRow {
  vaers_id: number;
  /** RECVDATE. */
  received: string;
  /** Quarter of RECVDATE, `YYYYQn`. */
  quarter: string;
  age_yrs: number | null;
  /** CDC WONDER age group label (src/vaers/report-fields.ts AGE_GROUPS). */
  age_group: string;
  /** F, M or U. */
  sex: string;
  state: string | null;
  vax_date: string | null;
  onset_date: string | null;
  numdays: number | null;
  died: boolean | null;
  l_threat: boolean | null;
  er_visit: boolean | null;
  hospital: boolean | null;
  x_stay: boolean | null;
  disable: boolean | null;
  birth_defect: boolean | null;
  ofc_visit: boolean | null;
  /** Y, N, U or null. */
  recovd: string | null;
  /** SYMPTOM_TEXT, only in a build with `--narratives`. */
  narrative: string | null;
}

/** One VAX row of a kept report (table `report_vaccines`); blank fields are null. */
export interface ReportVaccineRow {
  vaers_id: number;
  vax_name: string;
  /** The VAERS VAX_TYPE code. */
  vax_type: string | null;
  vax_manu: string | null;
  vax_lot: string | null;
  /** VAX_DOSE (2014 release) or VAX_DOSE_SERIES (current layout). */
  vax_dose: string | null;
  vax_route: string | null;
  vax_site: string | null;
}

/** One event of a kept report (table `report_events`): the MedDRA term and its SYMPTOMVERSIONn. */
export interface ReportEventRow {
  vaers_id: number;
  term: string;
  version: string | null;
}

/** Column order of `reports`, with DuckDB types. */
export const REPORT_COLUMNS: ReadonlyArray<readonly [keyof ReportRow, 'BIGINT' | 'VARCHAR' | 'DOUBLE' | 'BOOLEAN']> = [
  ['vaers_id', 'BIGINT'], ['received', 'VARCHAR'], ['quarter', 'VARCHAR'], ['age_yrs', 'DOUBLE'], ['age_group', 'VARCHAR'],
  ['sex', 'VARCHAR'], ['state', 'VARCHAR'], ['vax_date', 'VARCHAR'], ['onset_date', 'VARCHAR'], ['numdays', 'DOUBLE'],
  ['died', 'BOOLEAN'], ['l_threat', 'BOOLEAN'], ['er_visit', 'BOOLEAN'], ['hospital', 'BOOLEAN'], ['x_stay', 'BOOLEAN'],
  ['disable', 'BOOLEAN'], ['birth_defect', 'BOOLEAN'], ['ofc_visit', 'BOOLEAN'], ['recovd', 'VARCHAR'], ['narrative', 'VARCHAR'],
];

/** Column order of `report_vaccines`, with DuckDB types. */
export const REPORT_VACCINE_COLUMNS: ReadonlyArray<readonly [keyof ReportVaccineRow, 'BIGINT' | 'VARCHAR']> = [
  ['vaers_id', 'BIGINT'], ['vax_name', 'VARCHAR'], ['vax_type', 'VARCHAR'], ['vax_manu', 'VARCHAR'], ['vax_lot', 'VARCHAR'],
  ['vax_dose', 'VARCHAR'], ['vax_route', 'VARCHAR'], ['vax_site', 'VARCHAR'],
];

/** Column order of `report_events`, with DuckDB types. */
export const REPORT_EVENT_COLUMNS: ReadonlyArray<readonly [keyof ReportEventRow, 'BIGINT' | 'VARCHAR']> = [
  ['vaers_id', 'BIGINT'], ['term', 'VARCHAR'], ['version', 'VARCHAR'],
];

/** The outcome columns of `reports` and their OUTCOME flag names (src/vaers/report-fields.ts). */
export const REPORT_OUTCOME_COLUMNS = [
  ['died', 'DIED'], ['l_threat', 'L_THREAT'], ['er_visit', 'ER_VISIT'], ['hospital', 'HOSPITAL'], ['x_stay', 'X_STAY'],
  ['disable', 'DISABLE'], ['birth_defect', 'BIRTH_DEFECT'], ['ofc_visit', 'OFC_VISIT'],
] as const satisfies ReadonlyArray<readonly [keyof ReportRow, string]>;

/** The report tables' names, in the order written. */
export const REPORT_TABLES = ['reports', 'report_vaccines', 'report_events'] as const;

/** A report table's name. */
export type ReportTableName = (typeof REPORT_TABLES)[number];

/** The report tables' rows, each iterable in store order (see above). */
export interface ReportTables {
  reports: Iterable<ReportRow>;
  vaccines: Iterable<ReportVaccineRow>;
  events: Iterable<ReportEventRow>;
}

const ddl = (table: string, columns: ReadonlyArray<readonly [string, string]>, notNull: string[]): string =>
  `CREATE TABLE ${table} (${columns.map(([name, type]) => `${name} ${type}${notNull.includes(name) ? ' NOT NULL' : ''}`).join(', ')});`;

/** DDL of the three report tables. */
export const REPORT_TABLES_SQL = [
  ddl('reports', REPORT_COLUMNS, ['vaers_id', 'received', 'quarter', 'age_group', 'sex']),
  ddl('report_vaccines', REPORT_VACCINE_COLUMNS, ['vaers_id', 'vax_name']),
  ddl('report_events', REPORT_EVENT_COLUMNS, ['vaers_id', 'term']),
].join('\n');
