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
 * Run: NODE_OPTIONS=--expose-gc npx tsx bench/narratives.ts [--vaers DIR] [--runs N]
 */
import { parseArgs } from 'node:util';
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

/** Reads the narratives and builds the index (the records are dropped on return). */
async function load(dir: string): Promise<{ index: NarrativeIndex; buildMs: number } | null> {
  let t = performance.now();
  const records = await readNarratives(dir, 1990, 2006);
  console.log(`read ${records.length} reports' narratives in ${(performance.now() - t).toFixed(0)} ms`);
  if (records.length === 0) return null;
  t = performance.now();
  const index = NarrativeIndex.build(records);
  return { index, buildMs: performance.now() - t };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vaers: { type: 'string', default: '../shared/data/vaers' }, runs: { type: 'string', default: '10' } } });
  const dir = values.vaers;
  const runs = Number(values.runs);
  if (!gc) console.log('(run with NODE_OPTIONS=--expose-gc for retained-memory figures)');
  const before = await retained();
  const loaded = await load(dir);
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
  for (const [text, query] of queries) {
    const own: number[] = [];
    let found: Int32Array = new Int32Array(0);
    for (let run = 0; run < runs; run++) {
      t = performance.now();
      found = index.search(query);
      own.push(performance.now() - t);
      t = performance.now();
      index.search(query, within);
      inside.push(performance.now() - t);
      t = performance.now();
      for (const r of found.subarray(0, 50)) snippet(index.fields(r), query);
      pages.push(performance.now() - t);
    }
    all.push(...own);
    console.log(`  ${text.padEnd(36)} ${String(found.length).padStart(7)} reports, ${latency(own)}`);
  }
  console.log(`query over all reports (${all.length} runs): ${latency(all)}`);
  console.log(`query within ${within.length} reports (${inside.length} runs): ${latency(inside)}`);
  console.log(`snippets of a 50-report page (${pages.length} runs): ${latency(pages)}`);
  console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
}

await main();
