/**
 * Full-text index over the six narrative fields of every report: which
 * reports hold every term of a parsed text query (src/serve/narratives/query.ts) and none of its
 * exclusions. Transport-free and store-free: built in memory at load time from
 * `(vaers_id, fields)` records; reports are numbered by their position in the input (their
 * ordinal), so built in the store's order an ordinal is the case series' report index
 * (src/serve/cases/index.ts) and results combine with its selections directly.
 *
 * Semantics: each required word, prefix or phrase must be present in at least one of the six
 * fields (different terms may lie in different fields); a phrase must lie within one field (a
 * field's end is not a separator between two words of a phrase); an excluded term must be in no
 * field.
 *
 * Structure: a plain inverted index at report level (Manning, Raghavan and Schütze,
 * "Introduction to Information Retrieval", 2008, ch. 1-2): the sorted vocabulary of folded words
 * (src/serve/narratives/words.ts), and per word the ascending ordinals of the reports holding it (in any
 * field), all in one Int32Array. A word is found by binary search in the vocabulary; a prefix is
 * the vocabulary's range of words starting with it, its reports the union of theirs. AND is list
 * intersection, `-` is subtraction. A phrase is first the intersection of its words' reports, then
 * verified on those candidates only by its words' positions in each (positions.ts: a positional
 * index, ibid. ch. 2.4; the words at consecutive positions of one field). Until issue 41's tenth
 * round the candidates' texts were read and matched by a regular expression instead: at 400,000
 * reports `"the patient"` took 328 ms of CPU that way (43,419 reports found), 46 ms by positions.
 *
 * Memory on 1990-2006 (203,446 reports, 57.7 million characters, 94,628 distinct words),
 * measured by bench/narratives.ts: about 99 MB kept (texts 58 MB as UTF-8 plus 5 MB of offsets,
 * src/serve/narratives/texts.ts; postings 30 MB; vocabulary 5 MB), plus 18.6 MB of positions
 * (varints, 2.5 bytes per postings entry).
 *
 * Why not minisearch (npm, v7.2.0, evaluated on the same corpus with this module's tokenizer):
 * it can express whole words (a custom tokenizer and processTerm), prefixes, AND and AND_NOT, but
 * it stores no positions, so phrases would need a re-scan of the texts; it scores and ranks every
 * match (a case series is a set: `fever`, 42,781 reports, took 667 ms against 0.01 ms here); and
 * its radix tree with per-term, per-document field frequencies added 470 MB of heap (584 MB RSS)
 * for these texts, alone nearly the serving budget of 600 MB. So it is not used.
 * The index holds the texts (for snippets); `text()` and `fields()`
 * serve them to the report view, so that the narratives are held once in the serving process.
 *
 * Read back from its file (index-file.ts), the index keeps only the ids, the texts' offsets, the
 * vocabulary, the runs of the postings and the positions' block offsets in memory: the texts, the
 * postings and the positions stay in the file and are read when a search or a page needs them
 * (file-range.ts; at 2.1 million reports 0.9 GB of text and 0.4 GB of postings). Such an index
 * holds the file open until {@link close}.
 */
import { TEXT_EXPANSION_MAX_WORDS, TEXT_PREFIX_MAX_WORDS, type TextQuery, type TextTerm } from './query.js';
import { intersect, subtract, unite } from './postings.js';
import { buildArrays } from './build.js';
import { NARRATIVE_FIELDS } from '../../domain/report-columns.js';
import type { NarrativeRecord } from './records.js';
import { NarrativeTexts, type SharedTexts } from './texts.js';
import { closeFile, readRangeInto, type FileRange } from './file-range.js';
import { entriesOf } from './postings.js';
import { POSITION_BLOCK, Positions, type SharedPositions } from './positions.js';
import { ordinalById, partitionPoint } from '../query/search.js';

const FIELDS = NARRATIVE_FIELDS.length;
/** Most postings entries (4 bytes each) a prefix's words are read in at once. */
const PREFIX_READ = 1 << 20;

/** Sizes of an index, for the bench and logs. */
export interface NarrativeIndexStats {
  reports: number;
  /** UTF-8 bytes of the texts held. */
  textBytes: number;
  /** Distinct folded words. */
  words: number;
  /** (word, report) entries of the postings. */
  postings: number;
  /** Bytes of the word positions (positions.ts), in memory or in the index file. */
  positionBytes: number;
  /** Bytes of the texts, postings and positions held in memory (0 for each read from the index file). */
  heldBytes: number;
}

/**
 * An index as plain shared memory, for a worker thread (src/serve/narratives/search-pool.ts): every
 * array lives in a SharedArrayBuffer, so posting it to a worker copies no data; the vocabulary
 * is its words joined by `\n` (a word never holds one), UTF-8. The postings are in memory
 * (`postings`) or where they lie in the index file (`postingsFile`: a descriptor the worker reads too).
 */
