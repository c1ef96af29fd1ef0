/**
 * Measures the duplicate linkage on issue 43's labelled set (test/ingest/linkage/measure.ts has
 * the definitions; docs/duplicates.md, "The labelled set", the protocol): links the default
 * store's reports (data/vaers, 1990-2006) with the current rules, and writes
 *
 * - the figures block of docs/duplicates.md (between `<!-- linkage-measured:start -->` and
 *   `<!-- linkage-measured:end -->`): the set's counts by label and stratum, pairwise precision
 *   and recall of the measured part and precision of the random clusters, each with its Wilson
 *   95% interval, before (the clusters as drawn, the linkage of the draw) and now, Cohen's kappa
 *   of the doubly read pairs and the disagreements;
 * - src/serve/signals/linkage-measured.ts, the same figures as the constant LINKAGE_MEASURED that
 *   `GET /analyses` serves in `linkage.measured`.
 *
 * test/ingest/linkage/measured-page.test.ts checks that both equal what this script writes from
 * the fixtures and the recorded linkage verdicts (`verdicts`, also written here: each labelled
 * item's clusters under the linkage, so the test need not link the reports).
 *
 * `--reuse` skips the linkage and reads the verdicts written by the last run (after new labels:
 * the figures change, the linkage does not).
 *
 * `--import DIR` (repeatable: every folder's files together) first imports the fresh set's and
 * round 4's labels from the readers' files of DIR (the packets' templates filled: measured-NN.csv,
 * clusters-NN.csv and clusters-NNa.csv the first reading, second-NN.csv the second, resolved*.csv
 * the resolutions; measure.ts importLabels checks each row, naming file and line, and an item read
 * twice as one reading) into test/fixtures/linkage/labelled-43-fresh.csv, replacing it; `--reader
 * TEXT` says who read (default: a blind reader who tunes no rule). The items of packet measured-04
 * are imported with the rest but count as tuning data (measure.ts FRESH_TUNING).
 *
 * Run: npx tsx scripts/linkage-measure.ts [--vaers DIR] [--cache FILE] [--reuse] [--import DIR]... [--reader TEXT]
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { linkReports } from '../src/ingest/linkage/link.js';
import { realLinkageColumns } from '../bench/linkage-columns.js';
import { importLabels, labelledSet } from '../test/ingest/linkage/measure.js';
import { measuredFigures, renderDomainModule, renderPage, spliceDocs, type Verdicts } from '../test/ingest/linkage/measured-render.js';

const { values } = parseArgs({ options: {
  vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, reuse: { type: 'boolean', default: false },
  import: { type: 'string', multiple: true }, reader: { type: 'string', default: 'a blind reader (tunes no rule; read the packets alone)' },
} });
const VERDICTS = 'test/fixtures/linkage/verdicts-43.json';
const writeAtomically = (path: string, text: string): void => {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
};
if (values.import !== undefined) {
  try {
    const text = importLabels(values.import, labelledSet(process.cwd()).items, (file) => `${values.reader}, ${file}`);
    writeAtomically('test/fixtures/linkage/labelled-43-fresh.csv', text);
    console.log(`imported ${text.split('\n').length - 2} readings from ${values.import.join(', ')}`);
  } catch (error) {
    console.error(`linkage-measure: ${(error as Error).message}`);
    process.exit(1);
  }
}
let verdicts: Verdicts;
if (values.reuse) {
  verdicts = JSON.parse(readFileSync(VERDICTS, 'utf8')) as Verdicts;
} else {
  const real = await realLinkageColumns(values.vaers!, values.cache);
  const started = performance.now();
  const result = linkReports(real);
  const seconds = (performance.now() - started) / 1000;
  console.log(`linked ${result.summary.reports} reports in ${seconds.toFixed(1)} s (peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB): ${result.summary.clusters} clusters, ${result.summary.reports_folded} reports folded, ${result.summary.links} links; vetoes ${JSON.stringify(result.summary.different_patients)}`);
  const row = new Map(Array.from(real.id, (id, i) => [id, i]));
  // Each labelled report's cluster key (its representative's VAERS_ID): what the figures need of the linkage; `clusters`: the default store's count.
  verdicts = { clusters: result.summary.clusters };
  for (const it of labelledSet(process.cwd()).items) for (const id of it.ids) verdicts[id] = real.id[result.representative[row.get(id)!]];
  writeAtomically(VERDICTS, `${JSON.stringify(verdicts)}\n`);
}
const figures = measuredFigures(process.cwd(), verdicts, verdicts.clusters);
writeAtomically('docs/duplicates.md', spliceDocs(readFileSync('docs/duplicates.md', 'utf8'), renderPage(figures)));
writeAtomically('src/serve/signals/linkage-measured.ts', renderDomainModule(figures));
console.log(renderPage(figures));
