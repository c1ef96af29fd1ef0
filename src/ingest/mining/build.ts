/**
 * The signal build (every analysis in one run; docs/design.md "Data flow" and "Statistics, precisely"):
 * VAERS files -> reports -> per analysis: per-quarter counts -> 4-quarter windows -> per-window
 * statistics (worker threads) -> flagged pairs with their full series and EWMA of EB05 -> one
 * store holding every analysis.
 *
 * Steps, each a function: `readReports` (once), `countSubsets` (once per distinct report subset:
 * `all` and `stratified` share one count, since strata only add margins), then per analysis
 * `planWindows`, `fitPass` and `rowsPasses` (passes.ts), and `writeStore` with the metadata and the
 * report tables (the case series' data: the kept reports, their VAX rows and events, written once
 * from the reader's `details`, newest RECVDATE first; `--scale` replays only the counts).
 *
 * Windows: one per quarter from the first quarter with reports to the last. Window q covers
 * quarters q-3..q; the windows of the first three quarters cover only the quarters that exist
 * (VAERS begins in 1990Q3): they are included and listed in the metadata. A window after a gap
 * of 4+ empty quarters has no reports and is skipped.
 */
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { UserError } from '../../domain/user-error.js';
import { ANALYSIS_NAMES, DEFAULT_ANALYSES, parseAnalysisName, parseStrata, strataCount, stratumOf, subsetMask, type AnalysisDefinition, type ItemKind, type StrataScheme } from '../../domain/analysis-rules.js';
import { formatQuarter } from '../../domain/quarter.js';
import type { StoreMeta, VaccineRow, WindowRow } from '../../domain/store-schema.js';
import type { ColumnBatch } from '../store/appender.js';
import { writeStore, type ReportTablesInput, type StoreContent } from '../store/write.js';
import { eventGroupsMeta, eventGroupsSummary, readEventGroups, type EventGroupsRead } from './event-groups-step.js';
import { vaxType } from '../../domain/vaccine-type.js';
import type { VaersData } from '../vaers/read.js';
import { readVaersWithDuckdb } from '../vaers/duckdb-read.js';
import { hasText, ReportText } from '../vaers/report-text.js';
import { PROGRAM_VERSION } from '../../domain/version.js';
import { countQuarters, type HistoryCounts } from './counts.js';
import { MIN_CO_REPORTS } from '../../domain/interactions.js';
import { interactionStep } from './interactions.js';
import { evidenceInputs, setCaseKeys, type EvidenceInputs } from './evidence-step.js';
import { reportItems, type ReportItems } from './items.js';
import { KsMemo } from './ks-memo.js';
import { linkDuplicates, linkInWorker, withLinkageText } from './linkage-step.js';
import { reportTables } from './report-tables.js';
import { fitPass, planWindows, rowsPasses, type FitPassResult, type RowsPassInput, type WindowPlan } from './passes.js';
import { WorkerPool } from './pool.js';
import { shareArrays } from './shared-arrays.js';
import { SILENT, type Progress } from './progress.js';
import { analysisMeta, buildParameters, seconds, type AnalysisSummary, type BuildSummary } from './summary.js';

/** Options of {@link buildStore}. */
export interface BuildOptions {
  /** Folder with the official VAERS files. */
  vaers: string;
  /** Store file to write. */
  out: string;
  includeNondomestic?: boolean;
  /** Keep each report's SYMPTOM_TEXT in the `reports` table (default off). */
  narratives?: boolean;
  /** Analyses to build, comma-separated (`all,stratified,serious`); the first is the default. Default `all`. */
  analyses?: string;
  /** Strata of the stratified analyses (`sex,age6,year` by default, or e.g. `sex,age13,year`; src/domain/analysis-rules.ts parseStrata). */
  strata?: string;
  /** The grouping file of the `@groups` analyses (default: the shipped data/event-groups/aesi.csv; docs/event-groups.md). */
  eventGroups?: string;
  /** Worker threads (default: available parallelism). */
  workers?: number;
  /**
   * Write the first analysis alone first, as a complete store at `out` (atomic), and call
   * `written` before the other analyses are fitted: the default store's first start serves it
   * meanwhile (src/cache/default-store.ts). The full store then copies its rows and report tables.
   * Ignored with a single analysis.
   */
  firstAnalysis?: { out: string; written: (path: string) => void | Promise<void> };
  /** Benchmarks only: replay the reports K times (see `countQuarters`). */
  scale?: number;
  progress?: Progress;
}

