/**
 * Cost of the Omega interactions (docs/interactions.md "Cost"): reads the VAERS files of
 * ../shared/data/vaers (or --vaers), then for each bound K on co-reporting (the build uses
 * MIN_CO_REPORTS, src/domain/interactions.ts) computes the rows of the default analysis
 * (src/ingest/mining/interactions.ts interactionStep) and writes them alone into a DuckDB file, and
 * prints per K: wall and CPU seconds of the step and of the write, pairs x windows over the bound, rows stored (n111 >= MIN_TRIPLE_REPORTS),
 * signals (Omega025 > 0) and the table's bytes on disk. Asserts nothing.
 *
 * Run: nice -n 10 npx tsx bench/interactions.ts [--vaers DIR] [--bounds 3,5,10,20,50]
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_ANALYSES, parseAnalysisName } from '../src/domain/analysis-rules.js';
import { MIN_CO_REPORTS, MIN_TRIPLE_REPORTS } from '../src/domain/interactions.js';
import { interactionStep } from '../src/ingest/mining/interactions.js';
import { reportItems } from '../src/ingest/mining/items.js';
import { appendInteractions } from '../src/ingest/store/interactions.js';
import { readVaers } from '../src/ingest/vaers/read.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** CPU seconds (user + system) of a process.cpuUsage difference: robust to other processes' load, unlike wall time. */
function cpuOf(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

async function main(): Promise<void> {
  const vaers = argument('vaers', path.resolve(repoRoot, '..', 'shared', 'data', 'vaers'));
  if (!existsSync(vaers)) {
    console.log(`bench/interactions: ${vaers} is absent; nothing to measure`);
    return;
  }
  const bounds = argument('bounds', `3,5,${MIN_CO_REPORTS},20,50`).split(',').map(Number);
  let t = performance.now();
  const data = await readVaers(vaers, {});
  console.log(`read ${data.reports.length} reports in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const parsed = parseAnalysisName(DEFAULT_ANALYSES[0]);
  if (!parsed.ok) throw new Error(parsed.error);
  const items = reportItems(data, parsed.analysis.items);
  const dir = mkdtempSync(path.join(tmpdir(), 'rs-bench-interactions-'));
  try {
    console.log(`| bound K (n11. >= K) | step seconds (CPU) | write seconds (CPU) | pairs x windows | rows (n111 >= ${MIN_TRIPLE_REPORTS}) | signals (Omega025 > 0) | table MB |`);
    console.log('|---:|---:|---:|---:|---:|---:|---:|');
    for (const bound of bounds) {
      t = performance.now();
      let cpu = process.cpuUsage();
      const step = interactionStep(data, parsed.analysis, items, bound);
      const seconds = (performance.now() - t) / 1000;
      const cpuSeconds = cpuOf(process.cpuUsage(cpu));
      const pairs = new Set(step.rows.map((r) => `${r.quarter}|${r.vaccine1}|${r.vaccine2}`)).size;
      const file = path.join(dir, `k${bound}.duckdb`);
      t = performance.now();
      cpu = process.cpuUsage();
      const db = await DuckDBInstance.create(file);
      const connection = await db.connect();
      await appendInteractions(connection, step.rows);
      await connection.run('CHECKPOINT');
      connection.closeSync();
      db.closeSync();
      const writeSeconds = (performance.now() - t) / 1000;
      const writeCpu = cpuOf(process.cpuUsage(cpu));
      const mb = statSync(file).size / 1e6;
      console.log(`| ${bound} | ${seconds.toFixed(2)} (${cpuSeconds.toFixed(2)}) | ${writeSeconds.toFixed(2)} (${writeCpu.toFixed(2)}) | ${pairs} | ${step.meta.rows} | ${step.meta.signals} | ${mb.toFixed(2)} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
