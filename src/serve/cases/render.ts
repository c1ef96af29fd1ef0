/**
 * Renderers of `/cases` (the case series), in a registry keyed by the format enum: `json` (the
 * case series: query echo, matched names, breakdowns, the page of reports) and `csv` (the line
 * listing of the page, RFC 4180, one row per report). A renderer is a generator that yields every
 * PAGE_STEP rows (a row with its snippet costs up to a millisecond), run in slices by src/serve/cases/slices.ts.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { formatQuarter } from '../../domain/quarter.js';
import { csvCell } from '../../domain/csv-cell.js';
import { JSON_REPORT_COLUMNS, VACCINE_COLUMNS, type JsonReportColumn, type JsonReportField, type StoredReportColumn, type VaccineColumn } from '../../domain/report-columns.js';
import { isSerious, OUTCOME } from '../../domain/report-rules.js';
import type { ReportData } from '../store/reports.js';
import type { Breakdowns } from './breakdowns.js';
import type { GroupTermCount } from './groups.js';
import type { ReportIndex } from './index.js';
import { reportNarratives } from './narratives.js';
import type { DuplicatesChoice } from './duplicates.js';
import type { CasesFormat } from './params.js';
import type { TextQuery } from '../narratives/query.js';
import { snippet, type Snippet } from '../narratives/snippet.js';
import { reportLagDays } from './timing.js';
import type { Steps } from './slices.js';

/** Rows rendered between two yields. */
const PAGE_STEP = 16;

/** What the renderers get: the case series of one request. */
export interface CaseSeries {
  /** The query as given (`text` in its canonical form, only when given). */
  query: { vaccine: string | null; event: string | null; q: string | null; text?: string; from: string | null; to: string | null };
  /** The parsed `text`, or null: each listed report then carries its snippet. */
  text: TextQuery | null;
  /** The analysis (for `/analyses/NAME/cases`), or null for `/cases`. */
  analysis: string | null;
  /** Matched vaccine names and event terms. */
  vaccines: string[];
  events: string[];
  /** In an analysis of event groups (`events` are group items): per term of the matched groups, the reports carrying it (src/serve/cases/groups.ts). */
  group_terms?: GroupTermCount[];
  /** Quarters of RECVDATE covered (the query's, else the store's first and last). */
  from: string | null;
  to: string | null;
  reports_through: string | null;
  /** Distinct reports. */
  n_reports: number;
  /** Distinct cases: the reports with each suspected-duplicate cluster of the build's linkage once (n_reports less what `collapse` folds). */
  n_cases: number;
  /** `keep` (every report) or `collapse` (each suspected-duplicate cluster once, src/serve/cases/duplicates.ts). */
  duplicates: DuplicatesChoice;
  /** Reports folded into their cluster's report by `collapse` (0 with `keep`). */
  reports_folded: number;
  breakdowns: Breakdowns;
  limit: number;
  offset: number;
  /** Report indexes of the page, in listing order. */
  page: Int32Array;
}

/** One VAX row of a report in the case series, mapped from VACCINE_COLUMNS. */
export type CaseVaccine = { -readonly [C in VaccineColumn as C['json']['name']]: C extends { notNull: true } ? string : string | null };

/** The value of a JSON report field, from its schema (src/domain/report-columns.ts). */
type JsonValueOf<S> =
  S extends { type: 'integer' | 'number' } ? number
    : S extends { type: 'string' } ? string
      : S extends { type: 'boolean' } ? boolean
        : S extends { type: readonly ['number' | 'integer', 'null'] } ? number | null
          : S extends { type: readonly ['string', 'null'] } ? string | null
            : S extends { type: readonly ['boolean', 'null'] } ? boolean | null
              : S extends { type: 'array'; items: { type: 'string' } } ? string[] : CaseVaccine[];

/** One report of the listing, mapped from the JSON fields of src/domain/report-columns.ts (`narrative` only when the store has narratives). */
export type CaseReport =
  { -readonly [C in JsonReportColumn as C['json'] extends { optional: true } ? never : C['json']['name']]: JsonValueOf<C['json']['schema']> } &
  { -readonly [C in JsonReportColumn as C['json'] extends { optional: true } ? C['json']['name'] : never]?: JsonValueOf<C['json']['schema']> };

/** The sentence every case series carries besides the caveat. */
export const CASES_NOTE = 'n_reports counts distinct reports; the n of /signals sums reports over overlapping 4-quarter windows. A case series is not a rate: VAERS has no denominator of doses.';

const finite = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** The JSON fields the server computes rather than reads from a `reports` column (their store column is null), by name. */
const COMPUTED: Record<Extract<JsonReportColumn, { store: null }>['json']['name'], (index: ReportIndex, r: number) => unknown> = {
  serious: ({ data }, r) => isSerious(data.outcomes[r]),
  lag_days: ({ data }, r) => reportLagDays(data, r),
  vaccines: ({ data }, r) => {
    const v = data.vaccines;
    const rows: CaseVaccine[] = [];
    for (let row = v.start[r]; row < v.start[r + 1]; row++) {
      const entry: Record<string, string | null> = {};
      for (const c of VACCINE_COLUMNS) entry[c.json.name] = v[c.field].at(row);
      rows.push(entry as CaseVaccine);
    }
    return rows;
  },
  events: ({ data }, r) => {
    const terms: string[] = [];
    for (let row = data.events.start[r]; row < data.events.start[r + 1]; row++) terms.push(data.events.term.at(row));
    return terms;
  },
};

