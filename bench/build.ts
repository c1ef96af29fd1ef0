/**
 * Benchmark of the signal build: runs `reporting-signals build` on ../shared/data/vaers
 * (the real 1990-2006 files) with `--scale K` for K = 1, 4 and 12 (a synthetic history K times
 * longer: the real reports replayed with shifted quarters), each in its own process, and prints
 * reports/s, time per phase and peak RSS (the child's maximum resident set size as the build
 * reports it from process.resourceUsage(), worker threads included). Asserts nothing.
 * Per analysis it prints the reports kept, the pairs, the rows and the fit and rows
 * times. Targets: growth no worse than linear in K; the six analyses of the embedded
 * default in <= 90 s; K = 12 with `all,stratified,serious` in < 15 min at < 4 GB peak RSS.
 *
 * Run: npm run build && npx tsx bench/build.ts [--analyses LIST] [K ...]   (uses dist/cli.js when it exists;
 * default analyses: DEFAULT_ANALYSES, the embedded default's; default K: 1)
 * Note: the files are read once per run; the replays start at counting, so the read phase
 * does not grow with K (a real 2.5M-report download reads about 12 times the bytes).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ANALYSES } from '../src/domain/analysis-rules.js';
import type { BuildSummary } from '../src/ingest/mining/summary.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vaers = path.resolve(repoRoot, '..', 'shared', 'data', 'vaers');
const dist = path.join(repoRoot, 'dist', 'cli.js');

function runBuild(scale: number, analyses: string, out: string): Promise<{ summary: BuildSummary; wall: number }> {
  const args = existsSync(dist) ? [dist] : ['--import', 'tsx', path.join(repoRoot, 'src', 'cli.ts')];
  args.push('build', '--vaers', vaers, '--out', out, '--scale', String(scale), '--analyses', analyses);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, REPORTING_SIGNALS_SUMMARY_JSON: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      const line = stderr.split('\n').find((l) => l.startsWith('SUMMARY_JSON '));
      if (code !== 0 || !line) reject(new Error(`build --scale ${scale} failed (exit ${code}):\n${stderr.slice(-2000)}`));
      else resolve({ summary: JSON.parse(line.slice('SUMMARY_JSON '.length)) as BuildSummary, wall: (performance.now() - started) / 1000 });
    });
  });
}

async function main(): Promise<void> {
  if (!existsSync(vaers)) {
    console.log(`bench/build: ${vaers} is absent; nothing to measure`);
    return;
  }
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--analyses');
  const analyses = at >= 0 ? argv.splice(at, 2)[1] : DEFAULT_ANALYSES.join(',');
  const scales = argv.map(Number).filter((k) => Number.isInteger(k) && k >= 1);
  const ks = scales.length > 0 ? scales : [1];
  console.log(`bench/build on ${vaers} (${existsSync(dist) ? 'dist/cli.js' : 'tsx sources'}), analyses ${analyses}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'rs-bench-build-'));
  let base: { reports: number; wall: number } | null = null;
  try {
    for (const k of ks) {
      const out = path.join(dir, `k${k}.duckdb`);
      const { summary: s, wall } = await runBuild(k, analyses, out);
      const mb = statSync(out).size / 1e6;
      rmSync(out, { force: true });
      console.log(`K=${k}: ${s.reportsCounted} reports counted, wall ${wall.toFixed(1)} s (read ${s.seconds.read} s, count ${s.seconds.count} s), `
        + `${Math.round(s.reportsCounted / wall)} reports/s, store ${mb.toFixed(1)} MB, peak RSS ${(s.peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
      console.log('  analysis    reports   windows  pairs   rows      fit s   rows+write s');
      for (const a of s.analyses) {
        console.log(`  ${a.name.padEnd(11)} ${String(a.reports).padEnd(9)} ${String(a.windows).padEnd(8)} ${String(a.pairs).padEnd(7)} `
          + `${String(a.rows).padEnd(9)} ${String(a.seconds.fit).padEnd(7)} ${a.seconds.rows_and_write}`);
      }
      base ??= { reports: s.reportsCounted, wall };
      if (k !== ks[0]) {
        console.log(`    growth vs K=${ks[0]}: reports x${(s.reportsCounted / base.reports).toFixed(2)}, wall x${(wall / base.wall).toFixed(2)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
