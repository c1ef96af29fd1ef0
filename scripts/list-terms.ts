/**
 * Lists every distinct symptom term (SYMPTOM1..SYMPTOM5) of the VAERS SYMPTOMS files with the
 * number of reports naming it, for reviewing which terms are not clinical adverse events
 * (data/terms/README.md). A report counts once per term however many of its rows name it.
 *
 * Usage: `npx tsx scripts/list-terms.ts [FOLDER...] > terms.tsv` (default folders:
 * ../shared/data/vaers, ../shared/data/vaers-vax-symptoms, ../shared/data/vaers-modern-layout).
 * Output: tab-separated `term`, `reports_1990_2006` (the folder ../shared/data/vaers, the served
 * years), `reports_other` (every other folder), sorted by term; a summary goes to standard error.
 * Files: every `*SYMPTOMS*.csv` or `.csv.gz` in each folder, Windows-1252, columns by header name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';

/** The symptom terms of one SYMPTOMS file, as one Set of distinct trimmed terms per VAERS_ID. */
export function readSymptomTerms(file: string): Map<string, Set<string>> {
  const raw = readFileSync(file);
  const text = iconv.decode(file.endsWith('.gz') ? gunzipSync(raw) : raw, 'win1252');
  const rows = parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  const byReport = new Map<string, Set<string>>();
  for (const row of rows) {
    const id = String(Number((row.VAERS_ID ?? '').trim()));
    let terms = byReport.get(id);
    if (!terms) byReport.set(id, (terms = new Set()));
    for (let k = 1; k <= 5; k++) {
      const term = (row[`SYMPTOM${k}`] ?? '').trim();
      if (term) terms.add(term);
    }
  }
  return byReport;
}

/** The SYMPTOMS files of a folder (plain or gzipped CSV), sorted by name. */
export function symptomFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => /SYMPTOMS.*\.csv(\.gz)?$/i.test(name))
    .sort()
    .map((name) => path.join(folder, name));
}

function main(): void {
  const shared = path.resolve(process.cwd(), '..', 'shared', 'data');
  const served = path.join(shared, 'vaers');
  const folders = process.argv.length > 2
    ? process.argv.slice(2).map((f) => path.resolve(f))
    : [served, path.join(shared, 'vaers-vax-symptoms'), path.join(shared, 'vaers-modern-layout')];
  const counts = new Map<string, [number, number]>();
  for (const folder of folders) {
    const column = path.resolve(folder) === served ? 0 : 1;
    for (const file of symptomFiles(folder)) {
      const byReport = readSymptomTerms(file);
      for (const terms of byReport.values()) {
        for (const term of terms) {
          const entry = counts.get(term) ?? [0, 0];
          entry[column] += 1;
          counts.set(term, entry);
        }
      }
      process.stderr.write(`${path.basename(file)}: ${byReport.size} reports\n`);
    }
  }
  const lines = ['term\treports_1990_2006\treports_other'];
  for (const term of [...counts.keys()].sort()) lines.push(`${term}\t${counts.get(term)![0]}\t${counts.get(term)![1]}`);
  process.stdout.write(lines.join('\n') + '\n');
  const servedTerms = [...counts.values()].filter((c) => c[0] > 0).length;
  process.stderr.write(`${counts.size} distinct terms, ${servedTerms} of them in the 1990-2006 files\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
