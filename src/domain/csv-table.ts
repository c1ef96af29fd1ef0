/**
 * The committed CSV tables of the repository (`data/terms/non-clinical.csv`,
 * `data/vax-types/vax-types.csv`): their rows with line numbers, and a reader that reads a table's
 * file once, on first use, relative to the module that owns it (so it works from `src/` under
 * tsx and from `dist/` alike).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/** One data row of a table: its cells by header name (trimmed; '' when absent) and its 1-based line in the file. */
export interface TableRow {
  cells: Record<string, string>;
  line: number;
}

/** The data rows of a CSV text with a header row (empty lines skipped). */
export function tableRows(text: string): TableRow[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string | undefined>[];
  return rows.map((row, index) => ({
    cells: Object.fromEntries(Object.entries(row).map(([name, cell]) => [name, (cell ?? '').trim()])),
    line: index + 2,
  }));
}

/** A function that reads the file at `url` and parses it with `parseText` on its first call, then returns the same value. */
export function tableOnce<T>(url: URL, parseText: (text: string) => T): () => T {
  let cached: { value: T } | null = null;
  return () => (cached ??= { value: parseText(readFileSync(url, 'utf8')) }).value;
}
