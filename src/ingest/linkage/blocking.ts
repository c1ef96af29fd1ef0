/**
 * Blocking: the candidate pairs of the linkage, the pairs of reports that share a key in at
 * least one block, each pair produced once.
 *
 * Blocks (a report without the key's values is in no block of that kind):
 * - `vax_onset`: same vaccination date and onset date;
 * - `vax_sex`: same vaccination date and sex (U counts as a value here);
 * - `onset_sex`: same onset date and sex;
 * - `vax_week_state_sex`, `vax_week3_state_sex`: same week of vaccination (weeks from Thursday,
 *   and from Monday: two dates at most 3 days apart share one of them), state and sex;
 * - `age_sex_state`: same whole years of age, sex and state;
 * - `splttype`: same SPLTTYPE (manufacturer or project report number);
 * - `lot_sex`: same first lot (the lowest lot number, features.ts) and sex;
 * - `narrative_1..3`: same MinHash band of the narrative's words (two min-hashes a band, three
 *   bands: two narratives with word-set Jaccard J share a band with probability 1 - (1 - J^2)^3,
 *   0.59 at J = 0.6, 0.89 at J = 0.8; Broder 1997).
 *
 * Cap: a block of more than `maxBlock` reports (default 100, i.e. at most 4,950 pairs) is
 * skipped whole and counted (`BlockingFigures.skippedBlocks`): such keys (a date on which a whole
 * campaign was vaccinated, a common lot) do not tell duplicates apart, and the other kinds of
 * block still pair its duplicates. A pair is produced by the first kind of block (in the order
 * above) whose key the two reports share in a block that was not skipped, so each pair once.
 * Reports that are not identifiable (features.ts) are in no block.
 */
import type { LinkageFeatures } from './features.js';

/** Per kind of block, what it produced. */
export interface BlockingFigures {
  block: string;
  /** Blocks of two or more reports. */
  blocks: number;
  /** Pairs it produced (not produced by an earlier kind). */
  pairs: number;
  /** Blocks above the cap, skipped, and the reports in them. */
  skippedBlocks: number;
  skippedReports: number;
}

/** The default cap on a block's reports. */
export const MAX_BLOCK = 100;

const BANDS = 3;

/** The kinds of block, in order (see the module header). */
export const BLOCK_KINDS: readonly string[] = ['vax_onset', 'vax_sex', 'onset_sex', 'vax_week_state_sex', 'vax_week3_state_sex', 'age_sex_state', 'splttype', 'lot_sex', 'narrative_1', 'narrative_2', 'narrative_3'];
const HASHES_PER_BAND = 2;

/** A seeded 32-bit mix of a word hash (murmur3's finaliser over hash xor seed). */
function mix(hash: number, seed: number): number {
  let h = (hash ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The band-th MinHash band key of a word set (NaN for none). */
function bandKey(words: Int32Array, band: number): number {
  if (words.length === 0) return NaN;
  let key = 0;
  for (let h = 0; h < HASHES_PER_BAND; h++) {
    let min = 0xffffffff;
    const seed = band * HASHES_PER_BAND + h + 1;
    for (let i = 0; i < words.length; i++) {
      const v = mix(words[i], seed);
      if (v < min) min = v;
    }
    // Two 32-bit minima folded into one double (collisions only cost a candidate pair).
    key = key * 2 ** 21 + (min >>> 11);
  }
  return key;
}

/** The key of every report for each kind of block (NaN: no key), in the order of the module header. */
function blockKeys(f: LinkageFeatures): Array<{ block: string; keys: Float64Array }> {
  const n = f.count;
  const kinds: Array<{ block: string; key: (i: number) => number }> = [];
  const strings = new Map<string, number>();
  const intern = (s: string): number => {
    let k = strings.get(s);
    if (k === undefined) strings.set(s, (k = strings.size));
    return k;
  };
  // SPLTTYPE keys are interned here (only the blocking needs them as numbers).
  kinds.push({ block: 'vax_onset', key: (i) => (f.vaxDay[i] >= 0 && f.onsetDay[i] >= 0 ? f.vaxDay[i] * 100_000 + f.onsetDay[i] : NaN) });
  kinds.push({ block: 'vax_sex', key: (i) => (f.vaxDay[i] >= 0 ? f.vaxDay[i] * 4 + f.sex[i] : NaN) });
  kinds.push({ block: 'onset_sex', key: (i) => (f.onsetDay[i] >= 0 ? f.onsetDay[i] * 4 + f.sex[i] : NaN) });
  // The week of the vaccination date, twice (weeks starting on two days 3 apart), so that two dates at most 3 days apart share one.
  kinds.push({ block: 'vax_week_state_sex', key: (i) => (f.vaxDay[i] >= 0 && f.state[i] >= 0 ? (Math.floor(f.vaxDay[i] / 7) * 1_000_000 + f.state[i]) * 4 + f.sex[i] : NaN) });
  kinds.push({ block: 'vax_week3_state_sex', key: (i) => (f.vaxDay[i] >= 0 && f.state[i] >= 0 ? (Math.floor((f.vaxDay[i] + 3) / 7) * 1_000_000 + f.state[i]) * 4 + f.sex[i] : NaN) });
  kinds.push({ block: 'age_sex_state', key: (i) => (Number.isNaN(f.age[i]) || f.state[i] < 0 ? NaN : (Math.floor(f.age[i]) * 4 + f.sex[i]) * 1_000_000 + f.state[i]) });
  kinds.push({ block: 'splttype', key: (i) => (f.splttype[i] === '' ? NaN : intern(f.splttype[i])) });
  kinds.push({ block: 'lot_sex', key: (i) => (f.lots[i].length === 0 ? NaN : f.lots[i][0] * 4 + f.sex[i]) });
  for (let band = 0; band < BANDS; band++) kinds.push({ block: `narrative_${band + 1}`, key: (i) => bandKey(f.narrative[i], band) });
  return kinds.map(({ block, key }) => {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = f.identifiable[i] ? key(i) : NaN;
    return { block, keys };
  });
}

/**
 * The blocks of one kind: `order` lists the reports with a key, sorted by key then row, block r
 * being `order[start[r] .. start[r + 1] - 1]`. Sorted without a comparator (a comparator sort of
 * 2 million rows costs seconds per kind): the distinct keys by a native typed-array sort, each
 * report's key numbered by binary search among them, the rows then placed by a counting sort
 * (stable: rows stay in order within a block).
 */
function blocksOf(keys: Float64Array): { order: Int32Array; start: Int32Array } {
  let length = 0;
  for (let i = 0; i < keys.length; i++) if (!Number.isNaN(keys[i])) length++;
  const distinct = new Float64Array(length);
  length = 0;
  for (let i = 0; i < keys.length; i++) if (!Number.isNaN(keys[i])) distinct[length++] = keys[i];
  distinct.sort();
  let blocks = 0;
  for (let i = 0; i < length; i++) if (i === 0 || distinct[i] !== distinct[blocks - 1]) distinct[blocks++] = distinct[i];
  const rank = new Int32Array(keys.length).fill(-1);
  const start = new Int32Array(blocks + 1);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (Number.isNaN(key)) continue;
    let lo = 0;
    let hi = blocks - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid] < key) lo = mid + 1; else hi = mid;
    }
    rank[i] = lo;
    start[lo + 1]++;
  }
  for (let r = 0; r < blocks; r++) start[r + 1] += start[r];
  const next = start.slice(0, blocks);
  const order = new Int32Array(length);
  for (let i = 0; i < keys.length; i++) if (rank[i] >= 0) order[next[rank[i]]++] = i;
  return { order, start };
}

