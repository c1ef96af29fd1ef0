/**
 * `reporting-signals import --quarterly FILE --out STORE`: a store from a quarterly signals
 * table computed elsewhere (issue 3 section 3), e.g. the Parquet or CSV written by the R tool
 * chain the specification comes from.
 *
 * Columns (by name, case-insensitive; others ignored):
 * - required: drug_name, outcome_name, quarter (`2021Q3` or `2021-Q3`), observed, eb05, eb50,
 *   eb95, prr, ror, ic, n_methods_flagged, is_signal_any, ewma_eb05;
 * - optional: ic025 (spec 2.3: the series shows `ic025` only when the data has it).
 * Statistics may be empty, `NA`, `NaN`, `Inf` or `-Inf`: all are stored as null (DESIGN.md:
 * never Infinity or NaN). `observed` must be a whole number >= 0, `n_methods_flagged` a whole
 * number 0..4, `is_signal_any` a boolean (`true/false`, `TRUE/FALSE`, `T/F`, `1/0`).
 * Errors name the file, the column and the row (data rows counted from 1; for CSV also the
 * line, the header being line 1). A (drug, event, quarter) given twice is an error.
 * The vaccine table is derived from the names (vax_type per spec 2.1, no VAX_TYPE codes).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { formatQuarter, parseQuarter } from '../spec/quarter.js';
import { openTable, type TableRows } from '../store/quarterly-table.js';
import type { QuarterlyRow, StoreMeta, VaccineRow } from '../store/schema.js';
import { writeStore } from '../store/write.js';
import { vaxType } from '../vaccine-type.js';
import { PROGRAM_VERSION } from '../version.js';

/** Options of `import` as parsed by the CLI. */
export interface ImportOptions {
  quarterly: string;
  out: string;
}

/** Columns the imported table must have. */
export const REQUIRED_COLUMNS = [
  'drug_name', 'outcome_name', 'quarter', 'observed', 'eb05', 'eb50', 'eb95', 'prr', 'ror', 'ic',
  'n_methods_flagged', 'is_signal_any', 'ewma_eb05',
] as const;

const NULL_TOKENS = new Set(['', 'na', 'nan', 'null', 'inf', '-inf', '+inf', 'infinity', '-infinity']);
const TRUE_TOKENS = new Set(['true', 't', '1', 'yes']);
const FALSE_TOKENS = new Set(['false', 'f', '0', 'no']);

/** What `import` did. */
export interface ImportSummary {
  rows: number;
  pairs: number;
  vaccines: number;
  reportsThrough: string | null;
  hasIc025: boolean;
}

/** The first two non-empty lines of a DuckDB error message (the rest is a long dump of options). */
function brief(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n').filter((l) => l.trim() !== '').slice(0, 2).join(': ');
}

/** SHA-256 (hex) of a file's bytes. */
async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Imports a quarterly table into a new store at `out` (atomic: an error leaves no store and
 * leaves an existing store untouched).
 * @throws UserError naming the file, column and row for any bad input.
 */
export async function importQuarterly(file: string, out: string): Promise<ImportSummary> {
  try {
    await access(file);
  } catch {
    throw new UserError(`import: file not found: ${file}`);
  }
  try {
    await access(dirname(resolve(out)));
  } catch {
    throw new UserError(`import: output folder does not exist: ${dirname(resolve(out))}`);
  }
  let table: TableRows;
  try {
    table = await openTable(file);
  } catch (error) {
    throw new UserError(`import: ${file}: not a readable Parquet or CSV table: ${brief(error)}`);
  }
  try {
    return await importTable(file, out, table);
  } finally {
    table.close();
  }
}

