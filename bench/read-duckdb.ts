/**
 * The read phase two ways on one download (issue 41, "DuckDB reads and joins"), one way per run so
 * each gets its own process's figures: `--mode stream` is readVaers with the narratives (the
 * build's read today); `--mode duckdb` is the DuckDB path (transcode.ts + record-lines.ts + duckdb-load.ts
 * read_csv into a database file beside the download, then duckdb-join.ts's latest versions and
 * join, duckdb-reports.ts's report lists and duckdb-skips.ts's skip tally), the database removed at
 * the end. Prints wall and CPU seconds, the process's peak RSS (maxRSS: DuckDB's threads are inside
 * it), the V8 heap used at the end, and the reports kept. `--mode compare` runs both and says
 * whether the skip tallies (counts, examples naming file and line) and the report lists with their
 * numbering, VAX_TYPE codes and follow-up counts are equal; counts the reports whose id, vaccines,
 * events or SYMPTOM_TEXT (its exact characters) differ, in reading order, and the rows of the three
 * raw tables whose `line` or VAERS_ID cell differs from the streaming reader's (csv.ts) records.
 * `--mode before` is readVaers as the build called it before the DuckDB read (narratives appended to a
 * scratch text file); `--mode build` is the build's read (duckdb-read.ts readVaersWithDuckdb: all of the above, the report
 * details and the narratives copied into a scratch text file); `--mode details` runs readVaers and
 * the build's read and counts the reports whose resolved values differ (every report column with its
 * strings resolved, VAX rows, events with versions, the narratives read back from the text file),
 * and says whether the unreadable cells' tally (examples naming file and line), the lists and skips are equal.
 * `build` and `details` print each step of the build's read on standard error as it ends, with the RSS and the process's CPU seconds then.
 * Compare with `bench/full-size.ts --read-only --duckdb-only` (DuckDB's plain read_csv). Asserts nothing.
 *
 * Run: nice -n 10 npx tsx bench/read-duckdb.ts --vaers DIR --mode stream|duckdb|compare|before|build|details
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { joinVaersTables } from '../src/ingest/vaers/duckdb-join.js';
import { vaersSkipped } from '../src/ingest/vaers/duckdb-skips.js';
import { vaersReportLists, type VaersReportLists } from '../src/ingest/vaers/duckdb-reports.js';
import { loadVaersTables, RAW_TABLES } from '../src/ingest/vaers/duckdb-load.js';
import { readCsv } from '../src/ingest/vaers/csv.js';
import { readVaers, type VaersData } from '../src/ingest/vaers/read.js';
import { readVaersWithDuckdb } from '../src/ingest/vaers/duckdb-read.js';
import { ReportText } from '../src/ingest/vaers/report-text.js';
import { resolvedReports } from './resolved-details.js';
import { openMember, scanFolder, SourceHashes, type VaersFolder } from '../src/ingest/vaers/sources.js';

const argv = process.argv.slice(2);
const vaers = argv[argv.indexOf('--vaers') + 1];
const mode = argv[argv.indexOf('--mode') + 1];
if (argv.indexOf('--vaers') < 0 || !['stream', 'duckdb', 'compare', 'before', 'build', 'details'].includes(mode)) {
  console.log('bench/read-duckdb: pass --vaers DIR --mode stream|duckdb|compare|before|build|details; nothing to measure');
} else if (mode === 'build' || mode === 'details' || mode === 'before') {
  await buildRead(mode);
} else {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let kept = 0;
  const phases: string[] = [];
  let streamed: string[] = [];
  let streamedCounts = '';
  let streamedLists = '';
  let streamedSources = '';
  if (mode !== 'duckdb') {
    const data = await readVaers(vaers, { narratives: true });
    kept = data.reports.length;
    const names = (list: number[], of: string[]): string[] => list.map((k) => of[k]).sort();
    streamedCounts = JSON.stringify({ reportsRead: data.reportsRead, kept, skipped: data.skipped });
    if (mode === 'compare') streamedLists = listsJson(data);
    streamedSources = JSON.stringify(data.sources);
    if (mode === 'compare') streamed = data.reports.map((r, i) => JSON.stringify([r.id, names(r.vaccines, data.vaccines), names(r.events, data.events), data.details.narrative?.[i] ?? null]));
  }
  if (mode !== 'stream') {
    const scratch = await mkdtemp(path.join(path.dirname(path.resolve(vaers)), 'read-duckdb-'));
    const db = await DuckDBInstance.create(path.join(scratch, 'read.duckdb'));
    const connection = await db.connect();
    const folder = await scanFolder(vaers, false);
    try {
      const step = (name: string, seconds: number): void => void phases.push(`${name} ${seconds.toFixed(1)} s`);
      const hashes = new SourceHashes(folder);
      await loadVaersTables(folder, connection, scratch, step, { hashes });
      await joinVaersTables(connection, step);
      let t1 = performance.now();
      const lists = await vaersReportLists(connection);
      step('report lists', (performance.now() - t1) / 1000);
      t1 = performance.now();
      const skips = await vaersSkipped(connection, folder);
      step('skips', (performance.now() - t1) / 1000);
      kept = lists.reports.length;
      if (mode === 'compare') {
        const sorted = (list: unknown): string[] => [...(list as string[])].sort();
        const rows = (await connection.runAndReadAll(`SELECT r.id::DOUBLE AS id, r.vaccines, r.events, CASE WHEN trim(d.SYMPTOM_TEXT) <> '' THEN d.SYMPTOM_TEXT END AS text
          FROM vaers_reports r JOIN raw_data d ON d.rowid = r.seq ORDER BY r.seq`)).getRowObjectsJS();
        let differ = Math.abs(rows.length - streamed.length);
        rows.forEach((r, i) => { if (JSON.stringify([r.id, sorted(r.vaccines), sorted(r.events), r.text]) !== streamed[i]) differ++; });
        phases.push(`compare: ${rows.length} joined, ${streamed.length} streamed, ${differ} differ`);
        phases.push(`lines: ${await linesDiffer(folder, connection)} rows differ`);
        phases.push(`sources' sha256: ${JSON.stringify(await hashes.list()) === streamedSources ? 'equal' : 'DIFFER'}`);
        phases.push(`report lists, names, VAX_TYPE codes, versions: ${listsJson(lists) === streamedLists ? 'equal' : 'DIFFER'}`);
        const counts = JSON.stringify(skips);
        phases.push(`skips (counts and examples): ${counts === streamedCounts ? 'equal' : 'DIFFER'}`);
        console.log(`skips, DuckDB: ${counts}\nskips, readVaers: ${streamedCounts}`);
      }
    } finally {
      folder.close();
      connection.closeSync();
      db.closeSync();
      await rm(scratch, { recursive: true, force: true });
    }
  }
  console.log(`read ${mode} ${vaers}: ${kept} reports kept; ${figures(t0, cpu0, phases.join(', ') || 'one phase')}`);
}

/** Rows of the raw tables whose (group, VAERS_ID cell, line) differ from the streaming reader's records, in reading order. */
async function linesDiffer(folder: VaersFolder, connection: DuckDBConnection): Promise<number> {
  let differ = 0;
  for (const kind of ['DATA', 'VAX', 'SYMPTOMS'] as const) {
    const streamed: string[] = [];
    for (const [grp, group] of folder.groups.entries()) {
      let idAt = 0;
      const member = group.members[kind];
      await readCsv(await openMember(member, folder, () => undefined, null), member.where, {
        onHeader: (columns) => void (idAt = columns.get('VAERS_ID') ?? 0),
        onRecord: (fields, line) => void streamed.push(`${grp} ${fields[idAt]} ${line}`),
      });
    }
    const loaded = (await connection.runAndReadAll(`SELECT grp, VAERS_ID, line FROM ${RAW_TABLES[kind]} ORDER BY rowid`)).getRows();
    differ += Math.abs(loaded.length - streamed.length);
    loaded.forEach((r, i) => { if (`${String(r[0])} ${String(r[1])} ${String(r[2])}` !== streamed[i]) differ++; });
  }
  return differ;
}

