import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, words, wordSpans } from '../../../src/serve/narratives/words.js';

/** Texts over a small alphabet with ASCII, accents (composed and combining), ligatures, a dotted I, sigma and punctuation. */
const TEXTS = fc.array(fc.constantFrom('a', 'B', 's', 'é', 'e\u0301', 'ﬁ', 'İ', 'Σ', 'ß', '1', ' ', "'", '’', '-', '.', '\n', '%'), { maxLength: 30 }).map((l) => l.join(''));

describe('fold and words', () => {
  it('folds case, diacritics and compatibility forms', () => {
    expect(fold('Guillain-Barré')).toBe('guillain-barre');
    expect(fold('Barre\u0301 ﬁ x² İ ΟΔΟΣ')).toBe('barre fi x2 i οδοσ');
  });

  it('splits on everything that is not a letter or digit, apostrophes included', () => {
    expect(words('Guillain-Barré syndrome')).toEqual(['guillain', 'barre', 'syndrome']);
    expect(words("Bell's palsy; BELL’S-PALSY")).toEqual(['bell', 's', 'palsy', 'bell', 's', 'palsy']);
    expect(words('100% O2_sat, T=38.5C (a|b)*')).toEqual(['100', 'o2', 'sat', 't', '38', '5c', 'a', 'b']);
    expect(words('Fever, FEVERS!')).toEqual(['fever', 'fevers']);
    expect(words(' .. ')).toEqual([]);
  });

  it('gives the same words on the ASCII path as on the general path', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (text) => {
      expect(words(text)).toEqual(fold(text).match(/[\p{L}\p{N}]+/gu) ?? []);
    }), { numRuns: 1000 });
  });
});

describe('wordSpans', () => {
  it('gives the offsets of each word in the text as written', () => {
    expect(wordSpans('Guillain-Barre\u0301 (GBS)')).toEqual([
      { word: 'guillain', start: 0, end: 8 }, { word: 'barre', start: 9, end: 15 }, { word: 'gbs', start: 17, end: 20 },
    ]);
    expect(wordSpans('ﬁne, BELL’S')).toEqual([{ word: 'fine', start: 0, end: 3 }, { word: 'bell', start: 5, end: 9 }, { word: 's', start: 10, end: 11 }]);
  });

  it('has exactly the words of `words`, each spanning text that folds to it', () => {
    fc.assert(fc.property(TEXTS, (text) => {
      const spans = wordSpans(text);
      expect(spans.map((s) => s.word)).toEqual(words(text));
      for (const s of spans) expect(words(text.slice(s.start, s.end))).toEqual([s.word]);
    }), { numRuns: 1000 });
  });
});