async function importTable(file: string, out: string, table: TableRows): Promise<ImportSummary> {
  const byLower = new Map(table.columns.map((c) => [c.trim().toLowerCase(), c]));
  const missing = REQUIRED_COLUMNS.filter((c) => !byLower.has(c));
  if (missing.length > 0) {
    throw new UserError(`import: ${file}: missing required column(s): ${missing.join(', ')} (found: ${table.columns.join(', ')})`);
  }
  const hasIc025 = byLower.has('ic025');
  const wanted: string[] = [...REQUIRED_COLUMNS, ...(hasIc025 ? ['ic025'] : [])];
  const source = new Map(wanted.map((c) => [c, byLower.get(c)!]));

  const seen = new Map<string, number>();
  const vaccineNames = new Set<string>();
  let maxQuarter: number | null = null;
  let rowNumber = 0;
  const where = (column: string): string =>
    `import: ${file}: row ${rowNumber}${table.format === 'csv' ? ` (line ${rowNumber + 1})` : ''}: column ${column}`;

  const text = (raw: Record<string, string | null>, column: string): string => {
    const value = raw[source.get(column)!];
    if (value === null || value.trim() === '') throw new UserError(`${where(column)}: empty value`);
    return value.trim();
  };
  const number = (raw: Record<string, string | null>, column: string): number | null => {
    const value = raw[source.get(column)!];
    if (value === null) return null;
    const trimmed = value.trim();
    if (NULL_TOKENS.has(trimmed.toLowerCase())) return null;
    const n = Number(trimmed);
    if (!Number.isFinite(n)) throw new UserError(`${where(column)}: not a number: "${value}"`);
    return n;
  };
  const wholeNumber = (raw: Record<string, string | null>, column: string, max: number): number => {
    const n = number(raw, column);
    if (n === null || !Number.isInteger(n) || n < 0 || n > max) {
      const bound = max === Number.MAX_SAFE_INTEGER ? '>= 0' : `0..${max}`;
      throw new UserError(`${where(column)}: expected a whole number ${bound}, got "${raw[source.get(column)!] ?? 'NULL'}"`);
    }
    return n;
  };
  const boolean = (raw: Record<string, string | null>, column: string): boolean => {
    const value = (raw[source.get(column)!] ?? '').trim().toLowerCase();
    if (TRUE_TOKENS.has(value)) return true;
    if (FALSE_TOKENS.has(value)) return false;
    throw new UserError(`${where(column)}: expected true or false, got "${raw[source.get(column)!] ?? 'NULL'}"`);
  };

  const toRow = (raw: Record<string, string | null>): QuarterlyRow => {
    const drug = text(raw, 'drug_name');
    const event = text(raw, 'outcome_name');
    const quarterText = text(raw, 'quarter');
    const quarterIndex = parseQuarter(quarterText);
    if (quarterIndex === null) throw new UserError(`${where('quarter')}: not a quarter (expected 2021Q3 or 2021-Q3): "${quarterText}"`);
    const quarter = formatQuarter(quarterIndex);
    const key = `${drug}\u0000${event}\u0000${quarter}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new UserError(`import: ${file}: row ${rowNumber}: (${drug}, ${event}, ${quarter}) already given in row ${earlier}`);
    }
    seen.set(key, rowNumber);
    vaccineNames.add(drug);
    if (maxQuarter === null || quarterIndex > maxQuarter) maxQuarter = quarterIndex;
    return {
      drug, event, quarter,
      n: wholeNumber(raw, 'observed', Number.MAX_SAFE_INTEGER),
      expected: null, n_vaccine: null, n_event: null, n_reports: null, qn: null, ebgm: null,
      eb05: number(raw, 'eb05'), eb50: number(raw, 'eb50'), eb95: number(raw, 'eb95'),
      prr: number(raw, 'prr'), prr_lci: null, prr_uci: null, prr_chisq: null,
      ror: number(raw, 'ror'), ror_lci: null, ror_uci: null,
      ic: number(raw, 'ic'), ic025: hasIc025 ? number(raw, 'ic025') : null, ic975: null,
      n_methods_flagged: wholeNumber(raw, 'n_methods_flagged', 4),
      is_signal_any: boolean(raw, 'is_signal_any'),
      ewma_eb05: number(raw, 'ewma_eb05'),
    };
  };

  async function* rows(): AsyncIterable<QuarterlyRow> {
    let chunks: AsyncIterable<Array<Record<string, string | null>>>;
    try {
      chunks = table.rows([...source.values()]);
    } catch (error) {
      throw new UserError(`import: ${file}: ${brief(error)}`);
    }
    const iterator = chunks[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Array<Record<string, string | null>>>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw new UserError(`import: ${file}: cannot read the table after row ${rowNumber}: ${brief(error)}`);
      }
      if (next.done) break;
      for (const raw of next.value) {
        rowNumber++;
        yield toRow(raw);
      }
    }
    if (rowNumber === 0) throw new UserError(`import: ${file}: the table has no rows`);
  }

  const { size } = await stat(file);
  const sha256 = await sha256File(file);
  const vaccines = (): VaccineRow[] =>
    [...vaccineNames].sort().map((name) => ({ vax_name: name, vax_type: vaxType(name), vax_type_codes: [] }));
  const pairs = (): number => new Set([...seen.keys()].map((k) => k.slice(0, k.lastIndexOf('\u0000')))).size;
  const meta = (): StoreMeta => ({
    reports_through: maxQuarter === null ? null : formatQuarter(maxQuarter),
    sources: [{ name: basename(file), sha256, bytes: size }],
    parameters: { format: table.format, columns: wanted },
    program_version: PROGRAM_VERSION,
    built_at: new Date().toISOString(),
    origin: 'import',
    has_ic025: hasIc025,
    extra: { rows: rowNumber, pairs: pairs(), vaccines: vaccineNames.size },
  });
  const written = await writeStore(out, { quarterly: rows(), vaccines, windows: [], meta });
  return {
    rows: written,
    pairs: pairs(),
    vaccines: vaccineNames.size,
    reportsThrough: maxQuarter === null ? null : formatQuarter(maxQuarter),
    hasIc025,
  };
}

/** CLI entry: imports and prints a one-line summary on standard error. */
export async function runImport(options: ImportOptions): Promise<void> {
  const summary = await importQuarterly(options.quarterly, options.out);
  process.stderr.write(
    `import: ${summary.rows} rows, ${summary.pairs} pairs, ${summary.vaccines} vaccines, reports through ` +
    `${summary.reportsThrough ?? '-'}, ic025 ${summary.hasIc025 ? 'present' : 'absent'} -> ${options.out}\n`,
  );
}
