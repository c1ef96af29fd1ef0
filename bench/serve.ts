/**
 * Benchmark of the real server (speed and memory): starts `node dist/cli.js serve` as a child process on
 * a free port over a store, then drives it with autocannon at concurrency 32:
 * 1. "realistic": a mixed /signals workload (vaccine names, vaccine types, VAX_TYPE codes, event
 *    substrings, q, every format including series, sorts, deep offsets) over a repeated set of
 *    `--realistic` (default 200) distinct URLs, as a public API with popular queries sees it:
 *    the server's answer cache (LRU, 16 MB, with an 8 MB raw-query LRU in front) serves the repeats. The issue's targets apply here.
 * 2. "distinct": the same kinds of queries, every URL distinct (each base query gets a fresh
 *    offset on every round), so the answer cache never hits: the cost of computing answers.
 * 3. the constant-answer route GET /healthz (the limit of the same server), and a bare
 *    `node:http` server answering a constant in its own process, driven the same way in the same
 *    run (issue 41's yardstick: "a constant-answer node:http route").
 * 4. "cases": `/cases?vaccine=V&event=E` of the store's pairs at 8 connections, every URL distinct
 *    (the pairs shuffled; issue 41: "`/cases` pair queries p99 <= 50 ms at 8 concurrent").
 * The realistic workload runs twice: as is, and with `Accept-Encoding: gzip` (the
 * cached answers keep their compressed bytes). bench/soak.ts has the soak and the swap under load.
 * Prints requests/s of each, the ratios to both constant servers, p50/p99 latency, the server's
 * peak RSS (VmHWM, over the whole run including the load) and the time from spawn to the first
 * /signals answer. Asserts nothing.
 * Targets: ratio >= 0.6 of the bare node:http server and p99 <= 20 ms (realistic workload); with
 * every analysis, the case series and the narrative index loaded (issue 41) RSS <= 600 MB; `/cases`
 * pair p99 <= 50 ms at 8 connections; first answer <= 1 s on the embedded default.
 *
 * Figures (2 cores shared with other work; one bench run each, same hour; "before" = 267145e,
 * "after" = series records out of the heap + in-order load + raw-query LRU):
 *   store            build   first ms  realistic rps/ratio  p50/p99  distinct rps/ratio  p99  peak RSS
 *   default.parquet  before    854      24,896 / 0.53       1 / 4     9,173 / 0.20      13   292 MB
 *   default.parquet  after     822-866  24,604-27,148 / 0.47-0.52  0-1 / 4  9,230-9,281 / 0.18  13  294 MB
 *   k12 (2.8M rows)  before   3,007     14,041 / 0.35       1 / 10    3,753 / 0.10      32   578 MB
 *   k12 (2.8M rows)  after    2,713-3,054  26,302-26,328 / 0.59  0 / 4  4,981-5,043 / 0.11  19-20  284-286 MB
 * The constant route varied from 25k to 53k requests/s between runs on this machine: compare
 * ratios of one run, and rates only within a run.
 *
 * Run: npm run build && npx tsx bench/serve.ts [--store FILE] [--duration S] [--synthetic PAIRS] [--realistic N]
 *   --store      store to serve (default: the embedded default store)
 *   --realistic  distinct URLs of the realistic workload (default 200)
 *   --cli        server program to spawn (default dist/cli.js; e.g. an older build, to compare)
 *   --synthetic  write a synthetic store of about PAIRS pairs x 40 quarters first and serve it
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultStorePath } from '../src/cache/default-store.js';
import { storeAnalyses } from '../src/serve/signals/analyses.js';
import { readStoreMeta } from '../src/serve/store/serving.js';
import { loadCatalog } from '../src/serve/signals/catalog.js';
import type { QuarterlyRow } from '../src/domain/store-schema.js';
import { writeStore } from '../src/ingest/store/write.js';
import { formatQuarter } from '../src/domain/quarter.js';
import { random } from './prng.js';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A synthetic store: ~`pairs` pairs over 40 quarters ending 2023Q4, 120 vaccines, 8000 events. */
async function syntheticStore(pairs: number): Promise<string> {
  const out = path.join(await mkdtemp(path.join(tmpdir(), 'bench-serve-')), 'synthetic.duckdb');
  const rand = random(7);
  const types = Array.from({ length: 30 }, (_, i) => `TYPE${i}`);
  const vaccines = Array.from({ length: 120 }, (_, i) => ({ vax_name: `${types[i % 30]} (PRODUCT ${i})`, vax_type: types[i % 30], vax_type_codes: [`T${i % 30}`] }));
  const events = Array.from({ length: 8000 }, (_, i) => `Event term ${i.toString(36)} ${['pain', 'rash', 'fever', 'syncope', 'oedema'][i % 5]}`);
  const last = 2023 * 4 + 3;
  function* rows(): Generator<QuarterlyRow> {
    const seen = new Set<string>();
    for (let p = 0; p < pairs; p++) {
      const v = vaccines[Math.floor(rand() ** 2 * vaccines.length)].vax_name;
      const e = events[Math.floor(rand() * events.length)];
      if (seen.has(`${v}|${e}`)) continue;
      seen.add(`${v}|${e}`);
      const length = 10 + Math.floor(rand() * 30);
      let ewma: number | null = null;
      for (let q = last - length + 1; q <= last; q++) {
        const eb05 = rand() * 4;
        const nmf = Math.floor(rand() * 5);
        ewma = ewma === null ? eb05 : 0.3 * eb05 + 0.7 * ewma;
        yield {
          analysis: 'all', drug: v, event: e, quarter: formatQuarter(q), n: 1 + Math.floor(rand() * 50), expected: 1, n_vaccine: 100, n_event: 100, n_reports: 10000,
          qn: 0.5, ebgm: eb05 + 1, eb05, eb50: eb05 + 0.5, eb95: eb05 + 2, prr: 2, prr_lci: 1, prr_uci: 3, prr_chisq: 5, ror: 2, ror_lci: 1, ror_uci: 3,
          ic: 1, ic025: 0.2, ic975: 2, n_methods_flagged: nmf, is_signal_any: nmf >= 1, ewma_eb05: ewma,
        };
      }
    }
  }
  const started = Date.now();
  const n = await writeStore(out, {
    quarterly: rows(), vaccines, windows: [],
    meta: { reports_through: formatQuarter(last), sources: [], parameters: {}, program_version: 'bench', built_at: new Date().toISOString(), origin: 'build', has_ic025: true },
  });
  console.log(`synthetic store: ${n} quarterly rows in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${out}`);
  return out;
}