export interface SharedNarrativeIndex {
  ids: Int32Array;
  byId: Int32Array;
  texts: SharedTexts;
  vocabulary: Uint8Array;
  start: Int32Array;
  postings: Int32Array | null;
  postingsFile: FileRange | null;
  positions: SharedPositions;
}

/**
 * Called by a search between steps (every prefix word, every list operation, every 256
 * candidates of a phrase): throws to stop the search (a time budget spent, a request cancelled).
 */
export type SearchCheck = () => void;

const NO_CHECK: SearchCheck = () => {};

/** The index; immutable once built. Its arrays live in shared memory ({@link share}). */
export class NarrativeIndex {
  private shared: SharedNarrativeIndex | null = null;

  private constructor(
    /** VAERS_ID per ordinal. */
    private readonly ids: Int32Array,
    /** Ordinals sorted by VAERS_ID (for `ordinalOf`). */
    private readonly byId: Int32Array,
    /** The six fields of every report, slot ordinal * 6 + field. */
    private readonly texts: NarrativeTexts,
    /** Distinct folded words, sorted (UTF-16 order). */
    private readonly vocabulary: readonly string[],
    /** Postings of vocabulary[w]: postings[start[w] .. start[w + 1]). */
    private readonly start: Int32Array,
    /** The postings in memory, or null when they are read from `postingsFile`. */
    private readonly postings: Int32Array | null,
    /** Where the postings lie in the index file (when `postings` is null). */
    private readonly postingsFile: FileRange | null,
    /** The word positions of every postings entry (positions.ts). */
    private readonly positions: SharedPositions,
  ) {}

  /**
   * Builds the index from the reports' records, numbered 0.. in input order. Linear in the text
   * (seconds for the 58 million characters of 1990-2006 on one core; bench/narratives.ts).
   * A field array shorter than six reads as blank fields; an empty string is blank (null).
   * @throws RangeError when an id is not an integer in 0..2^31-1 or appears twice.
   */
  static build(records: readonly NarrativeRecord[]): NarrativeIndex {
    const a = buildArrays(records, FIELDS);
    return new NarrativeIndex(a.ids, a.byId, a.texts, a.vocabulary, a.start, a.postings, null, a.positions);
  }

