/**
 * Word positions of the narrative index (index.ts): for every (word, report) entry of the
 * postings, where the word stands in the report, so that a phrase is checked on its words'
 * positions instead of on each candidate's text (issue 41: `"the patient"` read the text of
 * every report holding both words, 10^5 of them at full size).
 *
 * Positions: a report's words are numbered from 0, field by field in NARRATIVE_FIELDS order
 * (`words(text)` of each field, words.ts), and one number is skipped after each field, so the
 * last word of a field and the first of the next are never consecutive. A report then holds the
 * phrase `a b c` within one field exactly when some position p of `a` has p + 1 among those of
 * `b` and p + 2 among those of `c`: the same as finding the words in a row in `words(field)`.
 *
 * Layout: one byte stream in the order of the postings (word by word, each word's reports
 * ascending). Per entry: the byte length of its body, then the body: its first position and
 * the gaps to the next ones (each >= 1), all unsigned LEB128 varints. `blocks[b]` is the byte
 * offset of entry b * POSITION_BLOCK (`blocks` ends with the stream's length); an entry is found
 * from its block's offset by skipping at most POSITION_BLOCK - 1 entries by their lengths. The
 * blocks are in memory (4 bytes per 64 entries); the stream stays in the index file and is read
 * when a phrase needs it (file-range.ts), whole blocks at a time, nearby candidates' blocks in one read.
 */
import { readRange, type FileRange } from './file-range.js';
import { GrowingInt32 } from './postings.js';

/** Entries of the stream per block offset kept in memory. */
export const POSITION_BLOCK = 64;
const BLOCK_SHIFT = 6;
/** Bytes of a chunk of the stream while it is built (entries in report order, before they are sorted by word). */
const BUILD_CHUNK = 1 << 24;
/** Bytes between two candidates' blocks below which {@link Positions.holding} reads them together. */
const READ_GAP = 4096;
/** Most bytes a cursor reads at once (more when one block is larger). */
const READ_SPAN = 1 << 20;

/** The positions of an index as shared memory (for a worker thread): the stream in memory, or where it lies in the index file; the blocks in memory. */
export interface SharedPositions {
  bytes: Uint8Array | null;
  file: FileRange | null;
  blocks: Uint32Array;
}

/** Bytes of `value` (0 <= value < 2^32) as an unsigned LEB128 varint. */
function varintBytes(value: number): number {
  let n = 1;
  for (let v = value >>> 7; v !== 0; v >>>= 7) n++;
  return n;
}

