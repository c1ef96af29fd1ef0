/**
 * The worst-request bench (issue 35, "no request can freeze the server"): starts the real server
 * (`node CLI serve --store STORE`, bench/serve.ts) and for `--duration` seconds (default 30) runs
 * `--attackers` (default 16) concurrent clients sending the costliest requests constructed
 * (WORST below: repeated and many one-letter prefixes, a vaccine x event with text so the search
 * could run twice, cache-defeating offsets and exclusions, common phrases), each client giving up
 * on a request after `--give-up` seconds (default 10, closing the connection: an abandoned request);
 * meanwhile one client polls `/healthz` and another reads popular `/signals` pages, one request
 * at a time, and their latencies are what is printed (p50/p99/max, with the requests that never
 * got an answer within 120 s), first for 10 s without the attack (the machine's own figures), then
 * under it. Then, with the server idle again, each worst request alone once: its status and time
 * (its cost). Asserts nothing.
 * Targets: /healthz p99 <= 100 ms, /signals p99 <= 200 ms under the attack.
 *
 * Figures (default store 1990-2006, 2 cores shared with four other engineers' jobs, load average
 * 7-16; "before" = 9c482b5, the search on the event loop; "after" = the cost model of issue 35):
 *              without attack p99      under attack p99 (p50)            attack requests answered
 *   before     healthz 56, signals 34   healthz 46,127 (54), signals 46,139 (61): 2 answers each in 30 s   0 of 48 (all abandoned at 10 s)
 *   after      healthz 19-42, signals 9-14   healthz 55-105 (11-12), signals 68-90 (14-15)   471-703, none abandoned
 * Each worst request alone, before -> after (ms): repeated_prefix 13,833 -> 400 in 1; two_letter_prefixes
 * 13,500 -> 400 in 1; alphabet_prefixes 1,047 -> 400 in 1; type_prefix_csv 1,047 -> 400 in 1; pair_prefixes
 * 304 -> 400 in 2; common_words 213 -> 174-344; common_phrase 171 (13,416 while the attack's leftovers
 * ran) -> 104-192; capped_prefixes 172 -> 52-99; big_selection_text 256 -> 99-213; big_selection_collapse 431 -> 99-218.
 *
 * Then the export attacks (bench/attack-export.ts): one export alone, 32 exports whose clients
 * leave after 100 ms and 16 concurrent downloads, with the other routes' latencies meanwhile
 * (/healthz, a static file, /interactions/series, a cold /triage window) and the exports'
 * temporary bytes at peak and after.
 *
 * Run: npm run build && npx tsx bench/attack.ts [--store FILE] [--cli dist/cli.js] [--duration 30] [--attackers 16] [--base URL] [--only search|exports]
 *   --cli: the server program (e.g. a build of older code, to measure before a change)
 *   --base: attack a server already running there instead (e.g. one started with --trace-gc)
 */
import { createRequire } from 'node:module';
import { arg, benchTarget, startServer, workload, type AutocannonResult } from './serve.js';
import { random } from './prng.js';
import { exportAttacks } from './attack-export.js';

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult & { timeouts: number; statusCodeStats: Record<string, { count: number }> }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const enc = encodeURIComponent;
const rand = random(35);

/** The worst requests, by name: each a function of a fresh random number (offsets and exclusions that defeat the answer cache). */
const WORST: Record<string, (k: number) => string> = {
  // The issue's request: 66 copies of a one-letter prefix, within a vaccine x event (the search ran twice), 500 rows.
  repeated_prefix: (k) => `/cases?vaccine=FLU3&event=ion&text=${enc(Array(66).fill('s*').join(' '))}&limit=500&offset=${k % 400}`,
  // 26 distinct one-letter prefixes over every report (every vocabulary word expanded).
  alphabet_prefixes: (k) => `/cases?text=${enc('abcdefghijklmnopqrstuvwxyz'.split('').map((c) => `${c}*`).join(' '))}&offset=${k % 1000}`,
  // Many two-letter prefixes (the longest text allowed).
  two_letter_prefixes: (k) => `/cases?text=${enc(['co*', 'pa*', 're*', 'in*', 'st*', 'th*', 'ma*', 'pr*', 'de*', 'ca*', 'ha*', 'di*', 'se*', 'fe*', 'ra*', 'sw*', 'ar*', 'le*', 'po*', 'mo*'].join(' '))}&limit=500&offset=${k % 500}`,
  // Common words with a unique exclusion: a big match set computed afresh every time (the cache never hits).
  common_words: (k) => `/cases?text=${enc(`the and of -zq${k}`)}&limit=500`,
  // A common phrase with a unique exclusion: every candidate's text scanned.
  common_phrase: (k) => `/cases?text=${enc(`"the patient" -"zq${k} x"`)}&limit=500`,
  // Three short prefixes within a pair, with a fresh offset.
  pair_prefixes: (k) => `/cases?vaccine=FLU3&event=ion&text=${enc('sw* pa* re*')}&limit=500&offset=${k % 300}`,
  // Prefixes just under the caps (wae* 995 words, con* 767: 1,762 of the 2,000 allowed), a unique exclusion.
  capped_prefixes: (k) => `/cases?text=${enc(`wae* con* -zq${k}`)}&limit=500`,
  // Half of all reports (q=ion names about 105k) with a common word and a unique exclusion.
  big_selection_text: (k) => `/cases?q=ion&text=${enc(`the -zq${k}`)}&limit=500`,
  // Half of all reports without text, over one of 68 quarter ranges, duplicates collapsed.
  big_selection_collapse: (k) => `/cases?q=ion&duplicates=collapse&from=${1990 + (k % 17)}Q${1 + (k % 4)}&limit=500`,
  // A vaccine type with one-letter prefixes and a unique exclusion, CSV.
  type_prefix_csv: (k) => `/cases?vaccine=FLU3&text=${enc(`p* a* r* -zq${k}`)}&format=csv&limit=500`,
};

