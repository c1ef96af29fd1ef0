/**
 * The columns of a quarterly row, in one table (docs/design.md "Data flow": counts -> statistics ->
 * smoothing -> store -> HTTP): per column its name, its store type, when it may be null, what
 * it means, and where it goes besides the store. Everything that lists these columns derives
 * from `COLUMNS`:
 * - the store: `QUARTERLY_COLUMNS` and the `quarterly` DDL (src/domain/store-schema.ts), in table order;
 * - the build's worker protocol: `STAT_COLUMNS` (kind `statistic`, carried as doubles);
 * - the server's load and the series record, its layout and size (`served`: src/serve/store/serving.ts,
 *   src/serve/store/series-store.ts, src/serve/signals/series.ts);
 * - the spec 2.3 quarter object and its JSON schema (`quarterObject`: src/serve/signals/schemas.ts);
 * - the `score` CSV: `SCORE_COLUMNS` (`score`);
 * - the TypeScript shapes `PairStatistics`, `QuarterlyRow`, `QuarterObject`, `EvidenceValues`
 *   (mapped from the table, so they follow it);
 * - the triage evidence the build computes and GET /triage reads (`EVIDENCE_COLUMNS`, kind `evidence`).
 *
 * Ground floor: this file imports nothing outside src/domain.
 */
import { QUARTER_PATTERN } from './quarter.js';

/** DuckDB type of a store column (the `quarterly` table). */
export type StoreType = 'VARCHAR' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN';

/**
 * When a column may be null (docs/design.md: an undefined value is null, never Infinity or NaN):
 * - `never`: always set (a foreign store may still hold NULL; the server reads it as described
 *   under {@link Encoding});
 * - `imported`: set by the build, null in an imported store (the R layout has no counts); the
 *   evidence columns are set for the flagged rows only (EVIDENCE_SCOPE);
 * - `undefined`: null whenever the value is undefined for the pair (a zero denominator, no
 *   EB05 yet for the EWMA), in the build's statistics too.
 */
export type NullWhen = 'never' | 'imported' | 'undefined';

/**
 * Where a column's value comes from: `key` the row's identity; `count` the window's report
 * counts; `statistic` a number `scoreWindow` computes per pair (src/stats/window.ts; carried
 * as a double by the worker protocol); `flag` the flags `scoreWindow` computes; `smoothing`
 * the per-pair EWMA across quarters; `evidence` the triage evidence of the pair's reports in the
 * window (src/ingest/mining/evidence.ts: reporting lag, legal wording, time to onset, completeness,
 * seriousness), computed by the build for the rows the triage queue can hold (the pair flagged in
 * the window, src/domain/floor.ts isFlagged) and null for the others (EVIDENCE_SCOPE), null in an
 * imported store, never part of the spec 2.3 quarter object (GET /triage serves them).
 */
export type ColumnKind = 'key' | 'count' | 'statistic' | 'flag' | 'smoothing' | 'evidence';

/**
 * How the server holds a column after the load (one typed value per row) and in the series
 * record, with its null encoding:
 * - `u16`: a quarter `<year>Q<1-4>` as its index `year * 4 + (q - 1)` (src/domain/quarter.ts);
 *   rows whose quarter is not a quarter are skipped;
 * - `i32`: an integer, null as `NULL_INT` (-2^31, src/serve/store/series-store.ts);
 * - `i8`: a small integer, null as -1;
 * - `u8`: a boolean as 1 or 0, null read as false;
 * - `f64`: a double, null (and any non-finite value) as NaN.
 */
export type Encoding = 'u16' | 'i32' | 'i8' | 'u8' | 'f64';

/** What the server loads of a column (src/serve/store/serving.ts). */
export interface ServedColumn {
  readonly encoding: Encoding;
  /**
   * Byte offset in the series record (a multiple of the encoding's size), when the record
   * carries it; the record's size follows from the offsets (src/serve/store/series-store.ts).
   */
  readonly record?: number;
  /** Whether the pair aggregate (spec 2.1, src/serve/signals/aggregate.ts) reads it. */
  readonly aggregate?: true;
}

