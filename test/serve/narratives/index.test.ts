import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NarrativeIndex } from '../../../src/serve/narratives/index.js';
import { parseTextQuery, type TextTerm } from '../../../src/serve/narratives/query.js';
import { words } from '../../../src/serve/narratives/words.js';
import type { NarrativeRecord } from '../../../src/serve/narratives/records.js';

/** A record from its non-blank fields (SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX). */
const record = (id: number, f: Partial<Record<'sym' | 'lab' | 'his' | 'cur' | 'med' | 'pri', string>>): NarrativeRecord =>
  ({ id, fields: [f.sym ?? null, f.lab ?? null, f.his ?? null, f.cur ?? null, f.med ?? null, f.pri ?? null] });

const CORPUS: NarrativeRecord[] = [
  record(101, { sym: 'Pt developed fever and rash. Fevers persisted 3 days.' }),
  record(102, { sym: 'Guillain-Barré syndrome 3 weeks after vaccination.', his: "Bell's palsy 1998" }),
  record(103, { sym: 'Feverish; INTUSSUSCEPTION confirmed by ultrasound.', lab: '100% O2_sat' }),
  record(104, { sym: 'Attorney called: legal action. Court date set.', med: 'none' }),
  record(105, { sym: 'Legal guardian reports Bell palsy.', cur: 'guillain barre' }),
  record(106, { sym: 'bell', pri: 'palsy after DTP' }),
  record(107, { sym: 'Bells palsy; ÉCZÉMA (a|b)* [x]' }),
  record(108, {}),
  record(109, { sym: 'Intussusceptions x2, court-ordered records; fever.' }),
];
const INDEX = NarrativeIndex.build(CORPUS);

/** The VAERS_IDs matching a text (ascending ordinals, so input order). */
function ids(text: string, within?: number[]): number[] {
  const parsed = parseTextQuery(text);
  if (!parsed.ok) throw new Error(parsed.error);
  const inside = within ? Int32Array.from(within.map((id) => INDEX.ordinalOf(id))) : undefined;
  return [...INDEX.search(parsed.query, inside)].map((r) => INDEX.idAt(r));
}

describe('NarrativeIndex.search', () => {
  it('matches words whole, ignoring case', () => {
    expect(ids('fever')).toEqual([101, 109]);
    expect(ids('FEVERS')).toEqual([101]);
    expect(ids('feverish')).toEqual([103]);
    expect(ids('feve')).toEqual([]);
    expect(ids('unknownword')).toEqual([]);
  });

  it('matches prefixes', () => {
    expect(ids('fever*')).toEqual([101, 103, 109]);
    expect(ids('intussus*')).toEqual([103, 109]);
    expect(ids('intussusception')).toEqual([103]);
    expect(ids('zzz*')).toEqual([]);
  });

  it('ignores diacritics both ways', () => {
    expect(ids('"guillain barre"')).toEqual([102, 105]);
    expect(ids('Guillain-Barré')).toEqual([102, 105]);
    expect(ids('eczema')).toEqual([107]);
    expect(ids('ÉCZÉMA')).toEqual([107]);
  });

  it('matches phrases consecutively within one field, across punctuation', () => {
    expect(ids('"bell\'s palsy"')).toEqual([102]);
    expect(ids('"bell s palsy"')).toEqual([102]);
    expect(ids('"bell palsy"')).toEqual([105]);
    expect(ids('"bells palsy"')).toEqual([107]);
    expect(ids('bell palsy')).toEqual([102, 105, 106]);
    expect(ids('"palsy bell"')).toEqual([]);
    expect(ids('"court ordered"')).toEqual([109]);
  });

  it('excludes words, prefixes and phrases', () => {
    expect(ids('legal')).toEqual([104, 105]);
    expect(ids('legal -court')).toEqual([105]);
    expect(ids('legal -"court date"')).toEqual([105]);
    expect(ids('legal -"date court"')).toEqual([104, 105]);
    expect(ids('fever* -feverish -"fevers persisted"')).toEqual([109]);
    expect(ids('palsy -bell*')).toEqual([]);
    expect(ids('palsy -"bell s"')).toEqual([105, 106, 107]);
  });

  it('treats %, _, regex and SQL syntax as plain separators', () => {
    expect(ids('100%')).toEqual([103]);
    expect(ids('O2_sat')).toEqual([103]);
    expect(ids('%sat%')).toEqual([103]);
    expect(ids('a|b* [x]')).toEqual([107]);
    expect(ids('[x] eczema')).toEqual([107]);
    expect(ids("none' or '1'='1")).toEqual([]);
    expect(ids('.* court$')).toEqual([104, 109]);
  });

  it('combines terms across fields (AND), each term anywhere', () => {
    expect(ids('syndrome 1998')).toEqual([102]);
    expect(ids('attorney none')).toEqual([104]);
    expect(ids('intussus* 100')).toEqual([103]);
  });

  it('searches within a selection', () => {
    expect(ids('fever*', [103, 109])).toEqual([103, 109]);
    expect(ids('fever*', [102, 104])).toEqual([]);
    expect(ids('"guillain barre"', [105])).toEqual([105]);
    expect(ids('legal -court', [104])).toEqual([]);
  });
});

