/**
 * Splitting decoded CSV text into records (RFC 4180 as the VAERS files use it: comma-separated,
 * double-quote quoting with `""` for a quote, CRLF, LF or CR line ends, quoted fields may hold line
 * breaks), chunk by chunk, with the physical line each record starts on.
 *
 * Replaces csv-parse in the reader's hot path: the profile of a read (2020-2022 of the synthetic
 * download) spent about half its time in csv-parse, which turns decoded text back into bytes and
 * every field into a string again; here a field is one `slice` of the text (a quoted field with
 * `""` two or more). Malformed quoting is an error with the same wording csv.ts always gave.
 */

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

/** What is wrong with a record, worded for `not valid CSV: ...` (csv.ts). */
export const CSV_PROBLEM = {
  CLOSING_QUOTE: 'a quote inside an unquoted field, or text after a closing quote',
  NOT_CLOSED: 'a quoted field that is never closed',
  TOO_LONG: (max: number): string => `a record longer than ${max} characters (an unclosed quote?)`,
} as const;

/** Malformed CSV at a physical line (1-based). */
export class CsvSyntaxError extends Error {
  constructor(readonly line: number, readonly problem: string) {
    super(problem);
  }
}

/** Line breaks in text[from, to): CRLF, CR and LF each count once. */
function breaksIn(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === CR) {
      breaks++;
      if (i + 1 < to && text.charCodeAt(i + 1) === LF) i++;
    } else if (c === LF) breaks++;
  }
  return breaks;
}

/** Whether text[from, to) holds a CR or LF (cheap test before counting). */
function hasBreak(text: string, from: number, to: number): boolean {
  const lf = text.indexOf('\n', from);
  if (lf >= 0 && lf < to) return true;
  const cr = text.indexOf('\r', from);
  return cr >= 0 && cr < to;
}

/**
 * Streaming record splitter: `push` decoded text as it comes, `end` at the end of the file;
 * `onRecord(fields, line)` gets every record (an empty line is the record `['']`) with the
 * physical line it starts on.
 * @throws CsvSyntaxError from push/end: a quote inside an unquoted field or text after a closing
 *   quote (at the line of the quote), a quoted field never closed (at the record's first line), a
 *   record longer than `maxRecordChars`.
 */
export class CsvRecords {
  private rest = '';
  private line = 1;

  constructor(
    private readonly onRecord: (fields: string[], line: number) => void,
    private readonly maxRecordChars: number,
  ) {}

  /** Splits the records completed by `text`; keeps the unfinished one. */
  push(text: string): void {
    this.split(this.rest === '' ? text : this.rest + text, false);
  }

  /** Ends the file: the last record may lack its line end. */
  end(): void {
    if (this.rest !== '') this.split(this.rest, true);
  }

  private split(text: string, final: boolean): void {
    let start = 0;
    while (start < text.length) {
      const next = this.record(text, start, final);
      if (next < 0) break;
      start = next;
    }
    this.rest = start < text.length ? text.slice(start) : '';
    if (this.rest.length > this.maxRecordChars) throw new CsvSyntaxError(this.line, CSV_PROBLEM.TOO_LONG(this.maxRecordChars));
  }

  /** Reads the record at `start`: emits it and returns where the next starts, or -1 when the text ends inside it (not final). */
  private record(text: string, start: number, final: boolean): number {
    const n = text.length;
    const fields: string[] = [];
    let breaks = 0;
    let i = start;
    for (;;) {
      if (i < n && text.charCodeAt(i) === QUOTE) {
        let value = '';
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0) {
            if (!final) return -1;
            throw new CsvSyntaxError(this.line, CSV_PROBLEM.NOT_CLOSED);
          }
          if (hasBreak(text, from, q)) breaks += breaksIn(text, from, q);
          if (q + 1 >= n && !final) return -1;
          if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          i = q + 1;
          break;
        }
        fields.push(value);
        if (i < n) {
          const c = text.charCodeAt(i);
          if (c !== COMMA && c !== CR && c !== LF) throw new CsvSyntaxError(this.line + breaks, CSV_PROBLEM.CLOSING_QUOTE);
        }
      } else {
        let j = i;
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === COMMA || c === CR || c === LF) break;
          if (c === QUOTE) throw new CsvSyntaxError(this.line + breaks, CSV_PROBLEM.CLOSING_QUOTE);
        }
        if (j >= n && !final) return -1;
        fields.push(text.slice(i, j));
        i = j;
      }
      if (i >= n) return this.emit(fields, breaks, n);
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CR) {
        if (i + 1 >= n && !final) return -1;
        return this.emit(fields, breaks, i + 1 < n && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1);
      }
      return this.emit(fields, breaks, i + 1);
    }
  }

  private emit(fields: string[], breaks: number, next: number): number {
    const line = this.line;
    this.line += 1 + breaks;
    this.onRecord(fields, line);
    return next;
  }
}
