/**
 * One report table (no quarters) for `reporting-signals score` (optionally with stratum
 * columns, below): a UTF-8 CSV with a header, one row per report x vaccine x event, counted the
 * openEBGM way by the one counting module (`counts.ts`): n = distinct reports per pair (a report's
 * pairs are the rows it has; duplicate rows count once), margins and N = distinct reports.
 * Rows with an empty id, vaccine or event cannot form a pair and are skipped (and counted).
 *
 * With stratum columns, a report's stratum is the tuple of its values in those columns, and the
 * table carries the stratified expected counts `E = sum_s n_vaccine,s * n_event,s / N_s`
 * (DuMouchel 1999, section 2; openEBGM `processRaw(stratify = TRUE)`).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { fileErrorReason, UserError } from '../../domain/user-error.js';
import { countQuarters, windowCounts, type CountableReport } from './counts.js';

/** A report table: pairs (parallel arrays, sorted by vaccine then event, code-unit order) and N. */
export interface ReportTable {
  vaccine: string[];
  event: string[];
  n: number[];
  n_vaccine: number[];
  n_event: number[];
  n_reports: number;
  /** Stratified expected count per pair, when read with stratum columns. */
  expected?: number[];
  /** The strata seen (each the stratum columns' values joined by ` / `), when read with stratum columns. */
  strata?: string[];
  /** Input rows skipped because the id, vaccine or event cell was empty. */
  skipped_rows: number;
}

/** Column names of a report table; `strata` names the columns whose values define a report's stratum. */
export interface ReportColumns {
  id: string;
  vaccine: string;
  event: string;
  strata?: readonly string[];
}

/** One report as read: its pair rows and its stratum (with the line that set it). */
interface RawReport {
  pairs: Set<string>;
  stratum: string;
  line: number;
}

/** Interns strings in code-unit order, so that index order is name order. */
function sortedIndex(names: Iterable<string>): { names: string[]; index: Map<string, number> } {
  const sorted = [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { names: sorted, index: new Map(sorted.map((name, i) => [name, i])) };
}

/**
 * Read a report-level CSV into a {@link ReportTable}. Errors (UserError, naming the file):
 * missing or unreadable file, a column not in the header (lists the header), malformed CSV
 * (with its line), a report whose stratum columns differ between its rows (with the line).
 */
export async function readReportTable(file: string, columns: ReportColumns): Promise<ReportTable> {
  const { reports, skipped } = await readRows(file, columns);
  const pairKeys = [...reports.values()].flatMap((r) => [...r.pairs]);
  const vaccines = sortedIndex(pairKeys.map((key) => key.slice(0, key.indexOf('\u0000'))));
  const events = sortedIndex(pairKeys.map((key) => key.slice(key.indexOf('\u0000') + 1)));
  const strata = sortedIndex([...reports.values()].map((r) => r.stratum));
  const stratified = (columns.strata ?? []).length > 0;
  const countable: CountableReport[] = [...reports.values()].map((report) => {
    const pairs = [...report.pairs].map((key) => {
      const at = key.indexOf('\u0000');
      return vaccines.index.get(key.slice(0, at))! * events.names.length + events.index.get(key.slice(at + 1))!;
    });
    return {
      quarter: 0,
      vaccines: [...new Set(pairs.map((key) => Math.floor(key / events.names.length)))],
      events: [...new Set(pairs.map((key) => key % events.names.length))],
      pairs,
      stratum: strata.index.get(report.stratum)!,
    };
  });
  const history = countQuarters(countable, vaccines.names.length, events.names.length, { strata: stratified ? strata.names.length : 0 });
  const table: ReportTable = { vaccine: [], event: [], n: [], n_vaccine: [], n_event: [], n_reports: 0, skipped_rows: skipped };
  const window = history.quarters.length > 0 ? windowCounts(history, new Map([[0, history.quarters[0]]]), 0) : null;
  if (!window) return table;
  window.keys.forEach((key, i) => {
    const v = Math.floor(key / events.names.length);
    table.vaccine.push(vaccines.names[v]);
    table.event.push(events.names[key - v * events.names.length]);
    table.n.push(window.n[i]);
    table.n_vaccine.push(window.n_vaccine[i]);
    table.n_event.push(window.n_event[i]);
  });
  table.n_reports = window.n_reports;
  if (stratified) {
    table.expected = Array.from(window.expected!);
    table.strata = strata.names;
  }
  return table;
}

/** Streams the CSV into reports (id -> pairs and stratum). */
async function readRows(file: string, columns: ReportColumns): Promise<{ reports: Map<string, RawReport>; skipped: number }> {
  try {
    if (!(await stat(file)).isFile()) throw new UserError(`${file}: not a file`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${file}: cannot read the reports file (${fileErrorReason(error)})`);
  }
  const wanted = [columns.id, columns.vaccine, columns.event, ...(columns.strata ?? [])];
  const reports = new Map<string, RawReport>();
  let skipped = 0;
  let indices: number[] | null = null;
  const parser = createReadStream(file).pipe(parse({ bom: true, skip_empty_lines: true, info: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (indices === null) {
        indices = headerIndices(file, record, wanted);
        continue;
      }
      const [id, vaccine, event, ...stratumCells] = indices.map((i) => (record[i] ?? '').trim());
      if (id === '' || vaccine === '' || event === '') {
        skipped++;
        continue;
      }
      const stratum = stratumCells.join(' / ');
      let report = reports.get(id);
      if (!report) reports.set(id, (report = { pairs: new Set(), stratum, line: info.lines }));
      else if (report.stratum !== stratum) {
        throw new UserError(`${file}: line ${info.lines}: report ${id} has stratum "${stratum}" but "${report.stratum}" on line ${report.line}`);
      }
      report.pairs.add(`${vaccine}\u0000${event}`);
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new UserError(`${file}${line ? `: line ${line}` : ''}: ${(error as Error).message}`);
  }
  if (indices === null) throw new UserError(`${file}: empty table (no header)`);
  return { reports, skipped };
}

function headerIndices(file: string, record: string[], wanted: string[]): number[] {
  const header = record.map((name) => name.trim());
  return wanted.map((name) => {
    const index = header.indexOf(name);
    if (index < 0) throw new UserError(`${file}: no column "${name}" in the header (columns: ${header.join(', ')})`);
    return index;
  });
}
