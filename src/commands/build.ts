/**
 * `reporting-signals build --vaers DIR --out FILE`: official VAERS files -> quarterly
 * signal store. Progress and the closing summary go to standard error.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildStore, type BuildOptions } from '../ingest/mining/build.js';
import { stderrProgress } from '../ingest/mining/progress.js';
import type { AnalysisSummary, BuildSummary, ReportValuesSummary } from '../ingest/mining/summary.js';

/** Options of `build` as parsed by the CLI: the build's, without the progress reporter (stderr here). */
export type BuildCommandOptions = Omit<BuildOptions, 'progress'>;

/** A list of at most 8 items, then `...`. */
function few(items: string[]): string {
  return `${items.slice(0, 8).join('; ')}${items.length > 8 ? '; ...' : ''}`;
}

/** The lines of one analysis in the closing summary. */
function analysisLines(a: AnalysisSummary, isDefault: boolean): string[] {
  return [
    `  analysis ${a.name}${isDefault ? ' (default)' : ''}`,
    `    reports kept      ${a.reports}`,
    `    windows           ${a.windows} (partial, covering < 4 quarters: ${a.partialWindows.join(', ') || 'none'}; skipped: ${a.skippedWindows.length ? few(a.skippedWindows.map((w) => `${w.quarter}: ${w.reason}`)) : 'none'})`,
    `    pairs scored      ${a.pairWindowsScored} pair-windows`,
    `    pairs stored      ${a.pairs} (n_methods_flagged >= 2 in some window)`,
    `    rows              ${a.rows}`,
    `    fits on a bound   ${a.fitsAtBound.length}${a.fitsAtBound.length ? ` (${few(a.fitsAtBound.map((f) => `${f.quarter}: ${f.at_bound}`))})` : ''}`,
    `    fits not converged ${a.fitsNotConverged.length}${a.fitsNotConverged.length ? ` (${few(a.fitsNotConverged)})` : ''}`,
    `    time              fit ${a.seconds.fit} s, rows+write ${a.seconds.rows_and_write} s`,
  ];
}

/** The lines of the report tables in the closing summary: rows written, then the cells that could not be read. */
function reportValueLines(r: ReportValuesSummary): string[] {
  const lines = [
    `  report tables     ${r.reports} reports, ${r.vaccineRows} vaccine rows, ${r.eventRows} event rows (narratives ${r.narratives ? 'kept' : 'not kept'}; ${r.seconds} s)`,
    `  values not read   ${r.unparseable.length ? '(stored as null; SEX as U)' : 'none'}`,
  ];
  for (const u of r.unparseable) {
    const examples = u.examples.map((e) => `VAERS_ID ${e.vaers_id} (${e.file} line ${e.line}): '${e.cell}'`);
    lines.push(`    ${u.field}: ${u.count} (e.g. ${examples.join('; ')})`);
  }
  return lines;
}

/** The line of the duplicate-report linkage in the closing summary. */
function linkageLine(l: BuildSummary['linkage']): string {
  if (!l.summary) return `  duplicates        not linked (${l.warning ?? 'linkage did not run'})`;
  const s = l.summary;
  const vetoed = Object.entries(s.different_patients ?? {}).map(([reason, n]) => `${reason} ${n}`).join(', ');
  return `  duplicates        ${s.links} links, ${s.clusters} clusters, ${s.reports_folded} reports folded by @dedup (${s.unlinkable} unlinkable, ${s.candidate_pairs} candidate pairs; ${s.seconds} s)`
    + (vetoed === '' ? '' : `; threshold ${s.threshold} bits; pairs vetoed as different patients: ${vetoed}`);
}

