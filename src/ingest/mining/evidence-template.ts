/**
 * Template reports (the triage caution `template_reports`): reports whose narratives are one
 * writer's form, such as one pharmacist's six near-identical FLUARIX reports in 2006Q4. Two
 * narratives share a template when the Jaccard resemblance of their sets of 3-word shingles
 * (words folded: lower case, every digit run `0`, other characters separators) is at least
 * TEMPLATE_RESEMBLANCE, estimated by MinHash (Broder 1997, "On the resemblance and containment of
 * documents") with SIGNATURE_HASHES hashes per narrative: the share of equal minima estimates the
 * resemblance. Measured on the 2006Q4 window's FLUARIX manufacturer narratives (1,326 pairs of
 * narratives): the pharmacist's six resemble each other at 0.82 to 1.0, and no pair of other
 * narratives lies between 0.5 and 0.7, so 0.7 separates forms from shared boilerplate.
 * A pair's template share: the largest group of its narratives (of NARRATIVE_MIN_CHARS or more)
 * that resemble the group's first narrative, over its narratives.
 */

/** MinHash values per narrative. */
export const SIGNATURE_HASHES = 32;
/** Resemblance from which two narratives share a template. */
export const TEMPLATE_RESEMBLANCE = 0.7;

/** The FNV-1a offset basis of hash k: `0x811c9dc5 ^ seed`, seed = k * 0x9e3779b1 (as a 32-bit integer). */
const OFFSET = Uint32Array.from({ length: SIGNATURE_HASHES }, (_, k) => (0x811c9dc5 ^ (k * 0x9e3779b1)) >>> 0);
const SPACE = 32;

/** A hash's final mix, so that seeds differ in every bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function keepLeast(into: Uint32Array, i: number, h: number): void {
  if (h < into[i]) into[i] = h;
}

/** Folded words' character codes, reused between narratives (grown as needed). */
let codes = new Uint16Array(1024);
/**
 * Per word w, the SIGNATURE_HASHES states after hashing "w " from the offset bases: where every
 * shingle that starts with w starts (words recur across narratives). Only words of up to
 * MEMO_WORD_CHARS characters (V8 copies substrings that short, so a key never holds on to the
 * text it was split from); cleared when it holds FIRST_WORD_LIMIT words (128 bytes a word).
 */
const firstWord = new Map<string, Int32Array>();
const FIRST_WORD_LIMIT = 1 << 17;
const MEMO_WORD_CHARS = 12;
const scratchStates = new Int32Array(SIGNATURE_HASHES);

function firstWordState(word: string): Int32Array {
  const memo = word.length <= MEMO_WORD_CHARS;
  let states = memo ? firstWord.get(word) : undefined;
  if (!states) {
    states = memo ? new Int32Array(SIGNATURE_HASHES) : scratchStates;
    states.set(OFFSET);
    for (let c = 0; c <= word.length; c++) {
      const code = c < word.length ? word.charCodeAt(c) : SPACE;
      for (let k = 0; k < SIGNATURE_HASHES; k++) states[k] = Math.imul(states[k] ^ code, 0x01000193);
    }
    if (memo) {
      if (firstWord.size >= FIRST_WORD_LIMIT) firstWord.clear();
      firstWord.set(word, states);
    }
  }
  return states;
}

/**
 * The MinHash signature of a narrative's 3-word shingles (SIGNATURE_HASHES values), written into
 * `into` at `at`; false (nothing written) when the narrative has fewer than 3 words. Hash k of a
 * shingle "w1 w2 w3" is 32-bit FNV-1a from offset basis OFFSET[k] over its UTF-16 code units,
 * then `mix`. Computed without building the shingle: from the states after "w1 " (firstWordState),
 * then the codes of "w2 w3" (laid out once per narrative), four hashes advanced together code by
 * code (SIGNATURE_HASHES is a multiple of 4): the same operations in the same order per hash, so
 * the same values as hashing the shingle string, in about 40% of the time.
 */
