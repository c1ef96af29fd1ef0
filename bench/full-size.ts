/**
 * Benchmark at real size (issue 29): builds a VAERS download (the synthetic full-size one of
 * bench/full-download.ts) with `build --analyses default --narratives`, reads the same CSVs with
 * DuckDB's own `read_csv` side by side, serves the store and prints: phase times, peak RSS of
 * the build's process tree (sampled from /proc every 0.5 s; worker threads and DuckDB are inside
 * the process) and the build's own maxRSS, the store's size, the machine's load during the run,
 * serving RSS with the narrative index, `/signals` p99 (distinct and repeated URLs), text search
 * p99 over all reports, a cold `/triage` window, `/cases` of a COVID-19 vaccine x Myocarditis,
 * and the COVID-era fields of a few pairs. Asserts nothing.
 * Targets (issue 29): build <= 20 min and <= 8 GB; read phase within 3x of DuckDB read_csv;
 * serving <= 3 GB; /signals p99 <= 20 ms; text p99 <= 500 ms; cold /triage <= 1 s; /cases <= 1 s.
 *
 * Figures (shared 2-core machine, 24 GB; one run each, 2026-11-27):
 *   full download (2,148,998 reports, 953 MiB CSV + 28 MB gz), --read-only, load 7.6: reader 202 s, 4.37 GiB peak RSS;
 *     DuckDB read_csv 18.5 s (DATA 10.2, VAX 3.7, SYMPTOMS 4.6) -> 10.9x. Load 24: reader 1,049 s, read_csv 230 s (4.6x).
 *   2% sample (242,382 reports; templated narratives), load 22: build 3,356 s (read 218, link 855), 1.78 GiB, store 0.28 GiB;
 *     served at load 5: ready 17 s, RSS 0.80 GiB, /signals p99 7.1 ms, text p99 201 ms, /cases COVID19 x Myocarditis 38 ms,
 *     cold /triage?quarter=2021Q2 113 ms, latest window HTTP 500 (DuckDB memory_limit 64MB of src/serve/store/store-db.ts).
 *   10% sample (398,040 reports; varied narratives), load 4.8: build 861 s (read 12.3, link 61.3, count 66, fits 278,
 *     rows 480), 3.16 GiB, store 0.50 GiB; DuckDB read_csv 9.8 s; served: ready 19 s, RSS 1.21 GiB peak, /signals p99 5.5 ms,
 *     text p99 187 ms, /cases COVID19 x Myocarditis 37 ms, cold /triage?quarter=2021Q2 73 ms, latest window HTTP 500.
 *   full download, whole build (`node dist/cli.js build --analyses default --narratives`, load mean 2.4, max 4.4): 29 min 16 s
 *     (2,921 s CPU), 14.0 GiB peak RSS, store 2.13 GiB; read 103.9 s, counts 11.6, interactions 21.4, fits 351.7, linkage 572 s
 *     in its thread (0.5 s waited), rows 815, write 118.8; DuckDB read_csv 22.0 s -> 4.7x. Served (--skip-build): ready 94.7 s,
 *     RSS 3.40 GiB (3.02 after the queries, VmHWM 5.19), /signals p99 6.0 ms, cold /triage 445 ms (latest), 751 ms (2021Q2),
 *     /cases COVID19 x Myocarditis 118 ms, text p99 1,037 ms (p50 151).
 *   10% sample, 2026-11-28 (issue 41, memory: evidence tables shared, linkage text in chunks, threads let go before the write;
 *     load mean 9.3 before, 19.9 after): peak RSS of the tree 2.98 -> 2.36 GiB (write 2.98 -> 2.36, rows types 2.55 -> 2.13),
 *     the phases' CPU 277 -> 296 s (noise of the load), the store identical (bench/compare-stores.ts).
 *   10% sample, 2026-11-28 (issue 41, fifth round: the narratives in a scratch DuckDB file, not the V8 heap; load mean
 *     10.5 before, 5.8 after): main heap after the read 672 of 806 -> 358 of 414 MiB (used of total), after the
 *     interactions 920 of 958 -> 307 of 379; peak RSS of the tree 2.49 -> 1.94 GiB (write both times); read CPU
 *     12.0 -> 10.4 s, write CPU 15.5 -> 20.0 s; the store identical (bench/compare-stores.ts).
 *   full store served, 2026-11-28 (issue 41, fifth round: the narrative index's texts and postings read from its file, the
 *     VAX and event strings as codes; main then this code on the same store, load 5-7): RSS at ready 3.13 -> 1.59 GiB (first
 *     start, index built), 2.87 -> 1.34 GiB (second start), ready 23.0 -> 23.5 s (second), text p99 1,099 -> 716 ms,
 *     cold /triage 1,003 -> 1,274 ms (latest; 830-945 in other runs), /signals p99 15.9 -> 7.0 ms.
 *
 * Run: npm run build && nice -n 10 npx tsx bench/full-size.ts --vaers DIR [--store FILE] [--skip-build] [--skip-duckdb] [--read-only]
 *   --read-only  the read phase alone (the build's: readVaersWithDuckdb with the narratives, in a child process, RSS sampled) and DuckDB's read_csv; no build
 *                (with --duckdb-only: DuckDB's read_csv alone)
 *   --vaers  the download (e.g. ~/.cache/reporting-signals-bench/full-29-1 from bench/full-download.ts)
 *   --store  the store to write (default DIR/../<name of DIR>.duckdb); --skip-build serves it as it is
 *   With REPORTING_SIGNALS_MEMORY=1 in the environment, the build's memory after each phase is printed too
 *   (src/ingest/mining/progress.ts memoryLine: the main thread's heap and array buffers, the process's RSS).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BuildSummary } from '../src/ingest/mining/summary.js';
import { gib, processMemory, quantile, startServe, timeAll, timedGet, TreeSampler } from './full-size/measure.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** A phase of the build: its wall and CPU seconds (the build's `done in` line) and the process tree's peak RSS sampled since the previous phase ended (bytes). */
interface Phase {
  name: string;
  wall: number;
  cpu: number;
  peakRss: number;
}

