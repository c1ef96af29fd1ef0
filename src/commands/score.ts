/**
 * `reporting-signals score`: the statistics of one report table, no quarters.
 * A thin command: the table is read and counted by `src/ingest/mining/report-table.ts` (rows with an
 * empty id, vaccine or event are skipped, with a count on standard error; with `--stratum-column`
 * the expected counts are stratified, and MGPS and IC use them), scored by
 * `scoreWindow`, written by `src/ingest/mining/score-csv.ts` (one row per pair, sorted by vaccine then
 * event), and the hyperparameters and negative log-likelihood are printed as one JSON object on
 * standard output.
 */
import { writeFile } from 'node:fs/promises';
import { fileErrorReason, UserError } from '../domain/user-error.js';
import { readReportTable } from '../ingest/mining/report-table.js';
import { scoreCsv } from '../ingest/mining/score-csv.js';
import { HYPER_NAMES, type Hyperparameters } from '../domain/mgps-prior.js';
import { checkHyperparameters } from '../stats/mgps.js';
import { scoreWindow } from '../stats/window.js';

/** Options as src/cli.ts passes them. */
export interface ScoreCommandOptions {
  reports: string;
  idColumn: string;
  vaccineColumn: string;
  eventColumn: string;
  /** Columns whose values define a report's stratum (stratified E); none: crude E. */
  stratumColumn?: string[];
  hyper?: string;
  out: string;
}

/** Parse `--hyper alpha1,beta1,alpha2,beta2,p` (UserError on anything else). */
export function parseHyper(text: string): Hyperparameters {
  const parts = text.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  if (parts.length !== HYPER_NAMES.length || parts.some((part) => part === '') || values.some((value) => !Number.isFinite(value))) {
    throw new UserError(`--hyper: expected five numbers ${HYPER_NAMES.join(',')}, got "${text}"`);
  }
  const theta = Object.fromEntries(HYPER_NAMES.map((name, k) => [name, values[k]])) as Hyperparameters;
  try {
    checkHyperparameters(theta);
  } catch (error) {
    throw new UserError(`--hyper: ${(error as Error).message}`);
  }
  return theta;
}

/**
 * Run `score`: read, score, write `options.out`, print the fit as JSON on stdout.
 * UserError for a missing file, a missing column, an empty table or a bad `--hyper`.
 */
export async function runScore(options: ScoreCommandOptions): Promise<void> {
  const hyper = options.hyper === undefined ? undefined : parseHyper(options.hyper);
  const table = await readReportTable(options.reports, {
    id: options.idColumn, vaccine: options.vaccineColumn, event: options.eventColumn, strata: options.stratumColumn ?? [],
  });
  if (table.n.length === 0) throw new UserError(`${options.reports}: empty table (no row with a report id, a vaccine and an event)`);
  if (table.skipped_rows > 0) {
    process.stderr.write(`reporting-signals: ${options.reports}: skipped ${table.skipped_rows} rows with an empty id, vaccine or event\n`);
  }
  const { fit, pairs } = scoreWindow(table, { hyper });
  try {
    await writeFile(options.out, scoreCsv(table, pairs));
  } catch (error) {
    throw new UserError(`${options.out}: cannot write the output (${fileErrorReason(error)})`);
  }
  const summary = { alpha1: fit.alpha1, beta1: fit.beta1, alpha2: fit.alpha2, beta2: fit.beta2, p: fit.p, neg_log_lik: fit.neg_log_lik, fitted: fit.fitted };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
