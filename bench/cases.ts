/**
 * Benchmark of the case series: loads the report tables of a store (the
 * embedded default unless --store) into a CasesService, then times uncached answers (every query
 * distinct, so the answer cache never hits): the pairs of the store's most reported vaccines
 * with each of their events, and each vaccine alone (the largest one is the worst case). Prints
 * load time, p50/p99/max per kind, and the process's peak RSS. Asserts nothing.
 * Targets: a pair query p99 <= 50 ms uncached; the largest vaccine alone <= 300 ms.
 *
 * Run: npx tsx bench/cases.ts [--store FILE] [--pairs N]   (default: the default store, built into the cache when absent)
 */
import { CasesService } from '../src/serve/cases/service.js';
import { defaultStorePath } from '../src/cache/default-store.js';
import { readStoreMeta } from '../src/serve/store/serving.js';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function quantile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function report(label: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${label}: ${times.length} queries, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
}

async function main(): Promise<void> {
  const store = arg('store') ?? await defaultStorePath((m) => console.error(m));
  const started = performance.now();
  const service = await CasesService.open(store, (await readStoreMeta(store)).reports_through);
  if (!service) {
    console.log(`bench/cases: ${store} has no report tables; nothing to measure`);
    return;
  }
  console.log(`load ${store}: ${service.index.data.count} reports in ${(performance.now() - started).toFixed(0)} ms`);
  const vaccines = [...service.index.reportsByVaccine].sort((a, b) => b[1].length - a[1].length);
  const time = async (query: string): Promise<number> => {
    const t = performance.now();
    const answer = await service.answer(query);
    if (answer.status !== 200) throw new Error(`${query}: ${answer.status}`);
    return performance.now() - t;
  };
  const pairsWanted = Number(arg('pairs') ?? 400);
  const pairTimes: number[] = [];
  for (const [vaccine, reports] of vaccines) {
    const events = new Set<string>();
    for (const r of reports.subarray(0, 50)) {
      const { start, term } = service.index.data.events;
      for (let row = start[r]; row < start[r + 1]; row++) events.add(term.at(row));
    }
    for (const event of events) {
      if (pairTimes.length >= pairsWanted) break;
      pairTimes.push(await time(`vaccine=${encodeURIComponent(vaccine)}&event=${encodeURIComponent(event)}`));
    }
    if (pairTimes.length >= pairsWanted) break;
  }
  report('pair (vaccine x event), uncached', pairTimes);
  const aloneTimes: number[] = [];
  for (const [vaccine] of vaccines.slice(0, 30)) aloneTimes.push(await time(`vaccine=${encodeURIComponent(vaccine)}&limit=100`));
  report('vaccine alone (the 30 most reported), uncached', aloneTimes);
  console.log(`largest vaccine ${vaccines[0][0]} (${vaccines[0][1].length} reports): ${aloneTimes[0].toFixed(1)} ms`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}

await main();
