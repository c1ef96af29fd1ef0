/**
 * Measures what counting each suspected-duplicate cluster once does (the `@dedup` analysis
 * modifier, src/domain/analysis-rules.ts): builds `stratified,stratified@dedup` from data/vaers
 * (or --vaers DIR) into a temporary store and prints the linkage's figures (src/ingest/linkage), per
 * analysis the reports kept, pairs stored and fits on a bound, and for RotaShield x
 * Intussusception 1999Q3 and LYMErix x Arthralgia 2001Q1 the n, N, E and EB05 of both analyses
 * (the figures of docs/statistics.md, Analyses -> Duplicates), and ten clusters drawn at random (a
 * seeded generator) with their links: the VAERS_IDs, the match weight and the fields that agreed.
 * Builds with the narratives, as the default store (the linkage compares them). Asserts nothing.
 *
 * Run: npx tsx bench/dedup.ts [--vaers DIR] [--workers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildStore } from '../src/ingest/mining/build.js';
import { random } from './prng.js';
import { stderrProgress } from '../src/ingest/mining/progress.js';

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
    workers: Number(argument('workers', '2')), progress: stderrProgress(), narratives: true,
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
  const clusters = (await connection.runAndReadAll(
    'SELECT cluster, list(vaers_id ORDER BY vaers_id) AS ids FROM reports WHERE cluster IS NOT NULL GROUP BY cluster ORDER BY cluster',
  )).getRowObjectsJS() as Array<{ cluster: bigint; ids: bigint[] }>;
  const uniform = random(Number(argument('seed', '20261126')));
  const drawn = new Set<number>();
  while (drawn.size < Math.min(10, clusters.length)) drawn.add(Math.floor(uniform() * clusters.length));
  console.log(`${clusters.length} clusters; ten drawn at random (seed ${argument('seed', '20261126')}):`);
  for (const k of [...drawn].sort((a, b) => a - b)) {
    const ids = clusters[k].ids.map(Number);
    const links = (await connection.runAndReadAll(
      `SELECT vaers_id, linked_vaers_id, weight, agreed FROM report_links WHERE vaers_id IN (${ids.join(',')}) AND linked_vaers_id IN (${ids.join(',')}) ORDER BY vaers_id, linked_vaers_id`,
    )).getRowObjectsJS() as Array<{ vaers_id: bigint; linked_vaers_id: bigint; weight: number | null; agreed: string[] }>;
    console.log(`- cluster of ${ids.join(', ')} (representative ${clusters[k].cluster}): ${links.map((l) => `${l.vaers_id}-${l.linked_vaers_id} ${l.weight === null ? 'exact' : `${Number(l.weight).toFixed(1)} bits`} [${l.agreed.join(', ')}]`).join('; ')}`);
  }
  connection.closeSync();
  db.closeSync();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
