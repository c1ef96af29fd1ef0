/**
 * Benchmark of the statistics engine: times `scoreWindow` (fit + all pair statistics) on the
 * caers reference data (if ../shared/data is present) and on a synthetic window of about 50,000
 * pairs, and the whole `score` command on caers. Prints figures; asserts nothing.
 * Run: npx tsx bench/score.ts
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScore } from '../src/commands/score.js';
import { countQuarters, windowCounts, type CountableReport } from '../src/ingest/mining/counts.js';
import { readReportTable } from '../src/ingest/mining/report-table.js';
import { scoreWindow, type WindowInput } from '../src/stats/window.js';
import { random } from './prng.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const caers = path.resolve(repoRoot, '..', 'shared', 'data', 'oracle', 'caers.csv');

/** Zipf sampler over 0..size-1 with exponent s (inverse CDF on a table). */
function zipf(size: number, s: number, uniform: () => number): () => number {
  const cdf = new Float64Array(size);
  let acc = 0;
  for (let i = 0; i < size; i++) cdf[i] = acc += 1 / (i + 1) ** s;
  return () => {
    const target = uniform() * acc;
    let lo = 0, hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const MULTIPLIERS = [1, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];

/**
 * A VAERS-like synthetic window: reports naming 1-3 vaccines (of 90) and 1-8 events (of 9000);
 * 27,000 reports (the default, BENCH_REPORTS overrides) give about 50,000 pairs.
 */
function syntheticWindow(reports: number, seed: number): WindowInput & { pairs: number } {
  const uniform = random(seed);
  const vaccine = zipf(90, 1.2, uniform);
  const event = zipf(9000, 0.9, uniform);
  const counted: CountableReport[] = [];
  for (let r = 0; r < reports; r++) {
    const vaccines = 1 + Number(uniform() < 0.35) + Number(uniform() < 0.1);
    const events = 1 + Math.floor(-Math.log(1 - uniform()) * 2.5);
    const vs = Array.from({ length: vaccines }, () => vaccine());
    // Half the events follow a vaccine-specific ranking, so pairs are over-dispersed as in VAERS.
    const es = Array.from({ length: Math.min(events, 8) }, () => {
      const rank = event();
      return uniform() < 0.5 ? (rank * MULTIPLIERS[vs[0] % MULTIPLIERS.length] + 101 * vs[0]) % 9000 : rank;
    });
    counted.push({ quarter: 0, vaccines: [...new Set(vs)], events: [...new Set(es)] });
  }
  const history = countQuarters(counted, 90, 9000);
  const table = windowCounts(history, new Map([[0, history.quarters[0]]]), 0)!;
  return { ...table, pairs: table.n.length };
}

/** Runs `run` `repeats` times; prints wall-clock and CPU (user + system) milliseconds. */
function time<T>(label: string, run: () => T, repeats = 3): T {
  let result: T | undefined;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    result = run();
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - start);
  }
  const list = (values: number[]): string => values.map((t) => t.toFixed(0)).join(', ');
  console.log(`${label}: wall ${list(wall)} ms; cpu ${list(cpu)} ms (min wall ${Math.min(...wall).toFixed(0)} ms)`);
  return result as T;
}

async function main(): Promise<void> {
  if (existsSync(caers)) {
    const table = await readReportTable(caers, { id: 'id', vaccine: 'var1', event: 'var2' });
    console.log(`caers: ${table.n.length} pairs, N = ${table.n_reports}`);
    const { fit } = time('scoreWindow caers (fit + scores)', () => scoreWindow(table));
    console.log(`caers fit: ${JSON.stringify(fit)}`);
    time('scoreWindow caers, hyperparameters fixed', () => scoreWindow(table, { hyper: fit }));
    time('scoreWindow caers, warm start = own fit', () => scoreWindow(table, { warmStart: fit }));
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-score-'));
    const start = performance.now();
    const stdout = process.stdout.write.bind(process.stdout);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    await runScore({ reports: caers, idColumn: 'id', vaccineColumn: 'var1', eventColumn: 'var2', out: path.join(dir, 'scores.csv') });
    process.stdout.write = stdout;
    console.log(`runScore caers (read CSV, count, fit, score, write): ${(performance.now() - start).toFixed(0)} ms`);
    rmSync(dir, { recursive: true, force: true });
  } else {
    console.log(`caers: ${caers} absent, skipped`);
  }
  const synthetic = syntheticWindow(Number(process.env.BENCH_REPORTS ?? 27000), 1);
  const combos = new Set(Array.from(synthetic.n, (n, i) => `${n}:${synthetic.n_vaccine[i] * synthetic.n_event[i]}`)).size;
  console.log(`synthetic: ${synthetic.pairs} pairs, ${combos} distinct (n, E), N = ${synthetic.n_reports}`);
  const { fit } = time('scoreWindow synthetic (fit + scores)', () => scoreWindow(synthetic));
  console.log(`synthetic fit: ${JSON.stringify(fit)}`);
  time('scoreWindow synthetic, warm start', () => scoreWindow(synthetic, { warmStart: fit }));
  time('scoreWindow synthetic, hyperparameters fixed', () => scoreWindow(synthetic, { hyper: fit }));
}

await main();