  /** The index as shared memory (computed once; the vocabulary is encoded on the first call), for {@link fromShared} in a worker thread. */
  share(): SharedNarrativeIndex {
    if (!this.shared) {
      const text = this.vocabulary.join('\n');
      const vocabulary = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text, 'utf8')));
      Buffer.from(vocabulary.buffer, 0, vocabulary.length).write(text, 'utf8');
      this.shared = {
        ids: this.ids, byId: this.byId, texts: this.texts.share(), vocabulary, start: this.start, postings: this.postings, postingsFile: this.postingsFile, positions: this.positions,
      };
    }
    return this.shared;
  }

  /** The index over shared memory given by {@link share} (in another thread: no array is copied; the vocabulary is decoded). */
  static fromShared(shared: SharedNarrativeIndex): NarrativeIndex {
    const { vocabulary: bytes } = shared;
    const vocabulary = bytes.length === 0 ? [] : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8').split('\n');
    return new NarrativeIndex(shared.ids, shared.byId, NarrativeTexts.fromShared(shared.texts), vocabulary, shared.start, shared.postings, shared.postingsFile, shared.positions);
  }

  /**
   * The index over arrays read back from a file (index-file.ts), checked for the shape `build`
   * gives them (lengths of the ids, the texts' slots, the postings' runs); null when they do not fit.
   */
  static fromStored(shared: SharedNarrativeIndex): NarrativeIndex | null {
    const { ids, byId, texts, start } = shared;
    const reports = ids.length;
    const textBytes = texts.bytes?.length ?? texts.file?.bytes;
    const postings = shared.postings?.length ?? (shared.postingsFile ? shared.postingsFile.bytes / 4 : undefined);
    if (byId.length !== reports || texts.ends.length !== reports * FIELDS || start.length < 1) return null;
    if ((texts.ends.length > 0 ? texts.ends[texts.ends.length - 1] : 0) !== textBytes) return null;
    if (start[0] !== 0 || start[start.length - 1] !== postings) return null;
    const { blocks } = shared.positions;
    const positionBytes = shared.positions.bytes?.length ?? shared.positions.file?.bytes;
    if (blocks.length !== Math.ceil(postings / POSITION_BLOCK) + 1 || blocks[blocks.length - 1] !== positionBytes) return null;
    const index = NarrativeIndex.fromShared(shared);
    if (index.vocabulary.length !== start.length - 1) return null;
    index.shared = shared;
    return index;
  }

  /** Number of reports (ordinals are 0..size-1). */
  get size(): number {
    return this.ids.length;
  }

  /** The VAERS_ID of an ordinal. */
  idAt(ordinal: number): number {
    return this.ids[ordinal];
  }

  /** The ordinal of a VAERS_ID, or -1 when the index lacks it. O(log n). */
  ordinalOf(id: number): number {
    return ordinalById(this.ids, this.byId, id);
  }

  /**
   * A field of a report as given to `build` (null: blank); `field` indexes NARRATIVE_FIELDS.
   * @throws RangeError when the ordinal or the field is out of range.
   */
  text(ordinal: number, field: number): string | null {
    if (!(Number.isInteger(field) && field >= 0 && field < FIELDS)) throw new RangeError(`NarrativeIndex.text: no field ${field}`);
    return this.texts.get(this.firstSlot(ordinal) + field);
  }

  /**
   * The six fields of a report, in NARRATIVE_FIELDS order (for `snippet` and the report view).
   * @throws RangeError when the ordinal is not in 0..size-1; StoreReadError when read from an index file now shorter or unreadable.
   */
  fields(ordinal: number): Array<string | null> {
    return this.texts.run(this.firstSlot(ordinal), FIELDS);
  }

  /**
   * Closes the index file an index read back from it holds open (index-file.ts); nothing for an
   * index built in memory. Call once no search or read of it can still run: after, its texts and
   * postings cannot be read.
   */
  close(): void {
    const fds = new Set([this.texts.source?.fd, this.postingsFile?.fd, this.positions.file?.fd].filter((fd): fd is number => fd !== undefined));
    for (const fd of fds) closeFile(fd);
  }

  /** The text slot of an ordinal's first field. @throws RangeError when the ordinal is not in 0..size-1. */
  private firstSlot(ordinal: number): number {
    if (!(Number.isInteger(ordinal) && ordinal >= 0 && ordinal < this.size)) throw new RangeError(`NarrativeIndex: no report at ordinal ${ordinal}`);
    return ordinal * FIELDS;
  }

  /** Sizes of the index. */
  stats(): NarrativeIndexStats {
    const positions = new Positions(this.positions);
    return {
      reports: this.size, textBytes: this.texts.byteLength, words: this.vocabulary.length, postings: this.start[this.start.length - 1],
      positionBytes: positions.byteLength, heldBytes: this.texts.heldBytes + (this.postings?.byteLength ?? 0) + positions.heldBytes,
    };
  }

  /**
   * The reports matching a query: every required term present (each in any field; a phrase
   * within one field), no excluded term present. With `within` (ascending ordinals, e.g. a case
   * series' selection) only those reports are considered, and phrase verification reads only them.
   * `check` is called between steps and may throw to stop the search (its error propagates).
   * The caller checks {@link tooBroad} first: the cost of a prefix grows with the words it expands to.
   * @returns ascending ordinals, in a new array (the caller may keep or change it).
   */
  search(query: TextQuery, within?: Int32Array, check: SearchCheck = NO_CHECK): Int32Array {
    const seen = new Map<number, Int32Array>();
    const lists = query.required.map((term) => this.candidates(term, within, check, seen));
    if (within) lists.push(within);
    lists.sort((a, b) => a.length - b.length);
    let found = lists[0] ?? new Int32Array(0);
    for (let i = 1; i < lists.length && found.length > 0; i++) {
      check();
      found = intersect(found, lists[i]);
    }
    for (const term of query.required) if (term.kind === 'phrase') found = this.holding(found, term.words, check, seen);
    for (const term of query.excluded) {
      if (found.length === 0) break;
      const holding = intersect(found, this.candidates(term, found, check, seen));
      found = subtract(found, term.kind === 'phrase' ? this.holding(holding, term.words, check, seen) : holding);
    }
    return (this.postings !== null && found.buffer === this.postings.buffer) || found === within ? found.slice() : found;
  }

  /** How many vocabulary words start with `prefix`. O(log words). */
  prefixWords(prefix: string): number {
    const [first, end] = this.prefixRange(prefix);
    return end - first;
  }

  /**
   * Whether the prefixes of a query expand to too many vocabulary words: more than
   * TEXT_PREFIX_MAX_WORDS for one prefix, or more than TEXT_EXPANSION_MAX_WORDS for all of
   * them (required and excluded). @returns the message naming the prefix and the limit (the
   * Error object's `error`), or null when within the limits.
   */
  tooBroad(query: TextQuery): string | null {
    let total = 0;
    for (const term of [...query.required, ...query.excluded]) {
      if (term.kind !== 'prefix') continue;
      const count = this.prefixWords(term.prefix);
      if (count > TEXT_PREFIX_MAX_WORDS) {
        return `text prefix ${term.prefix}* matches ${count} distinct words of the narratives, over the limit of ${TEXT_PREFIX_MAX_WORDS} words per prefix: give it more letters`;
      }
      total += count;
    }
    if (total > TEXT_EXPANSION_MAX_WORDS) {
      return `text prefixes match ${total} distinct words of the narratives in all, over the limit of ${TEXT_EXPANSION_MAX_WORDS} words per text: give them more letters, or fewer prefixes`;
    }
    return null;
  }

  /**
   * The reports that may hold a term: exactly those for a word or prefix, a superset for a phrase
   * (its words anywhere). With `within`, a prefix's words are first cut to those reports (a short
   * selection then never pays for the union of a common prefix over every report); the result
   * may still hold reports outside `within` for a word or a phrase (the caller intersects). A
   * prefix's words' postings lie together (vocabulary order): they are read in runs of up to
   * PREFIX_READ entries (one read each). `seen` keeps the lists read by this search (a phrase's
   * words are read once for its candidates and its positions).
   */
  private candidates(term: TextTerm, within: Int32Array | undefined, check: SearchCheck, seen: Map<number, Int32Array>): Int32Array {
    if (term.kind === 'word') return this.reportsOf(term.word, seen);
    if (term.kind === 'prefix') {
      const lists: Int32Array[] = [];
      const [first, end] = this.prefixRange(term.prefix);
      for (let w = first; w < end; ) {
        let to = w + 1;
        while (to < end && this.start[to + 1] - this.start[w] <= PREFIX_READ) to++;
        const run = this.postingsRun(w, to);
        for (let v = w; v < to; v++) {
          if ((v - first) % 64 === 0) check();
          const list = run.subarray(this.start[v] - this.start[w], this.start[v + 1] - this.start[w]);
          lists.push(within ? intersect(within, list) : list);
        }
        w = to;
      }
      check();
      return unite(lists.filter((list) => list.length > 0), this.size);
    }
    const lists = term.words.map((word) => this.reportsOf(word, seen)).sort((a, b) => a.length - b.length);
    return lists.reduce((found, list) => (found.length === 0 ? found : intersect(found, list)));
  }

  /** The reports of `list` (ascending) that hold the phrase within one of their fields: its words at consecutive positions (positions.ts). */
  private holding(list: Int32Array, phrase: readonly string[], check: SearchCheck, seen: Map<number, Int32Array>): Int32Array {
    const distinct = [...new Set(phrase)];
    const entries: Int32Array[] = [];
    for (const word of distinct) {
      const w = this.lowerBound(word);
      if (w === this.vocabulary.length || this.vocabulary[w] !== word) return new Int32Array(0);
      entries.push(entriesOf(list, this.postingsAt(w, seen), this.start[w]));
    }
    let tested = 0;
    return new Positions(this.positions).holding(list, entries, phrase.map((word) => distinct.indexOf(word)), () => {
      if ((tested++ & 255) === 0) check();
    });
  }

  /** Reports holding a word (empty when the vocabulary lacks it). */
  private reportsOf(word: string, seen: Map<number, Int32Array>): Int32Array {
    const w = this.lowerBound(word);
    return w < this.vocabulary.length && this.vocabulary[w] === word ? this.postingsAt(w, seen) : new Int32Array(0);
  }

  /** The reports of vocabulary word w (kept in `seen`, and taken from it when read already). */
  private postingsAt(w: number, seen: Map<number, Int32Array>): Int32Array {
    let list = seen.get(w);
    if (!list) seen.set(w, (list = this.postingsRun(w, w + 1)));
    return list;
  }

  /** The postings of vocabulary words first..end-1, together: a view of the postings in memory, or read from the index file with one read (a new array). */
  private postingsRun(first: number, end: number): Int32Array {
    if (this.postings !== null) return this.postings.subarray(this.start[first], this.start[end]);
    const list = new Int32Array(this.start[end] - this.start[first]);
    readRangeInto(this.postingsFile!, this.start[first] * 4, this.start[end] * 4, new Uint8Array(list.buffer));
    return list;
  }

  /** The vocabulary's words starting with `prefix`: indexes [first, end). */
  private prefixRange(prefix: string): [number, number] {
    const first = this.lowerBound(prefix);
    // The words starting with the prefix are contiguous from `first` on (sorted order).
    return [first, partitionPoint(first, this.vocabulary.length, (i) => this.vocabulary[i].startsWith(prefix))];
  }

  /** First vocabulary index whose word is >= `word` (UTF-16 order, as the sort). */
  private lowerBound(word: string): number {
    return partitionPoint(0, this.vocabulary.length, (i) => this.vocabulary[i] < word);
  }
}
