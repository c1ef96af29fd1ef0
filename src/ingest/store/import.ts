/**
 * `reporting-signals import --quarterly FILE --out STORE`: a store from a quarterly signals
 * table computed elsewhere (no VAERS files needed), e.g. the Parquet or CSV written by the R tool
 * chain the specification comes from.
 *
 * Columns (by name, case-insensitive; others ignored):
 * - required: drug_name, outcome_name, quarter (`2021Q3` or `2021-Q3`), observed, eb05, eb50,
 *   eb95, prr, ror, ic, n_methods_flagged, is_signal_any, ewma_eb05;
 * - optional: ic025 (spec 2.3: the series shows `ic025` only when the data has it).
 * Statistics may be empty, `NA`, `NaN`, `Inf` or `-Inf`: all are stored as null (docs/design.md:
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
import { UserError } from '../../domain/user-error.js';
import { formatQuarter, parseQuarter } from '../../domain/quarter.js';
import { openTable, type TableRows } from './quarterly-table.js';
import type { QuarterlyRow, StoreMeta, VaccineRow } from '../../domain/store-schema.js';
import { writeStore } from './write.js';
import { vaxType } from '../../domain/vaccine-type.js';
import { PROGRAM_VERSION } from '../../domain/version.js';

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

/** Raw cells of one table row, by source column name. */
type RawRow = Record<string, string | null>;

/**
 * Decodes and checks the rows of one table (errors name the file, the row, for CSV the line,
 * and the column), and collects what the store's vaccine table and metadata need.
 */
class RowDecoder {
  /** Data rows decoded so far (the current row's number while decoding it). */
  rowNumber = 0;
  readonly seen = new Map<string, number>();
  readonly vaccineNames = new Set<string>();
  maxQuarter: number | null = null;

  constructor(
    private readonly file: string,
    private readonly format: TableRows['format'],
    /** Our column name -> the table's column name. */
    readonly source: ReadonlyMap<string, string>,
    readonly hasIc025: boolean,
  ) {}

  private where(column: string): string {
    return `import: ${this.file}: row ${this.rowNumber}${this.format === 'csv' ? ` (line ${this.rowNumber + 1})` : ''}: column ${column}`;
  }

  private cell(raw: RawRow, column: string): string | null {
    return raw[this.source.get(column)!];
  }

  private text(raw: RawRow, column: string): string {
    const value = this.cell(raw, column);
    if (value === null || value.trim() === '') throw new UserError(`${this.where(column)}: empty value`);
    return value.trim();
  }

  private number(raw: RawRow, column: string): number | null {
    const value = this.cell(raw, column);
    if (value === null) return null;
    const trimmed = value.trim();
    if (NULL_TOKENS.has(trimmed.toLowerCase())) return null;
    const n = Number(trimmed);
    if (!Number.isFinite(n)) throw new UserError(`${this.where(column)}: not a number: "${value}"`);
    return n;
  }

  private wholeNumber(raw: RawRow, column: string, max: number): number {
    const n = this.number(raw, column);
    if (n === null || !Number.isInteger(n) || n < 0 || n > max) {
      const bound = max === Number.MAX_SAFE_INTEGER ? '>= 0' : `0..${max}`;
      throw new UserError(`${this.where(column)}: expected a whole number ${bound}, got "${this.cell(raw, column) ?? 'NULL'}"`);
    }
    return n;
  }

  private boolean(raw: RawRow, column: string): boolean {
    const value = (this.cell(raw, column) ?? '').trim().toLowerCase();
    if (TRUE_TOKENS.has(value)) return true;
    if (FALSE_TOKENS.has(value)) return false;
    throw new UserError(`${this.where(column)}: expected true or false, got "${this.cell(raw, column) ?? 'NULL'}"`);
  }

  /** The pair and quarter of a row, checked for a repeat. */
  private identify(raw: RawRow): { drug: string; event: string; quarter: string } {
    const drug = this.text(raw, 'drug_name');
    const event = this.text(raw, 'outcome_name');
    const quarterText = this.text(raw, 'quarter');
    const quarterIndex = parseQuarter(quarterText);
    if (quarterIndex === null) throw new UserError(`${this.where('quarter')}: not a quarter (expected 2021Q3 or 2021-Q3): "${quarterText}"`);
    const quarter = formatQuarter(quarterIndex);
    const key = `${drug}\u0000${event}\u0000${quarter}`;
    const earlier = this.seen.get(key);
    if (earlier !== undefined) {
      throw new UserError(`import: ${this.file}: row ${this.rowNumber}: (${drug}, ${event}, ${quarter}) already given in row ${earlier}`);
    }
    this.seen.set(key, this.rowNumber);
    this.vaccineNames.add(drug);
    if (this.maxQuarter === null || quarterIndex > this.maxQuarter) this.maxQuarter = quarterIndex;
    return { drug, event, quarter };
  }