/** `--mode build` (the build's read alone), `--mode details` (readVaers first, then compared) or `--mode before` (readVaers into a text file). */
async function buildRead(which: 'build' | 'details' | 'before'): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const notes: string[] = [];
  let streamed: { resolved: string[]; unparseable: string; rest: string } | null = null;
  if (which === 'details') {
    const data = await readVaers(vaers, { narratives: true });
    streamed = { resolved: await resolvedReports(data), unparseable: JSON.stringify(data.details.unparseable), rest: restJson(data) };
  }
  const scratch = await mkdtemp(path.join(path.dirname(path.resolve(vaers)), 'read-build-'));
  const text = await ReportText.create(path.join(scratch, 'text.duckdb'));
  try {
    const t1 = performance.now();
    if (which === 'before') {
      const data = await readVaers(vaers, { narratives: true, text });
      await text.finishWriting();
      console.log(`read before ${vaers}: ${data.reports.length} reports kept; ${figures(t0, cpu0, 'one phase')}`);
      return;
    }
    const onStep = (name: string, seconds: number): void => {
      notes.push(`${name} ${seconds.toFixed(1)} s`);
      const used = process.cpuUsage(cpu0);
      console.error(`  step ${name} ${seconds.toFixed(1)} s, RSS ${(process.memoryUsage().rss / 2 ** 30).toFixed(2)} GiB, process CPU so far ${((used.user + used.system) / 1e6).toFixed(1)} s`);
    };
    const data = await readVaersWithDuckdb(vaers, { narratives: true, text, scratch: path.join(scratch, 'read'), onStep });
    notes.push(`build's read ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    if (streamed) {
      const resolved = await resolvedReports(data);
      let differ = Math.abs(resolved.length - streamed.resolved.length);
      resolved.forEach((r, i) => {
        if (r !== streamed.resolved[i]) {
          if (differ < 3) console.log(`differ at ${i}:\n  duckdb ${r}\n  stream ${streamed.resolved[i]}`);
          differ++;
        }
      });
      notes.push(`details: ${resolved.length} reports, ${differ} differ`);
      notes.push(`unparseable: ${JSON.stringify(data.details.unparseable) === streamed.unparseable ? 'equal' : 'DIFFER'}`);
      notes.push(`lists, skips, reportsRead, sources, versions: ${restJson(data) === streamed.rest ? 'equal' : 'DIFFER'}`);
    }
    console.log(`read ${which} ${vaers}: ${data.reports.length} reports kept; ${figures(t0, cpu0, notes.join(', '))}`);
  } finally {
    await text.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Wall and CPU seconds since `t0`/`cpu0` (with `phases`), the process's peak RSS and the V8 heap used now. */
function figures(t0: number, cpu0: NodeJS.CpuUsage, phases: string): string {
  const cpu = process.cpuUsage(cpu0);
  return `wall ${((performance.now() - t0) / 1000).toFixed(1)} s (${phases}); cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 2 ** 20).toFixed(2)} GiB; V8 heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`;
}

/** Everything of VaersData but the details, as JSON. */
function restJson(data: VaersData): string {
  return JSON.stringify([listsJson(data), data.skipped, data.reportsRead, data.sources, data.versions]);
}

/** The report lists (ids, quarters, vaccine and event indexes), names, VAX_TYPE codes (in Map and Set order) and follow-up counts, as JSON. */
function listsJson(data: VaersReportLists): string {
  return JSON.stringify([data.reports, data.vaccines, data.events, [...data.vaxTypeCodes].map(([k, codes]) => [k, [...codes]]), data.versions]);
}