/** Nearest-rank percentile of sorted values. */
function rank(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/** p50/p99/max of latencies (ms), with the count and the requests never answered. */
function summary(times: number[], unanswered: number): Record<string, number> {
  const sorted = Float64Array.from(times).sort();
  const r = (x: number): number => Number(x.toFixed(1));
  return { requests: times.length, unanswered, p50_ms: r(rank(sorted, 0.5)), p99_ms: r(rank(sorted, 0.99)), max_ms: r(rank(sorted, 1)) };
}

/** One client sending `next()` one request at a time until `until` (ms, performance.now()): latencies and the unanswered. */
async function probe(base: string, until: number, next: () => string, pause: number): Promise<{ times: number[]; unanswered: number; statuses: Record<number, number> }> {
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  let unanswered = 0;
  while (performance.now() < until) {
    const t = performance.now();
    try {
      const res = await fetch(`${base}${next()}`, { signal: AbortSignal.timeout(120_000) });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    } catch {
      unanswered++;
    }
    if (pause > 0) await new Promise((done) => setTimeout(done, pause));
  }
  return { times, unanswered, statuses };
}

async function main(): Promise<void> {
  const { cli, storePath } = await benchTarget();
  const duration = Number(arg('duration') ?? 30);
  const attackers = Number(arg('attackers') ?? 16);
  const giveUp = Number(arg('give-up') ?? 10);
  const popular = (await workload(storePath)).urls.filter((u) => u.startsWith('/signals?')).slice(0, 200);
  const given = arg('base');
  const server = given ? { base: given, stop: () => {} } : await startServer(cli, storePath, popular[0]);
  try {
    const { base } = server;
    const only = arg('only');
    if (only === 'exports') return await exportAttacks(base);
    // Warm the popular /signals pages (the other client is a regular one, with its cache).
    for (const url of popular) await (await fetch(`${base}${url}`)).arrayBuffer();
    // The same two clients for 10 s without the attack: what the machine gives when nothing else runs here.
    let s = 0;
    const quiet = performance.now() + 10_000;
    const [quietHealth, quietSignals] = await Promise.all([probe(base, quiet, () => '/healthz', 20), probe(base, quiet, () => popular[s++ % popular.length], 0)]);
    console.log(JSON.stringify({ without_attack: { healthz: summary(quietHealth.times, quietHealth.unanswered), signals: summary(quietSignals.times, quietSignals.unanswered) } }, null, 2));
    const kinds = Object.keys(WORST);
    let n = 0;
    const until = performance.now() + duration * 1000;
    const [attack, health, signals] = await Promise.all([
      autocannon({
        url: base, connections: attackers, duration, timeout: giveUp,
        requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: WORST[kinds[n++ % kinds.length]](Math.floor(rand() * 1e9)) }) }],
      }),
      probe(base, until, () => '/healthz', 20),
      probe(base, until, () => popular[s++ % popular.length], 0),
    ]);
    const statuses = Object.fromEntries(Object.entries(attack.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]));
    console.log(JSON.stringify({
      program: cli, store: storePath, seconds: duration, attackers, give_up_s: giveUp,
      attack: { requests: attack.requests.total, timeouts_abandoned: attack.timeouts, errors: attack.errors, statuses, p50_ms: attack.latency.p50, p99_ms: attack.latency.p99 },
      healthz: { ...summary(health.times, health.unanswered), statuses: health.statuses },
      signals: { ...summary(signals.times, signals.unanswered), statuses: signals.statuses },
      targets: { healthz_p99_ms: '<= 100', signals_p99_ms: '<= 200' },
    }, null, 2));
    // Each worst request alone, on the idle server (after the attack's leftovers finish: the
    // requests already received are answered in turn before a new one).
    const waited = performance.now();
    await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(600_000) })).arrayBuffer();
    console.log(JSON.stringify({ leftover_work_after_attack_s: Number(((performance.now() - waited) / 1000).toFixed(1)) }));
    const alone: Record<string, { status: number; ms: number; error?: string }> = {};
    for (const kind of kinds) {
      const t = performance.now();
      const res = await fetch(`${base}${WORST[kind](Math.floor(rand() * 1e9))}`, { signal: AbortSignal.timeout(300_000) });
      const body = await res.text();
      alone[kind] = { status: res.status, ms: Number((performance.now() - t).toFixed(1)), ...(res.status === 200 ? {} : { error: (JSON.parse(body) as { error: string }).error }) };
    }
    console.log(JSON.stringify({ each_worst_request_alone: alone }, null, 2));
    if (only !== 'search') await exportAttacks(base);
  } finally {
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
