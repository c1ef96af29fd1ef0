/**
 * The signal store: one embedded DuckDB database file (docs/design.md "Decisions already taken").
 * This file defines its tables and the TypeScript shapes of their rows. Only `src/serve/store/`
 * holds SQL.
 *
 * Tables
 * - `quarterly`: one row per (analysis, drug, event, quarter) for every pair that has at least
 *   one quarter with `n_methods_flagged >= 2` in that analysis (the pair's full series).
 *   Statistics of the 4-quarter window ending at `quarter` (docs/design.md "Statistics, precisely").
 * - `vaccines`: one row per vaccine name (`VAX_NAME`) with its `vax_type` (spec 2.1) and the
 *   VAERS `VAX_TYPE` codes seen with it.
 * - `windows`: per analysis and window, the MGPS hyperparameters and fit diagnostics.
 * - `meta`: build metadata as key -> JSON text.
 * - `triage_rows`: a derived index of `quarterly`, not a record kind of its own (TRIAGE_ROWS_SQL):
 *   the flagged rows (`n_methods_flagged >= SERVING_FLOOR`) with the columns GET /triage reads and
 *   each pair's first flagged quarter, in quarter order within each analysis, so that one window's
 *   rows are one stretch of the table (the `quarterly` table is in pair order).
 */
import type { EventGroupsMeta } from './event-groups.js';
import type { AnalysisDefinition } from './analysis-rules.js';
import { HYPER_NAMES, type Hyperparameters } from './mgps-prior.js';
import { SERVING_FLOOR } from './floor.js';
import { COLUMNS, EVIDENCE_COLUMNS, type ColumnName, type QuarterlyRow, type StoreType } from './columns.js';
import { OUTCOME_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type StoredReportColumn, type VaccineColumn } from './report-columns.js';
import type { OutcomeName } from './report-rules.js';

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