/** Runs the build; returns its summary, the phases' "done in" lines with their seconds, wall time, and the sampled tree RSS and load. */
async function build(vaers: string, out: string): Promise<{ summary: BuildSummary; phases: Phase[]; wall: number; peakRss: number; load: { mean: number; max: number } }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'build', '--vaers', vaers, '--analyses', 'default', '--narratives', '--out', out], {
    cwd: repoRoot, env: { ...process.env, REPORTING_SIGNALS_SUMMARY_JSON: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const sampler = new TreeSampler(child.pid as number);
  let stderr = '';
  const phases: Phase[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const line of chunk.toString().split('\n')) {
      const m = /^(.+?): done in ([\d.]+) s(?: \(cpu ([\d.]+) s\))?/.exec(line);
      if (m) {
        phases.push({ name: m[1], wall: Number(m[2]), cpu: m[3] === undefined ? NaN : Number(m[3]), peakRss: sampler.takePeak() });
        console.log(`  [${((performance.now() - started) / 1000).toFixed(0)} s] ${line}`);
      } else if (line.includes(': memory MiB: ')) console.log(`    ${line}`); // REPORTING_SIGNALS_MEMORY set (progress.ts memoryLine)
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { peakRss, load } = sampler.stop();
  const line = stderr.split('\n').find((l) => l.startsWith('SUMMARY_JSON '));
  if (code !== 0 || !line) throw new Error(`build failed (exit ${code}):\n${stderr.slice(-3000)}`);
  return { summary: JSON.parse(line.slice('SUMMARY_JSON '.length)) as BuildSummary, phases, wall: (performance.now() - started) / 1000, peakRss, load };
}

/**
 * The reader alone (readVaersWithDuckdb with the narratives into a scratch text file beside the
 * download, as the build calls it) in a child process: its seconds, reports and the tree's peak RSS.
 */
async function readOnly(vaers: string): Promise<{ seconds: number; peakRss: number; load: { mean: number; max: number }; output: string }> {
  const module = (name: string): string => JSON.stringify(path.join(repoRoot, 'dist', 'ingest', 'vaers', name));
  const scratch = JSON.stringify(path.join(path.dirname(path.resolve(vaers)), `read-only-${process.pid}`));
  const script = `const { readVaersWithDuckdb } = await import(${module('duckdb-read.js')}); const { ReportText } = await import(${module('report-text.js')});
    const t0 = performance.now(); const text = await ReportText.create(${scratch} + '.text');
    const d = await readVaersWithDuckdb(${JSON.stringify(vaers)}, { narratives: true, text, scratch: ${scratch} + '.read' }); await text.remove();
    console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, reports: d.reports.length, read: d.reportsRead, versions: d.versions, heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20) }));`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const sampler = new TreeSampler(child.pid as number);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { peakRss, load } = sampler.stop();
  if (code !== 0) throw new Error(`the read failed (exit ${code})`);
  return { seconds: (performance.now() - started) / 1000, peakRss, load, output: output.trim() };
}

/** DuckDB's read_csv over the download's files of each kind into a table (all columns as text; DuckDB's UTF-8 reading with ignore_errors: its latin-1 refuses these files and its UTF-8 refuses a row with a Windows-1252 byte, which it then skips; the row counts are printed): seconds per kind. */
async function duckdbRead(vaers: string): Promise<Record<string, number>> {
  const file = path.join(path.dirname(vaers), `duckdb-read-${process.pid}.duckdb`);
  const db = await DuckDBInstance.create(file);
  const connection = await db.connect();
  const seconds: Record<string, number> = {};
  try {
    for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) {
      const files = readdirSync(vaers).filter((n) => new RegExp(`^\\d{4}VAERS${kind}\\.csv(\\.gz)?$`).test(n)).map((n) => `'${path.join(vaers, n)}'`);
      const t0 = performance.now();
      await connection.run(`CREATE TABLE t_${kind} AS SELECT * FROM read_csv([${files.join(',')}], union_by_name = true, all_varchar = true, header = true, strict_mode = false, ignore_errors = true)`);
      seconds[kind] = (performance.now() - t0) / 1000;
      const rows = (await connection.runAndReadAll(`SELECT count(*) FROM t_${kind}`)).getRows()[0][0];
      console.log(`  duckdb read_csv ${kind}: ${seconds[kind].toFixed(1)} s, ${rows} rows`);
    }
  } finally {
    connection.closeSync();
    db.closeSync();
    rmSync(file, { force: true });
    rmSync(`${file}.wal`, { force: true });
  }
  return seconds;
}

/**
 * Serves the store and measures memory and latencies; prints as it goes. The first start builds
 * the narrative index (unless `<store>.narratives` is already this store's); a second start then
 * loads it from that file (src/serve/narratives/index-file.ts): both times are printed.
 */
async function serve(store: string): Promise<void> {
  const { child, base, seconds } = await startServe(cli, store);
  try {
    const pid = child.pid as number;
    console.log(`serve: ready in ${seconds.toFixed(1)} s, RSS ${gib(processMemory(pid).rss)}, CPU ${cpuSecondsOf(pid).toFixed(1)} s`);

    const triage = await timedGet(`${base}/triage?limit=50`);
    const triage2021 = await timedGet(`${base}/triage?quarter=2021Q2&limit=50`);
    console.log(`cold /triage (latest window): ${triage.ms.toFixed(0)} ms (status ${triage.status}); cold /triage?quarter=2021Q2: ${triage2021.ms.toFixed(0)} ms`);

    const covidCases = await timedGet(`${base}/cases?vaccine=COVID19&event=Myocarditis&limit=50`);
    const nReports = (covidCases.body as { n_reports?: number }).n_reports;
    console.log(`/cases?vaccine=COVID19&event=Myocarditis: ${covidCases.ms.toFixed(0)} ms (status ${covidCases.status}, n_reports ${nReports}); again ${(await timedGet(`${base}/cases?vaccine=COVID19&event=Myocarditis&limit=50`)).ms.toFixed(0)} ms`);

    const vaccines = ((await timedGet(`${base}/vaccines`)).body as { vaccines?: { vaccine?: string; name?: string }[] }).vaccines ?? [];
    const names = vaccines.map((v) => v.vaccine ?? v.name ?? '').filter(Boolean).slice(0, 60);
    const events = ['Pyrexia', 'Headache', 'Rash', 'Syncope', 'Myocarditis', 'Pain', 'Urticaria', 'Seizure', 'Intussusception', 'Guillain-Barre syndrome'];
    const signalUrls = names.flatMap((v, i) => [`${base}/signals?vaccine=${encodeURIComponent(v)}`, `${base}/signals?vaccine=${encodeURIComponent(v)}&event=${encodeURIComponent(events[i % events.length])}`]);
    signalUrls.push(...events.map((e) => `${base}/signals?event=${encodeURIComponent(e)}`), `${base}/signals?vaccine=COVID19&limit=100`);
    const distinct = await timeAll(signalUrls);
    const repeated = await timeAll([...signalUrls, ...signalUrls, ...signalUrls]);
    console.log(`/signals: ${signalUrls.length} distinct URLs p50 ${quantile(distinct.ms, 0.5).toFixed(1)} ms, p99 ${quantile(distinct.ms, 0.99).toFixed(1)} ms; ` +
      `repeated (x3) p50 ${quantile(repeated.ms, 0.5).toFixed(1)} ms, p99 ${quantile(repeated.ms, 0.99).toFixed(1)} ms; statuses ${[...new Set(distinct.statuses)].join(',')}`);

    const words = ['myocarditis', 'fever', '"chest pain"', 'rash', 'syncope', 'pain*', 'headache -fever', 'seizure', 'urticaria', 'pfizer', 'moderna', 'shingrix',
      'hospital', 'released', '"urgent care"', 'recovered', 'swelling', 'dizziness', 'nausea', 'fatigue', 'injection*', 'arm', 'lisinopril', 'asthma', 'penicillin',
      'mother', 'ongoing', 'guillain', 'anaphylaxis', 'death', 'vomiting', 'chills', 'myalgia', 'erythema', 'pruritus', 'diarrhoea', 'dyspnoea', 'tachycardia', 'paraesthesia', 'malaise'];
    const text = await timeAll(words.map((w) => `${base}/cases?text=${encodeURIComponent(w)}&limit=50`));
    console.log(`text search over all reports: ${words.length} queries p50 ${quantile(text.ms, 0.5).toFixed(0)} ms, p99 ${quantile(text.ms, 0.99).toFixed(0)} ms, max ${Math.max(...text.ms).toFixed(0)} ms; statuses ${[...new Set(text.statuses)].join(',')}`);

    await covidFields(base, vaccines);
    const mem = processMemory(pid);
    console.log(`serve: RSS after the queries ${gib(mem.rss)}, peak (VmHWM) ${gib(mem.hwm)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
  const again = await startServe(cli, store);
  const pid = again.child.pid as number;
  console.log(`serve again (the narrative index from ${store}.narratives): ready in ${again.seconds.toFixed(1)} s, RSS ${gib(processMemory(pid).rss)}, CPU ${cpuSecondsOf(pid).toFixed(1)} s`);
  again.child.kill('SIGTERM');
}

/** CPU seconds (user + system, every thread) of a process so far, from /proc/PID/stat. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Prints the COVID-era fields of a COVID-19 pair, a non-COVID pair peaking in 2021Q1-2022Q4, and a pair with quarters on both sides of 2021. */
async function covidFields(base: string, vaccines: { vaccine?: string; vax_type?: string; flagged_pairs?: number }[]): Promise<void> {
  type PairFields = { vaccine: string; event: string; eb05_peak_pre2021: number | null; eb05_peak_pre2021_quarter: string | null; eb05_peak_quarter: string; peak_in_covid_era: boolean; background_note: string | null; vax_type: string };
  const pairsOf = async (query: string): Promise<PairFields[]> => {
    const body = (await timedGet(`${base}/signals?${query}&limit=500`)).body;
    return Array.isArray(body) ? (body as PairFields[]) : [];
  };
  const show = (label: string, p: PairFields | undefined): void => console.log(`  ${label}: ${p ? JSON.stringify({ vaccine: p.vaccine, event: p.event, eb05_peak_quarter: p.eb05_peak_quarter, eb05_peak_pre2021: p.eb05_peak_pre2021, eb05_peak_pre2021_quarter: p.eb05_peak_pre2021_quarter, peak_in_covid_era: p.peak_in_covid_era, background_note: p.background_note }) : 'none found'}`);
  console.log('COVID-era fields:');
  const covid = await pairsOf('vaccine=COVID19&event=Myocarditis');
  show('COVID-19 x Myocarditis', covid[0]);
  const all: PairFields[] = [];
  for (const v of vaccines.filter((x) => x.vax_type !== 'COVID19' && (x.flagged_pairs ?? 0) > 0).slice(0, 80)) all.push(...(await pairsOf(`vaccine=${encodeURIComponent(v.vaccine ?? '')}`)));
  show('non-COVID pair peaking in 2021Q1-2022Q4', all.find((p) => p.vax_type !== 'COVID19' && p.peak_in_covid_era));
  show('pair with quarters before and after 2021', all.find((p) => p.eb05_peak_pre2021 !== null && p.eb05_peak_quarter >= '2021Q1'));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const vaers = path.resolve(option(argv, '--vaers') ?? '');
  if (!option(argv, '--vaers') || !existsSync(vaers)) {
    console.log('bench/full-size: pass --vaers DIR (a download, e.g. from bench/full-download.ts); nothing to measure');
    return;
  }
  const store = path.resolve(option(argv, '--store') ?? `${vaers}.duckdb`);
  console.log(`bench/full-size on ${vaers}`);
  let readSeconds = NaN;
  if (argv.includes('--read-only')) {
    if (!argv.includes('--duckdb-only')) {
      const r = await readOnly(vaers);
      console.log(`read phase alone (the build's, narratives): ${r.output}; wall ${r.seconds.toFixed(0)} s; peak RSS of the process ${gib(r.peakRss)}; load average mean ${r.load.mean.toFixed(1)}, max ${r.load.max.toFixed(1)} (2 cores)`);
      readSeconds = (JSON.parse(r.output) as { seconds: number }).seconds;
    }
    const d = await duckdbRead(vaers);
    const total = d.DATA + d.VAX + d.SYMPTOMS;
    console.log(`duckdb read_csv of the same files: ${total.toFixed(1)} s; the reader ${readSeconds.toFixed(0)} s = ${(readSeconds / total).toFixed(1)}x`);
    return;
  }
  if (!argv.includes('--skip-build')) {
    const b = await build(vaers, store);
    const s = b.summary;
    readSeconds = s.seconds.read;
    console.log(`build: ${s.reportsRead} reports read, ${s.reportsKept} kept; wall ${b.wall.toFixed(0)} s; read ${s.seconds.read} s, count ${s.seconds.count} s, total ${s.seconds.total} s`);
    console.log(`  follow-ups: ${JSON.stringify(s.versions)}`);
    console.log(`  peak RSS: process tree sampled ${gib(b.peakRss)}, build's maxRSS ${gib(s.peakRssBytes)}; load average during the build: mean ${b.load.mean.toFixed(1)}, max ${b.load.max.toFixed(1)} (2 cores)`);
    console.log('  phase                      wall s   cpu s   peak RSS of the tree (since the previous phase)');
    for (const p of b.phases) console.log(`  ${p.name.padEnd(24)} ${p.wall.toFixed(1).padStart(8)} ${p.cpu.toFixed(1).padStart(7)}   ${gib(p.peakRss)}`);
    console.log(`  analyses: ${s.analyses.map((a) => `${a.name} ${a.reports} reports ${a.pairs} pairs ${a.rows} rows`).join('; ')}`);
  }
  console.log(`store: ${store} ${gib(statSync(store).size)}`);
  if (!argv.includes('--skip-duckdb')) {
    const d = await duckdbRead(vaers);
    const total = d.DATA + d.VAX + d.SYMPTOMS;
    console.log(`duckdb read_csv of the same files: ${total.toFixed(1)} s; the build's read phase ${readSeconds} s = ${(readSeconds / total).toFixed(1)}x`);
  }
  await serve(store);
}

await main();
