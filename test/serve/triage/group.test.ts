/**
 * One signal, one row (src/serve/triage/group.ts foldSignals) on hand-made pairs: linked pairs (overlap
 * at least FOLD_OVERLAP, directly or through each other) fold under the first in triage order;
 * a weaker link does not; another vaccine's pairs never fold.
 */
import { describe, expect, it } from 'vitest';
import { FOLD_OVERLAP, foldSignals, HEAD_OVERLAP, relatedOf } from '../../../src/serve/triage/group.js';
import type { TriagePair } from '../../../src/serve/triage/rank.js';
import type { TriageRow } from '../../../src/serve/store/triage-rows.js';

let made = 0;
/** A ranked pair: each made scores below the one before (the order given is the triage order). */
const pair = (vaccine: string, event: string, n: number, cautions: Array<{ code: string; text: string }> = []): TriagePair =>
  ({ vaccine, event, n, related_events: [], cautions, score: 1000 - ++made, eb05: 2 }) as unknown as TriagePair;
const row = (vaccine: string, event: string, related: Array<[string, number]>): TriageRow => ({ vaccine, event, related_events: JSON.stringify(related) }) as unknown as TriageRow;

describe('foldSignals', () => {
  it('folds a chain under its first pair, with the overlap with the head or the pair it joined through', () => {
    expect(FOLD_OVERLAP).toBe(0.4);
    // A-I: intussusception; V: vomiting (0.51 with I); D: dehydration (0.36 with I, stored; 0.67 with V); G: 0.3 with D only; B x I: another vaccine
    const ranked = [pair('R', 'I', 101), pair('B', 'I', 56), pair('R', 'D', 39), pair('R', 'V', 134), pair('R', 'G', 22)];
    const rows = [
      row('R', 'I', [['V', 0.51], ['D', 0.36]]), row('R', 'V', [['D', 0.67], ['I', 0.51]]), row('R', 'D', [['V', 0.67], ['I', 0.36], ['G', 0.3]]),
      row('R', 'G', [['D', 0.3]]), row('B', 'I', [['I', 0.99]]),
    ];
    const folded = foldSignals(ranked, rows);
    expect(folded.map((p) => `${p.vaccine}|${p.event}`)).toEqual(['R|I', 'B|I', 'R|G']);
    expect(folded[0].related_events).toEqual([
      { event: 'V', n: 134, overlap: 0.51, via: null },
      { event: 'D', n: 39, overlap: 0.36, via: 'V' }, // joined through V (0.67); its overlap with the head is 0.36 (>= HEAD_OVERLAP)
    ]);
    expect(folded[1].related_events).toEqual([]);
  });

  it('a chain does not drift to a pair that overlaps the head under HEAD_OVERLAP (or not stored with it)', () => {
    expect(HEAD_OVERLAP).toBe(0.25);
    const folded = foldSignals([pair('R', 'I', 10), pair('R', 'V', 8), pair('R', 'D', 5)], [
      row('R', 'I', [['V', 0.5]]), row('R', 'V', [['I', 0.5], ['D', 0.8]]), row('R', 'D', [['V', 0.8]]),
    ]);
    expect(folded.map((p) => p.event)).toEqual(['I', 'D']);
    expect(folded[0].related_events).toEqual([{ event: 'V', n: 8, overlap: 0.5, via: null }]);
    expect(folded[1].related_events).toEqual([]); // V is placed already
  });

  it('reads the stored text, malformed or null as none', () => {
    expect(relatedOf('[["Vomiting",0.515]]')).toEqual([['Vomiting', 0.515]]);
    expect(relatedOf(null)).toEqual([]);
    expect(relatedOf('{')).toEqual([]);
  });
});
