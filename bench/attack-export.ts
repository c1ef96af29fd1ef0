/**
 * The bulk export attacks of bench/attack.ts (issue 45: "bulk exports that cannot starve the
 * server or leak"), run against a server at `base`. Prints, asserting nothing:
 * - `alone`: time to first byte and to the last byte of one `/export?table=quarterly&format=csv`
 *   (the largest CSV) on the idle server, first cold, then once more (served again);
 * - `leaving`: 32 exports over every table, format and analysis, each client leaving after 100 ms,
 *   while four clients send the requests other people need one at a time: `/healthz`, an
 *   explorer file (`/explorer/js/app.js`, a static file), `/interactions/series` and a cold
 *   `/triage` window (a new quarter each time): their p50/p99/max and statuses over the 30 s from
 *   the first export, with the temporary bytes of the exports sampled every 250 ms (peak) and
 *   once the server is idle again (after);
 * - `concurrent`: 16 clients downloading `/analyses/stratified/export?table=quarterly&format=csv`
 *   at once (a file not asked before: the 32 leaving exports stopped theirs): the time to first
 *   byte (p50, max) and to the end, and the same probes' figures meanwhile.
 * Temporary bytes: every file under the system's temporary folder whose top folder starts with
 * `reporting-signals-export` (the old per-export folders and the process's own exports folder).
 *
 * Figures (default store 1990-2006, 2 cores shared, load 10-16; before = main at 3009519, after =
 * issue 45; two runs each, details in /work/wt/notes/issue-45.md):
 *   32 exports leaving: static file, /interactions/series, cold /triage: before 503 at the 10 s
 *   deadline (3 answers each in 30 s, or 2 of 20-50), after all 200, p99 0.3-2.5 s; temp peak 521-694 MB -> 122 MB.
 *   16 concurrent cold downloads of a 121 MB CSV: first byte p50 73-75 s -> 9.9 s; probes all 503 -> all 200;
 *   temp peak 1.9 GB -> 243 MB (cached files, removed with their store).
 */
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const enc = encodeURIComponent;

/** Bytes of the files under `dir` (0 when it vanished meanwhile). */
function bytesUnder(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? bytesUnder(full) : statSync(full).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

/** Temporary bytes of the exports (see the file comment). */
export function exportTempBytes(): number {
  const root = tmpdir();
  let total = 0;
  for (const name of readdirSync(root)) if (name.startsWith('reporting-signals-export')) total += bytesUnder(path.join(root, name));
  return total;
}

/** Nearest-rank percentile of sorted values. */
function rank(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

function figures(times: number[]): { n: number; p50_ms: number; p99_ms: number; max_ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const r = (x: number): number => Math.round(x);
  return { n: times.length, p50_ms: r(rank(sorted, 0.5)), p99_ms: r(rank(sorted, 0.99)), max_ms: r(rank(sorted, 1)) };
}

/** One request: ms to the first byte of the body and to its end, and the status (0: no answer within `limitMs`). */
async function timed(url: string, limitMs = 300_000): Promise<{ status: number; firstMs: number; totalMs: number; bytes: number }> {
  const t = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(limitMs) });
    const reader = res.body!.getReader();
    let firstMs = NaN;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (Number.isNaN(firstMs)) firstMs = performance.now() - t;
      if (done) break;
      bytes += value.byteLength;
    }
    return { status: res.status, firstMs, totalMs: performance.now() - t, bytes };
  } catch {
    return { status: 0, firstMs: NaN, totalMs: performance.now() - t, bytes: 0 };
  }
}

/** The other routes' requests: each a function of the request's number. */
function probeUrls(): Record<string, (k: number) => string> {
  const quarters: string[] = [];
  for (let year = 2006; year >= 1991; year--) for (let q = 4; q >= 1; q--) quarters.push(`${year}Q${q}`);
  let cold = 0;
  return {
    healthz: () => '/healthz',
    static_file: () => '/explorer/js/app.js',
    interactions_series: () => `/interactions/series?vaccine1=${enc('VARICELLA (VARIVAX)')}&vaccine2=${enc('MEASLES + MUMPS + RUBELLA (MMR II)')}&event=${enc('Febrile convulsion')}`,
    // A window not read before by this server (each quarter of each analysis once).
    cold_triage: () => {
      const k = cold++;
      const analyses = ['stratified', 'all', 'death', 'types'];
      return `/analyses/${analyses[Math.floor(k / quarters.length) % analyses.length]}/triage?quarter=${quarters[k % quarters.length]}&limit=5`;
    },
  };
}

/** Runs one client per probe, one request at a time, until `until` (performance.now()). */
async function probes(base: string, urls: Record<string, (k: number) => string>, until: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await Promise.all(Object.entries(urls).map(async ([name, next]) => {
    const times: number[] = [];
    const statuses: Record<number, number> = {};
    let k = 0;
    while (performance.now() < until) {
      const r = await timed(`${base}${next(k++)}`, 120_000);
      times.push(r.totalMs);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      await new Promise((done) => setTimeout(done, 50));
    }
    out[name] = { ...figures(times), statuses };
  }));
  return out;
}

