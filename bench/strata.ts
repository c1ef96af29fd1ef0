/**
 * Benchmark of the strata choice (`build --strata`): builds the embedded default's analyses
 * (DEFAULT_ANALYSES) from ../shared/data/vaers once per strata choice (default
 * `sex,age6,year`, Empirica Signal's AGE_GROUP_6, and `sex,age13,year`, the 13 CDC WONDER
 * groups) and prints per analysis: the reports kept, the pairs that ever reach EB05 >= 2 (over
 * the stored rows; a pair with EB05 >= 2 is flagged by GPS and, in practice, by IC too, so it is
 * stored), the windows whose MGPS fit has a hyperparameter on a bound of openEBGM's box (the
 * store's metadata), and RotaShield x Intussusception's EB05 in 1999Q3 (in `types`, whose items
 * are VAX_TYPE codes, the code RV: RotaShield is the only product of that type). Asserts nothing.
 * Why it matters (DuMouchel 1999): over-fine strata make E approach n in small subsets, so every
 * ratio shrinks towards 1; and a fit on a bound shrinks EB05 for its own reasons.
 *
 * Run: npx tsx bench/strata.ts [--strata sex,age6,year;sex,age13,year] [--workers N]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_ANALYSES } from '../src/domain/analysis-rules.js';
import { buildStore } from '../src/ingest/mining/build.js';
import { readStoreMeta } from '../src/serve/store/serving.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vaers = path.resolve(repoRoot, '..', 'shared', 'data', 'vaers');

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** One line of the table: an analysis under one strata choice. */
interface Line { strata: string; analysis: string; reports: number | null; pairsEb05: number; windows: number | null; atBound: number | null; rotashield: number | null }

/** Measures the store at `out` (a Parquet store the build just wrote). */
async function measure(out: string, strata: string): Promise<Line[]> {
  const meta = await readStoreMeta(out);
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  const file = out.replaceAll("'", "''");
  const rows = (await connection.runAndReadAll(`SELECT analysis, count(DISTINCT drug || '|' || event) FILTER (WHERE eb05 >= 2) AS pairs,
      max(eb05) FILTER (WHERE drug IN ('ROTAVIRUS (ROTASHIELD)', 'RV') AND event = 'Intussusception' AND quarter = '1999Q3') AS rota
    FROM '${file}' GROUP BY analysis`)).getRowObjectsJson();
  connection.closeSync();
  const by = new Map(rows.map((r) => [String(r.analysis), r]));
  return (meta.analyses ?? []).map((a) => ({
    strata: a.strata ?? 'crude', analysis: a.name, reports: a.reports, pairsEb05: Number(by.get(a.name)?.pairs ?? 0),
    windows: a.windows, atBound: a.fits_at_bound, rotashield: by.get(a.name)?.rota == null ? null : Number(by.get(a.name)!.rota),
  })).map((l) => ({ ...l, strata: l.strata === 'crude' ? `crude (build ${strata})` : l.strata }));
}

async function main(): Promise<void> {
  if (!existsSync(vaers)) {
    console.log(`bench/strata: ${vaers} is absent; nothing to measure`);
    return;
  }
  const choices = argument('strata', 'sex,age6,year;sex,age13,year').split(';');
  const workers = Number(argument('workers', '2'));
  const dir = mkdtempSync(path.join(tmpdir(), 'rs-bench-strata-'));
  const lines: Line[] = [];
  try {
    for (const strata of choices) {
      const out = path.join(dir, `${strata.replaceAll(',', '-')}.parquet`);
      const started = performance.now();
      await buildStore({ vaers, out, analyses: DEFAULT_ANALYSES.join(','), strata, workers });
      console.error(`bench/strata: built --strata ${strata} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      lines.push(...await measure(out, strata));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('| strata | analysis | reports | pairs ever EB05 >= 2 | fits on a bound | RotaShield x Intussusception EB05 1999Q3 |');
  console.log('|---|---|---|---|---|---|');
  for (const l of lines) {
    console.log(`| ${l.strata} | \`${l.analysis}\` | ${l.reports?.toLocaleString('en-US') ?? '-'} | ${l.pairsEb05} | ${l.atBound ?? '-'} of ${l.windows ?? '-'} | ${l.rotashield === null ? '-' : l.rotashield.toFixed(2)} |`);
  }
}

await main();