/** One analysis to run: its definition, the counts of its reports, the names of its items (products or VAX_TYPE codes) and of its events (terms or event groups). */
interface AnalysisRun {
  analysis: AnalysisDefinition;
  history: HistoryCounts;
  reports: number;
  items: readonly string[];
  events: readonly string[];
}

/** The result of one analysis's passes. */
interface AnalysisResult {
  run: AnalysisRun;
  plan: WindowPlan | null;
  fit: FitPassResult | null;
  rows: number;
  seconds: { fit: number; rows_and_write: number };
}

async function checkOutputFolder(out: string): Promise<void> {
  const outDir = dirname(resolve(out));
  try {
    await access(outDir);
  } catch {
    throw new UserError(`build: output folder does not exist: ${outDir}`);
  }
}

/**
 * The build's scratch text file beside `out` (report-text.ts, `<out>.tmp-<pid>.text`).
 * @throws UserError naming `--out` when the file cannot be made in its folder (not writable, /proc, ...).
 */
async function scratchText(out: string): Promise<ReportText> {
  try {
    return await ReportText.create(`${out}.tmp-${process.pid}.text`);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new UserError(`build: --out ${out}: cannot write a file in its folder ${dirname(resolve(out))} (${message})`);
  }
}

/**
 * Reads the VAERS folder once through DuckDB (src/ingest/vaers/duckdb-read.ts; its scratch folder
 * `<out>.tmp-<pid>.read` is removed before it returns), with a progress bar per file; the narratives
 * go to `text` (report-text.ts), filled in SQL, when given.
 */
async function readReports(options: BuildOptions, progress: Progress, text: ReportText | null): Promise<VaersData> {
  let lastFile = '';
  const data = await readVaersWithDuckdb(options.vaers, {
    includeNondomestic: options.includeNondomestic, scratch: `${options.out}.tmp-${process.pid}.read`,
    narratives: options.narratives, ...(text ? { text } : {}),
    onProgress: (e) => {
      if (e.file !== lastFile) {
        if (lastFile === '') progress.start('read', e.fileCount, 'files');
        lastFile = e.file;
      }
      progress.update(Math.round((e.fileIndex + (e.bytesTotal ? e.bytesRead / e.bytesTotal : 0)) * 100) / 100, e.file);
    },
    onStepStart: (step) => progress.note?.(step),
  });
  if (lastFile !== '') progress.end();
  await text?.finishWriting();
  if (data.reports.length === 0) throw new UserError(`build: ${options.vaers}: no usable reports (need RECVDATE, a vaccine and an event)`);
  return data;
}

/**
 * Counts the reports of each analysis over its items (src/ingest/mining/items.ts: products or VAX_TYPE
 * codes). Analyses with the same subset rule and items share one count (the strata margins are
 * counted whenever one of them is stratified), so `all` and `stratified` cost one count.
 */
function countSubsets(data: VaersData, analyses: AnalysisDefinition[], itemsOf: ReadonlyMap<ItemKind, ReportItems>, scheme: StrataScheme, scale: number, progress: Progress): AnalysisRun[] {
  // The rules read the report columns (`details`, index i being `reports[i]`), as the server does.
  const columns = data.details;
  let firstYear = Infinity;
  let lastYear = -Infinity;
  for (const r of data.reports) {
    firstYear = Math.min(firstYear, Math.floor(r.quarter / 4));
    lastYear = Math.max(lastYear, Math.floor(r.quarter / 4));
  }
  const strata = strataCount(scheme, firstYear, lastYear);
  const shared = new Map<AnalysisDefinition['keeps'], Map<ItemKind, { history: HistoryCounts; reports: number; items: readonly string[]; events: readonly string[] }>>();
  return analyses.map((analysis) => {
    const byItems = shared.get(analysis.keeps) ?? new Map();
    shared.set(analysis.keeps, byItems);
    let counted = byItems.get(analysis.items);
    if (!counted) {
      const items = itemsOf.get(analysis.items)!;
      const mask = subsetMask(analysis, columns);
      const { lists } = items;
      const eventLists = items.events?.lists;
      const eventNames = items.events?.names ?? data.events;
      const kept = data.reports.flatMap((r, i) => (mask[i] && lists[i].length > 0
        ? [{ quarter: r.quarter, vaccines: lists[i], events: eventLists ? eventLists[i] : r.events, stratum: stratumOf(scheme, columns, i, firstYear, lastYear) }] : []));
      const stratified = analyses.some((a) => a.keeps === analysis.keeps && a.items === analysis.items && a.stratified);
      progress.start(`count ${analysis.name}`, kept.length * scale, 'reports');
      const history = countQuarters(kept,
        items.names.length, eventNames.length, { scale, strata: stratified ? strata : 0, onProgress: (done) => progress.update(done) });
      progress.end();
      counted = { history, reports: kept.length, items: items.names, events: eventNames };
      byItems.set(analysis.items, counted);
    }
    return { analysis, ...counted };
  });
}

