/**
 * Cold `/triage` windows of a served store (issue 41: a cold window <= 300 ms at full size): serves
 * the store (`node dist/cli.js serve`), waits `--settle` seconds after ready, then asks each window
 * of a fixed set once (a window is read from the store at its first request of a generation,
 * src/serve/generation Generation.triageWindow: each first request is cold) and prints its time
 * and status, then asks it again with `limit=500` (from memory) and prints the sha256 of that
 * answer, so that two stores' or two branches' answers can be compared line by line (`--bodies DIR`
 * also writes each answer to DIR for a diff). The windows: the default analysis's latest window
 * and 2021Q2, then for each analysis of the store (GET /analyses) its latest window, 2021Q2 and
 * 2019Q4 (a window outside an analysis's quarters answers 400 and is listed as such). Asserts
 * nothing.
 *
 * Figures (shared 2-core machine; the full store of bench/full-size.ts, 2,148,996 reports): see
 * docs/operations.md and the notes of the change that added this script.
 *
 * Run: npm run build && nice -n 10 npx tsx bench/serve-triage.ts --store FILE [--settle 10] [--bodies DIR]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile, startServe, timedGet } from './full-size/measure.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const store = option('--store');
if (store === undefined) {
  console.error('usage: npx tsx bench/serve-triage.ts --store FILE [--settle SECONDS] [--bodies DIR]');
  process.exit(2);
}
const settle = Number(option('--settle') ?? '10');
const bodies = option('--bodies');
if (bodies !== undefined) mkdirSync(bodies, { recursive: true });

const { child, base, seconds } = await startServe(cli, store);
try {
  console.log(`serve ${store}: ready in ${seconds.toFixed(1)} s; settling ${settle} s`);
  await new Promise((r) => setTimeout(r, settle * 1000));
  const listed = (await timedGet(`${base}/analyses`)).body as { analyses?: Array<{ name: string }> } | Array<{ name: string }>;
  const analyses = (Array.isArray(listed) ? listed : listed.analyses ?? []).map((a) => a.name);
  const paths = ['/triage?', '/triage?quarter=2021Q2&'];
  for (const a of analyses) for (const q of ['', 'quarter=2021Q2&', 'quarter=2019Q4&']) paths.push(`/analyses/${encodeURIComponent(a)}/triage?${q}`);
  const cold: number[] = [];
  for (const p of paths) {
    const first = await timedGet(`${base}${p}limit=50`);
    const whole = await fetch(`${base}${p}limit=500`);
    const text = await whole.text();
    const sha = createHash('sha256').update(text).digest('hex').slice(0, 16);
    if (first.status === 200) cold.push(first.ms);
    console.log(`${p.padEnd(48)} cold ${first.ms.toFixed(0).padStart(5)} ms (status ${first.status}); limit=500 ${whole.status} sha256 ${sha}`);
    if (bodies !== undefined) writeFileSync(path.join(bodies, `${p.replace(/[^A-Za-z0-9]+/g, '_')}.json`), text);
  }
  console.log(`cold windows (status 200): ${cold.length}, p50 ${quantile(cold, 0.5).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
}
