/**
 * What a build reports about itself: the summary printed at the end (and kept in
 * `meta.extra.summary`), the build parameters and the per-analysis metadata of the store
 * (per analysis: subset rule, strata, reports kept, pairs, fits on a bound).
 */
import type { AnalysisDefinition, StrataScheme } from '../../domain/analysis-rules.js';
import { SERVING_FLOOR } from '../../domain/floor.js';
import { EWMA_LAMBDA } from '../../stats/ewma.js';
import type { LinkageSummary } from '../../domain/store-schema.js';
import type { AnalysisMeta } from '../../domain/store-schema.js';
import type { SkipReason } from '../vaers/read.js';
import type { UnparseableValues } from '../vaers/skips.js';
import type { FollowUpCounts } from '../vaers/versions.js';
import { WINDOW_QUARTERS } from '../../domain/quarter.js';
import type { HistoryCounts } from './counts.js';
import type { EventGroupsSummary } from './event-groups-step.js';
import { CHUNK_WINDOWS, MIN_FIT_PAIRS, type SkippedWindow } from './passes.js';

/** What one analysis of the build did. */
export interface AnalysisSummary {
  name: string;
  /** Reports kept by the analysis's subset rule (before `--scale` replays). */
  reports: number;
  /** Windows fitted. */
  windows: number;
  /** Windows of the first three quarters that cover fewer than 4 quarters. */
  partialWindows: string[];
  /** Windows too small to fit, with the reason. */
  skippedWindows: SkippedWindow[];
  /** Pair rows scored over all windows in the first pass (a pair counts once per window). */
  pairWindowsScored: number;
  /** Distinct pairs with n_methods_flagged >= SERVING_FLOOR in some window: the pairs stored. */
  pairs: number;
  rows: number;
  reportsThrough: string | null;
  fitsAtBound: Array<{ quarter: string; at_bound: string }>;
  fitsNotConverged: string[];
  /** Seconds of the fit pass and of the rows pass (with the store write it feeds). */
  seconds: { fit: number; rows_and_write: number };
}

/** The report tables the build wrote (the case series' reports), and the cells of the kept reports it could not read. */
export interface ReportValuesSummary {
  /** Rows of `reports`, `report_vaccines` and `report_events`. */
  reports: number;
  vaccineRows: number;
  eventRows: number;
  /** Whether SYMPTOM_TEXT was kept (`--narratives`). */
  narratives: boolean;
  /** Seconds spent writing the three tables. */
  seconds: number;
  /**
   * Per field (AGE_YRS, SEX, VAX_DATE, ONSET_DATE, NUMDAYS, RECOVD), the cells that could not be
   * read and are stored as null (SEX: as U), with up to 5 examples (VAERS_ID, file, line, cell).
   */
  unparseable: UnparseableValues[];
}

/** What the build did (printed at the end, also kept in `meta.extra.summary`). */
export interface BuildSummary {
  reportsRead: number;
  reportsKept: number;
  /** Reports counted by the first analysis (after `--scale` replays). */
  reportsCounted: number;
  skipped: SkipReason[];
  /** Follow-up versions (src/ingest/vaers/versions.ts): reports whose latest version is a follow-up, with several versions, rows of earlier versions dropped. */
  versions: FollowUpCounts;
  /** The report tables written and the values that could not be read. */
  reportValues: ReportValuesSummary;
  vaccines: number;
  events: number;
  quarters: number;
  firstQuarter: string | null;
  reportsThrough: string | null;
  /** The duplicate-report linkage (src/ingest/mining/linkage-step.ts): its figures (null when it failed) and why it failed (null when it ran). */
  linkage: { summary: LinkageSummary | null; warning: string | null };
  /** The grouping file of the `@groups` analyses (absent when none was built; docs/event-groups.md). */
  eventGroups?: EventGroupsSummary;
  /** Per analysis, in the order built (the first is the default). */
  analyses: AnalysisSummary[];
  workers: number;
  scale: number;
  /** Seconds of the shared phases and in all. */
  seconds: { read: number; count: number; total: number };
  /** Peak resident set size of this process, bytes (process.resourceUsage().maxRSS). */
  peakRssBytes: number;
}

/** Seconds since `since` (a performance.now() value), to 0.01 s. */
export function seconds(since: number): number {
  return Math.round((performance.now() - since) / 10) / 100;
}

/** The store's metadata of one analysis; a stratified one records the build's strata (`scheme`). */
export function analysisMeta(analysis: AnalysisDefinition, s: AnalysisSummary, isDefault: boolean, scheme: StrataScheme): AnalysisMeta {
  return {
    name: analysis.name, title: analysis.title, description: analysis.description, subset: analysis.subset, items: analysis.items,
    stratified_by: analysis.stratified ? [...scheme.by] : [], strata: analysis.stratified ? scheme.name : null, default: isDefault, deduplicated: analysis.deduplicated ?? false,
    reports: s.reports, pairs: s.pairs, rows: s.rows, windows: s.windows, reports_through: s.reportsThrough,
    fits_at_bound: s.fitsAtBound.length, fits_not_converged: s.fitsNotConverged.length,
    windows_skipped: s.skippedWindows, partial_windows: s.partialWindows,
  };
}

/** The build parameters kept in `meta.parameters`. */
export function buildParameters(history: HistoryCounts, s: BuildSummary, options: { includeNondomestic?: boolean; narratives?: boolean }): Record<string, unknown> {
  return {
    window_quarters: WINDOW_QUARTERS,
    quarter_of_report: 'RECVDATE',
    counting_unit: 'distinct reports; N = reports naming >= 1 vaccine and >= 1 event',
    partial_windows: 'included: the windows of the first three quarters cover only the quarters from the first quarter with reports',
    partial_window_quarters: s.analyses[0]?.partialWindows ?? [],
    stored_pairs: `pairs with n_methods_flagged >= ${SERVING_FLOOR} in at least one window, with every window where n >= 1`,
    ewma_lambda: EWMA_LAMBDA,
    ewma_of: 'eb05',
    mgps_fit: `per window; warm start from the previous window within chunks of ${CHUNK_WINDOWS} windows; windows with fewer than ${MIN_FIT_PAIRS} pairs are skipped`,
    include_nondomestic: options.includeNondomestic ?? false,
    narratives: options.narratives ?? false,
    analyses: s.analyses.map((a) => a.name),
    scale: history.scale,
    ...(history.scale > 1 ? { scale_shift_quarters: history.shift, scale_note: 'benchmark only: synthetic history' } : {}),
  };
}
