/**
 * What holds the build's memory (issue 41, docs/architecture.md "Scale"): reads a VAERS folder as
 * the build does (with the narratives) and prints the main thread's V8 heap after each step that
 * the build keeps: the reports, the report columns, the narrative columns, the item lists of each
 * item kind, the evidence tables (and the bytes of a structured clone of each kind's tables, which
 * each worker received before they were shared, and of the linkage thread's columns). Asserts nothing.
 * Figures (2026-11-28, loaded machine): the 10% sample (398,038 reports) holds 717 MiB after the read
 * (heap and array buffers); a clone of one kind's evidence tables 84 MiB, of the linkage's columns
 * 272 MiB. data/vaers: 327 MiB after the read, of which the seven narrative columns 100 MiB (55 Mi
 * characters: fields are slices of the decoded file text, which V8 keeps whole, two bytes a
 * character in a chunk with a character past U+00FF).
 * With `--scratch FILE`, the read is the build's (src/ingest/mining/build.ts): the narrative columns go to
 * the scratch DuckDB file FILE (src/ingest/vaers/report-text.ts, removed at the end), not the heap.
 * Run: node --expose-gc --import tsx bench/memory-holdings.ts --vaers DIR [--scratch FILE]
 */
import { readVaers } from '../src/ingest/vaers/read.js';
import { reportItems } from '../src/ingest/mining/items.js';
import { evidenceInputs } from '../src/ingest/mining/evidence-step.js';
import { linkageColumnsOf } from '../src/ingest/mining/linkage-step.js';
import { serialize } from 'node:v8';
import { NARRATIVE_REPORT_COLUMNS } from '../src/domain/report-columns.js';
import { readEventGroups } from '../src/ingest/mining/event-groups-step.js';
import { parseAnalyses } from '../src/ingest/mining/build.js';
import { ReportText } from '../src/ingest/vaers/report-text.js';

const at = process.argv.indexOf('--vaers');
if (at < 0) throw new Error('usage: bench/memory-holdings.ts --vaers DIR');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};
let last = heap();
const step = (what: string): void => {
  const now = heap();
  console.log(`${what.padEnd(60)} ${mib(now - last).padStart(10)}  (heap + array buffers ${mib(now)}, rss ${mib(process.memoryUsage().rss)})`);
  last = now;
};
const groups = await readEventGroups(undefined, parseAnalyses('default'));
const scratchAt = process.argv.indexOf('--scratch');
const scratch = scratchAt < 0 ? null : await ReportText.create(process.argv[scratchAt + 1]);
const data = await readVaers(process.argv[at + 1], { narratives: true, ...(scratch ? { text: scratch } : {}) });
await scratch?.finishWriting();
step(`read: ${data.reports.length} reports${scratch ? ` (the narratives in ${scratch.path})` : ''}`);
const kinds = ['vaccine', 'vax_type_code', 'event_group'] as const;
const itemsOf = new Map(kinds.map((k) => [k, reportItems(data, k, groups?.set)] as const));
step('item lists of 3 kinds (items.ts reportItems)');
const evidence = await evidenceInputs(data, itemsOf);
step('evidence tables (all kinds, shared arrays counted once)');
for (const [kind, { tables }] of evidence) console.log(`  ${kind}: a structured clone of its tables ${mib(serialize(tables).byteLength)}`);
const link = serialize(linkageColumnsOf(data.details)).byteLength;
console.log(`  linkage columns (linkInWorker's structured clone): ${mib(link)}`);
itemsOf.clear();
step('item lists let go');
data.reports.length = 0;
step('reports let go');
// The narrative columns' values let go (the arrays emptied, as report-tables.ts releaseText does at the build's write).
const text = NARRATIVE_REPORT_COLUMNS.map((c) => data.details[c.field] as Array<string | null> | null).filter((column) => column !== null);
const characters = text.reduce((sum, column) => column.reduce((s, t) => s + (t?.length ?? 0), sum), 0);
for (const column of text) column.fill(null);
step(`${text.length} narrative columns let go (${(characters / 2 ** 20).toFixed(0)} Mi characters)`);
console.log(`remaining: the report columns and strings, and the evidence tables of ${evidence.size} kinds: ${mib(heap())}`);
await scratch?.remove();
