/**
 * `reporting-signals build --vaers DIR --out FILE` (issue 3): official VAERS files -> quarterly
 * signal store. Progress and the closing summary go to standard error.
 */
import { buildStore, type BuildSummary } from '../mining/build.js';
import { stderrProgress } from '../mining/progress.js';

/** Options of `build` as parsed by the CLI. */
export interface BuildCommandOptions {
  vaers: string;
  out: string;
  includeNondomestic?: boolean;
  workers?: number;
  scale?: number;
}

/** The closing summary as text lines (issue 3: reports read, skipped and why, quarters, windows, pairs, rows, time per phase). */
export function formatSummary(s: BuildSummary, out: string): string {
  const lines = [
    `build: wrote ${out}`,
    `  reports read      ${s.reportsRead}`,
    `  reports kept      ${s.reportsKept}${s.scale > 1 ? ` (counted ${s.reportsCounted} with --scale ${s.scale})` : ''}`,
  ];
  for (const skip of s.skipped) {
    lines.push(`  ${skip.reason}: ${skip.count}${skip.examples.length ? ` (e.g. ${skip.examples.join('; ')})` : ''}`);
  }
  lines.push(
    `  vaccines, events  ${s.vaccines}, ${s.events}`,
    `  quarters          ${s.quarters} (${s.firstQuarter} to ${s.reportsThrough})`,
    `  windows           ${s.windows} (partial, covering < 4 quarters: ${s.partialWindows.join(', ') || 'none'})`,
    `  pairs scored      ${s.pairWindowsScored} pair-windows`,
    `  pairs stored      ${s.pairs} (n_methods_flagged >= 2 in some window)`,
    `  rows              ${s.rows}`,
    `  fits on a bound   ${s.fitsAtBound.length}${s.fitsAtBound.length ? ` (${s.fitsAtBound.slice(0, 8).map((f) => `${f.quarter}: ${f.at_bound}`).join('; ')}${s.fitsAtBound.length > 8 ? '; ...' : ''})` : ''}`,
    `  fits not converged ${s.fitsNotConverged.length}${s.fitsNotConverged.length ? ` (${s.fitsNotConverged.slice(0, 8).join(', ')}${s.fitsNotConverged.length > 8 ? ', ...' : ''})` : ''}`,
    `  time              read ${s.seconds.read} s, count ${s.seconds.count} s, fit ${s.seconds.fit} s, rows+write ${s.seconds.rows_and_write} s, total ${s.seconds.total} s (${s.workers} workers)`,
    `  reports/s         ${Math.round(s.reportsCounted / Math.max(s.seconds.total, 1e-3))}`,
    `  peak RSS          ${(s.peakRssBytes / 2 ** 20).toFixed(0)} MiB`,
  );
  return `${lines.join('\n')}\n`;
}

/** CLI entry. */
export async function runBuild(options: BuildCommandOptions): Promise<void> {
  const summary = await buildStore({ ...options, progress: stderrProgress() });
  process.stderr.write(formatSummary(summary, options.out));
  if (process.env.REPORTING_SIGNALS_SUMMARY_JSON) process.stderr.write(`SUMMARY_JSON ${JSON.stringify(summary)}\n`);
}
