/**
 * A read's report details (src/ingest/vaers/report-details.ts) resolved for comparison: per kept
 * report, one JSON text of every report column (string numbers resolved to their strings: two
 * readers may number strings differently), the OUTCOME bits and the columns known, the VAX rows,
 * the events with their versions and the narratives (from the heap or the scratch text file).
 * Used by bench/read-duckdb.ts `--mode details` and test/ingest/vaers/duckdb-build-read.test.ts.
 */
import { NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS } from '../src/domain/report-columns.js';
import type { VaersData } from '../src/ingest/vaers/read.js';
import { textChunks, TEXT_CHUNK_REPORTS } from '../src/ingest/vaers/text-chunks.js';

/** Every kept report's values as JSON, string numbers resolved (report-details.ts), narratives from the heap or the text file. */
export async function resolvedReports(data: Pick<VaersData, 'details'>): Promise<string[]> {
  const d = data.details;
  const text = new Map<string, Array<string | null>>();
  const fields = NARRATIVE_REPORT_COLUMNS.map((c) => c.field);
  for await (const chunk of textChunks(d, fields, TEXT_CHUNK_REPORTS)) {
    for (const f of fields) {
      const into = text.get(f) ?? [];
      for (const value of chunk.columns[f] ?? []) into.push(value);
      text.set(f, into);
    }
  }
  const columns = STORED_REPORT_COLUMNS.filter((c) => c.encoding !== 'narrative' && c.encoding !== 'outcome');
  const s = (n: number): string | null => (n < 0 ? null : d.strings[n]);
  const out: string[] = [];
  for (let i = 0; i < d.count; i++) {
    const row: unknown[] = columns.map((c) => {
      const v = (d as unknown as Record<string, ArrayLike<number>>)[c.field][i];
      return c.encoding === 'text' ? s(v) : Number.isNaN(v) ? 'NaN' : v;
    });
    row.push(d.outcomes[i], d.outcomesKnown[i]);
    const vax: unknown[] = [];
    for (let k = d.vaccines.start[i]; k < d.vaccines.start[i + 1]; k++) vax.push(Object.keys(d.vaccines).filter((f) => f !== 'start').map((f) => s((d.vaccines as unknown as Record<string, Int32Array>)[f][k])));
    const events: unknown[] = [];
    for (let k = d.events.start[i]; k < d.events.start[i + 1]; k++) events.push([s(d.events.term[k]), s(d.events.version[k])]);
    out.push(JSON.stringify([row, vax, events, fields.map((f) => text.get(f)?.[i] ?? null)]));
  }
  return out;
}