/**
 * The phases of a build of `analyses`, in the order it runs them (Progress.plan): `read`, one
 * `count NAME` per distinct count (countSubsets: NAME the first analysis of the count), `interactions`
 * (Omega of co-reported vaccines, docs/interactions.md), `fit NAME`
 * per analysis, `link` (the end of the duplicate linkage, which ran meanwhile in its own thread;
 * before the counts when an analysis is `@dedup`), `rows NAME` per analysis, `write` (the store
 * sorted and written). With `firstAnalysis` (BuildOptions.firstAnalysis), the first analysis's
 * fit, rows and store (`write NAME`) come before the other analyses' fits.
 */
export function buildPhases(analyses: readonly AnalysisDefinition[], firstAnalysis = false): string[] {
  const counts = analyses.filter((a, i) => analyses.findIndex((b) => b.keeps === a.keeps && b.items === a.items) === i);
  const dedup = analyses.some((a) => a.deduplicated);
  const fits = (list: readonly AnalysisDefinition[]): string[] => list.map((a) => `fit ${a.name}`);
  const rows = (list: readonly AnalysisDefinition[]): string[] => list.map((a) => `rows ${a.name}`);
  const start = ['read', ...(dedup ? ['link'] : []), ...counts.map((a) => `count ${a.name}`), 'interactions'];
  // Without @dedup, the linkage runs beside the counts and fits: `link` is the wait for its end.
  const link = dedup ? [] : ['link'];
  if (firstAnalysis && analyses.length > 1) {
    const [head, ...rest] = analyses;
    return [...start, ...fits([head]), ...link, ...rows([head]), `write ${head.name}`, ...fits(rest), ...rows(rest), 'write'];
  }
  return [...start, ...fits(analyses), ...link, ...rows(analyses), 'write'];
}

/** The history as the analysis uses it: crude analyses do not see the strata. */
function historyFor(run: AnalysisRun): HistoryCounts {
  return run.analysis.stratified ? run.history : { ...run.history, strata: 0 };
}

/** Fit pass of one analysis (rows are produced later, while the store is written). */
async function fitAnalysis(pool: WorkerPool, run: AnalysisRun, progress: Progress): Promise<AnalysisResult> {
  const started = performance.now();
  const history = historyFor(run);
  if (history.quarters.length === 0) return { run, plan: null, fit: null, rows: 0, seconds: { fit: 0, rows_and_write: 0 } };
  const plan = planWindows(history);
  progress.start(`fit ${run.analysis.name}`, plan.windowQuarters.length, 'windows');
  const fit = await fitPass(pool, plan, (done) => progress.update(done));
  progress.end();
  return { run, plan, fit, rows: 0, seconds: { fit: seconds(started), rows_and_write: 0 } };
}

/**
 * The evidence inputs with their tables in shared memory (shared-arrays.ts): the one copy this
 * thread holds is the one every worker reads (the broadcast of allRows sends views, not copies),
 * and the arrays the item kinds share stay one copy. The unshared originals are let go.
 */
function shareEvidence(inputs: Map<ItemKind, EvidenceInputs>): Map<ItemKind, EvidenceInputs> {
  const seen = new Map();
  return new Map([...inputs].map(([kind, input]) => [kind, { ...input, tables: shareArrays(input.tables, seen) }]));
}

/** The fit passes of every analysis in turn. */
async function fitAll(pool: WorkerPool, runs: readonly AnalysisRun[], progress: Progress): Promise<AnalysisResult[]> {
  const results: AnalysisResult[] = [];
  for (const run of runs) results.push(await fitAnalysis(pool, run, progress));
  return results;
}