describe('NarrativeIndex: ids, texts, sizes, bad input', () => {
  it('maps ordinals and ids both ways, and serves the texts', () => {
    expect([INDEX.size, INDEX.idAt(4), INDEX.ordinalOf(105), INDEX.ordinalOf(100), INDEX.ordinalOf(110)]).toEqual([9, 105, 4, -1, -1]);
    expect(INDEX.text(1, 2)).toBe("Bell's palsy 1998");
    expect(INDEX.text(1, 0)).toBe('Guillain-Barré syndrome 3 weeks after vaccination.');
    expect(INDEX.fields(6)).toEqual(['Bells palsy; ÉCZÉMA (a|b)* [x]', null, null, null, null, null]);
    expect(INDEX.fields(7)).toEqual([null, null, null, null, null, null]);
  });

  it('counts what it holds', () => {
    const small = NarrativeIndex.build([record(7, { sym: 'a b a', lab: 'B' }), record(3, { his: 'b c' }), record(5, { sym: '', cur: 'é' })]);
    // Held in memory: the 11 bytes of text, the 5 postings of 4 bytes and 12 bytes of positions: per
    // entry its length and its positions as gaps (a at 0, 2: 3 bytes; b at 1 and 4 past LAB_DATA's
    // skipped number: 3; b, c of report 3 and e of report 5 at 0, 1, 1: 2 bytes each).
    expect(small.stats()).toEqual({ reports: 3, textBytes: 11, words: 4, postings: 5, positionBytes: 12, heldBytes: 43 });
    expect(small.fields(2)).toEqual([null, null, null, 'é', null, null]);
    expect(small.ordinalOf(3)).toBe(1);
  });

  it('answers in new arrays, and rejects out-of-range reads', () => {
    const fever = parseTextQuery('fever');
    if (!fever.ok) throw new Error(fever.error);
    INDEX.search(fever.query).fill(7);
    const within = Int32Array.of(0, 8);
    INDEX.search(fever.query, within).fill(7);
    expect([...INDEX.search(fever.query)]).toEqual([0, 8]);
    expect([...within]).toEqual([0, 8]);
    expect(() => INDEX.fields(9)).toThrow(new RangeError('NarrativeIndex: no report at ordinal 9'));
    expect(() => INDEX.text(0, 6)).toThrow(new RangeError('NarrativeIndex.text: no field 6'));
  });

  it('rejects repeated and non-integer ids', () => {
    expect(() => NarrativeIndex.build([record(1, {}), record(1, {})])).toThrow(new RangeError('NarrativeIndex.build: id 1 appears twice'));
    expect(() => NarrativeIndex.build([record(1.5, {})])).toThrow(new RangeError('NarrativeIndex.build: id 1.5 is not an integer in 0..2147483647'));
  });
});

describe('NarrativeIndex.search against a plain evaluation', () => {
  /** Whether a field's words hold a term (the definitions of the grammar, applied one by one). */
  const holds = (list: string[], term: TextTerm): boolean =>
    term.kind === 'word' ? list.includes(term.word)
      : term.kind === 'prefix' ? list.some((w) => w.startsWith(term.prefix))
        : list.some((_, i) => term.words.every((w, k) => list[i + k] === w));

  it('finds exactly the records a scan of each record finds, on random corpora and queries', () => {
    const word = fc.constantFrom('fever', 'fevers', 'Fever', 'rash', 'bell', "bell's", 'palsy', 'Barré', 'barre', 'a1', 'x');
    const text = fc.array(fc.tuple(word, fc.constantFrom(' ', ', ', '-', '. ')), { maxLength: 8 }).map((l) => l.map(([w, sep]) => w + sep).join(''));
    const field = fc.option(text, { nil: null });
    const corpus = fc.array(fc.array(field, { minLength: 6, maxLength: 6 }), { maxLength: 25 });
    const term = fc.oneof(word, word.map((w) => `${w.slice(0, 3)}*`), fc.array(word, { minLength: 2, maxLength: 3 }).map((l) => `"${l.join(' ')}"`));
    const query = fc.tuple(fc.array(term, { minLength: 1, maxLength: 3 }), fc.array(term, { maxLength: 2 })).map(([req, exc]) => [...req, ...exc.map((t) => `-${t}`)].join(' '));
    fc.assert(fc.property(corpus, query, (fieldsList, text) => {
      const parsed = parseTextQuery(text);
      if (!parsed.ok) return;
      const records = fieldsList.map((fields, i) => ({ id: 1000 + i, fields }));
      const index = NarrativeIndex.build(records);
      const expected = records.filter((r) => {
        const lists = r.fields.map((f) => (f === null ? [] : words(f)));
        return parsed.query.required.every((t) => lists.some((l) => holds(l, t))) && !parsed.query.excluded.some((t) => lists.some((l) => holds(l, t)));
      }).map((r) => r.id);
      expect([...index.search(parsed.query)].map((r) => index.idAt(r))).toEqual(expected);
    }), { numRuns: 500 });
  });
});