/** The JSON value of stored column `c` of report `r` (src/domain/report-columns.ts `ReportEncoding`). */
function servedValue(data: ReportData, c: StoredReportColumn, r: number): unknown {
  switch (c.encoding) {
    case 'quarter':
      return formatQuarter(data.quarter[r]);
    case 'number':
      return finite(data[c.field][r]);
    case 'code':
      return c.codes[data[c.field][r]];
    case 'outcome': {
      const bit = OUTCOME[c.outcome];
      // A flag the older layout lacks is null when the report's file has no such column; the others read false.
      const known = c.source.older.length > 0 || (data.outcomesKnown[r] & bit) !== 0;
      return known ? (data.outcomes[r] & bit) !== 0 : null;
    }
    case 'narrative':
      return data[c.field]?.[r] ?? null;
    default:
      return data[c.field][r];
  }
}

/** Report `r` of the index as a listing entry: its JSON fields in table order (`narrative` only when the store has narratives). */
export function caseReport(index: ReportIndex, r: number): CaseReport {
  const report: Record<string, unknown> = {};
  const narrative = reportNarratives(index.data, index.narratives, r);
  for (const c of JSON_REPORT_COLUMNS) {
    if ('optional' in c.json && index.narratives === null) continue;
    report[c.json.name] = c.store === null ? COMPUTED[c.json.name](index, r)
      : c.encoding === 'narrative' ? narrative(c) : servedValue(index.data, c, r);
  }
  return report as CaseReport;
}

/** A rendered 200 body. */
export interface CasesRendered {
  contentType: string;
  body: string;
}

/** The snippet of report `r` for the series' text (null without text, or when no required term lies in a field). */
function snippetOf(series: CaseSeries, index: ReportIndex, r: number): Snippet | null {
  return series.text && index.narratives ? snippet(index.narratives.fields(r), series.text) : null;
}

function* renderJson(series: CaseSeries, index: ReportIndex): Steps<CasesRendered> {
  // Each report is stringified in its step (a page of 500 with narratives is about a megabyte of JSON).
  const reports: string[] = [];
  for (const r of series.page) {
    if (reports.length % PAGE_STEP === PAGE_STEP - 1) yield;
    reports.push(JSON.stringify(series.text ? { ...caseReport(index, r), snippet: snippetOf(series, index, r) } : caseReport(index, r)));
  }
  const body = {
    query: series.query, ...(series.analysis === null ? {} : { analysis: series.analysis }),
    vaccines: series.vaccines, events: series.events, ...(series.group_terms ? { group_terms: series.group_terms } : {}), from: series.from, to: series.to,
    reports_through: series.reports_through, n_reports: series.n_reports, n_cases: series.n_cases, duplicates: series.duplicates, reports_folded: series.reports_folded, hypothesis: HYPOTHESIS, note: CASES_NOTE,
    breakdowns: series.breakdowns, limit: series.limit, offset: series.offset, returned: reports.length, reports: [],
  };
  // `reports` is the last member: its `[]}` becomes the page.
  return { contentType: 'application/json; charset=utf-8', body: `${JSON.stringify(body).slice(0, -3)}[${reports.join(',')}]}` };
}

/** Columns of the CSV line listing, in order: the JSON report fields (src/domain/report-columns.ts) but the optional ones. */
export const CASES_CSV_COLUMNS: readonly JsonReportField[] = JSON_REPORT_COLUMNS.filter((c) => !('optional' in c.json) && !('csv' in c)).map((c) => c.json.name);

/** A report's vaccines in one CSV field: `NAME (type; manufacturer; lot; dose; route; site)` joined by ` | `. */
function vaccinesField(vaccines: CaseVaccine[]): string {
  const [name, ...rest] = VACCINE_COLUMNS.map((c) => c.json.name);
  return vaccines.map((v) => `${v[name]} (${rest.map((k) => v[k] ?? '').join('; ')})`).join(' | ');
}

function* renderCsv(series: CaseSeries, index: ReportIndex): Steps<CasesRendered> {
  const narratives = index.narratives !== null;
  const header = [...CASES_CSV_COLUMNS, ...(narratives ? ['narrative'] : []), ...(series.text ? ['snippet_field', 'snippet'] : [])];
  const lines = [header.join(',')];
  for (const r of series.page) {
    if (lines.length % PAGE_STEP === 0) yield;
    const report = caseReport(index, r);
    const cells = CASES_CSV_COLUMNS.map((c) => (c === 'vaccines' ? vaccinesField(report.vaccines) : c === 'events' ? report.events.join('; ') : report[c] as unknown));
    if (narratives) cells.push(report.narrative ?? null);
    if (series.text) {
      const found = snippetOf(series, index, r);
      cells.push(found?.field ?? null, found?.text ?? null);
    }
    lines.push(cells.map(csvCell).join(','));
  }
  return { contentType: 'text/csv; charset=utf-8', body: `${lines.join('\r\n')}\r\n` };
}

/** The renderer of each format (steps: src/serve/cases/slices.ts `runSliced` or `runAll`). */
export const CASES_RENDERERS: Record<CasesFormat, (series: CaseSeries, index: ReportIndex) => Steps<CasesRendered>> = {
  json: renderJson,
  csv: renderCsv,
};