/**
 * The blocking of a linkage's reports: every kind's keys (see the module header), computed once
 * for the passes over the candidate pairs (candidatePairs). Memory: 8 bytes a report per kind of
 * block, and one byte a report per kind for the skipped blocks; nothing per pair.
 */
export interface Blocking {
  count: number;
  maxBlock: number;
  kinds: ReadonlyArray<{ block: string; keys: Float64Array }>;
}

/** The blocking of `f` with blocks capped at `maxBlock` reports (see the module header). */
export function blocking(f: LinkageFeatures, maxBlock = MAX_BLOCK): Blocking {
  return { count: f.count, maxBlock, kinds: blockKeys(f) };
}

/**
 * Calls `pair(a, b, kind)` (a < b) once for every candidate pair of `blocks` (see the module
 * header), `kind` being the index in BLOCK_KINDS of the block that produced it, and returns the
 * figures of each kind of block. The pairs are made block by block and handed over at once (none
 * is held: memory does not grow with the pairs), in the same order on every call, so a linkage
 * can pass over them twice (link.ts).
 */
export function candidatePairs(blocks: Blocking, pair: (a: number, b: number, kind: number) => void): BlockingFigures[] {
  const { kinds, maxBlock } = blocks;
  // Per kind, 1 for the reports in a skipped (oversized) block of that kind.
  const skipped: Uint8Array[] = [];
  return kinds.map(({ block, keys }, kind) => {
    const figures: BlockingFigures = { block, blocks: 0, pairs: 0, skippedBlocks: 0, skippedReports: 0 };
    const inSkipped = new Uint8Array(blocks.count);
    skipped.push(inSkipped);
    const { order, start } = blocksOf(keys);
    for (let r = 0; r + 1 < start.length; r++) {
      const from = start[r];
      const to = start[r + 1];
      const size = to - from;
      if (size > maxBlock) {
        for (let x = from; x < to; x++) inSkipped[order[x]] = 1;
        figures.skippedBlocks++;
        figures.skippedReports += size;
      } else if (size > 1) {
        figures.blocks++;
        for (let x = from; x < to; x++) {
          for (let y = x + 1; y < to; y++) {
            const a = order[x];
            const b = order[y];
            if (sharedEarlier(kinds, skipped, kind, a, b)) continue;
            figures.pairs++;
            pair(a, b, kind);
          }
        }
      }
    }
    return figures;
  });
}

/** Whether reports a and b share a key of a kind before `kind` in a block that was not skipped. */
function sharedEarlier(kinds: ReadonlyArray<{ keys: Float64Array }>, skipped: readonly Uint8Array[], kind: number, a: number, b: number): boolean {
  for (let j = 0; j < kind; j++) {
    const key = kinds[j].keys[a];
    if (key === kinds[j].keys[b] && !Number.isNaN(key) && skipped[j][a] === 0) return true;
  }
  return false;
}
