#!/usr/bin/env node
/**
 * Command-line entry `reporting-signals`: score, build, import, serve, evaluate.
 * Each command's work lives in `src/commands/<name>.ts`; this file only parses options.
 * A `UserError` (bad file, column or option) prints `reporting-signals: <message>` and exits 1,
 * without a stack trace.
 */
import { Command, InvalidArgumentError } from 'commander';
import { analysisNamesText, DEFAULT_ANALYSES } from './domain/analysis-rules.js';
import { UserError } from './domain/user-error.js';
import { PROGRAM_VERSION } from './domain/version.js';
import { servedResourcesText } from './http/route-table.js';

function integerOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

const program = new Command('reporting-signals')
  .description('Disproportionality signals over VAERS (MGPS, PRR, ROR, IC), served per quarter')
  .version(PROGRAM_VERSION);

program
  .command('score')
  .description('statistics of one report table (no quarters): one row per vaccine x event pair')
  .requiredOption('--reports <file>', 'report-level CSV: one row per report x vaccine x event')
  .requiredOption('--id-column <name>', 'column holding the report id')
  .requiredOption('--vaccine-column <name>', 'column holding the vaccine (product) name')
  .requiredOption('--event-column <name>', 'column holding the event term')
  .option('--stratum-column <name>', 'a column defining the report\'s stratum (repeatable): E is summed over strata (DuMouchel 1999)', (value: string, previous: string[] = []) => [...previous, value])
  .option('--hyper <alpha1,beta1,alpha2,beta2,p>', 'fix the MGPS hyperparameters instead of fitting them')
  .requiredOption('--out <file>', 'output CSV')
  .action(async (options) => {
    const { runScore } = await import('./commands/score.js');
    await runScore(options);
  });

program
  .command('build')
  .description('official VAERS files (CSV, .gz or the official zips) -> quarterly signal store')
  .requiredOption('--vaers <dir>', 'folder with <YEAR>VAERSDATA/VAX/SYMPTOMS files or the official zips')
  .requiredOption('--out <file>', 'store file to write (a DuckDB database, any name)')
  .option('--include-nondomestic', 'also read NonDomesticVAERS* files', false)
  .option('--narratives', 'also keep each report\'s narratives (SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX, ALLERGIES) in the report table', false)
  .option('--analyses <names>', `analyses to build, comma-separated, the first the default: ${analysisNamesText()}; \`default\` is the embedded default store's list (${DEFAULT_ANALYSES.join(',')})`, 'all')
  .option('--strata <dimensions>', 'strata of the stratified analyses: sex,age6,year (default: Empirica\'s AGE_GROUP_6) or sex,age13,year (13 CDC WONDER age groups); any of sex, age6|age13, year', 'sex,age6,year')
  .option('--event-groups <file>', 'grouping file (CSV: group_id,group_label,term,scope,source,version) of the @groups analyses instead of the shipped data/event-groups/aesi.csv (docs/event-groups.md)')
  .option('--workers <n>', 'worker threads for the per-window statistics', integerOption)
  .option('--scale <k>', 'benchmarks only: replay the reports K times with fresh ids and shifted dates', integerOption)
  .option('--like <store>', 'build the analyses, strata, narratives and non-domestic choice of STORE (its metadata): the weekly rebuild of a served store')
  .action(async (options, command: Command) => {
    // The full download needs more than Node's default 4 GB heap: run again with a larger limit (src/cache/heap.ts).
    (await import('./cache/heap.js')).ensureBuildHeap();
    const { runBuild } = await import('./commands/build.js');
    if (options.like !== undefined) {
      const { LIKE_OPTIONS, likeOptions } = await import('./commands/build-like.js');
      const given = LIKE_OPTIONS.filter((name) => command.getOptionValueSource(name) === 'cli');
      if (given.length > 0) throw new UserError(`build: --like sets ${given.map((n) => `--${n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}: give one or the other`);
      const { like, ...rest } = options;
      await runBuild({ ...rest, ...(await likeOptions(like)) });
      return;
    }
    await runBuild(options);
  });

program
  .command('import')
  .description('make a store from an existing quarterly signals table (Parquet or CSV)')
  .requiredOption('--quarterly <file>', 'quarterly table: drug_name, outcome_name, quarter, observed, eb05, ...')
  .requiredOption('--out <file>', 'store file to write (a DuckDB database, any name)')
  .action(async (options) => {
    const { runImport } = await import('./commands/import.js');
    await runImport(options);
  });

program
  .command('serve')
  .description(`serve ${servedResourcesText()} over a store (default: the 1990-2006 store built from data/vaers into the cache on first start); SIGHUP reloads the store, SIGTERM/SIGINT stop gracefully`)
  .option('--store <file>', 'store file (default: the default store in the cache, built first when absent)')
  .option('--vaers <dir>', 'without --store: build the default store from this VAERS folder instead of data/vaers')
  .option('--port <n>', 'port (default: $PORT or 8080)', integerOption)
  .option('--host <host>', 'host (default: $HOST or 127.0.0.1)')
  .option('--watch', 'reload the store when its file is replaced (a rebuild); SIGHUP always reloads it')
  .action(async (options) => {
    const { runServe } = await import('./commands/serve.js');
    await runServe(options);
  });

program
  .command('reload')
  .description('refresh the server running here (npm start or serve) on port N: its default store rebuilt when its VAERS folder changed, or its --store file reloaded; waits and prints the outcome')
  .option('--port <n>', 'the server\'s port (default: $PORT or 8080)', integerOption)
  .option('--no-wait', 'send the signal and return at once')
  .option('--force', 'swap even a store that drops an analysis or the narratives (SIGUSR2)', false)
  .action(async (options) => {
    const { runReload } = await import('./commands/reload.js');
    await runReload(options);
  });

program
  .command('evaluate')
  .description('a reference set of vaccine x event concepts of known status (positive, negative; refuted, administration and artefact scored apart) against every method and analysis of a store, every window judged (sensitivity, specificity, PPV, time to signal), and the triage queue against plain EB05, PRR and IC025 orderings')
  .requiredOption('--reference <file>', 'reference set CSV: id,vaccine,event,class,emerged,source (data/reference/README.md)')
  .option('--store <file>', 'store file (default: the embedded default store, as serve)')
  .option('--analyses <names>', 'analyses to evaluate, comma-separated (default: every analysis of the store)')
  .option('--through <quarter>', 'last window evaluated, YYYYQn (default: the store\'s latest quarter)')
  .option('--rankings <names>', 'analyses whose triage queue is compared with plain orderings, comma-separated (default: the first analysis evaluated)')
  .option('--out <dir>', 'folder for the JSON, CSV and SVG outputs (pairs, methods, ranking)')
  .action(async (options) => {
    const { runEvaluate } = await import('./commands/evaluate.js');
    await runEvaluate(options);
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof UserError) {
    process.stderr.write(`reporting-signals: ${error.message}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`reporting-signals: unexpected error: ${message}\n`);
    if (process.env.DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  }
  process.exit(1);
});