/** Writes `value` as a varint at `at`; returns the offset after it. */
function writeVarint(into: Uint8Array, at: number, value: number): number {
  let v = value >>> 0;
  while (v >= 0x80) {
    into[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  into[at++] = v;
  return at;
}

/** The varint at `at` of `from` and its length in bytes: written into `out` [value, bytes]. */
function readVarint(from: Uint8Array, at: number, out: [number, number]): void {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    const byte = from[i++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
    shift += 7;
  }
  out[0] = value;
  out[1] = i - at;
}

/**
 * Collects the positions while the index is built, report by report (`add` for every word of a
 * report in order, `endReport` after it), then sorts them into the postings' order (`placer`).
 */
export class PositionsWriter {
  private readonly chunks: Array<Uint8Array | null> = [];
  private readonly used: number[] = [];
  private chunk = new Uint8Array(0);
  private at = 0;
  /** Per word (its id in the build's order of first appearance): bytes of its entries. */
  private readonly wordBytes: number[] = [];
  /** Per word: its slot in the report being read (valid for the words added to it). */
  private readonly slotOf: number[] = [];
  /** The words of the report being read, by slot (order of first appearance = the order of its postings pairs). */
  private readonly slotWord = new GrowingInt32();
  private readonly tokenSlot = new GrowingInt32();
  private readonly tokenPosition = new GrowingInt32();
  private sorted = new Int32Array(1024);
  private count = new Int32Array(1024);

  /** Word `w` stands at `position` of the report being read; `first`: its first occurrence in the report (a new postings pair). */
  add(w: number, position: number, first: boolean): void {
    if (first) {
      while (this.wordBytes.length <= w) this.wordBytes.push(0);
      this.slotOf[w] = this.slotWord.length;
      this.slotWord.push(w);
    }
    this.tokenSlot.push(this.slotOf[w]);
    this.tokenPosition.push(position);
  }

  /** Ends the report being read: its entries (one per word, in slot order) are appended to the stream. */
  endReport(): void {
    const slots = this.slotWord.length;
    const tokens = this.tokenSlot.length;
    if (this.count.length < slots + 1) this.count = new Int32Array(2 * (slots + 1));
    if (this.sorted.length < tokens) this.sorted = new Int32Array(2 * tokens);
    const count = this.count.fill(0, 0, slots + 1);
    for (let t = 0; t < tokens; t++) count[this.tokenSlot.at(t) + 1]++;
    for (let s = 0; s < slots; s++) count[s + 1] += count[s];
    // Stable: each slot's positions stay ascending. `count[s]` ends as the end of slot s.
    for (let t = 0; t < tokens; t++) this.sorted[count[this.tokenSlot.at(t)]++] = this.tokenPosition.at(t);
    let from = 0;
    for (let s = 0; s < slots; s++) {
      const to = count[s];
      let body = varintBytes(this.sorted[from]);
      for (let k = from + 1; k < to; k++) body += varintBytes(this.sorted[k] - this.sorted[k - 1]);
      const size = varintBytes(body) + body;
      if (this.at + size > this.chunk.length) this.nextChunk(size);
      let at = writeVarint(this.chunk, this.at, body);
      at = writeVarint(this.chunk, at, this.sorted[from]);
      for (let k = from + 1; k < to; k++) at = writeVarint(this.chunk, at, this.sorted[k] - this.sorted[k - 1]);
      this.at = at;
      this.wordBytes[this.slotWord.at(s)] += size;
      from = to;
    }
    this.slotWord.length = 0;
    this.tokenSlot.length = 0;
    this.tokenPosition.length = 0;
  }

  private nextChunk(size: number): void {
    if (this.chunk.length > 0) {
      this.chunks.push(this.chunk);
      this.used.push(this.at);
    }
    this.chunk = new Uint8Array(Math.max(BUILD_CHUNK, size));
    this.at = 0;
  }

  /**
   * The stream in the postings' order, placed entry by entry: `rank[w]` is the vocabulary index
   * of word w, and `place(r, g)` is called for the entries in the order they were written (the
   * postings pairs' order) with the entry's word rank and its index in the postings. The writer
   * cannot be used after; its chunks are let go as they are placed.
   * @throws RangeError when the stream exceeds 4 GiB (the block offsets are 32-bit).
   */
  placer(rank: Int32Array, entries: number): { place: (r: number, g: number) => void; done: () => SharedPositions } {
    this.nextChunk(0);
    const chunks = this.chunks;
    const used = this.used;
    const fill = new Float64Array(rank.length + 1);
    for (let w = 0; w < this.wordBytes.length; w++) fill[rank[w] + 1] = this.wordBytes[w];
    for (let r = 0; r < rank.length; r++) fill[r + 1] += fill[r];
    const total = fill[rank.length];
    if (total > 0xffffffff) throw new RangeError(`NarrativeIndex.build: ${total} bytes of word positions, more than 4 GiB`);
    const bytes = new Uint8Array(new SharedArrayBuffer(total));
    const blocks = new Uint32Array(new SharedArrayBuffer(4 * (Math.ceil(entries / POSITION_BLOCK) + 1)));
    blocks[blocks.length - 1] = total;
    const varint: [number, number] = [0, 0];
    let c = 0;
    let at = 0;
    return {
      place: (r, g) => {
        while (at === used[c]) {
          chunks[c++] = null;
          at = 0;
        }
        const source = chunks[c] as Uint8Array;
        readVarint(source, at, varint);
        const size = varint[0] + varint[1];
        const to = fill[r];
        for (let k = 0; k < size; k++) bytes[to + k] = source[at + k];
        if ((g & (POSITION_BLOCK - 1)) === 0) blocks[g >>> BLOCK_SHIFT] = to;
        fill[r] = to + size;
        at += size;
      },
      done: () => ({ bytes, file: null, blocks }),
    };
  }
}

/** Reads one word's entries of the stream for ascending candidates, a window of whole blocks at a time. */
class Cursor {
  private window: Uint8Array;
  private from = 0;
  private to: number;
  /** The next entry not read, and its offset (meaningful when `next` >= 0). */
  private next = -1;
  private offset = 0;
  private readonly varint: [number, number] = [0, 0];
  /** The positions of the last entry read: positions[0 .. count). */
  positions = new Int32Array(64);
  count = 0;

  constructor(private readonly source: SharedPositions, private readonly entries: Int32Array) {
    this.window = source.bytes ?? new Uint8Array(0);
    this.to = source.bytes ? source.bytes.length : 0;
  }

  /** Decodes the positions of the entry of candidate j (entries[j] >= 0; j ascending from call to call). */
  read(j: number): void {
    const { blocks } = this.source;
    const g = this.entries[j];
    const b = g >>> BLOCK_SHIFT;
    if (blocks[b] < this.from || blocks[b + 1] > this.to) this.load(j);
    if (!(this.next >= 0 && this.next <= g && g - this.next < POSITION_BLOCK && this.offset >= this.from)) {
      this.next = b << BLOCK_SHIFT;
      this.offset = blocks[b];
    }
    const window = this.window;
    const base = this.from;
    const varint = this.varint;
    let at = this.offset - base;
    for (; this.next < g; this.next++) {
      readVarint(window, at, varint);
      at += varint[1] + varint[0];
    }
    readVarint(window, at, varint);
    const end = at + varint[1] + varint[0];
    at += varint[1];
    let n = 0;
    let position = 0;
    while (at < end) {
      readVarint(window, at, varint);
      at += varint[1];
      position = n === 0 ? varint[0] : position + varint[0];
      if (n === this.positions.length) {
        const grown = new Int32Array(2 * n);
        grown.set(this.positions);
        this.positions = grown;
      }
      this.positions[n++] = position;
    }
    this.count = n;
    this.next = g + 1;
    this.offset = end + base;
  }

  /** Reads the block of candidate j's entry and those of the next candidates lying close after it. */
  private load(j: number): void {
    const { blocks, file } = this.source;
    const start = blocks[this.entries[j] >>> BLOCK_SHIFT];
    let end = blocks[(this.entries[j] >>> BLOCK_SHIFT) + 1];
    for (let k = j + 1; k < this.entries.length; k++) {
      if (this.entries[k] < 0) continue;
      const b = this.entries[k] >>> BLOCK_SHIFT;
      if (blocks[b] - end > READ_GAP || blocks[b + 1] - start > READ_SPAN) break;
      end = Math.max(end, blocks[b + 1]);
    }
    this.window = readRange(file!, start, end);
    this.from = start;
    this.to = end;
  }
}

/** The word positions of an index, in memory or read from its file; immutable. */
export class Positions {
  constructor(private readonly shared: SharedPositions) {}

  /** Bytes of the stream (in memory or in the file). */
  get byteLength(): number {
    return this.shared.blocks[this.shared.blocks.length - 1];
  }

  /** Bytes of the stream held in this process's memory (0 when it is read from the file; the blocks not counted). */
  get heldBytes(): number {
    return this.shared.bytes?.length ?? 0;
  }

  /**
   * The candidates (ascending ordinals) holding the phrase: `entries[k][j]` is the index in the
   * postings of the k-th distinct word of the phrase for candidate j (-1: the candidate lacks the
   * word), and `phrase` lists the phrase's words as indexes into `entries`. `step` is called
   * before each candidate (it may throw to stop).
   * @throws StoreReadError (file-range.ts) when the stream is read from a file now shorter or unreadable.
   */
  holding(candidates: Int32Array, entries: readonly Int32Array[], phrase: readonly number[], step: () => void): Int32Array {
    const cursors = entries.map((list) => new Cursor(this.shared, list));
    const pointers = new Int32Array(phrase.length);
    const out = new Int32Array(candidates.length);
    let n = 0;
    next: for (let j = 0; j < candidates.length; j++) {
      step();
      for (const list of entries) if (list[j] < 0) continue next;
      for (const cursor of cursors) cursor.read(j);
      if (consecutive(cursors, phrase, pointers)) out[n++] = candidates[j];
    }
    return out.slice(0, n);
  }
}

/** Whether some position p of the phrase's first word has p + i among the positions of its i-th word, for every i (each list ascending). */
function consecutive(cursors: readonly Cursor[], phrase: readonly number[], pointers: Int32Array): boolean {
  pointers.fill(0);
  const first = cursors[phrase[0]];
  for (let a = 0; a < first.count; a++) {
    const p = first.positions[a];
    let all = true;
    for (let i = 1; i < phrase.length; i++) {
      const { positions, count } = cursors[phrase[i]];
      let at = pointers[i];
      while (at < count && positions[at] < p + i) at++;
      pointers[i] = at;
      if (at === count) return false;
      if (positions[at] !== p + i) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}
