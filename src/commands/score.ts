/**
 * `reporting-signals score` (issue 2 section 3): the statistics of one report table, no quarters.
 *
 * Reads a UTF-8 CSV with a header, one row per report x vaccine x event (duplicate rows count
 * once; rows with an empty id, vaccine or event cannot form a pair and are skipped, with a count
 * on standard error), builds the report table the openEBGM way (n = distinct reports per pair,
 * margins and N = distinct reports), scores it with `scoreWindow`, writes one CSV row per pair
 * (sorted by vaccine, then event; empty cell for null; full double precision) and prints the
 * hyperparameters and negative log-likelihood as one JSON object on standard output.
 */
import { createReadStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { UserError } from '../errors.js';
import { checkHyperparameters, type Hyperparameters } from '../stats/mgps.js';
import { scoreWindow, type PairStatistics } from '../stats/window.js';

/** Options as src/cli.ts passes them. */
export interface ScoreCommandOptions {
  reports: string;
  idColumn: string;
  vaccineColumn: string;
  eventColumn: string;
  hyper?: string;
  out: string;
}

/** A report table: pairs (parallel arrays, sorted by vaccine then event) and N. */
export interface ReportTable {
  vaccine: string[];
  event: string[];
  n: number[];
  n_vaccine: number[];
  n_event: number[];
  n_reports: number;
  /** Input rows skipped because the id, vaccine or event cell was empty. */
  skipped_rows: number;
}

/** Output columns of `score`, in order (issue 2 section 3). */
export const SCORE_COLUMNS = [
  'vaccine', 'event', 'n', 'expected', 'n_vaccine', 'n_event', 'n_reports', 'qn', 'ebgm', 'eb05', 'eb50', 'eb95',
  'prr', 'prr_lci', 'prr_uci', 'prr_chisq', 'ror', 'ror_lci', 'ror_uci', 'ic', 'ic025', 'ic975',
  'n_methods_flagged', 'is_signal_any',
] as const;

/**
 * Count distinct reports per pair and per margin from (id, vaccine, event) triples
 * (DESIGN.md: the counting unit is the report; N = reports naming a vaccine and an event).
 */
export class ReportCounter {
  private readonly pairs = new Map<string, Map<string, Set<string>>>();
  private readonly vaccines = new Map<string, Set<string>>();
  private readonly events = new Map<string, Set<string>>();
  private readonly reports = new Set<string>();
  skipped = 0;

  /** Add one row; a row with an empty id, vaccine or event is counted as skipped. */
  add(id: string, vaccine: string, event: string): void {
    if (id === '' || vaccine === '' || event === '') {
      this.skipped++;
      return;
    }
    let byEvent = this.pairs.get(vaccine);
    if (!byEvent) this.pairs.set(vaccine, (byEvent = new Map()));
    addTo(byEvent, event, id);
    addTo(this.vaccines, vaccine, id);
    addTo(this.events, event, id);
    this.reports.add(id);
  }

  /** The table, pairs sorted by vaccine then event (code-unit order). */
  table(): ReportTable {
    const out: ReportTable = { vaccine: [], event: [], n: [], n_vaccine: [], n_event: [], n_reports: this.reports.size, skipped_rows: this.skipped };
    for (const vaccine of [...this.pairs.keys()].sort(compare)) {
      const byEvent = this.pairs.get(vaccine)!;
      for (const event of [...byEvent.keys()].sort(compare)) {
        out.vaccine.push(vaccine);
        out.event.push(event);
        out.n.push(byEvent.get(event)!.size);
        out.n_vaccine.push(this.vaccines.get(vaccine)!.size);
        out.n_event.push(this.events.get(event)!.size);
      }
    }
    return out;
  }
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let ids = map.get(key);
  if (!ids) map.set(key, (ids = new Set()));
  ids.add(id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Read a report-level CSV into a {@link ReportTable}. Errors (UserError, naming the file):
 * missing or unreadable file, a column not in the header (lists the header), malformed CSV
 * (with its line).
 */
export async function readReportTable(file: string, columns: { id: string; vaccine: string; event: string }): Promise<ReportTable> {
  try {
    if (!(await stat(file)).isFile()) throw new UserError(`${file}: not a file`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${file}: cannot read the reports file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const counter = new ReportCounter();
  const parser = createReadStream(file).pipe(parse({ bom: true, skip_empty_lines: true }));
  let indices: number[] | null = null;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (indices === null) {
        const header = record.map((name) => name.trim());
        indices = [columns.id, columns.vaccine, columns.event].map((name) => {
          const index = header.indexOf(name);
          if (index < 0) throw new UserError(`${file}: no column "${name}" in the header (columns: ${header.join(', ')})`);
          return index;
        });
        continue;
      }
      counter.add(record[indices[0]].trim(), record[indices[1]].trim(), record[indices[2]].trim());
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new UserError(`${file}${line ? `: line ${line}` : ''}: ${(error as Error).message}`);
  }
  if (indices === null) throw new UserError(`${file}: empty table (no header)`);
  return counter.table();
}

/** Parse `--hyper alpha1,beta1,alpha2,beta2,p` (UserError on anything else). */
export function parseHyper(text: string): Hyperparameters {
  const parts = text.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  if (parts.length !== 5 || parts.some((part) => part === '') || values.some((value) => !Number.isFinite(value))) {
    throw new UserError(`--hyper: expected five numbers alpha1,beta1,alpha2,beta2,p, got "${text}"`);
  }
  const theta = { alpha1: values[0], beta1: values[1], alpha2: values[2], beta2: values[3], p: values[4] };
  try {
    checkHyperparameters(theta);
  } catch (error) {
    throw new UserError(`--hyper: ${(error as Error).message}`);
  }
  return theta;
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The output CSV text: header plus one row per pair. */
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

/**
 * Run `score`: read, score, write `options.out`, print the fit as JSON on stdout.
 * UserError for a missing file, a missing column, an empty table or a bad `--hyper`.
 */
export async function runScore(options: ScoreCommandOptions): Promise<void> {
  const hyper = options.hyper === undefined ? undefined : parseHyper(options.hyper);
  const table = await readReportTable(options.reports, { id: options.idColumn, vaccine: options.vaccineColumn, event: options.eventColumn });
  if (table.n.length === 0) throw new UserError(`${options.reports}: empty table (no row with a report id, a vaccine and an event)`);
  if (table.skipped_rows > 0) {
    process.stderr.write(`reporting-signals: ${options.reports}: skipped ${table.skipped_rows} rows with an empty id, vaccine or event\n`);
  }
  const { fit, pairs } = scoreWindow(table, { hyper });
  try {
    await writeFile(options.out, scoreCsv(table, pairs));
  } catch (error) {
    throw new UserError(`${options.out}: cannot write the output (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const summary = { alpha1: fit.alpha1, beta1: fit.beta1, alpha2: fit.alpha2, beta2: fit.beta2, p: fit.p, neg_log_lik: fit.neg_log_lik, fitted: fit.fitted };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
