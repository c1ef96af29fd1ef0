/**
 * Writes the synthetic full-size VAERS download (bench/full-download/generate.ts: the real
 * 1990-2006 files, the real 2007-2025 VAX and SYMPTOMS rows resampled to the published yearly
 * volumes with synthetic VAERSDATA rows, the real 2025 ORDER versions) into a folder outside the
 * repository, and prints per year the reports and rows written. Deterministic for a seed.
 *
 * Run: npx tsx bench/full-download.ts [--out DIR] [--seed N] [--fraction F] [--years A-B]
 *   --out       default ~/.cache/reporting-signals-bench/full-<seed>-<fraction> (never inside the repository)
 *   --fraction  share of each generated year's volume (e.g. 0.1 for a quick profile); default 1
 *   --years     e.g. 2019-2023; default 1990-2025
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDownload } from './full-download/generate.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The value of `--name` in argv, or undefined. */
function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seed = Number(option(argv, '--seed') ?? 29);
  const fraction = Number(option(argv, '--fraction') ?? 1);
  const [from, to] = (option(argv, '--years') ?? '1990-2025').split('-').map(Number);
  const out = path.resolve(option(argv, '--out') ?? path.join(homedir(), '.cache', 'reporting-signals-bench', `full-${seed}-${fraction}`));
  if (out.startsWith(repoRoot + path.sep)) throw new Error(`--out ${out} is inside the repository; write the download elsewhere`);
  const realRows = path.resolve(repoRoot, '..', 'shared', 'data', 'vaers-vax-symptoms');
  if (!existsSync(realRows)) {
    console.log(`bench/full-download: ${realRows} is absent; nothing to generate`);
    return;
  }
  const started = performance.now();
  const m = await generateDownload({ out, oldYears: path.join(repoRoot, 'data', 'vaers'), realRows, seed, fraction, from, to });
  console.log(`bench/full-download: wrote ${out} (seed ${seed}, fraction ${fraction}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log('year  reports  vax rows  symptoms rows  source');
  for (const [year, y] of Object.entries(m.years)) {
    console.log(`${year}  ${String(y.reports).padStart(7)}  ${String(y.vaxRows).padStart(8)}  ${String(y.symptomsRows).padStart(13)}  ${y.real ? 'real rows as published (ORDER)' : 'real rows resampled'}`);
  }
  console.log(`generated years: ${m.reports} reports, ${(m.bytes / 2 ** 20).toFixed(0)} MiB of CSV (plus the copied 1990-2006 files)`);
}

await main();