/**
 * Thousands of distinct /signals URLs drawn from the store's own names (`urls`, shuffled), and
 * one `format=series` URL per served pair (`series`, shuffled), one `/cases` URL per served pair
 * (`cases`, shuffled). In a store with several analyses
 * (every analysis is served), a third of the URLs ask another analysis (`/analyses/NAME/signals`).
 */
export async function workload(storePath: string): Promise<{ urls: string[]; series: string[]; cases: string[] }> {
  const analyses = storeAnalyses(await readStoreMeta(storePath));
  const catalog = await loadCatalog(storePath, analyses.length > 1 ? analyses[0].name : undefined);
  const others = analyses.slice(1).map((a) => a.name);
  const rand = random(11);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const enc = encodeURIComponent;
  const formats = ['json', 'csv', 'series', 'profile', 'brief', 'class'];
  const sorts = ['eb05', 'n', 'latest'];
  const types = [...catalog.vaccinesByUpperType.keys()];
  const codes = [...catalog.vaccinesByUpperCode.keys()];
  const urls = new Set<string>();
  for (let i = 0; urls.size < 6000 && i < 100_000; i++) {
    const pair = pick(catalog.pairs);
    const word = pick(pair.event.split(/\W+/).filter((w) => w.length >= 3)) ?? pair.event;
    const sub = word.slice(0, 3 + Math.floor(rand() * Math.max(1, word.length - 3)));
    const paging = `&sort=${pick(sorts)}&order=${rand() < 0.5 ? 'asc' : 'desc'}&limit=${pick([10, 50, 100])}`;
    const kind = i % 8;
    if (kind === 0) urls.add(`/signals?vaccine=${enc(pair.vaccine)}${paging}`);
    else if (kind === 1) urls.add(`/signals?vaccine=${enc(pick(types))}${paging}&offset=${Math.floor(rand() * 200)}`);
    else if (kind === 2) urls.add(`/signals?vaccine=${enc(pick(codes) ?? pick(types))}${paging}`);
    else if (kind === 3) urls.add(`/signals?event=${enc(sub)}${paging}`);
    else if (kind === 4) urls.add(`/signals?q=${enc(sub)}${paging}`);
    else if (kind === 5) urls.add(`/signals?vaccine=${enc(pair.vaccine)}&event=${enc(pair.event)}&format=${pick(formats)}`);
    else if (kind === 6) urls.add(`/signals?vaccine=${enc(pair.vaccine)}&format=${pick(formats.filter((f) => f !== 'series'))}${paging}`);
    else urls.add(`/signals?q=${enc(sub)}&offset=${Math.floor(rand() * Math.max(1, catalog.pairs.length / 4))}${paging}`);
  }
  const series = catalog.pairs.map((p) => `/signals?vaccine=${enc(p.vaccine)}&event=${enc(p.event)}&format=series`);
  const spread = (url: string): string => (others.length > 0 && rand() < 1 / 3 ? url.replace('/signals?', `/analyses/${pick(others)}/signals?`) : url);
  const cases = catalog.pairs.map((p) => `/cases?vaccine=${enc(p.vaccine)}&event=${enc(p.event)}`);
  return { urls: [...urls].map(spread).sort(() => rand() - 0.5), series: series.sort(() => rand() - 0.5), cases: cases.sort(() => rand() - 0.5) };
}

