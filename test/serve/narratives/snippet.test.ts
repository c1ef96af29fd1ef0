import { describe, expect, it } from 'vitest';
import { parseTextQuery, type TextQuery } from '../../../src/serve/narratives/query.js';
import { snippet } from '../../../src/serve/narratives/snippet.js';

const query = (text: string): TextQuery => {
  const parsed = parseTextQuery(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.query;
};
/** Fields with only SYMPTOM_TEXT. */
const symptoms = (text: string): Array<string | null> => [text, null, null, null, null, null];
/** The marked parts of a snippet, for readable expectations. */
const marked = (s: { text: string; matches: Array<{ start: number; end: number }> } | null): string[] => s?.matches.map((m) => s.text.slice(m.start, m.end)) ?? [];

const LONG = 'The patient was seen in clinic today and then developed a high fever overnight with chills and rash lasting three days.';

describe('snippet', () => {
  it('keeps a short field whole, with the match offsets', () => {
    expect(snippet(symptoms('Pt developed fever and rash.'), query('fever'))).toEqual({
      field: 'SYMPTOM_TEXT', text: 'Pt developed fever and rash.', matches: [{ start: 13, end: 18 }],
    });
  });

  it('cuts a long field between words around the first match, marking both elisions', () => {
    expect(snippet(symptoms(LONG), query('fever'), 40)).toEqual({ field: 'SYMPTOM_TEXT', text: '…a high fever overnight with chills…', matches: [{ start: 8, end: 13 }] });
  });

  it('starts at the field start, or ends at the field end, without a mark there', () => {
    expect(snippet(symptoms(LONG), query('patient'), 40)).toEqual({ field: 'SYMPTOM_TEXT', text: 'The patient was seen in clinic today and…', matches: [{ start: 4, end: 11 }] });
    expect(snippet(symptoms(LONG), query('days'), 40)).toEqual({ field: 'SYMPTOM_TEXT', text: '…with chills and rash lasting three days.', matches: [{ start: 36, end: 40 }] });
  });

  it('is about 200 characters by default', () => {
    const text = `${'word '.repeat(100)}fever ${'word '.repeat(100)}`;
    const s = snippet(symptoms(text), query('fever'));
    expect(s?.text).toBe(`…${'word '.repeat(13)}fever${' word'.repeat(26)}…`);
    expect(s?.text.length).toBe(202);
    expect(s?.matches).toEqual([{ start: 66, end: 71 }]);
  });

  it('comes from the first field (NARRATIVE_FIELDS order) holding a term to find', () => {
    const fields = ['Rash.', null, 'History of fever.', 'Fever today.', null, null];
    expect(snippet(fields, query('fever'))).toEqual({ field: 'HISTORY', text: 'History of fever.', matches: [{ start: 11, end: 16 }] });
    expect(snippet(fields, query('rash fever'))).toEqual({ field: 'SYMPTOM_TEXT', text: 'Rash.', matches: [{ start: 0, end: 4 }] });
    expect(snippet([null, null, null, null, null, 'after DTP'], query('dtp'))).toMatchObject({ field: 'PRIOR_VAX' });
  });

  it('marks every occurrence of words, prefixes and phrases in the snippet, merging overlaps, not exclusions', () => {
    const s = snippet(symptoms('High fever, then fever again; Feverish. No rash.'), query('fever "high fever" feveri* -rash'));
    expect(s?.matches).toEqual([{ start: 0, end: 10 }, { start: 17, end: 22 }, { start: 30, end: 38 }]);
    expect(marked(s)).toEqual(['High fever', 'fever', 'Feverish']);
  });

  it('marks phrases across punctuation and diacritics, offsets in the text as written', () => {
    expect(marked(snippet(symptoms("Dx: BELL'S PALSY (left)."), query('"bell\'s palsy"')))).toEqual(["BELL'S PALSY"]);
    expect(snippet(symptoms('Dx Guillain-Barre\u0301 (GBS)'), query('guillain barre'))).toEqual({
      field: 'SYMPTOM_TEXT', text: 'Dx Guillain-Barre\u0301 (GBS)', matches: [{ start: 3, end: 11 }, { start: 12, end: 18 }],
    });
    expect(marked(snippet(symptoms('Syndrome de Guillain–Barré.'), query('"guillain barre"')))).toEqual(['Guillain–Barré']);
  });

  it('marks only whole words', () => {
    expect(marked(snippet(symptoms('Fevers; fever.'), query('fever')))).toEqual(['fever']);
  });

  it('is null when no field holds a term to find', () => {
    expect(snippet(symptoms('Rash.'), query('fever'))).toBeNull();
    expect(snippet([null, null, null, null, null, null], query('fever'))).toBeNull();
  });
});
