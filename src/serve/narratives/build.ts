/**
 * The build of the narrative index's arrays (index.ts `NarrativeIndex.build`) from the reports'
 * records: one pass over the words of every field (words.ts) gathers the vocabulary, the (word,
 * report) pairs and the words' positions (positions.ts), then the vocabulary is sorted and the
 * pairs and positions placed in its order by a counting sort.
 */
import { GrowingInt32 } from './postings.js';
import { PositionsWriter, type SharedPositions } from './positions.js';
import type { NarrativeRecord } from './records.js';
import { NarrativeTexts, sharedInt32 } from './texts.js';
import { words } from './words.js';

/** The arrays of an index built in memory. */
export interface BuiltArrays {
  ids: Int32Array;
  byId: Int32Array;
  texts: NarrativeTexts;
  vocabulary: string[];
  start: Int32Array;
  postings: Int32Array;
  positions: SharedPositions;
}

/**
 * The arrays of the index of `records` (ordinal = input position) over their first `fields` fields.
 * @throws RangeError when an id is not an integer in 0..2^31-1 or appears twice.
 */
export function buildArrays(records: readonly NarrativeRecord[], fields: number): BuiltArrays {
  const idOf = new Map<string, number>();
  const lastReport: number[] = [];
  const pairWord = new GrowingInt32();
  const pairReport = new GrowingInt32();
  const ids = new Int32Array(records.length);
  const positions = new PositionsWriter();
  for (let ordinal = 0; ordinal < records.length; ordinal++) {
    const record = records[ordinal];
    if (!Number.isInteger(record.id) || record.id < 0 || record.id > 0x7fffffff) throw new RangeError(`NarrativeIndex.build: id ${record.id} is not an integer in 0..2147483647`);
    ids[ordinal] = record.id;
    let position = 0;
    for (let f = 0; f < fields; f++) {
      const text = record.fields[f] ?? null;
      if (text === null) continue;
      for (const word of words(text)) {
        let w = idOf.get(word);
        if (w === undefined) {
          w = idOf.size;
          // A fresh copy: a long regex match is a slice that would keep its whole field alive.
          idOf.set(Buffer.from(word, 'utf8').toString('utf8'), w);
          lastReport.push(-1);
        }
        const first = lastReport[w] !== ordinal;
        positions.add(w, position++, first);
        if (!first) continue;
        lastReport[w] = ordinal;
        pairWord.push(w);
        pairReport.push(ordinal);
      }
      // A number skipped after each field: a phrase never runs from one field into the next.
      position++;
    }
    positions.endReport();
  }
  // Sorted vocabulary, then a counting sort of the (word, report) pairs by word: stable, so
  // each word's reports stay ascending.
  const vocabulary = [...idOf.keys()].sort();
  const rank = new Int32Array(vocabulary.length);
  vocabulary.forEach((word, r) => (rank[idOf.get(word) as number] = r));
  const start = sharedInt32(vocabulary.length + 1);
  for (let i = 0; i < pairWord.length; i++) start[rank[pairWord.at(i)] + 1]++;
  for (let r = 0; r < vocabulary.length; r++) start[r + 1] += start[r];
  const fill = start.slice(0, vocabulary.length);
  const postings = sharedInt32(pairWord.length);
  const placer = positions.placer(rank, pairWord.length);
  for (let i = 0; i < pairWord.length; i++) {
    const r = rank[pairWord.at(i)];
    const g = fill[r]++;
    postings[g] = pairReport.at(i);
    placer.place(r, g);
  }
  const byId = sharedInt32(ids.length);
  byId.set(Int32Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b]));
  for (let i = 1; i < byId.length; i++) {
    if (ids[byId[i]] === ids[byId[i - 1]]) throw new RangeError(`NarrativeIndex.build: id ${ids[byId[i]]} appears twice`);
  }
  const sharedIds = sharedInt32(ids.length);
  sharedIds.set(ids);
  return { ids: sharedIds, byId, texts: NarrativeTexts.of(records, fields), vocabulary, start, postings, positions: placer.done() };
}
