/**
 * Paired build benchmark (issue 41: the build's CPU, phase by phase): builds one VAERS folder
 * (`build --analyses default --narratives`) with two compiled programs, `--before` and `--after`
 * (each a folder holding `cli.js`: this checkout's `dist` after `npm run build`, and a copy of
 * another commit's), alternating before, after, after, before, ... so that both meet the same
 * machine load, and prints per run the wall and CPU seconds of the phases as the build reports
 * them ("PHASE: done in W s (cpu C s)", src/ingest/mining/progress.ts), summed per kind (read,
 * counts, interactions, fits, link, rows, write), the rows of each analysis, and the machine's
 * 1-minute load (mean and max, sampled every 2 s). The last pair's stores are kept in `--out` for
 * bench/compare-stores.ts. Also per run the build's peak RSS (its summary) and, with
 * REPORTING_SIGNALS_MEMORY=1 in the environment, its RSS after each phase. Asserts nothing.
 *
 * Figures (2 shared cores, 2026-11-28; issue 41's seventh round: main c300298 before, the rows
 * branch after (the exact KS band recursion, the memoised gamma quantile, the template share's hash
 * table, the evidence without per-report arrays, the analyses' row chunks in one sequence); other
 * builds and a test suite on the machine, so compare CPU):
 *   10% sample (398,038 reports), 2 pairs, load 4.1-6.7: rows 98.1 -> 71.9 s wall, 88.0 -> 68.0 s CPU;
 *     fits 115.8 -> 119.6 s CPU (unchanged code: load); the stores equal (bench/compare-stores.ts).
 *   data/vaers, 2 pairs, load 6.4-9.7: rows 45.8 -> 31.3 s CPU (wall 47.3 -> 44.5: the after runs got
 *     under one core of the two); fits 52.4 -> 52.1 s CPU; the stores equal.
 *
 * Run: npm run build && nice -n 10 npx tsx bench/build-paired.ts --vaers DIR --before DIST --after DIST [--pairs N] [--out DIR]
 *   e.g. --vaers data/vaers, or ~/.cache/reporting-signals-bench/full-29-0.1 (bench/full-download.ts --fraction 0.1)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** One phase line of the build: its name, wall and CPU seconds. */
interface PhaseTime {
  phase: string;
  wall: number;
  cpu: number;
}

/** The kind a phase line is summed under (`fit all` -> fits). */
function kindOf(phase: string): string {
  const first = phase.split(' ')[0];
  return ({ fit: 'fits', count: 'counts' } as Record<string, string>)[first] ?? first;
}

/** The 1-minute load average now. */
function load(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/** Runs one build with `dist`'s cli.js into `out`; resolves with its phase lines, wall seconds and the load seen. */
function runBuild(dist: string, vaers: string, out: string): Promise<{ phases: PhaseTime[]; wall: number; load: { mean: number; max: number }; peakRss: number; rssAfter: Array<[string, number]> }> {
  const started = performance.now();
  const loads: number[] = [load()];
  const sampler = setInterval(() => loads.push(load()), 2000);
  const child = spawn(process.execPath, [path.join(dist, 'cli.js'), 'build', '--vaers', vaers, '--analyses', 'default', '--narratives', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code !== 0) {
        reject(new Error(`build with ${dist} failed (exit ${code}):\n${stderr.slice(-2000)}`));
        return;
      }
      const phases = [...stderr.matchAll(/^(.+): done in ([\d.]+) s \(cpu ([\d.]+) s\)/gm)].map((m) => ({ phase: m[1], wall: Number(m[2]), cpu: Number(m[3]) }));
      // The build's summary (stdout, commands/build.ts) gives the process's peak RSS; REPORTING_SIGNALS_MEMORY=1 the RSS after each phase (progress.ts).
      const peakRss = Number(/peak RSS\s+(\d+) MiB/.exec(stdout + stderr)?.[1] ?? NaN);
      const rssAfter = [...stderr.matchAll(/^(.+): memory MiB: .*rss (\d+)/gm)].map((m): [string, number] => [m[1], Number(m[2])]);
      resolve({ phases, wall: (performance.now() - started) / 1000, load: { mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) }, peakRss, rssAfter });
    });
  });
}

const vaers = option('--vaers');
const before = option('--before');
const after = option('--after');
if (!vaers || !before || !after) throw new Error('usage: bench/build-paired.ts --vaers DIR --before DIST --after DIST [--pairs N] [--out DIR]');
const pairs = Number(option('--pairs') ?? 1);
const outDir = option('--out') ?? path.join(tmpdir(), 'build-paired');
mkdirSync(outDir, { recursive: true });
const kinds = ['read', 'counts', 'interactions', 'fits', 'link', 'rows', 'write'];
const fmt = (x: number): string => x.toFixed(1).padStart(6);
console.log(`build-paired: ${vaers}, ${pairs} pair(s); before ${before}, after ${after}`);
console.log(`run         ${kinds.map((k) => `${k} wall/cpu`.padStart(23)).join('')}  build wall  load mean/max`);
const totals = new Map<string, Map<string, { wall: number; cpu: number }>>([['before', new Map()], ['after', new Map()]]);
for (let p = 0; p < pairs; p++) {
  const order = p % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const which of order) {
    const out = path.join(outDir, `${which}.duckdb`);
    rmSync(out, { force: true });
    const { phases, wall, load: seen, peakRss, rssAfter } = await runBuild(which === 'before' ? before : after, vaers, out);
    const sums = new Map<string, { wall: number; cpu: number }>();
    for (const { phase, wall: w, cpu } of phases) {
      const kind = kindOf(phase);
      const sum = sums.get(kind) ?? { wall: 0, cpu: 0 };
      sums.set(kind, { wall: sum.wall + w, cpu: sum.cpu + cpu });
    }
    for (const [kind, sum] of sums) {
      const total = totals.get(which)!.get(kind) ?? { wall: 0, cpu: 0 };
      totals.get(which)!.set(kind, { wall: total.wall + sum.wall, cpu: total.cpu + sum.cpu });
    }
    const cells = kinds.map((k) => `${fmt(sums.get(k)?.wall ?? 0)} /${fmt(sums.get(k)?.cpu ?? 0)}`.padStart(23)).join('');
    console.log(`${`${which} ${p + 1}`.padEnd(12)}${cells}${fmt(wall)} s    ${seen.mean.toFixed(1)} / ${seen.max.toFixed(1)}`);
    const highest = rssAfter.reduce<[string, number] | null>((h, x) => (h === null || x[1] > h[1] ? x : h), null);
    console.log(`             peak RSS ${peakRss} MiB${highest ? `; RSS after a phase highest after ${highest[0]}: ${highest[1]} MiB (${rssAfter.map(([phase, rss]) => `${phase} ${rss}`).join(', ')})` : ''}`);
    console.log(`             rows: ${phases.filter((x) => x.phase.startsWith('rows ')).map((x) => `${x.phase.slice(5)} ${x.wall}/${x.cpu}`).join(', ')}`);
  }
}
for (const which of ['before', 'after']) {
  const t = totals.get(which)!;
  console.log(`${`${which} mean`.padEnd(12)}${kinds.map((k) => `${fmt((t.get(k)?.wall ?? 0) / pairs)} /${fmt((t.get(k)?.cpu ?? 0) / pairs)}`.padStart(23)).join('')}`);
}
console.log(`stores of the last pair: ${path.join(outDir, 'before.duckdb')} and ${path.join(outDir, 'after.duckdb')} (npx tsx bench/compare-stores.ts A B)`);
