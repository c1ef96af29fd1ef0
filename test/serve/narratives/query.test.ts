import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTextQuery, parseTextQuery, TEXT_USAGE, type TextQuery } from '../../../src/serve/narratives/query.js';

/** The parsed query, failing the test when the text is rejected. */
function parsed(text: string): TextQuery {
  const result = parseTextQuery(text);
  if (!result.ok) throw new Error(`rejected ${JSON.stringify(text)}: ${result.error}`);
  return result.query;
}

describe('parseTextQuery: terms', () => {
  it('reads words, folded, each whole', () => {
    expect(parsed('Fever RASH')).toEqual({ required: [{ kind: 'word', word: 'fever' }, { kind: 'word', word: 'rash' }], excluded: [] });
  });

  it('folds diacritics and compatibility forms', () => {
    expect(parsed('Barré ﬁbrillation ÉCZÉMA')).toEqual({
      required: [{ kind: 'word', word: 'barre' }, { kind: 'word', word: 'fibrillation' }, { kind: 'word', word: 'eczema' }],
      excluded: [],
    });
  });

  it('reads word* as a prefix, stars only right after the word', () => {
    expect(parsed('intussus* fever** rash.* *arm ab*c')).toEqual({
      required: [
        { kind: 'prefix', prefix: 'intussus' }, { kind: 'prefix', prefix: 'fever' }, { kind: 'word', word: 'rash' },
        { kind: 'word', word: 'arm' }, { kind: 'phrase', words: ['ab', 'c'] },
      ],
      excluded: [],
    });
  });

  it('reads a quoted phrase, whatever separates its words', () => {
    expect(parsed('"Bell\'s  palsy" "guillain—BARRÉ"')).toEqual({
      required: [{ kind: 'phrase', words: ['bell', 's', 'palsy'] }, { kind: 'phrase', words: ['guillain', 'barre'] }],
      excluded: [],
    });
  });

  it('reads a quoted single word as that word, and a star inside quotes as plain text', () => {
    expect(parsed('"fever" "rash*"')).toEqual({ required: [{ kind: 'word', word: 'fever' }, { kind: 'word', word: 'rash' }], excluded: [] });
  });

  it('reads an unquoted term that separators split as a phrase', () => {
    expect(parsed("Guillain-Barré bell's")).toEqual({
      required: [{ kind: 'phrase', words: ['guillain', 'barre'] }, { kind: 'phrase', words: ['bell', 's'] }],
      excluded: [],
    });
  });

  it('reads -word, -prefix* and -"phrase" as exclusions', () => {
    expect(parsed('legal -court -lawsuit* -"class action"')).toEqual({
      required: [{ kind: 'word', word: 'legal' }],
      excluded: [{ kind: 'word', word: 'court' }, { kind: 'prefix', prefix: 'lawsuit' }, { kind: 'phrase', words: ['class', 'action'] }],
    });
  });

  it('treats a minus inside a term, or alone, as plain text', () => {
    expect(parsed('flu-like - fever')).toEqual({ required: [{ kind: 'phrase', words: ['flu', 'like'] }, { kind: 'word', word: 'fever' }], excluded: [] });
  });

  it('treats %, _, regex and SQL syntax as separators', () => {
    expect(parsed("%fever_rash% a|b+ [x] ' or 1=1; -- .*$")).toEqual({
      required: [
        { kind: 'phrase', words: ['fever', 'rash'] }, { kind: 'phrase', words: ['a', 'b'] }, { kind: 'word', word: 'x' },
        { kind: 'word', word: 'or' }, { kind: 'phrase', words: ['1', '1'] },
      ],
      excluded: [],
    });
  });

  it('keeps each distinct term once, in the order of first appearance (issue 35: 66 copies of s* cost 66 expansions)', () => {
    const result = parseTextQuery(`${Array(25).fill('fev*').join(' ')} Fever FEVER "bell's palsy" "Bell s palsy" -x -X -x*`);
    expect(result).toEqual({
      ok: true,
      query: { required: [{ kind: 'prefix', prefix: 'fev' }, { kind: 'word', word: 'fever' }, { kind: 'phrase', words: ['bell', 's', 'palsy'] }],
        excluded: [{ kind: 'word', word: 'x' }, { kind: 'prefix', prefix: 'x' }] },
      key: 'fev* fever "bell s palsy" -x -x*',
    });
    // The letters are those of the distinct terms: three copies of a one-letter prefix are one letter.
    expect(parseTextQuery('s* s* s*')).toMatchObject({ ok: false, rule: 'too-short', error: 'text must hold at least 3 letters or digits in the terms to find (got 1)' });
  });

  it('splits a term at a quote that follows it', () => {
    expect(parsed('pain"left arm"')).toEqual({ required: [{ kind: 'word', word: 'pain' }, { kind: 'phrase', words: ['left', 'arm'] }], excluded: [] });
  });

  it('gives a canonical key that parses to the same query', () => {
    const result = parseTextQuery(' Bell’s  PALSY*  -"Court Order"  -x* %fever% ');
    expect(result).toMatchObject({ ok: true, key: '"bell s" palsy* fever -"court order" -x*' });
    if (result.ok) expect(parsed(result.key)).toEqual(result.query);
    expect(formatTextQuery(parsed('ab -c de'))).toBe('ab de -c');
  });
});