export function writeSignature(narrative: string, into: Uint32Array, at: number): boolean {
  const words = narrative.toLowerCase().replace(/[0-9]+/g, '0').split(/[^a-z0]+/).filter((w) => w !== '');
  if (words.length < 3) return false;
  let length = 0;
  for (const w of words) length += w.length + 1;
  if (codes.length < length) codes = new Uint16Array(2 * length);
  const starts = new Int32Array(words.length + 1);
  let end = 0;
  for (let i = 0; i < words.length; i++) {
    starts[i] = end;
    const w = words[i];
    for (let c = 0; c < w.length; c++) codes[end++] = w.charCodeAt(c);
    codes[end++] = SPACE;
  }
  starts[words.length] = end;
  into.fill(0xffffffff, at, at + SIGNATURE_HASHES);
  for (let i = 0; i + 2 < words.length; i++) {
    const first = firstWordState(words[i]);
    const from = starts[i + 1], to = starts[i + 3] - 1; // "w2 w3", without the space after w3
    // Four hashes at a time, in four variables: independent chains the processor overlaps.
    for (let k = 0; k < SIGNATURE_HASHES; k += 4) {
      let h0 = first[k], h1 = first[k + 1], h2 = first[k + 2], h3 = first[k + 3];
      for (let c = from; c < to; c++) {
        const code = codes[c];
        h0 = Math.imul(h0 ^ code, 0x01000193);
        h1 = Math.imul(h1 ^ code, 0x01000193);
        h2 = Math.imul(h2 ^ code, 0x01000193);
        h3 = Math.imul(h3 ^ code, 0x01000193);
      }
      keepLeast(into, at + k, mix(h0));
      keepLeast(into, at + k + 1, mix(h1));
      keepLeast(into, at + k + 2, mix(h2));
      keepLeast(into, at + k + 3, mix(h3));
    }
  }
  return true;
}

/** The estimated resemblance of signatures a and b (indexes into `signatures`). */
export function resemblance(signatures: Uint32Array, a: number, b: number): number {
  let equal = 0;
  for (let k = 0; k < SIGNATURE_HASHES; k++) if (signatures[a * SIGNATURE_HASHES + k] === signatures[b * SIGNATURE_HASHES + k]) equal++;
  return equal / SIGNATURE_HASHES;
}

/** The fewest equal minima for a resemblance of TEMPLATE_RESEMBLANCE: the least e with e / SIGNATURE_HASHES >= TEMPLATE_RESEMBLANCE (23 of 32). */
const MIN_EQUAL = Array.from({ length: SIGNATURE_HASHES + 1 }, (_, e) => e).find((e) => e / SIGNATURE_HASHES >= TEMPLATE_RESEMBLANCE)!;

/**
 * Whether signatures a and b resemble at TEMPLATE_RESEMBLANCE or more (`resemblance(...) >=
 * TEMPLATE_RESEMBLANCE`), stopping at the first mismatch too many (most narratives differ in
 * nearly every minimum, so this reads about a third of the values).
 */
export function resembles(signatures: Uint32Array, a: number, b: number): boolean {
  let mismatches = 0;
  const allowed = SIGNATURE_HASHES - MIN_EQUAL;
  const offA = a * SIGNATURE_HASHES, offB = b * SIGNATURE_HASHES;
  for (let k = 0; k < SIGNATURE_HASHES; k++) {
    if (signatures[offA + k] !== signatures[offB + k] && ++mismatches > allowed) return false;
  }
  return true;
}

/**
 * Bands of the signature for the candidate search of templateShare: BANDS consecutive runs of
 * positions. Two signatures with at most SIGNATURE_HASHES - MIN_EQUAL mismatches (9) agree
 * entirely on at least one of 10 bands (pigeonhole), so looking up the seeds that share a band
 * finds every seed that can resemble: the search is exact, not an approximation.
 */
const BANDS = SIGNATURE_HASHES - MIN_EQUAL + 1;
const BAND_START = Array.from({ length: BANDS + 1 }, (_, b) => Math.round((b * SIGNATURE_HASHES) / BANDS));

/** A 32-bit hash of band b of signature r (collisions only add candidates, which resembles() then rejects). */
function bandKey(signatures: Uint32Array, r: number, b: number): number {
  let h = 0x811c9dc5 ^ b;
  for (let k = BAND_START[b]; k < BAND_START[b + 1]; k++) h = Math.imul(h ^ signatures[r * SIGNATURE_HASHES + k], 0x01000193);
  return h >>> 0;
}