/** MGPS fit of one window (docs/design.md: "record per window the hyperparameters ..."). */
export interface WindowRow extends Hyperparameters {
  /** The analysis fitted (a store written before analyses existed has none: `all`). */
  analysis?: string;
  quarter: string;
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
export interface AnalysisMeta extends Pick<AnalysisDefinition, 'name' | 'title' | 'description' | 'subset'> {
  /** What the pairs' vaccine is: `vaccine` (the product, VAX_NAME) or `vax_type` (the VAERS VAX_TYPE code); `vaccine` for a store written before the choice existed. */
  items: AnalysisDefinition['items'];
  /** What E is stratified by (empty: crude E). */
  stratified_by: string[];
  /** The strata as `build --strata` names them (`sex,age6,year`, `sex,age13,year`); null for crude E or when unknown (a store built before the choice existed). */
  strata: string | null;
  /** Whether this is the default analysis (served at /signals). */
  default: boolean;
  /** Whether each suspected-duplicate cluster counts once (the `@dedup` modifier, src/domain/analysis-rules.ts); false when unknown. */
  deduplicated: boolean;
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
  /** The grouping file of an analysis whose events are event groups (items `event_group`; src/domain/event-groups.ts); absent otherwise. */
  event_groups?: EventGroupsMeta;
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
  /** What the build's duplicate-report linkage found (src/ingest/linkage/types.ts); null when it failed, absent in a store written before it or an import. */
  linkage?: LinkageSummary | null;
}

/** DDL of the four tables above (`quarterly` columns from QUARTERLY_COLUMNS). */
export const SCHEMA_SQL = `
CREATE TABLE quarterly (${QUARTERLY_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')});
CREATE TABLE vaccines (vax_name VARCHAR PRIMARY KEY, vax_type VARCHAR NOT NULL, vax_type_codes VARCHAR[] NOT NULL);
CREATE TABLE windows (analysis VARCHAR NOT NULL, quarter VARCHAR NOT NULL, ${HYPER_NAMES.map((name) => `${name} DOUBLE`).join(', ')},
  neg_log_lik DOUBLE, converged BOOLEAN, at_bound VARCHAR, n_pairs INTEGER, n_reports INTEGER, PRIMARY KEY (analysis, quarter));
CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
`;

/** The derived table of the triage read (see above; src/serve/store/triage-rows.ts reads it). */
export const TRIAGE_ROWS_TABLE = 'triage_rows';

/** The columns of `triage_rows` after its key (analysis, quarter, drug, event): the `quarterly` columns the triage read takes, then `first_flagged`. */
export const TRIAGE_ROWS_VALUES = ['n', 'eb05', 'prr', 'ic025', 'n_methods_flagged', ...EVIDENCE_COLUMNS] as const;

/**
 * The rows of `triage_rows` derived from the quarterly rows of table `from` (`quarterly`, or a
 * staging table of some analyses' rows): every flagged row (src/domain/floor.ts isFlagged) with
 * TRIAGE_ROWS_VALUES and `first_flagged`, the first quarter in which the analysis flags the pair,
 * ordered by analysis, quarter, drug, event.
 */
export const triageRowsSelect = (from: string): string => `WITH first AS (SELECT analysis, drug, event, min(quarter) AS first_flagged FROM ${from} WHERE n_methods_flagged >= ${SERVING_FLOOR} GROUP BY analysis, drug, event)
  SELECT q.analysis, q.quarter, q.drug, q.event, ${TRIAGE_ROWS_VALUES.map((c) => `q.${c}`).join(', ')}, f.first_flagged
  FROM ${from} q JOIN first f ON q.analysis = f.analysis AND q.drug = f.drug AND q.event = f.event
  WHERE q.n_methods_flagged >= ${SERVING_FLOOR}
  ORDER BY q.analysis, q.quarter, q.drug, q.event`;

/**
 * DDL of `triage_rows`, derived from the complete `quarterly` table by SQL (triageRowsSelect; the
 * store's writer runs it after the quarterly rows; an import's evidence columns are null, and so are its copies here).
 */
export const TRIAGE_ROWS_SQL = `CREATE TABLE ${TRIAGE_ROWS_TABLE} AS
  ${triageRowsSelect('quarterly')}`;

/*
 * Report tables (the case series behind every signal). A build writes, for
 * the reports it kept (every analysis shares them):
 * - `reports`: one row per report, newest RECVDATE first, then VAERS_ID descending;
 * - `report_vaccines`: one row per VAX row with a VAX_NAME, in report order, then file order;
 * - `report_events`: one row per distinct term of a report, in report order, then file order.
 * An import or a store written before them has none (serving: src/serve/store/reports.ts).
 */

/** The TypeScript type of a report store column's values, without null. */
type StoreValueOf<T> = T extends 'VARCHAR' ? string : T extends 'BOOLEAN' ? boolean : number;

/**
 * One kept report (table `reports`), mapped from src/domain/report-columns.ts (the one list of
 * its columns). Dates are ISO `YYYY-MM-DD`; a blank or unreadable value is null; an outcome flag
 * is null when the report's file has no such column.
 */
export type ReportRow = { -readonly [C in StoredReportColumn as C['store']]: StoreValueOf<C['type']> | (C extends { notNull: true } ? never : null) };

/** One VAX row of a kept report (table `report_vaccines`): its report's id and VACCINE_COLUMNS; blank fields are null. */
export type ReportVaccineRow = { vaers_id: number } & { -readonly [C in VaccineColumn as C['store']]: string | (C extends { notNull: true } ? never : null) };

/** One event of a kept report (table `report_events`): the MedDRA term and its SYMPTOMVERSIONn. */
export interface ReportEventRow {
  vaers_id: number;
  term: string;
  version: string | null;
}

/** A report table's columns: name, DuckDB type and whether it is never null. */
export type ReportTableColumns = ReadonlyArray<readonly [name: string, type: 'BIGINT' | 'VARCHAR' | 'DOUBLE' | 'BOOLEAN', notNull: boolean]>;

/** Column order of `reports`, with DuckDB types (src/domain/report-columns.ts). */
export const REPORT_TABLE_COLUMNS: ReportTableColumns = STORED_REPORT_COLUMNS.map((c) => [c.store, c.type, 'notNull' in c] as const);

/** Column order of `report_vaccines`, with DuckDB types: the report's id, then VACCINE_COLUMNS. */
export const REPORT_VACCINE_COLUMNS: ReportTableColumns = [['vaers_id', 'BIGINT', true], ...VACCINE_COLUMNS.map((c) => [c.store, 'VARCHAR', 'notNull' in c] as const)];

/** Column order of `report_events`, with DuckDB types. */
export const REPORT_EVENT_COLUMNS: ReportTableColumns = [['vaers_id', 'BIGINT', true], ['term', 'VARCHAR', true], ['version', 'VARCHAR', false]];

/** The outcome columns of `reports` and their OUTCOME flag names (src/domain/report-columns.ts). */
export const REPORT_OUTCOME_COLUMNS: ReadonlyArray<readonly [string, OutcomeName]> = OUTCOME_REPORT_COLUMNS.map((c) => [c.store, c.outcome] as const);

/** The report tables' names, in the order written. */
export const REPORT_TABLES = ['reports', 'report_vaccines', 'report_events'] as const;

/** A report table's name. */
export type ReportTableName = (typeof REPORT_TABLES)[number];

/**
 * One link of the duplicate-report linkage (table `report_links`, src/ingest/linkage/types.ts
 * `ReportLink` by VAERS_ID): two reports judged to be the same case, each link once
 * (`vaers_id` the report read first), with its Fellegi-Sunter match weight (log2 units) and the
 * fields that agreed. A store written before the linkage has no such table (no links).
 */
export interface ReportLinkRow {
  vaers_id: number;
  linked_vaers_id: number;
  /** Match weight, log2 units (a non-finite one is stored as NULL). */
  weight: number;
  agreed: string[];
}

/** The links table's name. */
export const REPORT_LINKS_TABLE = 'report_links';

/** DDL of `report_links`. */
export const REPORT_LINKS_SQL = `CREATE TABLE ${REPORT_LINKS_TABLE} (vaers_id BIGINT NOT NULL, linked_vaers_id BIGINT NOT NULL, weight DOUBLE, agreed VARCHAR[] NOT NULL);`;

/** The report tables' rows, each iterable in store order (see above); `links` (absent: no links table) in any order. */
export interface ReportTables {
  reports: Iterable<ReportRow>;
  vaccines: Iterable<ReportVaccineRow>;
  events: Iterable<ReportEventRow>;
  links?: Iterable<ReportLinkRow>;
  /**
   * The narrative columns of `reports`, kept in a DuckDB file instead of the rows (the build's
   * scratch file, src/ingest/vaers/report-text.ts): its table `table` holds `columns` (store
   * names of `reports` columns) keyed by INTEGER column `key`, which each row of `reports` carries
   * (its values of `columns` are then null); the writer joins them in SQL, keeping the rows' order.
   */
  text?: { file: string; table: string; key: string; columns: readonly string[] };
}

const ddl = (table: string, columns: ReportTableColumns): string =>
  `CREATE TABLE ${table} (${columns.map(([name, type, notNull]) => `${name} ${type}${notNull ? ' NOT NULL' : ''}`).join(', ')});`;

/** DDL of the three report tables. */
export const REPORT_TABLES_SQL = [
  ddl('reports', REPORT_TABLE_COLUMNS), ddl('report_vaccines', REPORT_VACCINE_COLUMNS), ddl('report_events', REPORT_EVENT_COLUMNS),
].join('\n');

/** Figures of one linkage run (printed by the build, kept in the store's metadata). */
export interface LinkageSummary {
  reports: number;
  /** Reports lacking every comparison field: never linked. */
  unlinkable: number;
  /** Candidate pairs the blocking produced and the comparisons scored. */
  candidate_pairs: number;
  links: number;
  /** Clusters of two or more reports. */
  clusters: number;
  /** Reports in a cluster beyond its representative (what counting each cluster once removes). */
  reports_folded: number;
  /** The match-weight threshold a link must reach. */
  threshold: number;
  /** Per compared field, the m and u probabilities the EM estimated. */
  fields: Array<{ field: string; m: number; u: number }>;
  /** How the representative of a cluster is chosen, in words. */
  representative_rule: string;
  seconds: number;
  /**
   * Candidate pairs that passed the case-identity rule but that the different-patient evidence
   * vetoed, per reason (src/ingest/linkage/patient-evidence.ts differentPatients: series, group,
   * sibling, vaccination, onset, age, sex, template); absent in a store built before it.
   */
  different_patients?: Record<string, number>;
}
