/**
 * One report, whole, as the report view serves it (src/serve/cases/report-view.ts answers with it as
 * JSON, report-html.ts as a page): the case series' fields of the report (src/domain/report-columns.ts,
 * as /cases lists it), its events with their MedDRA version (`{term, version}`), every further
 * report column by its store name (null when blank, or not kept by the store), the analyses of
 * the store whose subset rule keeps it (src/domain/analysis-rules.ts), `reports_through` and the caveat.
 */
import { analysisRule } from '../../domain/analysis-rules.js';
import { HYPOTHESIS } from '../query/caveats.js';
import { STORED_REPORT_COLUMNS, type StoredReportColumn } from '../../domain/report-columns.js';
import { formatQuarter } from '../../domain/quarter.js';
import type { ReportDuplicate } from '../store/reports.js';
import type { ReportIndex } from './index.js';
import { narrativeText } from './narratives.js';
import { caseReport, type CaseReport } from './render.js';

/** The report-only columns (`json: null` in the table), served by their store name. */
const DETAIL_COLUMNS: readonly StoredReportColumn[] = STORED_REPORT_COLUMNS.filter((c) => c.json === null);

/** One report, whole (see the module comment). */
export type ReportView = Omit<CaseReport, 'events'> & {
  events: Array<{ term: string; version: string | null }>;
  [column: string]: unknown;
  analyses: string[];
  possible_duplicates: ReportDuplicate[];
  reports_through: string | null;
  hypothesis: string;
};

/** The value of a report-only column of report `r` (dates ISO, numbers or null, text as written). */
function detailValue(index: ReportIndex, c: StoredReportColumn, r: number): unknown {
  const { data } = index;
  if (c.encoding === 'narrative') return narrativeText(data, index.narratives, c, r);
  if (c.encoding === 'number') return Number.isNaN(data[c.field][r]) ? null : data[c.field][r];
  if (c.encoding === 'quarter') return formatQuarter(data.quarter[r]);
  return (data as unknown as Record<string, ArrayLike<unknown> | null>)[c.field]?.[r] ?? null;
}

/** Report `r` of the index, whole; `analyses` are the store's analysis names (those whose rule keeps it are listed). */
export function reportView(index: ReportIndex, r: number, analyses: readonly string[], reportsThrough: string | null): ReportView {
  const { data } = index;
  const listed = caseReport(index, r) as unknown as Record<string, unknown>;
  const events: ReportView['events'] = [];
  for (let k = data.events.start[r]; k < data.events.start[r + 1]; k++) events.push({ term: data.events.term.at(k), version: data.events.version.at(k) });
  const details = Object.fromEntries(DETAIL_COLUMNS.map((c) => [c.store, detailValue(index, c, r)]));
  if (!('narrative' in listed)) listed.narrative = null;
  return {
    ...listed, events, ...details,
    analyses: analyses.filter((name) => analysisRule(name)?.keeps(data, r) === true),
    possible_duplicates: data.duplicates.get(data.id[r]) ?? [],
    reports_through: reportsThrough, hypothesis: HYPOTHESIS,
  } as ReportView;
}