/** The lines of the grouping file of the @groups analyses in the closing summary: its figures, then its terms that no report carries (by line). */
function eventGroupLines(g: NonNullable<BuildSummary['eventGroups']>): string[] {
  const lines = [`  event groups      ${g.file}${g.shipped ? ' (shipped)' : ''}: ${g.groups} groups, ${g.terms} terms, ${g.items} items; sha256 ${g.digest.slice(0, 16)}...`];
  if (g.terms_in_no_report.length === 0) lines.push('    terms in no report none');
  else lines.push(`    terms in no report ${g.terms_in_no_report.length} (warning: ${few(g.terms_in_no_report.map((t) => `line ${t.line}: "${t.term}" (${t.group_id})`))})`);
  return lines;
}

/** The closing summary as text lines: reports read, skipped and why, quarters, windows, pairs, rows, time per phase, and per analysis. */
export function formatSummary(s: BuildSummary, out: string): string {
  const lines = [
    `build: wrote ${out}`,
    `  reports read      ${s.reportsRead}`,
    `  reports kept      ${s.reportsKept}${s.scale > 1 ? ` (counted ${s.reportsCounted} with --scale ${s.scale})` : ''}`,
  ];
  for (const skip of s.skipped) {
    lines.push(`  ${skip.reason}: ${skip.count}${skip.examples.length ? ` (e.g. ${skip.examples.join('; ')})` : ''}`);
  }
  const v = s.versions;
  lines.push(
    `  follow-ups        ${v.followUpReports} reports at a follow-up version (ORDER >= 2), ${v.reportsWithSeveralVersions} with several versions; ` +
      `earlier versions dropped: ${v.vaxRowsDropped} VAX rows, ${v.symptomsRowsDropped} SYMPTOMS rows, ${v.dataRowsDropped} DATA rows`,
    ...reportValueLines(s.reportValues),
    linkageLine(s.linkage),
    ...(s.eventGroups ? eventGroupLines(s.eventGroups) : []),
    `  vaccines, events  ${s.vaccines}, ${s.events}`,
    `  quarters          ${s.quarters} (${s.firstQuarter} to ${s.reportsThrough})`,
    ...s.analyses.flatMap((a, i) => analysisLines(a, i === 0)),
    `  time              read ${s.seconds.read} s, count ${s.seconds.count} s, total ${s.seconds.total} s (${s.workers} workers)`,
    `  reports/s         ${Math.round(s.reportsCounted / Math.max(s.seconds.total, 1e-3))}`,
    `  peak RSS          ${(s.peakRssBytes / 2 ** 20).toFixed(0)} MiB`,
  );
  return `${lines.join('\n')}\n`;
}

/** CLI entry. */
export async function runBuild(options: BuildCommandOptions): Promise<void> {
  // Interrupted (SIGINT, SIGTERM): this build's temporary files go with it (exit 130 / 143).
  const interrupted = (signal: NodeJS.Signals): void => {
    removeBuildTemporaries(options.out, process.pid);
    process.stderr.write(`reporting-signals: build interrupted (${signal}): ${options.out} not written\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let summary: BuildSummary;
  try {
    summary = await buildStore({ ...options, progress: stderrProgress() });
  } finally {
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
  }
  process.stderr.write(formatSummary(summary, options.out));
  if (process.env.REPORTING_SIGNALS_SUMMARY_JSON) process.stderr.write(`SUMMARY_JSON ${JSON.stringify(summary)}\n`);
}

/**
 * Removes the temporary files of the build of process `pid` writing `out`: every name beside it
 * starting `<out>.tmp-<pid>` (the store's temporary file, its staging database, the scratch text
 * file, each with DuckDB's WAL and spill folder, and the read's scratch folder `.read`;
 * src/ingest/store/write.ts, report-text.ts, duckdb-read.ts).
 * Synchronous: it runs in a signal handler just before the process exits. Never throws.
 */
export function removeBuildTemporaries(out: string, pid: number): void {
  const prefix = `${basename(out)}.tmp-${pid}`;
  try {
    for (const name of readdirSync(dirname(out))) {
      if (name === prefix || name.startsWith(`${prefix}.`)) rmSync(join(dirname(out), name), { force: true, recursive: true });
    }
  } catch {
    // The folder cannot be read: nothing of ours can be in it.
  }
}
