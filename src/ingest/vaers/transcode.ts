/**
 * Byte stage that turns a VAERS CSV's Windows-1252 bytes into UTF-8 bytes, as a stream, so that
 * DuckDB's `read_csv` (UTF-8 only: its `latin-1` reader refuses the bytes 0x80-0x9F that the
 * older files hold) reads exactly the characters the streaming reader decodes (csv.ts decodes
 * through this same class, in its `'text'` mode): the same iconv-lite `win1252` decoder, so 0x80 -> U+20AC, 0x92 -> U+2019,
 * 0x96 -> U+2013, and the five bytes cp1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)
 * -> U+FFFD. A file that starts with a UTF-8 byte-order mark is read as UTF-8 (the mark dropped,
 * invalid sequences -> U+FFFD), as csv.ts does. A NUL byte in the first 64 KiB is binary data:
 * a UserError naming the file.
 */
import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';
import { UserError } from '../../domain/user-error.js';

/** Bytes at the start of a file inspected for NUL bytes (binary data is not CSV). */
const BINARY_PROBE_BYTES = 65_536;

/** Whether every byte of `bytes` is ASCII (then its Windows-1252 and UTF-8 readings are the same bytes). */
function isAscii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/** A file's decoder, chosen by its first bytes (`TextStart.open`), and its check for binary data. */
export class TextStart {
  decoder: ReturnType<typeof iconv.getDecoder> | null = null;
  /** Whether the file is read as Windows-1252 (one byte a character: no state between chunks). */
  singleByte = true;
  private probed = 0;

  constructor(private readonly label: string) {}

  /**
   * The bytes of `chunk` to decode: on the first chunk, picks UTF-8 when it starts with a UTF-8
   * byte-order mark (dropped) and Windows-1252 otherwise. Throws-free: returns a UserError naming
   * the file when the first 64 KiB hold a NUL byte (binary data, not CSV text).
   */
  take(chunk: Buffer): { bytes: Buffer; error: UserError | null } {
    let bytes = chunk;
    if (!this.decoder) {
      const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      this.decoder = iconv.getDecoder(bom ? 'utf8' : 'win1252');
      this.singleByte = !bom;
      if (bom) bytes = bytes.subarray(3);
    }
    if (this.probed < BINARY_PROBE_BYTES) {
      const nul = bytes.subarray(0, BINARY_PROBE_BYTES - this.probed).indexOf(0);
      if (nul !== -1) return { bytes, error: new UserError(`${this.label}: not a CSV text file (binary data at byte ${this.probed + nul})`) };
      this.probed += bytes.length;
    }
    return { bytes, error: null };
  }
}

/**
 * Windows-1252 (or BOM-marked UTF-8) bytes in; out, `'utf8'`: UTF-8 bytes (for DuckDB's
 * `read_csv`; ASCII chunks pass through untouched, no copy), or `'text'`: the decoded strings
 * (object mode, for csv.ts's record splitter). `label` names the file in the binary-data error.
 */
export class Cp1252ToUtf8 extends Transform {
  private readonly start: TextStart;

  constructor(label: string, private readonly out: 'utf8' | 'text' = 'utf8') {
    super({ readableObjectMode: out === 'text' });
    this.start = new TextStart(label);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const { bytes, error } = this.start.take(chunk);
    if (error) {
      done(error);
      return;
    }
    // A UTF-8 decoder may hold a partial sequence between chunks: only win1252 (one byte a character) may skip it.
    if (this.out === 'utf8' && this.start.singleByte && isAscii(bytes)) {
      done(null, bytes);
      return;
    }
    this.pushText(this.start.decoder?.write(bytes));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.pushText(this.start.decoder?.end());
    done();
  }

  private pushText(text: string | undefined): void {
    if (text) this.push(this.out === 'text' ? text : Buffer.from(text, 'utf8'));
  }
}