export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The URL with its `offset` moved by `shift` rows (an `offset=0` is added when absent). */
function shifted(url: string, shift: number): string {
  const m = /([?&])offset=(\d+)/.exec(url);
  if (!m) return `${url}&offset=${shift}`;
  return url.replace(m[0], `${m[1]}offset=${Number(m[2]) + shift}`);
}

interface Row {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

function row(result: AutocannonResult): Row {
  return {
    rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99,
    requests: result.requests.total, non2xx: result.non2xx, errors: result.errors,
  };
}

/** A server child process under benchmark. */
export interface BenchServer {
  base: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 of `probe`, and to /readyz 200 (everything loaded). */
  firstAnswerMs: number;
  allLoadedMs: number;
  stop(): void;
}

/** Spawns `node CLI serve --store STORE` on a free port and waits until /readyz answers 200. */
export async function startServer(cli: string, storePath: string, probe: string): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--store', storePath, '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const poll = async (url: string): Promise<number> => {
    for (;;) {
      try {
        const status = (await fetch(`${base}${url}`)).status;
        // 404: a program older than /readyz (--cli): loaded as far as this can tell.
        if (status === 200 || (status === 404 && url === '/readyz')) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) {
        child.kill('SIGKILL');
        throw new Error(`server did not answer ${url} within 120 s`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const firstAnswerMs = await poll(probe);
  // The other analyses and the case series load after the first answer: /readyz says when all are.
  const allLoadedMs = await poll('/readyz');
  return { base, pid: child.pid!, firstAnswerMs, allLoadedMs, stop: () => child.kill('SIGTERM') };
}

/**
 * A bare `node:http` server in a child process that answers every request with the same 2-byte
 * body (issue 41's constant-answer yardstick): `base` to drive, `stop()` to end it.
 */
export async function plainNodeServer(): Promise<{ base: string; stop(): void }> {
  const port = await freePort();
  const code = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'text/plain'); s.end('ok'); }).listen(${port}, '127.0.0.1')`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 10) {
    try {
      if ((await fetch(base)).status === 200) break;
    } catch {
      if (waited > 10_000) throw new Error('the bare node:http server did not start within 10 s');
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { base, stop: () => child.kill('SIGTERM') };
}

/** Runs autocannon against `base` with the paths `next()` gives (and the extra headers). */
export async function drive(base: string, connections: number, duration: number, next: () => string, headers: Record<string, string> = {}): Promise<AutocannonResult> {
  return autocannon({ url: base, connections, duration, headers, requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: next() }) }] });
}

/** The all-distinct workload: the pageable URLs with fresh offsets on every round, one in eight a series. */
export function distinctPaths(urls: string[], seriesUrls: string[]): () => string {
  const pageable = urls.filter((u) => !u.includes('format=series'));
  let j = 0;
  return () => {
    const k = j++;
    if (k % 8 === 7) return seriesUrls[(k >> 3) % seriesUrls.length];
    return shifted(pageable[k % pageable.length], Math.floor(k / pageable.length));
  };
}

/** The program to benchmark (`--cli`, default dist/cli.js) and the store (`--store` or `--synthetic`). */
export async function benchTarget(): Promise<{ cli: string; storePath: string }> {
  const cli = arg('cli') ?? path.join(repoRoot, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const synthetic = arg('synthetic');
  const storePath = synthetic ? await syntheticStore(Number(synthetic)) : (arg('store') ?? await defaultStorePath((m) => console.error(m)));
  if (!existsSync(storePath)) throw new Error(`store not found: ${storePath} (give --store FILE or --synthetic PAIRS)`);
  return { cli, storePath };
}

async function main(): Promise<void> {
  const { cli, storePath } = await benchTarget();
  const duration = Number(arg('duration') ?? 10);
  const { urls, series: seriesUrls, cases: casesUrls } = await workload(storePath);
  const popular = urls.slice(0, Number(arg('realistic') ?? 200));
  const server = await startServer(cli, storePath, popular[0]);
  try {
    const { base } = server;
    let i = 0;
    const realistic = await drive(base, 32, duration, () => popular[i++ % popular.length]);
    let g = 0;
    const gzip = await drive(base, 32, duration, () => popular[g++ % popular.length], { 'accept-encoding': 'gzip' });
    const distinct = await drive(base, 32, duration, distinctPaths(urls, seriesUrls));
    const constant = await autocannon({ url: `${base}/healthz`, connections: 32, duration });
    let c = 0;
    const cases = await drive(base, 8, duration, () => casesUrls[c++ % casesUrls.length]);
    const rss = peakRssMb(server.pid);
    const plain = await plainNodeServer();
    let bare: AutocannonResult;
    try {
      bare = await autocannon({ url: plain.base, connections: 32, duration });
    } finally {
      plain.stop();
    }
    const limit = constant.requests.average;
    const ratio = (result: AutocannonResult): { ratio: number; ratio_node_http: number } => ({
      ratio: Number((result.requests.average / limit).toFixed(3)), ratio_node_http: Number((result.requests.average / bare.requests.average).toFixed(3)),
    });
    console.log(JSON.stringify({
      store: storePath,
      first_answer_ms: Math.round(server.firstAnswerMs),
      all_loaded_ms: Math.round(server.allLoadedMs),
      realistic: { distinct_urls: popular.length, ...row(realistic), ...ratio(realistic) },
      realistic_gzip: { note: 'Accept-Encoding: gzip (cached compressed bytes)', ...row(gzip), ...ratio(gzip) },
      distinct: { note: 'every URL distinct (answer cache defeated)', ...row(distinct), ...ratio(distinct) },
      cases: { note: '/cases?vaccine=V&event=E, 8 connections, every pair distinct until the pairs run out', distinct_urls: casesUrls.length, ...row(cases) },
      constant: row(constant),
      constant_node_http: { note: 'a bare node:http server in its own process, 32 connections', ...row(bare) },
      peak_rss_mb: rss === null ? null : Number(rss.toFixed(1)),
      targets: { applies_to: 'realistic workload (with and without gzip)', ratio_node_http: '>= 0.6', p99_ms: '<= 20', rss_mb: '<= 600 (issue 41: every analysis, case series and narrative index loaded)', cases_p99_ms: '<= 50 at 8 connections', first_answer_ms: '<= 1000 (embedded default)' },
    }, null, 2));
  } finally {
    server.stop();
  }
}

if (process.argv[1]?.endsWith('serve.ts')) main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
