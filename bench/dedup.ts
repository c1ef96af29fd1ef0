/**
 * Measures what counting each suspected-duplicate cluster once does (the `@dedup` analysis
 * modifier, src/domain/analysis-rules.ts): builds `stratified,stratified@dedup` from data/vaers
 * (or --vaers DIR) into a temporary store and prints the linkage's figures (src/linkage), per
 * analysis the reports kept, pairs stored and fits on a bound, and for RotaShield x
 * Intussusception 1999Q3 and LYMErix x Arthralgia 2001Q1 the n, N, E and EB05 of both analyses
 * (the README's figures, section Analyses -> Duplicates). Asserts nothing.
 *
 * Run: npx tsx bench/dedup.ts [--vaers DIR] [--workers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildStore } from '../src/mining/build.js';
import { stderrProgress } from '../src/mining/progress.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** The pairs measured: [vaccine, event, quarter]. */
const PAIRS: Array<[string, string, string]> = [
  ['ROTAVIRUS (ROTASHIELD)', 'Intussusception', '1999Q3'],
  ['LYME (LYMERIX)', 'Arthralgia', '2001Q1'],
];

const dir = mkdtempSync(path.join(tmpdir(), 'bench-dedup-'));
try {
  const out = path.join(dir, 'dedup.duckdb');
  const summary = await buildStore({
    vaers: argument('vaers', path.join(repoRoot, 'data', 'vaers')), out, analyses: 'stratified,stratified@dedup',
    workers: Number(argument('workers', '2')), progress: stderrProgress(),
  });
  console.log(JSON.stringify({ linkage: summary.linkage }, null, 1));
  for (const a of summary.analyses) console.log(`${a.name}: ${a.reports} reports, ${a.pairs} pairs stored, ${a.fitsAtBound.length} of ${a.windows} fits on a bound`);
  const db = await DuckDBInstance.create(out, { access_mode: 'READ_ONLY' });
  const connection = await db.connect();
  for (const [drug, event, quarter] of PAIRS) {
    const rows = (await connection.runAndReadAll(
      'SELECT analysis, n, n_reports, expected, eb05 FROM quarterly WHERE drug = $1 AND event = $2 AND quarter = $3 ORDER BY analysis', [drug, event, quarter],
    )).getRowObjectsJS();
    for (const r of rows) console.log(`${drug} x ${event} ${quarter} ${r.analysis}: n ${r.n}, N ${r.n_reports}, E ${Number(r.expected).toFixed(3)}, EB05 ${Number(r.eb05).toFixed(3)}`);
  }
  connection.closeSync();
  db.closeSync();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