/**
 * The quarterly rows of every analysis in turn, as batches of columns (one per window, passes.ts rowsPasses), each tagged with its analysis, with their triage
 * evidence computed in the workers: before an analysis's first chunk is sent (while the previous
 * analysis's last chunks may still be scored), each worker gets the analysis's subset mask, the
 * shared memo of exact KS probabilities and, the first time, its item kind's evidence tables
 * (pool.broadcast: views of the shared tables, shareEvidence). The phase `rows NAME` runs from the
 * analysis's first rows taken to its last. With `last` (the
 * build's last store), the pool's threads end and the evidence tables go once the last row is staged.
 */
async function* allRows(pool: WorkerPool, results: AnalysisResult[], evidence: Map<ItemKind, EvidenceInputs>, progress: Progress, writePhase: string, last: boolean): AsyncGenerator<ColumnBatch> {
  const sent = new Set<ItemKind>();
  const ksMemo = new KsMemo(); // one table of exact KS probabilities for every worker and analysis
  const passes: RowsPassInput[] = results.flatMap((result) => {
    const { plan, fit } = result;
    if (!plan || !fit) return [];
    const { analysis } = result.run;
    const inputs = evidence.get(analysis.items)!;
    let started = 0;
    return [{
      plan, fit, analysis: analysis.name, names: { vaccines: result.run.items, events: result.run.events, types: inputs.typeNames },
      setUp: () => {
        pool.broadcast({
          type: 'evidence-setup', analysis: analysis.name, kind: analysis.items, mask: subsetMask(analysis, inputs.details), ksMemo: ksMemo.buffer,
          ...(sent.has(analysis.items) ? {} : { tables: inputs.tables }),
        });
        sent.add(analysis.items);
      },
      onStart: () => {
        started = performance.now();
        progress.start(`rows ${analysis.name}`, plan.windowQuarters.length, 'windows');
      },
      onWindows: (done: number) => progress.update(done),
      onEnd: (rows: number) => {
        result.rows += rows;
        progress.end();
        result.seconds.rows_and_write = seconds(started);
      },
    }];
  });
  yield* rowsPasses(pool, passes);
  if (last) {
    // The last rows are staged: the workers' threads (their heaps: evidence groupings, setups) and
    // the evidence tables go before the store sorts its rows and takes the report tables.
    await pool.close();
    evidence.clear();
  }
  // Every row is staged: the store is now sorted and written (writeStore), with no count to report.
  progress.start(writePhase, 0, '');
}

function vaccineTable(data: VaersData): VaccineRow[] {
  return data.vaccines.map((name, i) => ({
    vax_name: name, vax_type: vaxType(name), vax_type_codes: [...(data.vaxTypeCodes.get(i) ?? [])].sort(),
  })).sort((a, b) => (a.vax_name < b.vax_name ? -1 : a.vax_name > b.vax_name ? 1 : 0));
}

function analysisSummary(result: AnalysisResult): AnalysisSummary {
  const { run, plan, fit } = result;
  const windows = fit?.windows ?? [];
  return {
    name: run.analysis.name, reports: run.reports, windows: windows.length, partialWindows: fit?.partialWindows ?? [],
    skippedWindows: fit?.skippedWindows ?? [], pairWindowsScored: fit?.pairWindowsScored ?? 0, pairs: fit?.flagged.size ?? 0,
    rows: result.rows, reportsThrough: plan ? formatQuarter(plan.last) : null,
    fitsAtBound: windows.filter((w) => w.at_bound !== '').map((w) => ({ quarter: w.quarter, at_bound: w.at_bound })),
    fitsNotConverged: windows.filter((w) => !w.converged).map((w) => w.quarter),
    seconds: result.seconds,
  };
}

/**
 * Parses `--analyses all,stratified,serious` (`all` alone by default; `default`: the embedded
 * default store's list, DEFAULT_ANALYSES; a name may carry modifiers, `serious@types`,
 * `stratified@dedup` (ANALYSIS_MODIFIERS), and `types` is `stratified@types`): names in the given
 * order, the first being the default analysis (the rules and the modifiers:
 * src/domain/analysis-rules.ts `parseAnalysisName`).
 * @throws UserError on an unknown, repeated or missing name or modifier (the message lists the names and modifiers).
 */