describe('parseTextQuery: bad input, one rule each', () => {
  it('rejects more than 200 characters (code points), accepts 200', () => {
    expect(parseTextQuery('a'.repeat(201))).toEqual({ ok: false, rule: 'too-long', error: 'text must be at most 200 characters (got 201)', usage: TEXT_USAGE });
    expect(parseTextQuery('é'.repeat(200)).ok).toBe(true);
    expect(parseTextQuery('😀'.repeat(150) + 'abc').ok).toBe(true);
  });

  it('rejects an unbalanced quote', () => {
    expect(parseTextQuery('"bell palsy')).toEqual({ ok: false, rule: 'unbalanced-quote', error: 'text has an unbalanced quote: every " must be closed (got 1 quote)', usage: TEXT_USAGE });
    expect(parseTextQuery('"a" "b" "c')).toMatchObject({ rule: 'unbalanced-quote', error: 'text has an unbalanced quote: every " must be closed (got 5 quotes)' });
  });

  it('rejects only exclusions', () => {
    expect(parseTextQuery('-court -"class action"')).toEqual({ ok: false, rule: 'only-exclusions', error: 'text must hold at least one term to find, not only exclusions (-word)', usage: TEXT_USAGE });
    expect(parseTextQuery('%% -court')).toMatchObject({ rule: 'only-exclusions' });
  });

  it('rejects fewer than 3 letters or digits in the terms to find', () => {
    const short = (got: number): object => ({ ok: false, rule: 'too-short', error: `text must hold at least 3 letters or digits in the terms to find (got ${got})`, usage: TEXT_USAGE });
    expect(parseTextQuery('ab')).toEqual(short(2));
    expect(parseTextQuery('"a b"')).toEqual(short(2));
    expect(parseTextQuery('a* -longword')).toEqual(short(1));
    expect(parseTextQuery('%_% .*')).toEqual(short(0));
    expect(parseTextQuery('')).toEqual(short(0));
    expect(parseTextQuery('a b c').ok).toBe(true);
    expect(parseTextQuery('flu').ok).toBe(true);
  });

  it('rejects OR, AND, NOT in capitals and parentheses outside quotes, saying what is supported (issue 36)', () => {
    const message = (what: string): string => `text does not support ${what}: every term is required (an implicit AND), and there is no OR or grouping; ` +
      'search one alternative at a time, or use a prefix (surg* finds surgery and surgical), and -word for NOT';
    expect(parseTextQuery('surgery OR surgical')).toEqual({ ok: false, rule: 'operator', error: message('OR'), usage: TEXT_USAGE });
    expect(parseTextQuery('fever AND rash')).toMatchObject({ rule: 'operator', error: message('AND') });
    expect(parseTextQuery('fever NOT rash')).toMatchObject({ rule: 'operator', error: message('NOT') });
    expect(parseTextQuery('fever -OR')).toMatchObject({ rule: 'operator', error: message('OR') });
    expect(parseTextQuery('(fever rash)')).toMatchObject({ rule: 'operator', error: message('parentheses') });
    expect(parseTextQuery('fever) OR rash')).toMatchObject({ rule: 'operator', error: message('parentheses') });
    expect(TEXT_USAGE).toContain('no OR, AND, NOT or parentheses');
    // Lower case, inside a word, or quoted: words as before.
    expect(parsed('surgery or surgical and not')).toEqual({ required: ['surgery', 'or', 'surgical', 'and', 'not'].map((word) => ({ kind: 'word', word })), excluded: [] });
    expect(parsed('ORAL ANDES "rock AND roll" "(left) arm"')).toEqual({
      required: [{ kind: 'word', word: 'oral' }, { kind: 'word', word: 'andes' }, { kind: 'phrase', words: ['rock', 'and', 'roll'] }, { kind: 'phrase', words: ['left', 'arm'] }],
      excluded: [],
    });
  });

  it('checks the rules in order: length, quotes, operators, exclusions, letters', () => {
    expect(parseTextQuery('"' + 'a'.repeat(200))).toMatchObject({ rule: 'too-long' });
    expect(parseTextQuery('-"a')).toMatchObject({ rule: 'unbalanced-quote' });
    expect(parseTextQuery('"a OR')).toMatchObject({ rule: 'unbalanced-quote' });
    expect(parseTextQuery('-a OR')).toMatchObject({ rule: 'operator' });
    expect(parseTextQuery('-a')).toMatchObject({ rule: 'only-exclusions' });
  });
});

describe('parseTextQuery: any text', () => {
  it('never throws, and an accepted text has a key that parses to the same query', () => {
    const chars = fc.constantFrom('a', 'B', 'é', '1', ' ', '"', '-', '*', "'", '%', '_', '.', '\u0301', 'ß', '(', 'OR', 'NOT');
    fc.assert(fc.property(fc.array(chars, { maxLength: 40 }).map((list) => list.join('')), (text) => {
      const result = parseTextQuery(text);
      if (result.ok) expect(parseTextQuery(result.key)).toEqual(result);
    }), { numRuns: 2000 });
  });
});
