/**
 * Benchmark of the narrative search: reads the six narrative fields of the
 * 1990-2006 VAERSDATA files (../shared/data/vaers unless --vaers), builds the index, and prints
 * the build time, the memory the index keeps (heap and array buffers after GC, texts included),
 * the RSS it added, and the latency (p50/p99/max) of text queries over all reports, of the same
 * queries within a 2,000-report selection (a vaccine x event case series' size), and of the
 * snippets of a 50-report page. Asserts nothing.
 * Targets: a query over all reports p99 <= 300 ms uncached; within one vaccine x event
 * p99 <= 50 ms; serving RSS <= 600 MB in total.
 *
 * With --store FILE, the index is instead the one a server of that store uses (src/serve/cases/narratives.ts
 * `readIndexedReports`: read from `FILE.narratives`, or built from the store and written there), so
 * its texts and postings are read from the file as when serving (the full download's 2.1 million reports).
 * With --ids OUT, the found reports of every query (over all reports, then within the selection)
 * are written to OUT as JSON lines `{text, within, n, sha256}` (the SHA-256 of the ascending
 * ordinals as little-endian Int32), to compare two versions' answers (`diff`).
 *
 * Run: NODE_OPTIONS=--expose-gc npx tsx bench/narratives.ts [--vaers DIR | --store FILE] [--runs N] [--ids OUT]
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readIndexedReports } from '../src/serve/cases/narratives.js';
import { NarrativeIndex } from '../src/serve/narratives/index.js';
import { parseTextQuery, type TextQuery } from '../src/serve/narratives/query.js';
import { readNarratives } from '../test/helpers/narrative-records.js';
import { snippet } from '../src/serve/narratives/snippet.js';
import { random } from './prng.js';
import { latency, QUERIES } from './text-queries.js';

const gc = (globalThis as { gc?: () => void }).gc;
/** Heap used plus array buffers, after full GCs when available (buffers are freed a little after their GC). */
async function retained(): Promise<{ heap: number; buffers: number; rss: number }> {
  gc?.();
  await new Promise((done) => setTimeout(done, 200));
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
}
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Reads the narratives and builds the index (the records are dropped on return); with `store`, the index a server of it uses. */
async function load(dir: string, store: string | undefined): Promise<{ index: NarrativeIndex; buildMs: number } | null> {
  let t = performance.now();
  if (store !== undefined) {
    const read = await readIndexedReports(store);
    if (!read?.narratives) throw new Error(`${store}: no narrative index (a store built without --narratives?)`);
    console.log(`index of ${store} ${read.source.kind} in ${(performance.now() - t).toFixed(0)} ms (report tables included)`);
    return { index: read.narratives, buildMs: performance.now() - t };
  }
  const records = await readNarratives(dir, 1990, 2006);
  console.log(`read ${records.length} reports' narratives in ${(performance.now() - t).toFixed(0)} ms`);
  if (records.length === 0) return null;
  t = performance.now();
  const index = NarrativeIndex.build(records);
  return { index, buildMs: performance.now() - t };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vaers: { type: 'string', default: '../shared/data/vaers' }, store: { type: 'string' }, runs: { type: 'string', default: '10' }, ids: { type: 'string' } } });
  const dir = values.vaers;
  const runs = Number(values.runs);
  if (!gc) console.log('(run with NODE_OPTIONS=--expose-gc for retained-memory figures)');
  const before = await retained();
  const loaded = await load(dir, values.store);
  if (!loaded) return;
  const { index, buildMs } = loaded;
  const after = await retained();
  const s = index.stats();
  console.log(`index: ${s.reports} reports, ${s.textBytes} bytes of text, ${s.words} words, ${s.postings} postings; built in ${buildMs.toFixed(0)} ms`);
  console.log(`kept by the index (texts included): heap ${mb(after.heap - before.heap)} + array buffers ${mb(after.buffers - before.buffers)}; RSS added ${mb(after.rss - before.rss)} (process RSS ${mb(after.rss)})`);

  let t: number;
  const queries: Array<[string, TextQuery]> = QUERIES.map((text) => {
    const parsed = parseTextQuery(text);
    if (!parsed.ok) throw new Error(`${text}: ${parsed.error}`);
    return [text, parsed.query];
  });
  const next = random(19);
  const within = Int32Array.from(Array.from({ length: index.size }, (_, r) => r).filter(() => next() < 2000 / index.size));
  const all: number[] = [];
  const inside: number[] = [];
  const pages: number[] = [];
  const answers: string[] = [];
  const answer = (text: string, inSelection: boolean, found: Int32Array): void => {
    const sha256 = createHash('sha256').update(Buffer.from(found.buffer, found.byteOffset, found.byteLength)).digest('hex');
    answers.push(JSON.stringify({ text, within: inSelection, n: found.length, sha256 }));
  };
  for (const [text, query] of queries) {
    const own: number[] = [];
    let cpu = 0;
    let found: Int32Array = new Int32Array(0);
    for (let run = 0; run < runs; run++) {
      t = performance.now();
      const c = process.cpuUsage();
      found = index.search(query);
      own.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu += (used.user + used.system) / 1000;
      t = performance.now();
      const foundWithin = index.search(query, within);
      inside.push(performance.now() - t);
      if (run === 0) answer(text, true, foundWithin);
      t = performance.now();
      for (const r of found.subarray(0, 50)) snippet(index.fields(r), query);
      pages.push(performance.now() - t);
    }
    answer(text, false, found);
    all.push(...own);
    console.log(`  ${text.padEnd(36)} ${String(found.length).padStart(7)} reports, ${latency(own)}, CPU ${(cpu / runs).toFixed(2)} ms a run`);
  }
  console.log(`query over all reports (${all.length} runs): ${latency(all)}`);
  console.log(`query within ${within.length} reports (${inside.length} runs): ${latency(inside)}`);
  console.log(`snippets of a 50-report page (${pages.length} runs): ${latency(pages)}`);
  if (values.ids !== undefined) writeFileSync(values.ids, `${answers.join('\n')}\n`);
  console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
}

await main();
