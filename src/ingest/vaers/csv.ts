/**
 * Streaming reader of one VAERS CSV: bytes -> Windows-1252 text -> records, with the header
 * mapped by column name and every record numbered by the physical line it starts on.
 *
 * Format (the source notes of ../shared/data/vaers, "Format and encoding"; data/vaers/README.md): comma-separated, double-quote quoting, CRLF or LF
 * line endings, quoted fields may hold line breaks, Windows-1252 text (a UTF-8 byte-order mark
 * switches the decoding to UTF-8). Nothing is held beyond one record: files of any size stream.
 * Every failure is a `UserError` naming the file and, where it applies, the line.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../../domain/user-error.js';
import { CsvRecords, CsvSyntaxError } from './csv-records.js';
import { Cp1252ToUtf8 } from './transcode.js';

/** Longest record accepted, in characters; longer means broken quoting (an unclosed quote). */
const MAX_RECORD_CHARS = 8_000_000;

/** Header of a CSV: upper-cased trimmed column name -> field index. */
export type ColumnIndex = Map<string, number>;

/**
 * Callbacks of `readCsv`. `onHeader` runs once with the header (it may throw a UserError when
 * columns are missing); `onRecord` runs per data record with its fields and the 1-based line
 * number where the record starts. Empty lines are skipped.
 */
export interface CsvHandlers {
  onHeader(columns: ColumnIndex, line: number): void;
  onRecord(fields: string[], line: number): void;
}

/**
 * Streams the CSV whose decompressed bytes come out of `stages` (a readable source followed by
 * byte transforms, e.g. a file stream, a counter and a gunzip) and calls `handlers`.
 * `label` names the file in messages. Resolves with the number of data records.
 * @throws UserError: empty file; binary data; a malformed gzip or zip member; broken quoting
 *   (with the line); a record whose field count differs from the header's (with the line); any
 *   UserError thrown by a handler.
 */
export async function readCsv(
  stages: [Readable, ...NodeJS.ReadWriteStream[]],
  label: string,
  handlers: CsvHandlers,
): Promise<number> {
  let width = -1;
  let records = 0;
  const splitter = new CsvRecords((fields, line) => {
    if (fields.length === 1 && fields[0] === '') return;
    if (width < 0) {
      width = fields.length;
      const columns: ColumnIndex = new Map();
      fields.forEach((name, i) => {
        const key = name.trim().toUpperCase();
        if (!columns.has(key)) columns.set(key, i);
      });
      handlers.onHeader(columns, line);
      return;
    }
    if (fields.length !== width) {
      throw new UserError(`${label} line ${line}: ${fields.length} fields where the header has ${width} (broken quoting, or not a VAERS CSV)`);
    }
    records++;
    handlers.onRecord(fields, line);
  }, MAX_RECORD_CHARS);
  // Byte stage: rejects binary input (a NUL byte in the first 64 KiB), decodes Windows-1252 (UTF-8 after a byte-order mark) to strings.
  const decode = new Cp1252ToUtf8(label, 'text');
  const piped = pipeline([...stages, decode] as unknown as ReadonlyArray<NodeJS.ReadWriteStream>);
  piped.catch(() => undefined);
  try {
    for await (const chunk of decode) splitter.push(chunk as string);
    splitter.end();
    await piped;
  } catch (error) {
    decode.destroy();
    await piped.catch(() => undefined);
    throw toUserError(error, label);
  }
  if (width < 0) throw new UserError(`${label}: empty file (no header line)`);
  return records;
}

function toUserError(error: unknown, label: string): UserError {
  if (error instanceof UserError) return error;
  if (error instanceof CsvSyntaxError) return new UserError(`${label} line ${error.line}: not valid CSV: ${error.problem}`);
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (code.startsWith('Z_') || /incorrect header check|unexpected end of file|invalid (block|distance|stored)/i.test(message)) {
    return new UserError(`${label}: not a valid gzip file (${message})`);
  }
  return new UserError(`${label}: cannot read (${message})`);
}

/**
 * Index of each wanted column in a header, by name (case-insensitive).
 * @throws UserError `<label> line <n>: header lacks column(s) X, Y (...)` when a required one is missing.
 */
export function requireColumns(columns: ColumnIndex, required: string[], label: string, line: number): number[] {
  const missing = required.filter((name) => !columns.has(name));
  if (missing.length > 0) {
    const found = [...columns.keys()].slice(0, 12).join(', ');
    throw new UserError(
      `${label} line ${line}: header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ` +
        `(found: ${found || 'nothing'}${columns.size > 12 ? ', ...' : ''})`,
    );
  }
  return required.map((name) => columns.get(name) as number);
}
