/**
 * Renderers of `/cases` (issue 11 section 2), in a registry keyed by the format enum: `json` (the
 * case series: query echo, matched names, breakdowns, the page of reports) and `csv` (the line
 * listing of the page, RFC 4180, one row per report).
 */
import { HYPOTHESIS } from '../domain/caveats.js';
import { formatQuarter } from '../domain/quarter.js';
import { csvField } from '../signals/render.js';
import { AGE_GROUPS, isSerious, OUTCOME, SEX_CODES, type OutcomeName } from '../domain/report-rules.js';
import type { Breakdowns } from './breakdowns.js';
import type { ReportIndex } from './index.js';
import type { CasesFormat } from './params.js';

/** What the renderers get: the case series of one request. */
export interface CaseSeries {
  query: { vaccine: string | null; event: string | null; q: string | null; from: string | null; to: string | null };
  /** The analysis (for `/analyses/NAME/cases`), or null for `/cases`. */
  analysis: string | null;
  /** Matched vaccine names and event terms. */
  vaccines: string[];
  events: string[];
  /** Quarters of RECVDATE covered (the query's, else the store's first and last). */
  from: string | null;
  to: string | null;
  reports_through: string | null;
  /** Distinct reports. */
  n_reports: number;
  breakdowns: Breakdowns;
  limit: number;
  offset: number;
  /** Report indexes of the page, in listing order. */
  page: Int32Array;
}

/** One vaccine row of a report. */
export interface CaseVaccine {
  name: string; type: string | null; manufacturer: string | null; lot: string | null; dose: string | null; route: string | null; site: string | null;
}

/** One report of the listing. */
export interface CaseReport {
  vaers_id: number;
  received: string;
  quarter: string;
  age_yrs: number | null;
  age_group: string;
  sex: string;
  state: string | null;
  vax_date: string | null;
  onset_date: string | null;
  /** NUMDAYS: days from vaccination to onset, as reported. */
  onset_days: number | null;
  serious: boolean;
  died: boolean; l_threat: boolean; er_visit: boolean; hospital: boolean; x_stay: boolean; disable: boolean;
  /** Null when the report's file has no such column (older layout). */
  birth_defect: boolean | null;
  ofc_visit: boolean | null;
  recovd: string | null;
  vaccines: CaseVaccine[];
  events: string[];
  narrative?: string | null;
}

/** The sentence every case series carries besides the caveat. */
export const CASES_NOTE = 'n_reports counts distinct reports; the n of /signals sums reports over overlapping 4-quarter windows. A case series is not a rate: VAERS has no denominator of doses.';

const finite = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** Report `r` of the index as a listing entry. */
export function caseReport(index: ReportIndex, r: number): CaseReport {
  const { data } = index;
  const flag = (name: OutcomeName): boolean => (data.outcomes[r] & OUTCOME[name]) !== 0;
  const known = (name: OutcomeName): boolean | null => ((data.outcomesKnown[r] & OUTCOME[name]) !== 0 ? flag(name) : null);
  const vaccines: CaseVaccine[] = [];
  for (let row = data.vaccines.start[r]; row < data.vaccines.start[r + 1]; row++) {
    const v = data.vaccines;
    vaccines.push({ name: v.name[row], type: v.type[row], manufacturer: v.manufacturer[row], lot: v.lot[row], dose: v.dose[row], route: v.route[row], site: v.site[row] });
  }
  const report: CaseReport = {
    vaers_id: data.id[r], received: data.received[r], quarter: formatQuarter(data.quarter[r]), age_yrs: finite(data.age[r]),
    age_group: AGE_GROUPS[data.ageGroup[r]].label, sex: SEX_CODES[data.sex[r]], state: data.state[r], vax_date: data.vaxDate[r],
    onset_date: data.onsetDate[r], onset_days: finite(data.numdays[r]), serious: isSerious(data.outcomes[r]),
    died: flag('DIED'), l_threat: flag('L_THREAT'), er_visit: flag('ER_VISIT'), hospital: flag('HOSPITAL'), x_stay: flag('X_STAY'),
    disable: flag('DISABLE'), birth_defect: known('BIRTH_DEFECT'), ofc_visit: known('OFC_VISIT'), recovd: data.recovd[r],
    vaccines, events: data.events.term.slice(data.events.start[r], data.events.start[r + 1]),
  };
  if (data.narrative) report.narrative = data.narrative[r];
  return report;
}

/** A rendered 200 body. */
export interface CasesRendered {
  contentType: string;
  body: string;
}

function renderJson(series: CaseSeries, index: ReportIndex): CasesRendered {
  const reports = Array.from(series.page, (r) => caseReport(index, r));
  const body = {
    query: series.query, ...(series.analysis === null ? {} : { analysis: series.analysis }),
    vaccines: series.vaccines, events: series.events, from: series.from, to: series.to,
    reports_through: series.reports_through, n_reports: series.n_reports, hypothesis: HYPOTHESIS, note: CASES_NOTE,
    breakdowns: series.breakdowns, limit: series.limit, offset: series.offset, returned: reports.length, reports,
  };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

/** Columns of the CSV line listing, in order. */
export const CASES_CSV_COLUMNS = [
  'vaers_id', 'received', 'quarter', 'age_yrs', 'age_group', 'sex', 'state', 'vax_date', 'onset_date', 'onset_days', 'serious',
  'died', 'l_threat', 'er_visit', 'hospital', 'x_stay', 'disable', 'birth_defect', 'ofc_visit', 'recovd', 'vaccines', 'events',
] as const;

/** A report's vaccines in one CSV field: `NAME (type; manufacturer; lot; dose; route; site)` joined by ` | `. */
function vaccinesField(vaccines: CaseVaccine[]): string {
  return vaccines.map((v) => `${v.name} (${[v.type, v.manufacturer, v.lot, v.dose, v.route, v.site].map((x) => x ?? '').join('; ')})`).join(' | ');
}

function renderCsv(series: CaseSeries, index: ReportIndex): CasesRendered {
  const narratives = index.data.narrative !== null;
  const header = [...CASES_CSV_COLUMNS, ...(narratives ? ['narrative'] : [])];
  const lines = [header.join(',')];
  for (const r of series.page) {
    const report = caseReport(index, r);
    const cells = CASES_CSV_COLUMNS.map((c) => (c === 'vaccines' ? vaccinesField(report.vaccines) : c === 'events' ? report.events.join('; ') : report[c]));
    if (narratives) cells.push(report.narrative ?? null);
    lines.push(cells.map(csvField).join(','));
  }
  return { contentType: 'text/csv; charset=utf-8', body: `${lines.join('\r\n')}\r\n` };
}

/** The renderer of each format. */
export const CASES_RENDERERS: Record<CasesFormat, (series: CaseSeries, index: ReportIndex) => CasesRendered> = {
  json: renderJson,
  csv: renderCsv,
};
