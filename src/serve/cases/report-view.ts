/**
 * The report view (`GET /reports/{vaers_id}`): one report, whole. Transport-free: `reportAnswer`
 * gives status, headers and body; src/http/reports-route.ts sends it.
 *
 * The JSON body: the case series' fields of the report (src/domain/report-columns.ts, as
 * /cases lists it), its events with their MedDRA version (`{term, version}`), every further
 * report column by its store name (the narratives LAB_DATA ... ALLERGIES, RPT_DATE, DATEDIED,
 * HOSPDAYS, V_ADMINBY, V_FUNDBY, SPLTTYPE, FORM_VERS, TODAYS_DATE; null when blank, or not kept
 * by the store), the analyses of the store whose subset rule keeps it (src/domain/analysis-rules.ts),
 * `reports_through` and the caveat (`hypothesis`) (report.ts). HTML: the same in readable sections (report-html.ts).
 */
import { errorBody, type ErrorBody } from '../query/error-object.js';
import { queryValues, presentValue, quoteValue } from '../query/parameters.js';
import type { ReportIndex } from './index.js';
import { reportView } from './report.js';
import { renderReportHtml, REPORT_CSP } from './report-html.js';

/** Formats of the report view. */
export const REPORT_FORMATS = ['json', 'html'] as const;
/** One report-view format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** Usage line of 400 answers. */
export const REPORT_USAGE = 'GET /reports/{vaers_id}?format=json|html (a browser gets html unless format says otherwise)';
/** Cache lifetime of 200 answers (as /cases). */
export const REPORT_CACHE_CONTROL = 'public, max-age=60';

/** One answer of the report view. */
export type ReportAnswer =
  | { status: 200; body: Buffer; headers: Record<string, string>; key: string }
  | { status: 400 | 404; body: ErrorBody };

/** The format asked: `format` when given (else 400 with allowed), else html when the browser prefers it. */
function formatOf(search: string, wantsHtml: boolean): ReportFormat | ErrorBody {
  const values = queryValues(search, ['format'], REPORT_USAGE);
  if (!(values instanceof Map)) return errorBody(values.error, values);
  const format = presentValue(values, 'format')?.toLowerCase();
  if (format === undefined) return wantsHtml ? 'html' : 'json';
  return (REPORT_FORMATS as readonly string[]).includes(format) ? format as ReportFormat
    : errorBody(`unknown format ${quoteValue(format)}`, { allowed: REPORT_FORMATS, usage: REPORT_USAGE });
}

/**
 * Answers `GET /reports/{idText}` given its raw query string and whether the client prefers
 * HTML (Accept). 400 when the id is not a positive integer (digits only) or a parameter is bad;
 * 404 when no report of the store has that VAERS_ID.
 */
export function reportAnswer(
  index: ReportIndex, ordinalOf: (id: number) => number, idText: string, search: string, wantsHtml: boolean,
  analyses: readonly string[], reportsThrough: string | null,
): ReportAnswer {
  if (!/^\d{1,15}$/.test(idText) || Number(idText) < 1) {
    return { status: 400, body: errorBody(`vaers_id must be a positive integer (got ${quoteValue(idText)})`, { usage: REPORT_USAGE }) };
  }
  const format = formatOf(search, wantsHtml);
  if (typeof format === 'object') return { status: 400, body: format };
  const id = Number(idText);
  const r = ordinalOf(id);
  if (r < 0) return { status: 404, body: errorBody(`no report with VAERS_ID ${id} in this store`, { usage: REPORT_USAGE }) };
  const view = reportView(index, r, analyses, reportsThrough);
  const body = Buffer.from(format === 'html' ? renderReportHtml(view) : JSON.stringify(view));
  return {
    status: 200, body, key: `${id}\0${format}`,
    headers: {
      'content-type': format === 'html' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      'x-reports-through': reportsThrough ?? 'none', 'cache-control': REPORT_CACHE_CONTROL,
      ...(format === 'html' ? { 'content-security-policy': REPORT_CSP } : {}),
    },
  };
}
