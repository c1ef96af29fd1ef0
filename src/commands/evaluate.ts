/**
 * `reporting-signals evaluate [--store S] --reference FILE [--analyses a,b] [--through Q]
 * [--rankings a,b] [--out DIR]`: a reference set of vaccine x event concepts of known status
 * (src/serve/evaluate/reference.ts) against every method of the store's analyses, every window judged, and the triage queue against
 * plain orderings. The Markdown tables go to standard output; with `--out`, the folder receives
 * EVALUATION_FILES. The work is src/serve/evaluate; this file reads the options and writes the files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderChart } from '../serve/evaluate/chart.js';
import { renderRankingChart } from '../serve/evaluate/chart-ranking.js';
import { readReferenceSet } from '../serve/evaluate/reference.js';
import { methodsCsv, methodsJson, pairsCsv, pairsJson, renderMarkdown } from '../serve/evaluate/render.js';
import { rankingCsv, rankingJson, ranksCsv, topCsv } from '../serve/evaluate/render-ranking.js';
import { runEvaluation } from '../serve/evaluate/run.js';
import { UserError } from '../domain/user-error.js';

/** Options of `evaluate` as parsed by the CLI. */
export interface EvaluateOptions {
  store?: string;
  reference: string;
  analyses?: string;
  through?: string;
  rankings?: string;
  out?: string;
}

/** The files `--out` receives, in the order they are written. */
export const EVALUATION_FILES = [
  'pairs.json', 'methods.json', 'pairs.csv', 'methods.csv', 'evaluation.svg', 'ranking.json', 'ranking.csv', 'ranks.csv', 'top20.csv', 'ranking.svg',
] as const;

/**
 * The store evaluated without `--store`: the one `serve` serves by default, built into the cache
 * first when absent (src/cache/default-store.ts; its progress goes to standard error).
 */
async function defaultStorePath(): Promise<string> {
  const { defaultStorePath: ensure } = await import('../cache/default-store.js');
  return ensure((message) => process.stderr.write(`${message}\n`));
}

/** CLI entry: evaluates, prints the Markdown table, writes the files of `--out`. */
export async function runEvaluate(options: EvaluateOptions): Promise<void> {
  const reference = await readReferenceSet(options.reference);
  const analyses = options.analyses?.split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (analyses !== undefined && analyses.length === 0) throw new UserError('--analyses: no analysis named');
  const rankings = options.rankings?.split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (rankings !== undefined && rankings.length === 0) throw new UserError('--rankings: no analysis named');
  const store = options.store ?? await defaultStorePath();
  let evaluation;
  try {
    evaluation = await runEvaluation({ store, reference, analyses, rankings, through: options.through });
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError((error as Error).message);
  }
  for (const p of reference.problems) process.stderr.write(`evaluate: ${reference.file}:${p.line}: skipped: ${p.message}\n`);
  process.stdout.write(renderMarkdown(evaluation));
  if (options.out === undefined) return;
  await mkdir(options.out, { recursive: true });
  const title = `${evaluation.reference}: ${evaluation.positives} positives, ${evaluation.negatives} negatives, ${evaluation.refuted} refuted, ${evaluation.administration} administration, ${evaluation.artefacts} artefacts, through ${evaluation.through}`;
  const { ranking } = evaluation;
  const contents = [pairsJson(evaluation.pairs), methodsJson(evaluation), pairsCsv(evaluation.pairs), methodsCsv(evaluation.methods),
    renderChart(evaluation.methods, evaluation.pairs, title), rankingJson(ranking), rankingCsv(ranking), ranksCsv(ranking), topCsv(ranking),
    renderRankingChart(ranking, `Triage queue against plain orderings, through ${evaluation.through}`)];
  for (const [i, name] of EVALUATION_FILES.entries()) await writeFile(join(options.out, name), contents[i]);
  process.stderr.write(`evaluate: wrote ${EVALUATION_FILES.join(', ')} to ${options.out}\n`);
}
