/**
 * The output table of `reporting-signals score` (the statistics of one report table): one CSV row per pair of a
 * report table, in the table's order (vaccine, then event), empty cell for null, full double
 * precision, header row first, cells written by src/domain/csv-cell.ts (formulas neutralised); the columns are the column table's `SCORE_COLUMNS`.
 */
import { SCORE_COLUMNS, type ScoreColumn } from '../../domain/columns.js';
import type { PairStatistics } from '../../stats/window.js';
import type { ReportTable } from './report-table.js';
import { csvCell } from '../../domain/csv-cell.js';


/** The output CSV text: header plus one row per pair (`pairs[i]` scores the table's pair i). */
export function scoreCsv(table: ReportTable, pairs: PairStatistics[]): string {
  const lines = [SCORE_COLUMNS.join(',')];
  for (let i = 0; i < pairs.length; i++) {
    const s = pairs[i];
    const row: Record<ScoreColumn, string | number | boolean | null> = {
      ...s, vaccine: table.vaccine[i], event: table.event[i], n: table.n[i],
      n_vaccine: table.n_vaccine[i], n_event: table.n_event[i], n_reports: table.n_reports,
    };
    lines.push(SCORE_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\n')}\n`;
}
