/**
 * Byte stage that numbers the records of a UTF-8 CSV by the physical line each starts on, as a
 * first column, so that DuckDB's `read_csv` (which gives no line numbers) loads every row with the
 * line the streaming reader names in its skip examples and unreadable-cell examples (csv-records.ts:
 * lines counted from 1, CRLF, CR and LF each one line end, line ends inside quoted fields counted).
 *
 * The header record gets the column name `LINE_COLUMN`, every later record its start line; an
 * empty line (outside quotes) is not a record, as csv.ts skips it, and stays empty (DuckDB skips
 * it too). Records are found by quote parity (`""` inside a quoted field toggles twice), which is
 * how both readers split well-formed CSV; malformed quoting is refused by `read_csv` (strict) and
 * then worded by the streaming reader (duckdb-load.ts). Quote, comma, CR and LF are ASCII, never
 * part of a multi-byte UTF-8 sequence, so bytes are scanned directly.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** The name of the line column added before a CSV's first column (upper case, as csv.ts maps headers). */
export const LINE_COLUMN = 'RS_RECORD_LINE';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** UTF-8 CSV bytes in; the same bytes out, each record led by its start line and a comma (the header by `LINE_COLUMN,`). */
export class RecordLines extends Transform {
  /** Physical line (1-based) of the next byte. */
  private line = 1;
  private inQuote = false;
  private atRecordStart = true;
  private previousCr = false;
  private header = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const parts: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF && this.previousCr) {
        // the LF of a CRLF: the line end was counted at the CR
        this.previousCr = false;
        continue;
      }
      this.previousCr = b === CR;
      if (b === CR || b === LF) {
        this.line++;
        if (!this.inQuote) this.atRecordStart = true;
        continue;
      }
      if (this.atRecordStart) {
        if (i > from) parts.push(chunk.subarray(from, i));
        parts.push(Buffer.from(this.header ? `${LINE_COLUMN},` : `${this.line},`, 'latin1'));
        this.header = false;
        this.atRecordStart = false;
        from = i;
      }
      if (b === QUOTE) this.inQuote = !this.inQuote;
    }
    if (parts.length === 0) {
      done(null, chunk);
      return;
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
    done(null, Buffer.concat(parts));
  }
}
