/**
 * The duplicate linkage's verdict on the items of a labelled set (test/fixtures/linkage/sample-43.csv,
 * drawn by scripts/linkage-sample.ts): per pair item of `--part` (default tuning), whether the
 * linkage puts both reports in one cluster, the pair's weight, its agreed fields and its
 * different-patient reason. For the engineer tuning the rules on the tuning part; asserts nothing.
 *
 * Run: npx tsx bench/linkage-explain.ts [--vaers DIR] [--cache FILE] [--part tuning]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { agreedFields, comparePair } from '../src/ingest/linkage/compare.js';
import { linkReports, scorePairs } from '../src/ingest/linkage/link.js';
import { differentPatients } from '../src/ingest/linkage/patient-evidence.js';
import { realLinkageColumns } from './linkage-columns.js';

const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, part: { type: 'string', default: 'tuning' } } });
const real = await realLinkageColumns(values.vaers!, values.cache);
const started = performance.now();
const result = linkReports(real);
console.log(`linked in ${((performance.now() - started) / 1000).toFixed(1)} s (peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB): ${result.summary.links} links, ${result.summary.clusters} clusters, ${result.summary.reports_folded} reports folded; vetoes ${JSON.stringify(result.summary.different_patients)}`);
const scored = scorePairs(real);
const row = new Map(Array.from(real.id, (id, i) => [id, i]));
const items = parse(readFileSync('test/fixtures/linkage/sample-43.csv'), { columns: true }) as Array<Record<string, string>>;
for (const it of items) {
  if (it.kind !== 'pair' || it.part !== values.part) continue;
  const [x, y] = it.vaers_ids.split(' ').map((id) => row.get(Number(id))!);
  const p = comparePair(scored.features, x, y);
  const together = result.representative[x] === result.representative[y];
  console.log(`${it.item_id} ${it.vaers_ids} ${it.stratum} ${together ? 'LINKED' : 'apart'} weight ${scored.weightOf(x, y, p).toFixed(1)} (before ${it.weight}); ${agreedFields(p).join(' ')}; different: ${differentPatients(scored.features, scored.evidence, x, y) || '-'}`);
}