/** The band keys of the narrative templateShare is placing (one search at a time per thread). */
const bandKeys = new Uint32Array(BANDS);

/** Pairs with fewer narratives than this compare each with every seed (no band table). */
const BANDED_FROM = 32;

/**
 * The band table of templateShare (one search at a time per thread, grown as needed): a hash
 * table of chains in typed arrays, one node per (seed, band) holding the band's key and the
 * seed; `heads[bucket]` is the bucket's first node (-1 none), `next` links a chain. Every band
 * shares the table: a key found under another band only adds a candidate, which resembles() then
 * judges, so the candidates are still every seed that can resemble (and the result is exact).
 */
const table = { heads: new Int32Array(0), key: new Uint32Array(0), seed: new Int32Array(0), next: new Int32Array(0) };

/** Readies the band table for `narratives` narratives; returns the bucket mask. */
function bandTable(narratives: number): number {
  const nodes = narratives * BANDS;
  if (table.key.length < nodes) {
    const grown = Math.max(nodes, 2 * table.key.length);
    table.key = new Uint32Array(grown);
    table.seed = new Int32Array(grown);
    table.next = new Int32Array(grown);
  }
  let buckets = 1024;
  while (buckets < 2 * nodes) buckets *= 2;
  if (table.heads.length < buckets) table.heads = new Int32Array(buckets);
  table.heads.fill(-1, 0, buckets);
  return buckets - 1;
}

/** The bucket of a band key (Fibonacci hashing: the key's high bits spread over the table). */
function bucketOf(key: number, mask: number): number {
  return (Math.imul(key, 0x9e3779b1) >>> 7) & mask;
}

/**
 * The template share of a pair's reports: over those with a signature (`has[r]` 1), the largest
 * group resembling its first member (greedy, in report order: a narrative joins the first group
 * whose first member it resembles, else starts a group) divided by their number; null without
 * any. From BANDED_FROM narratives the groups' first members are found through their bands
 * (exact, see BANDS: the first seed that resembles among those sharing a band key with the
 * narrative is the first seed that resembles), so a pair of thousands of reports costs about
 * linear time; the band keys live in one typed-array hash table (bandTable), not a Map per band.
 */
export function templateShare(signatures: Uint32Array, has: Uint8Array, reports: readonly number[]): number | null {
  const seeds: number[] = [];
  const sizes: number[] = [];
  let narratives = 0;
  for (const r of reports) if (has[r]) narratives++;
  if (narratives === 0) return null;
  const banded = narratives >= BANDED_FROM;
  const mask = banded ? bandTable(narratives) : 0;
  const { heads, key, seed, next } = table;
  let nodes = 0;
  const candidates: number[] = [];
  for (const r of reports) {
    if (!has[r]) continue;
    let c = -1;
    if (banded) {
      // Each band's key once: looked up here, and filed under when r starts a group.
      candidates.length = 0;
      for (let b = 0; b < BANDS; b++) {
        const k = bandKey(signatures, r, b);
        bandKeys[b] = k;
        for (let x = heads[bucketOf(k, mask)]; x >= 0; x = next[x]) if (key[x] === k) candidates.push(seed[x]);
      }
      if (candidates.length > 1) candidates.sort((x, y) => x - y);
      for (let k = 0; k < candidates.length && c < 0; k++) if ((k === 0 || candidates[k] !== candidates[k - 1]) && resembles(signatures, seeds[candidates[k]], r)) c = candidates[k];
    } else c = seeds.findIndex((s) => resembles(signatures, s, r));
    if (c >= 0) sizes[c]++;
    else {
      if (banded) {
        for (let b = 0; b < BANDS; b++) {
          const bucket = bucketOf(bandKeys[b], mask);
          key[nodes] = bandKeys[b];
          seed[nodes] = seeds.length;
          next[nodes] = heads[bucket];
          heads[bucket] = nodes++;
        }
      }
      seeds.push(r);
      sizes.push(1);
    }
  }
  return sizes.reduce((a, b) => Math.max(a, b), 0) / narratives;
}