/** A field of the spec 2.3 quarter object: its JSON schema description and bounds. */
export interface QuarterObjectField {
  readonly description: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** One column of a quarterly row. */
export interface ColumnSpec {
  readonly name: string;
  readonly type: StoreType;
  readonly nullable: NullWhen;
  readonly kind: ColumnKind;
  /** Meaning, units and source. */
  readonly description: string;
  /**
   * A store may lack the column: `meta.has_ic025` false (spec 2.3: `ic025` only when the data
   * has that column; `ic025` is the one such column). The server then serves it as absent.
   */
  readonly optional?: true;
  /** Loaded by the server; absent when the server never reads the column. */
  readonly served?: ServedColumn;
  /** A field of the spec 2.3 quarter object (`format=series`), in table order. */
  readonly quarterObject?: QuarterObjectField;
  /** A column of the `score` CSV, in table order (`header` when its CSV name differs). */
  readonly score?: { readonly header?: string };
}

/** The columns of a quarterly row, in store order. */
export const COLUMNS = [
  { name: 'analysis', type: 'VARCHAR', nullable: 'never', kind: 'key',
    description: 'Name of the analysis the row belongs to (`all`, `stratified`, `serious`, ...); a store holds one or more.' },
  { name: 'drug', type: 'VARCHAR', nullable: 'never', kind: 'key', score: { header: 'vaccine' },
    description: 'Vaccine name (VAERS `VAX_NAME`); the column is named `drug` (spec 1). The score CSV calls it `vaccine`.' },
  { name: 'event', type: 'VARCHAR', nullable: 'never', kind: 'key', score: {},
    description: 'Event preferred term (MedDRA).' },
  { name: 'quarter', type: 'VARCHAR', nullable: 'never', kind: 'key',
    description: 'Quarter `<year>Q<1-4>` that ends the 4-quarter window.',
    served: { encoding: 'u16', record: 0, aggregate: true },
    quarterObject: { pattern: QUARTER_PATTERN, description: 'Last quarter of the 4-quarter window, `<year>Q<1-4>`.' } },
  { name: 'n', type: 'INTEGER', nullable: 'never', kind: 'count', score: {},
    description: 'Observed count: distinct reports naming both the vaccine and the event in the window.',
    served: { encoding: 'i32', record: 4, aggregate: true },
    quarterObject: { minimum: 0, description: 'Observed reports of the pair in the window (windows overlap).' } },
  { name: 'expected', type: 'DOUBLE', nullable: 'imported', kind: 'statistic', score: {},
    description: 'Expected count `E = n_vaccine * n_event / n_reports`.' },
  { name: 'n_vaccine', type: 'INTEGER', nullable: 'imported', kind: 'count', score: {},
    description: 'Distinct reports in the window naming the vaccine.' },
  { name: 'n_event', type: 'INTEGER', nullable: 'imported', kind: 'count', score: {},
    description: 'Distinct reports in the window naming the event.' },
  { name: 'n_reports', type: 'INTEGER', nullable: 'imported', kind: 'count', score: {},
    description: 'N: reports in the window that name at least one vaccine and one event.' },
  { name: 'qn', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'MGPS posterior weight of the first prior component, `Qn` in [0, 1] (DuMouchel 1999).' },
  { name: 'ebgm', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'MGPS empirical Bayes geometric mean of the reporting ratio (DuMouchel 1999).' },
  { name: 'eb05', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'MGPS: 5% quantile of the posterior gamma mixture of the reporting ratio.',
    served: { encoding: 'f64', record: 8, aggregate: true },
    quarterObject: { description: 'MGPS posterior 5th percentile of the reporting ratio.' } },
  { name: 'eb50', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'MGPS: posterior median of the reporting ratio (not an EBGM).',
    served: { encoding: 'f64', record: 16 },
    quarterObject: { description: 'Quarterly posterior median, not an EBGM.' } },
  { name: 'eb95', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'MGPS: 95% quantile of the posterior gamma mixture.',
    served: { encoding: 'f64', record: 24 },
    quarterObject: { description: 'MGPS posterior 95th percentile.' } },
  { name: 'prr', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Proportional reporting ratio `(a/(a+b)) / (c/(c+d))` (Evans 2001).',
    served: { encoding: 'f64', record: 32 },
    quarterObject: { description: 'Proportional reporting ratio.' } },
  { name: 'prr_lci', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Lower bound of the 95% CI of PRR, on the log scale (z = qnorm(0.975)).' },
  { name: 'prr_uci', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Upper bound of the 95% CI of PRR.' },
  { name: 'prr_chisq', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Yates-corrected chi-square of the 2x2 table, as R `chisq.test(correct = TRUE)`.' },
  { name: 'ror', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Reporting odds ratio `a d / (b c)` (van Puijenbroek 2002).',
    served: { encoding: 'f64', record: 40 },
    quarterObject: { description: 'Reporting odds ratio.' } },
  { name: 'ror_lci', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Lower bound of the 95% CI of ROR, on the log scale.' },
  { name: 'ror_uci', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Upper bound of the 95% CI of ROR.' },
  { name: 'ic', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'Information component `log2((n + 0.5) / (E + 0.5))` (Noren, Hopstadius and Bate 2013).',
    served: { encoding: 'f64', record: 48 },
    quarterObject: { description: 'Information component (BCPNN).' } },
  { name: 'ic025', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {}, optional: true,
    description: 'log2 of the 2.5% quantile of `Gamma(n + 0.5, E + 0.5)`.',
    served: { encoding: 'f64', record: 56 },
    quarterObject: { description: 'Lower 2.5% bound of IC; present only when the data has that column.' } },
  { name: 'ic975', type: 'DOUBLE', nullable: 'undefined', kind: 'statistic', score: {},
    description: 'log2 of the 97.5% quantile of `Gamma(n + 0.5, E + 0.5)`.' },
  { name: 'n_methods_flagged', type: 'INTEGER', nullable: 'never', kind: 'flag', score: {},
    description: 'Methods flagging the pair, 0 to 4 (docs/glossary.md "flagged"): GPS `eb05 >= 2`; PRR `prr >= 2, prr_chisq >= 4, n >= 3`; ROR `ror_lci > 1, n >= 3`; IC `ic025 > 0`.',
    served: { encoding: 'i8', record: 2, aggregate: true },
    quarterObject: { minimum: 0, maximum: 4, description: 'How many of the four methods flag the window (0 to 4): GPS eb05 >= 2; PRR >= 2 with chi-square >= 4 and n >= 3; ROR lower 95% bound > 1 with n >= 3; IC025 > 0.' } },
  { name: 'is_signal_any', type: 'BOOLEAN', nullable: 'never', kind: 'flag', score: {},
    description: '`n_methods_flagged >= 1`.',
    served: { encoding: 'u8', record: 3, aggregate: true },
    quarterObject: { description: 'True when at least one method flags the window.' } },
  { name: 'ewma_eb05', type: 'DOUBLE', nullable: 'undefined', kind: 'smoothing',
    description: 'EWMA (lambda 0.3, `s_0 = x_0`) of `eb05` over the pair\'s quarters up to this one; a quarter without EB05 carries the previous value.',
    served: { encoding: 'f64', aggregate: true } },
  { name: 'lag_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Reports of the pair in the window with a reporting lag: VAX_DATE and RECVDATE both known and RECVDATE not before VAX_DATE.' },
  { name: 'lag_excluded', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Reports of the pair in the window left out of the lag: VAX_DATE unknown, or RECVDATE before VAX_DATE.' },
  { name: 'lag_median_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Median days from VAX_DATE to RECVDATE of the pair\'s reports in the window (quantile type 7, as R and NumPy by default); null without a lag.' },
  { name: 'lag_q1_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'First quartile (type 7) of the reporting lag in days.' },
  { name: 'lag_q3_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Third quartile (type 7) of the reporting lag in days.' },
  { name: 'lag_share_over_365', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of the reports with a lag whose lag exceeds 365 days.' },
  { name: 'legal_share', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of the pair\'s reports in the window whose SYMPTOM_TEXT names litigation (src/ingest/mining/evidence.ts LEGAL_WORDS, whole words, any case; Goodman and Nordin 2006); null when the build kept no narratives.' },
  { name: 'onset_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Reports of the pair in the window with an onset of 0 to 60 days (NUMDAYS when a whole number, else ONSET_DATE - VAX_DATE).' },
  { name: 'onset_median_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Median onset in days (type 7) of those reports; null without one.' },
  { name: 'onset_d_other_vaccines', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Two-sample KS D of the pair\'s onsets against the onsets of the window\'s reports naming the event but not the vaccine (Van Holle et al. 2012); null when either sample is empty.' },
  { name: 'onset_p_other_vaccines', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Two-sided p-value of that KS test (src/stats/ks.ts as SciPy ks_2samp, method auto: exact while max(n1, n2) <= 10000, else asymptotic); null with that D.' },
  { name: 'onset_d_other_events', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Two-sample KS D of the pair\'s onsets against the onsets of the window\'s reports naming the vaccine but not the event; null as onset_d_other_vaccines.' },
  { name: 'onset_p_other_events', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Two-sided p-value of that KS test; null with that D.' },
  { name: 'completeness_mean', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Mean completeness score (0 to 1, an adaptation of vigiGrade, Bergvall et al. 2014; src/ingest/mining/evidence.ts COMPLETENESS_ELEMENTS) of the pair\'s reports in the window.' },
  { name: 'well_documented_share', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of those reports whose completeness score exceeds 0.8 (vigiGrade\'s well-documented threshold).' },
  { name: 'serious_share', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of the pair\'s reports in the window that are serious (DIED, L_THREAT, HOSPITAL, X_STAY, DISABLE or BIRTH_DEFECT; 21 CFR 600.80).' },
  { name: 'deaths', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Reports of the pair in the window with DIED.' },
  { name: 'onset_lag_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Reports of the pair in the window with a reporting delay from onset: the onset date (ONSET_DATE, else VAX_DATE + NUMDAYS when NUMDAYS is a whole number >= 0) and RECVDATE known, RECVDATE not before it.' },
  { name: 'onset_lag_median_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Median days from onset to RECVDATE (type 7) of those reports: the reporting delay (`late_reports` reads it); null without one.' },
  { name: 'onset_lag_q1_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'First quartile (type 7) of the days from onset to RECVDATE.' },
  { name: 'onset_lag_q3_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Third quartile (type 7) of the days from onset to RECVDATE.' },
  { name: 'onset_n_other_vaccines', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Onsets (0 to 60 days) of the comparator of the KS test against other vaccines: the window\'s reports naming the event but not the vaccine.' },
  { name: 'onset_n_other_events', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Onsets (0 to 60 days) of the comparator of the KS test against other events: the window\'s reports naming the vaccine but not the event.' },
  { name: 'n_cases', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Distinct cases among the pair\'s reports in the window: each suspected-duplicate cluster of the build\'s linkage (src/ingest/linkage, the store\'s report_links) counted once.' },
  { name: 'template_share', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of the pair\'s narratives (SYMPTOM_TEXT of 100+ characters) in its largest group on one template: 3-word shingle resemblance of at least 0.7 to the group\'s first, estimated by MinHash (src/ingest/mining/evidence-template.ts); null without narratives.' },
  { name: 'co_vaccine', type: 'VARCHAR', nullable: 'undefined', kind: 'evidence',
    description: 'The other vaccine type (VAERS VAX_TYPE code, all its products together) named on at least half of the pair\'s reports in the window whose rate of the event, on the reports without the pair\'s vaccine, is above the vaccine\'s own rate on its reports without that type (the highest such rate); null when none (src/domain/triage-evidence.ts CO_REPORTED_SHARE; src/ingest/mining/evidence-links.ts coReportedType).' },
  { name: 'co_share', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Share of the pair\'s reports in the window that name `co_vaccine`; null when none.' },
  { name: 'co_type_event', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'With `co_vaccine`: the window\'s reports naming that type and the event but not the pair\'s vaccine (src/ingest/mining/evidence-links.ts coReportedType).' },
  { name: 'co_type_reports', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'With `co_vaccine`: the window\'s reports naming that type but not the pair\'s vaccine.' },
  { name: 'co_own_event', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'With `co_vaccine`: the pair\'s reports that do not name that type.' },
  { name: 'co_own_reports', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'With `co_vaccine`: the window\'s reports naming the pair\'s vaccine but not that type.' },
  { name: 'co_products', type: 'VARCHAR', nullable: 'undefined', kind: 'evidence',
    description: 'With `co_vaccine` in an analysis of products: JSON array `[[product, reports], ...]` (reports descending), the products of that type named on the pair\'s reports.' },
  { name: 'failure_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Failure reports among the pair\'s reports in the window (src/domain/vaccine-failure.ts: a lack-of-effect term, a disease the vaccine prevents, or a live vaccine\'s onset past its reaction window).' },
  { name: 'failure_lack_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Of them, the reports naming a lack-of-effect term.' },
  { name: 'failure_disease_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Of them, the reports naming a disease the vaccine prevents (a live vaccine\'s: with onset past its window).' },
  { name: 'failure_late_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'Of them, a live vaccine\'s reports with onset past its reaction window (data/terms/live-vaccine-windows.csv; the pair\'s event not a late effect of the type).' },
  { name: 'vaccine_last_vax_date', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'The latest VAX_DATE (yyyymmdd) among the window\'s reports naming the pair\'s vaccine (all its events); null when none has one.' },
  { name: 'vaccine_dated_n', type: 'INTEGER', nullable: 'imported', kind: 'evidence',
    description: 'The window\'s reports naming the pair\'s vaccine with a VAX_DATE.' },
  { name: 'received_median_date', type: 'INTEGER', nullable: 'undefined', kind: 'evidence',
    description: 'The pair\'s reports\' median RECVDATE (yyyymmdd; the lower middle report).' },
  { name: 'received_iqr_days', type: 'DOUBLE', nullable: 'undefined', kind: 'evidence',
    description: 'Days between the first and third quartiles (type 7) of the pair\'s reports\' RECVDATE: how bunched their arrival is.' },
  { name: 'related_events', type: 'VARCHAR', nullable: 'undefined', kind: 'evidence',
    description: 'JSON array `[[event, overlap], ...]` (overlap descending): the other events of the vaccine flagged in the window (eb05 >= 2 or n_methods_flagged >= 2) whose reports overlap the pair\'s by at least RELATED_STORED (0.25; shared reports / the smaller pair\'s reports); null when it has none.' },
] as const satisfies readonly ColumnSpec[];

/** One entry of {@link COLUMNS}, with its literal types. */
export type Column = (typeof COLUMNS)[number];
/** Name of a quarterly column. */
export type ColumnName = Column['name'];

/** The TypeScript type of a column's values, without null. */
type ValueOf<C extends Column> = C['type'] extends 'VARCHAR' ? string : C['type'] extends 'BOOLEAN' ? boolean : number;
/** An object with one property per column of `C`, null allowed when the column's `nullable` is in `N`. */
type RowOf<C extends Column, N extends NullWhen> = { -readonly [K in C as K['name']]: ValueOf<K> | (K['nullable'] extends N ? null : never) };

/**
 * Statistics of one pair in one report table, as `scoreWindow` returns them (src/stats/window.ts):
 * the columns of kind `statistic` and `flag`; null where undefined (`expected` is always set).
 */
export type PairStatistics = RowOf<Extract<Column, { kind: 'statistic' | 'flag' }>, 'undefined'>;

/**
 * One quarterly row of a pair (the store's `quarterly` table): every column of the table;
 * null where undefined, and the counts also in an imported store; the evidence columns may be
 * absent (stored as null: an import, or a row before the evidence step).
 */
export type QuarterlyRow = RowOf<Exclude<Column, EvidenceColumn>, 'imported' | 'undefined'> & Partial<EvidenceValues>;

/** A column of kind `evidence`. */
export type EvidenceColumn = Extract<Column, { kind: 'evidence' }>;
/** Name of an evidence column. */
export type EvidenceName = EvidenceColumn['name'];
/** The evidence of one pair in one window (src/ingest/mining/evidence.ts), null where undefined. */
export type EvidenceValues = { -readonly [K in EvidenceColumn as K['name']]: ValueOf<K> | null };
/** Name of a numeric evidence column (carried as a double by the worker protocol). */
export type EvidenceNumberName = Exclude<EvidenceColumn, { type: 'VARCHAR' }>['name'];
/** Name of a text evidence column (set by the build's main thread from the worker's links, src/ingest/mining/passes.ts). */
export type EvidenceTextName = Extract<EvidenceColumn, { type: 'VARCHAR' }>['name'];

/**
 * Which rows the build computes the evidence columns for, said once (the store and export
 * descriptions, docs/triage.md): the rows GET /triage can list, its only reader besides the export.
 */
export const EVIDENCE_SCOPE = 'computed for the rows the triage queue can hold (the pair flagged in the window: n_methods_flagged >= 2); null for the other rows';

/** The evidence columns, in table order (absent from a row: stored as null, as in an import). */
export const EVIDENCE_COLUMNS: readonly EvidenceName[] = COLUMNS.flatMap((c) => (c.kind === 'evidence' ? [c.name] : []));
/** The numeric evidence columns, in table order: the doubles a worker sends per pair (`WindowReply.evidence`). */
export const EVIDENCE_NUMBER_COLUMNS: readonly EvidenceNumberName[] = COLUMNS.flatMap((c) => (c.kind === 'evidence' && c.type !== 'VARCHAR' ? [c.name as EvidenceNumberName] : []));
/** The text evidence columns, in table order. */
export const EVIDENCE_TEXT_COLUMNS: readonly EvidenceTextName[] = COLUMNS.flatMap((c) => (c.kind === 'evidence' && c.type === 'VARCHAR' ? [c.name as EvidenceTextName] : []));

/** A column the server loads (with `served`). */
export type ServedColumnEntry = Extract<Column, { served: ServedColumn }>;
/** A column of the pair aggregate's input. */
export type AggregateColumnEntry = Extract<ServedColumnEntry, { served: { aggregate: true } }>;
/** A field of the spec 2.3 quarter object. */
export type QuarterObjectEntry = Extract<Column, { quarterObject: QuarterObjectField }>;

/** A served value: strings and booleans as they are (a null boolean reads false); numbers or null. */
type ServedValueOf<C extends Column> = C['type'] extends 'VARCHAR' | 'BOOLEAN' ? ValueOf<C> : number | null;

/**
 * Spec 2.3 quarter object: `quarter`, `n`, `eb05`, `eb50`, `eb95`, `prr`, `ror`, `ic`, `ic025`
 * (only when the store has it), `n_methods_flagged`, `is_signal_any`, in that order.
 */
export type QuarterObject =
  { -readonly [K in QuarterObjectEntry as K extends { optional: true } ? never : K['name']]: ServedValueOf<K> } &
  { -readonly [K in QuarterObjectEntry as K extends { optional: true } ? K['name'] : never]?: ServedValueOf<K> };

/** Name of a column of kind `statistic`. */
export type StatisticName = Extract<Column, { kind: 'statistic' }>['name'];

/**
 * The statistics the build's workers send per pair as doubles (NaN for null), in table order:
 * `WindowReply.stats[i * STAT_COLUMNS.length + c]` is statistic `STAT_COLUMNS[c]` of pair i
 * (src/ingest/mining/protocol.ts).
 */
export const STAT_COLUMNS: readonly StatisticName[] = COLUMNS.flatMap((c) => (c.kind === 'statistic' ? [c.name] : []));

/** The columns the server loads, in table order. */
export const SERVED_COLUMNS: readonly ServedColumnEntry[] = COLUMNS.filter((c): c is ServedColumnEntry => 'served' in c);

/** The fields of the spec 2.3 quarter object, in table (and answer) order. */
export const QUARTER_OBJECT_COLUMNS: readonly QuarterObjectEntry[] = COLUMNS.filter((c): c is QuarterObjectEntry => 'quarterObject' in c);

/** A column of the score CSV: its CSV header. */
export type ScoreColumn = Extract<Column, { score: unknown }> extends infer C
  ? C extends { score: { header: infer H } } ? H : C extends Column ? C['name'] : never : never;

/** Header of the `score` CSV (`reporting-signals score`), in order: one column per pair of the report table. */
export const SCORE_COLUMNS: readonly ScoreColumn[] = COLUMNS.flatMap((c): ScoreColumn[] =>
  'score' in c ? [('header' in c.score ? c.score.header : c.name) as ScoreColumn] : []);

/** The columns `names` of one pair as an object, from the doubles `values[at + c]` in `names` order (NaN for null). */
function fromDoubles<N extends string>(names: readonly N[], values: ArrayLike<number>, at: number): { [K in N]: number | null } {
  const out: Partial<Record<N, number | null>> = {};
  names.forEach((name, c) => { out[name] = finiteOrNull(values[at + c]); });
  return out as { [K in N]: number | null };
}

/**
 * The numeric evidence of one pair as an object, from the doubles `values[at + c]` in EVIDENCE_NUMBER_COLUMNS
 * order (NaN for null; src/ingest/mining/evidence-step.ts WindowEvidence writes them in a worker thread).
 */
export function evidenceFromDoubles(values: ArrayLike<number>, at: number): { [K in EvidenceNumberName]: number | null } {
  return fromDoubles(EVIDENCE_NUMBER_COLUMNS, values, at);
}

/**
 * `x` when it is a finite number, else null: how every statistic is stored and served
 * (docs/design.md: an undefined value is null, never Infinity or NaN).
 */
export function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
