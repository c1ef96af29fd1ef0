/**
 * Benchmark of the served text search and report view: opens the whole app over a store built
 * with --narratives (the default store, built into the cache when absent, unless --store), waits for the case series (narrative
 * index included) to load, and prints the serving RSS, then the latency (p50/p99/max) of
 * uncached text queries over all reports (`/cases?text=`), of the same queries within RotaShield
 * x Intussusception and within one common vaccine x event, and of `/reports/{id}`. A text refused
 * as too broad (a prefix expanding to too many words of the store's narratives: `a*` beyond
 * 1990-2006) is timed as the 400 it gets, and counted. Asserts nothing.
 * Targets: all reports p99 <= 300 ms; within a pair p99 <= 50 ms; /reports/{id} p99 <= 20 ms; RSS <= 600 MB.
 *
 * Run: npx tsx bench/reports.ts [--store FILE]
 */
import { parseArgs } from 'node:util';
import { defaultStorePath } from '../src/cache/default-store.js';
import { buildApp } from '../src/http/app.js';
import { latency, QUERIES } from './text-queries.js';

const { values } = parseArgs({ options: { store: { type: 'string' } } });
const app = await buildApp({ storePath: values.store ?? await defaultStorePath((line) => console.error(line)) });
const started = performance.now();
const first = await app.inject({ method: 'GET', url: '/cases?text=warmup&limit=1' });
console.log(`case series and narrative index loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (status ${first.statusCode})`);
while ((await app.inject({ method: 'GET', url: '/readyz' })).statusCode !== 200) await new Promise((done) => setTimeout(done, 200));
console.log(`every analysis loaded (GET /readyz 200) after ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`serving RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);

/** Requests refused as too broad (a prefix over the limit of words of these narratives, 400): timed too, and counted. */
let refused = 0;

async function time(urls: readonly string[]): Promise<number[]> {
  const times: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const res = await app.inject({ method: 'GET', url });
    times.push(performance.now() - t);
    if (res.statusCode === 400 && res.body.includes('over the limit')) refused++;
    else if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  return times;
}

const q = (text: string): string => encodeURIComponent(text);
// Distinct offsets keep every request uncached (the answer cache is keyed by the whole query).
const all = QUERIES.flatMap((text, i) => [0, 1, 2].map((k) => `/cases?text=${q(text)}&limit=50&offset=${k + i * 0}`));
console.log(`text over all reports:            ${latency(await time(all))}`);
const rota = QUERIES.flatMap((text) => [0, 1, 2].map((k) => `/cases?vaccine=ROTAVIRUS&event=Intussusception&text=${q(text)}&offset=${k}`));
console.log(`text within RotaShield x Intuss.:  ${latency(await time(rota))}`);
const flu = QUERIES.flatMap((text) => [0, 1, 2].map((k) => `/cases?vaccine=FLU3&event=Pyrexia&text=${q(text)}&offset=${k}`));
console.log(`text within FLU3 x Pyrexia:        ${latency(await time(flu))}`);
const noText = [0, 1, 2].map((k) => `/cases?vaccine=ROTAVIRUS&event=Intussusception&offset=${k}`);
console.log(`RotaShield x Intuss. without text: ${latency(await time(noText))}`);
const ids = JSON.parse((await app.inject({ method: 'GET', url: '/cases?text=fever&limit=500' })).body).reports.map((r: { vaers_id: number }) => r.vaers_id) as number[];
console.log(`/reports/{id}:                     ${latency(await time(ids.slice(0, 300).map((id) => `/reports/${id}`)))} (300 requests)`);
const rotaText = JSON.parse((await app.inject({ method: 'GET', url: '/cases?vaccine=ROTAVIRUS&event=Intussusception&limit=1' })).body).n_reports as number;
const rotaMention = JSON.parse((await app.inject({ method: 'GET', url: '/cases?vaccine=ROTAVIRUS&event=Intussusception&text=intussusception&limit=1' })).body).n_reports as number;
console.log(`RotaShield x Intussusception: ${rotaText} reports, ${rotaMention} of them mention intussusception in their text`);
if (refused > 0) console.log(`${refused} text requests refused as too broad (400: a prefix over the limit of words of these narratives)`);
console.log(`serving RSS after ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
await app.close();