/** Samples the exports' temporary bytes every 250 ms until `stop()`; returns the peak. */
function sampleTemp(): { stop: () => number } {
  let peak = exportTempBytes();
  const timer = setInterval(() => { peak = Math.max(peak, exportTempBytes()); }, 250);
  return { stop: () => { clearInterval(timer); return Math.max(peak, exportTempBytes()); } };
}

const mb = (bytes: number): number => Number((bytes / 1e6).toFixed(1));

/** Every export URL of the store (tables x formats x analyses), for attacks that defeat a cache. */
async function everyExport(base: string): Promise<string[]> {
  const listing = (await (await fetch(`${base}/analyses`)).json()) as { analyses: Array<{ name: string }> };
  const urls: string[] = [];
  for (const format of ['csv', 'parquet']) {
    for (const table of ['reports', 'report_vaccines', 'report_events']) urls.push(`/export?table=${table}&format=${format}`);
    for (const { name } of listing.analyses) for (const table of ['quarterly', 'pairs']) urls.push(`/analyses/${enc(name)}/export?table=${table}&format=${format}`);
  }
  return urls;
}

/** Waits until the server answers /healthz and the exports' temporary bytes stop changing (at most `limitS`). */
async function settle(base: string, limitS: number): Promise<number> {
  const t = performance.now();
  await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(limitS * 1000) })).arrayBuffer();
  let last = -1;
  while (performance.now() - t < limitS * 1000) {
    const now = exportTempBytes();
    if (now === last) break;
    last = now;
    await new Promise((done) => setTimeout(done, 2000));
  }
  return (performance.now() - t) / 1000;
}

/** The export attacks (see the file comment); prints one JSON object per attack. */
export async function exportAttacks(base: string): Promise<void> {
  const urls = probeUrls();
  const quiet = performance.now() + 10_000;
  console.log(JSON.stringify({ exports_without_attack: await probes(base, urls, quiet) }, null, 2));

  const big = `${base}/export?table=quarterly&format=csv`;
  const cold = await timed(big);
  const again = await timed(big);
  console.log(JSON.stringify({ export_alone: { url: '/export?table=quarterly&format=csv', mb: mb(cold.bytes), cold: { status: cold.status, first_byte_ms: Math.round(cold.firstMs), total_ms: Math.round(cold.totalMs) }, again: { status: again.status, first_byte_ms: Math.round(again.firstMs), total_ms: Math.round(again.totalMs) } } }, null, 2));

  // 32 exports that leave after 100 ms, over every file (no cache can answer them all).
  const every = await everyExport(base);
  const temp = sampleTemp();
  const start = performance.now();
  const leaving = Array.from({ length: 32 }, async (_, i) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    try {
      const res = await fetch(`${base}${every[i % every.length]}`, { signal: controller.signal });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 'left';
    }
  });
  const during = await probes(base, urls, start + 30_000);
  const left = await Promise.all(leaving);
  const peak = temp.stop();
  const atEnd = exportTempBytes();
  const waited = await settle(base, 300);
  console.log(JSON.stringify({
    exports_leaving: {
      exports: 32, distinct_files: Math.min(32, every.length), leave_after_ms: 100, outcomes: left.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
      probes_over_30_s: during, temp_mb_peak: mb(peak), temp_mb_at_30_s: mb(atEnd), temp_mb_after_idle: mb(exportTempBytes()), seconds_to_idle: Number(waited.toFixed(1)),
    },
  }, null, 2));

  // 16 clients reading a large CSV not asked before, at once.
  const cold16 = '/analyses/stratified/export?table=quarterly&format=csv';
  const temp16 = sampleTemp();
  const start16 = performance.now();
  const downloads = Promise.all(Array.from({ length: 16 }, () => timed(`${base}${cold16}`)));
  const probing = probes(base, urls, start16 + 20_000);
  const done = await downloads;
  const during16 = await probing;
  const peak16 = temp16.stop();
  await settle(base, 300);
  const firsts = done.filter((d) => d.status === 200).map((d) => d.firstMs);
  console.log(JSON.stringify({
    exports_concurrent: {
      exports: 16, url: cold16, mb: mb(Math.max(...done.map((d) => d.bytes))), statuses: done.reduce<Record<number, number>>((m, d) => ({ ...m, [d.status]: (m[d.status] ?? 0) + 1 }), {}),
      first_byte: figures(firsts), last_byte_max_ms: Math.round(Math.max(...done.map((d) => d.totalMs))),
      probes_over_20_s: during16, temp_mb_peak: mb(peak16), temp_mb_after_idle: mb(exportTempBytes()),
    },
  }, null, 2));
}
