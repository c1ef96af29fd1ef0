/**
 * The output table of `reporting-signals score` (issue 2 section 3): one CSV row per pair of a
 * report table, in the table's order (vaccine, then event), empty cell for null, full double
 * precision, header row first.
 */
import type { PairStatistics } from '../stats/window.js';
import type { ReportTable } from './report-table.js';

/** Output columns of `score`, in order (issue 2 section 3). */
export const SCORE_COLUMNS = [
  'vaccine', 'event', 'n', 'expected', 'n_vaccine', 'n_event', 'n_reports', 'qn', 'ebgm', 'eb05', 'eb50', 'eb95',
  'prr', 'prr_lci', 'prr_uci', 'prr_chisq', 'ror', 'ror_lci', 'ror_uci', 'ic', 'ic025', 'ic975',
  'n_methods_flagged', 'is_signal_any',
] as const;

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The output CSV text: header plus one row per pair (`pairs[i]` scores the table's pair i). */
export function scoreCsv(table: ReportTable, pairs: PairStatistics[]): string {
  const lines = [SCORE_COLUMNS.join(',')];
  for (let i = 0; i < pairs.length; i++) {
    const s = pairs[i];
    const row: Record<(typeof SCORE_COLUMNS)[number], string | number | boolean | null> = {
      vaccine: table.vaccine[i], event: table.event[i], n: table.n[i], expected: s.expected,
      n_vaccine: table.n_vaccine[i], n_event: table.n_event[i], n_reports: table.n_reports,
      qn: s.qn, ebgm: s.ebgm, eb05: s.eb05, eb50: s.eb50, eb95: s.eb95,
      prr: s.prr, prr_lci: s.prr_lci, prr_uci: s.prr_uci, prr_chisq: s.prr_chisq,
      ror: s.ror, ror_lci: s.ror_lci, ror_uci: s.ror_uci, ic: s.ic, ic025: s.ic025, ic975: s.ic975,
      n_methods_flagged: s.n_methods_flagged, is_signal_any: s.is_signal_any,
    };
    lines.push(SCORE_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\n')}\n`;
}
