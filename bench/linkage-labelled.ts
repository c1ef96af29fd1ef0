/**
 * The duplicate linkage (src/ingest/linkage/link.ts) on the labelled set of real pairs
 * (test/fixtures/linkage/labelled-pairs.csv, docs/duplicates.md "The labelled set"): links the real
 * 1990-2006 reports and prints, per part (tuning, measured), the decided pairs, precision and
 * recall (test/ingest/linkage/labelled.ts), the pairs it gets wrong, the time and peak RSS of the
 * linkage, the clusters and the reports folded. Asserts nothing. Goal on the measured part:
 * precision >= 0.95 and recall >= 0.80.
 *
 * Run: npx tsx bench/linkage-labelled.ts [--vaers DIR] [--cache FILE]
 */
import { parseArgs } from 'node:util';
import { agreedFields, comparePair } from '../src/ingest/linkage/compare.js';
import { linkReports, scorePairs } from '../src/ingest/linkage/link.js';
import { differentPatients } from '../src/ingest/linkage/patient-evidence.js';
import { labelledPairs, scoreLabelled } from '../test/ingest/linkage/labelled.js';
import { realLinkageColumns } from './linkage-columns.js';

const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, explain: { type: 'boolean', default: false } } });
const real = await realLinkageColumns(values.vaers!, values.cache);
const started = performance.now();
const result = linkReports(real);
const seconds = (performance.now() - started) / 1000;
const { reports, clusters, reports_folded: folded, links } = result.summary;
console.log(`linked ${reports} reports in ${seconds.toFixed(1)} s (peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB): ${links} links, ${clusters} clusters, ${folded} reports folded`);
for (const s of scoreLabelled(labelledPairs(process.cwd()), real.id, result.representative)) {
  console.log(`${s.part}: ${s.decided} decided pairs (${s.same} same); predicted one case ${s.predicted}, of which same ${s.correct}: precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)}`);
  console.log(`  wrong: ${s.wrong.join(', ') || 'none'}`);
}
// --explain: each wrong pair's weight, agreed fields and different-patient reason (a second scoring).
if (values.explain) {
  const scored = scorePairs(real);
  const row = new Map(Array.from(real.id, (id, i) => [id, i]));
  for (const pair of labelledPairs(process.cwd())) {
    const [x, y] = [row.get(pair.a)!, row.get(pair.b)!];
    const p = comparePair(scored.features, x, y);
    const w = scored.weightOf(x, y, p);
    if (pair.label === 'same' || w > 0) {
      console.log(`${pair.part} ${pair.a}-${pair.b} ${pair.label}: weight ${w.toFixed(1)}; ${agreedFields(p).join(' ')}; different: ${differentPatients(scored.features, scored.evidence, x, y) || '-'}`);
    }
  }
}
