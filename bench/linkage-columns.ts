/**
 * The real reports' linkage columns (src/ingest/linkage/features.ts LinkageColumns) for the linkage
 * benchmarks (bench/linkage.ts, bench/linkage-labelled.ts, bench/linkage-sample.ts): read from the
 * raw VAERS files of `vaers` with narratives, or from `cache` (a v8-serialised copy written on the
 * first read) when given and present. Prints the read time when it reads the files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { LinkageColumns } from '../src/ingest/linkage/features.js';
import { linkageColumnsOf } from '../src/ingest/mining/linkage-step.js';
import { readVaers } from '../src/ingest/vaers/read.js';

/** The linkage columns of the reports under `vaers` (cached in `cache` when given). */
export async function realLinkageColumns(vaers: string, cache?: string): Promise<LinkageColumns> {
  if (cache && existsSync(cache)) {
    const cached = deserialize(readFileSync(cache)) as LinkageColumns;
    // A cache written before round 7 lacks VAX_DOSE and VAX_SITE (features.ts doses, sites), before round 9 HISTORY, PRIOR_VAX, RPT_DATE: read the files again.
    if (cached.vaccines.dose && cached.vaccines.site && cached.history !== undefined && cached.priorVax !== undefined && cached.rptDate !== undefined) return cached;
    console.log(`${cache} lacks the vaccines' doses and sites (round 7) or HISTORY, PRIOR_VAX and RPT_DATE (round 9): reading the files again`);
  }
  const started = performance.now();
  const d = (await readVaers(vaers, { narratives: true })).details;
  console.log(`read ${d.count} reports in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const columns = linkageColumnsOf(d);
  if (cache) writeFileSync(cache, serialize(columns));
  return columns;
}