  /** One table row as a store row of the store's one analysis `all`; statistics the table does not have are null. */
  decode(raw: RawRow): QuarterlyRow {
    this.rowNumber++;
    return {
      analysis: 'all',
      ...this.identify(raw),
      n: this.wholeNumber(raw, 'observed', Number.MAX_SAFE_INTEGER),
      expected: null, n_vaccine: null, n_event: null, n_reports: null, qn: null, ebgm: null,
      eb05: this.number(raw, 'eb05'), eb50: this.number(raw, 'eb50'), eb95: this.number(raw, 'eb95'),
      prr: this.number(raw, 'prr'), prr_lci: null, prr_uci: null, prr_chisq: null,
      ror: this.number(raw, 'ror'), ror_lci: null, ror_uci: null,
      ic: this.number(raw, 'ic'), ic025: this.hasIc025 ? this.number(raw, 'ic025') : null, ic975: null,
      n_methods_flagged: this.wholeNumber(raw, 'n_methods_flagged', 4),
      is_signal_any: this.boolean(raw, 'is_signal_any'),
      ewma_eb05: this.number(raw, 'ewma_eb05'),
    };
  }

  /** Distinct (drug, event) pairs decoded. */
  pairs(): number {
    return new Set([...this.seen.keys()].map((k) => k.slice(0, k.lastIndexOf('\u0000')))).size;
  }

  reportsThrough(): string | null {
    return this.maxQuarter === null ? null : formatQuarter(this.maxQuarter);
  }
}

/** Maps the required (and the optional ic025) columns to the table's names, case-insensitively. */
function sourceColumns(file: string, table: TableRows): { source: Map<string, string>; hasIc025: boolean } {
  const byLower = new Map(table.columns.map((c) => [c.trim().toLowerCase(), c]));
  const missing = REQUIRED_COLUMNS.filter((c) => !byLower.has(c));
  if (missing.length > 0) {
    throw new UserError(`import: ${file}: missing required column(s): ${missing.join(', ')} (found: ${table.columns.join(', ')})`);
  }
  const hasIc025 = byLower.has('ic025');
  const wanted: string[] = [...REQUIRED_COLUMNS, ...(hasIc025 ? ['ic025'] : [])];
  return { source: new Map(wanted.map((c) => [c, byLower.get(c)!])), hasIc025 };
}

/** The table's rows, decoded; read errors name the file and the last good row. */
async function* decodedRows(file: string, table: TableRows, decoder: RowDecoder): AsyncIterable<QuarterlyRow> {
  let chunks: AsyncIterable<RawRow[]>;
  try {
    chunks = table.rows([...decoder.source.values()]);
  } catch (error) {
    throw new UserError(`import: ${file}: ${brief(error)}`);
  }
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<RawRow[]>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new UserError(`import: ${file}: cannot read the table after row ${decoder.rowNumber}: ${brief(error)}`);
    }
    if (next.done) break;
    for (const raw of next.value) yield decoder.decode(raw);
  }
  if (decoder.rowNumber === 0) throw new UserError(`import: ${file}: the table has no rows`);
}

/** The store's metadata of an import (called once the rows are written). */
function importMeta(file: string, table: TableRows, decoder: RowDecoder, source: { sha256: string; bytes: number }): StoreMeta {
  return {
    reports_through: decoder.reportsThrough(),
    sources: [{ name: basename(file), sha256: source.sha256, bytes: source.bytes }],
    parameters: { format: table.format, columns: [...decoder.source.keys()] },
    program_version: PROGRAM_VERSION,
    built_at: new Date().toISOString(),
    origin: 'import',
    has_ic025: decoder.hasIc025,
    extra: { rows: decoder.rowNumber, pairs: decoder.pairs(), vaccines: decoder.vaccineNames.size },
  };
}

async function importTable(file: string, out: string, table: TableRows): Promise<ImportSummary> {
  const { source, hasIc025 } = sourceColumns(file, table);
  const decoder = new RowDecoder(file, table.format, source, hasIc025);
  const { size } = await stat(file);
  const sha256 = await sha256File(file);
  const vaccines = (): VaccineRow[] =>
    [...decoder.vaccineNames].sort().map((name) => ({ vax_name: name, vax_type: vaxType(name), vax_type_codes: [] }));
  const meta = (): StoreMeta => importMeta(file, table, decoder, { sha256, bytes: size });
  const written = await writeStore(out, { quarterly: decodedRows(file, table, decoder), vaccines, windows: [], meta });
  return { rows: written, pairs: decoder.pairs(), vaccines: decoder.vaccineNames.size, reportsThrough: decoder.reportsThrough(), hasIc025 };
}