export function parseAnalyses(text: string | undefined): AnalysisDefinition[] {
  const names = (text ?? 'all').split(',').map((name) => name.trim()).filter((name) => name !== '').flatMap((name) => (name === 'default' ? DEFAULT_ANALYSES : [name]));
  if (names.length === 0) throw new UserError(`--analyses: no analysis named (choose from ${ANALYSIS_NAMES.join(', ')})`);
  const seen = new Set<string>();
  return names.map((name) => {
    const parsed = parseAnalysisName(name);
    if (!parsed.ok) throw new UserError(`--analyses: ${parsed.error}`);
    if (seen.has(name)) throw new UserError(`--analyses: "${name}" is named twice`);
    seen.add(name);
    return parsed.analysis;
  });
}

/**
 * Parses `--strata` (default `sex,age6,year`; src/domain/analysis-rules.ts parseStrata).
 * @throws UserError on a bad choice (the message lists the dimensions).
 */
export function strataOption(text: string | undefined): StrataScheme {
  try {
    return parseStrata(text);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
}

/**
 * Builds a store from the VAERS files in `options.vaers` and writes it atomically to
 * `options.out` (an error leaves no store, and an existing store untouched).
 * @throws UserError for bad input (from src/ingest/vaers), an unknown analysis or an output folder that does not exist.
 */
export async function buildStore(options: BuildOptions): Promise<BuildSummary> {
  const progress = options.progress ?? SILENT;
  const started = performance.now();
  const analyses = parseAnalyses(options.analyses);
  const scheme = strataOption(options.strata);
  await checkOutputFolder(options.out);
  // The grouping file is read before the reports, all or nothing (a bad file: no store at all).
  const groups: EventGroupsRead | null = await readEventGroups(options.eventGroups, analyses);
  progress.plan?.(buildPhases(analyses, options.firstAnalysis !== undefined));
  // The reports' free text goes to a scratch DuckDB file beside the store's temporary one, not the
  // V8 heap (report-text.ts); its consumers read it back in chunks; removed whatever happens.
  const text = options.narratives ? await scratchText(options.out) : null;
  try {
    return await buildFrom(options, analyses, scheme, groups, text, progress, started);
  } finally {
    await text?.remove();
  }
}

/** buildStore once the options are checked: the read (narratives into `text` when given), the counts, fits, rows and the store. */
async function buildFrom(options: BuildOptions, analyses: AnalysisDefinition[], scheme: StrataScheme, groups: EventGroupsRead | null, text: ReportText | null, progress: Progress, started: number): Promise<BuildSummary> {
  let t = performance.now();
  const data = await readReports(options, progress, text);
  const warn = (line: string): void => void process.stderr.write(line);
  // The linkage runs in its own thread while the reports are counted and the windows fitted (none
  // of which reads the clusters, unless an analysis counts each cluster once: then it runs first).
  const dedup = analyses.some((a) => a.deduplicated);
  const linking = dedup ? null : await linkInWorker(data.details, progress, warn);
  try {
    const linkedFirst = dedup ? linkDuplicates(await withLinkageText(data.details), progress, warn) : null;
    const readSeconds = seconds(t);
    t = performance.now();
    const scale = options.scale ?? 1;
    // Each item kind's lists once (src/ingest/mining/items.ts), for the counts and the evidence alike.
    const itemsOf = new Map(analyses.map((a) => a.items).filter((k, i, all) => all.indexOf(k) === i).map((kind) => [kind, reportItems(data, kind, groups?.set)] as const));
    const runs = countSubsets(data, analyses, itemsOf, scheme, scale, progress);
    const reportsKept = data.reports.length;
    // Omega of co-reported vaccines in the default analysis (docs/interactions.md), before the reports go.
    progress.start('interactions', 1, 'analysis');
    const interactions = interactionStep(data, analyses[0], itemsOf.get(analyses[0].items)!, MIN_CO_REPORTS);
    progress.end();
    const countSeconds = seconds(t);
    const workers = Math.max(1, options.workers ?? availableParallelism());
    const pool = new WorkerPool(workers);
    try {
      // The fits start in the workers (only the first analysis's when it is written on its own);
      // meanwhile this thread takes the evidence inputs (yielding to hand the workers their chunks),
      // before the clusters are known when the linkage runs meanwhile too: the case keys are set
      // after it (setCaseKeys).
      const first = options.firstAnalysis && runs.length > 1 ? options.firstAnalysis : null;
      const fitting = fitAll(pool, first ? runs.slice(0, 1) : runs, progress);
      fitting.catch(() => undefined); // awaited below; an evidence error must not leave it unhandled
      const evidence = shareEvidence(await evidenceInputs(data, itemsOf));
      data.reports.length = 0; // the reports are no longer needed; let them go
      itemsOf.clear(); // nor the per-report item lists (the evidence tables hold them as typed arrays)
      const results = await fitting;
      const linkage = linkedFirst ?? (await linking!.result());
      setCaseKeys(evidence, data.details);
      // Every reader of the text but the store's writer is done: the scratch file is closed for the writer to attach.
      text?.close();
      const history = runs[0].history;
      let reportSeconds = 0;
      const reports = (): ReportTablesInput => {
        const t0 = performance.now();
        return { ...reportTables(data.details, () => (reportSeconds = seconds(t0)), true), links: linkage.links };
      };
      // The summary and metadata of the analyses done so far (`done`: results, a prefix of `analyses`).
      const summary = (done: readonly AnalysisResult[]): BuildSummary => ({
        reportsRead: data.reportsRead, reportsKept, reportsCounted: history.reports, skipped: data.skipped, versions: data.versions,
        reportValues: {
          reports: data.details.count, vaccineRows: data.details.vaccines.name.length, eventRows: data.details.events.term.length,
          narratives: hasText(data.details), unparseable: data.details.unparseable, seconds: reportSeconds,
        },
        vaccines: data.vaccines.length, events: data.events.length, quarters: history.quarters.length,
        firstQuarter: history.quarters.length ? formatQuarter(history.quarters[0].quarter) : null,
        reportsThrough: history.quarters.length ? formatQuarter(history.quarters[history.quarters.length - 1].quarter) : null,
        linkage: { summary: linkage.summary, warning: linkage.warning },
        ...(groups ? { eventGroups: eventGroupsSummary(groups, data.events) } : {}),
        analyses: done.map(analysisSummary), workers, scale,
        seconds: { read: readSeconds, count: countSeconds, total: seconds(started) },
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
      });
      const windows = (done: readonly AnalysisResult[]): WindowRow[] => done.flatMap((r) => (r.fit?.windows ?? []).map((w) => ({ ...w, analysis: r.run.analysis.name })));
      const meta = (done: readonly AnalysisResult[]): StoreMeta => {
        const s = summary(done);
        return {
          reports_through: s.reportsThrough,
          sources: data.sources.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })),
          parameters: { ...buildParameters(history, s, options), strata: scheme.name, interactions: interactions.meta },
          program_version: PROGRAM_VERSION,
          built_at: new Date().toISOString(),
          origin: 'build',
          has_ic025: true,
          analyses: s.analyses.map((a, i) => ({
            ...analysisMeta(analyses[i], a, i === 0, scheme),
            ...(analyses[i].items === 'event_group' && groups ? { event_groups: eventGroupsMeta(groups, data.events) } : {}),
          })),
          linkage: linkage.summary,
          extra: { summary: s },
        };
      };
      const content = (done: AnalysisResult[], writePhase: string, last = true): Omit<StoreContent, 'copyFrom'> => ({
        quarterly: { batches: allRows(pool, done, evidence, progress, writePhase, last) }, vaccines: vaccineTable(data),
        windows: () => windows(results), meta: () => meta(results), reports, interactions: interactions.rows,
      });
      if (first) {
        // The first analysis alone, as a complete store of its own (served while the rest is built),
        // then the others; the full store takes the first's rows and report tables from it.
        await writeStore(first.out, content(results, `write ${analyses[0].name}`, false));
        progress.end();
        await first.written(first.out);
        for (const run of runs.slice(1)) results.push(await fitAnalysis(pool, run, progress));
        await writeStore(options.out, { ...content(results.slice(1), 'write'), copyFrom: first.out });
      } else await writeStore(options.out, content(results, 'write'));
      progress.end();
      return summary(results);
    } finally {
      await pool.close();
    }
  } finally {
    // A build that fails before the linkage's result ends its worker thread here (else it keeps the process alive).
    await linking?.cancel();
  }
}
