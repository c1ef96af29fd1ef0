/**
 * The report text's helpers that need no database (split from report-text.ts): the field names,
 * the chunk size, and textChunks, which reads a build's text `size` reports at a time, from the
 * arrays of ReportDetails or through its scratch file's `read` (report-text.ts ReportText). The
 * mining workers import this module, not report-text.ts: a worker thread then never loads DuckDB's
 * native addon, whose loading in a thread ended at once (a build of an analysis without reports
 * closes its pool right away) aborted the process under Node 26 ("terminate called after throwing
 * an instance of 'Napi::Error'").
 */
import type { NarrativeReportColumn } from '../../domain/report-columns.js';

/** A narrative column's field name in ReportDetails (`narrative`, `labData`, ...). */
export type NarrativeField = NarrativeReportColumn['field'];

/** Text columns of some reports: per field asked for, one value per report (null: empty cell). */
export type TextColumns<F extends NarrativeField> = { [K in F]: Array<string | null> };

/** Reports per chunk of text its consumers read at a time (textChunks; the linkage thread's messages). */
export const TEXT_CHUNK_REPORTS = 1 << 15;

/** What textChunks needs of a build's scratch file of text (report-text.ts ReportText): the text of reports `from` .. `to - 1`. */
export interface TextSource {
  read<F extends NarrativeField>(fields: readonly F[], from: number, to: number): Promise<TextColumns<F>>;
}

/** What textChunks reads: report columns whose narrative fields are arrays (or null: not kept), or whose `text` is in a scratch file. */
export type TextHolder = { count: number; text?: TextSource | null } & { [F in NarrativeField]: Array<string | null> | null };

/** Whether `d` holds its reports' narratives (on the heap or in its scratch file). */
export function hasText(d: Pick<TextHolder, 'narrative' | 'text'>): boolean {
  return d.narrative !== null || (d.text !== undefined && d.text !== null);
}

/**
 * The text of fields `fields` of every report of `d`, `size` reports at a time in report order:
 * `{ start, columns }` with `columns[f]` the values of reports `start .. start + n - 1` (slices of
 * the arrays when `d` holds them, read from its scratch file when it is `d.text`), or null for a
 * field `d` does not hold. Nothing when `d` holds no text at all (hasText).
 */
export async function* textChunks<F extends NarrativeField>(d: TextHolder, fields: readonly F[], size: number): AsyncGenerator<{ start: number; count: number; columns: { [K in F]: Array<string | null> | null } }> {
  if (!hasText(d)) return;
  for (let start = 0; start < d.count; start += size) {
    const end = Math.min(d.count, start + size);
    const read = d.text ? await d.text.read(fields, start, end) : null;
    const columns = Object.fromEntries(fields.map((f) => [f, read ? read[f] : d[f]?.slice(start, end) ?? null])) as { [K in F]: Array<string | null> | null };
    yield { start, count: end - start, columns };
  }
}
