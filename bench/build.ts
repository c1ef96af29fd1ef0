/**
 * Benchmark of the signal build (issue 3): runs `reporting-signals build` on ../shared/data/vaers
 * (the real 1990-2006 files) with `--scale K` for K = 1, 4 and 12 (a synthetic history K times
 * longer: the real reports replayed with shifted quarters), each in its own process, and prints
 * reports/s, time per phase and peak RSS (the child's maximum resident set size as the build
 * reports it from process.resourceUsage(), worker threads included). Asserts nothing.
 * Targets (issue 3): growth no worse than linear, K = 12 (about 2.4 million reports) under
 * 10 minutes on 2 cores with peak RSS under 4 GB.
 *
 * Run: npm run build && npx tsx bench/build.ts [K ...]   (uses dist/cli.js when it exists)
 * Note: the files are read once per run; the replays start at counting, so the read phase
 * does not grow with K (a real 2.5M-report download reads about 12 times the bytes).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildSummary } from '../src/mining/build.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vaers = path.resolve(repoRoot, '..', 'shared', 'data', 'vaers');
const dist = path.join(repoRoot, 'dist', 'cli.js');

function runBuild(scale: number, out: string): Promise<{ summary: BuildSummary; wall: number }> {
  const args = existsSync(dist) ? [dist] : ['--import', 'tsx', path.join(repoRoot, 'src', 'cli.ts')];
  args.push('build', '--vaers', vaers, '--out', out, '--scale', String(scale));
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
  const scales = process.argv.slice(2).map(Number).filter((k) => Number.isInteger(k) && k >= 1);
  const ks = scales.length > 0 ? scales : [1, 4, 12];
  console.log(`bench/build on ${vaers} (${existsSync(dist) ? 'dist/cli.js' : 'tsx sources'})`);
  console.log('K   reports     wall s  read s  count s  fit s  rows+write s  reports/s  windows  pairs  rows      store MB  peak RSS MiB');
  const dir = mkdtempSync(path.join(tmpdir(), 'rs-bench-build-'));
  let base: { reports: number; wall: number } | null = null;
  try {
    for (const k of ks) {
      const out = path.join(dir, `k${k}.duckdb`);
      const { summary: s, wall } = await runBuild(k, out);
      const mb = statSync(out).size / 1e6;
      rmSync(out, { force: true });
      console.log([
        String(k).padEnd(3), String(s.reportsCounted).padEnd(11), wall.toFixed(1).padEnd(7), String(s.seconds.read).padEnd(7),
        String(s.seconds.count).padEnd(8), String(s.seconds.fit).padEnd(6), String(s.seconds.rows_and_write).padEnd(13),
        String(Math.round(s.reportsCounted / wall)).padEnd(10), String(s.windows).padEnd(8), String(s.pairs).padEnd(6),
        String(s.rows).padEnd(9), mb.toFixed(1).padEnd(9), (s.peakRssBytes / 2 ** 20).toFixed(0),
      ].join(' '));
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
