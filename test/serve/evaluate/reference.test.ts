/** The reference-set CSV: valid rows, bad rows with their line numbers, files with no valid row. */
import { describe, expect, it } from 'vitest';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { UserError } from '../../../src/domain/user-error.js';
import { wilson } from '../../../src/stats/wilson.js';
import { FIXTURE_REFERENCE } from './fixture.js';

describe('parseReferenceSet', () => {
  it('reads the valid rows (comments skipped, quotes, class lower-cased, emerged as a quarter)', () => {
    const set = parseReferenceSet(FIXTURE_REFERENCE, 'fixture.csv');
    expect(set.pairs.map((p) => [p.id, p.class, p.emerged, p.emergedIndex, p.line])).toEqual([
      ['rota-intussusception', 'positive', '1999Q3', 1999 * 4 + 2, 3], ['mmr-febrile', 'positive', null, null, 4],
      ['hepb-anaphylaxis', 'positive', null, null, 5], ['yf-pyrexia', 'positive', null, null, 6], ['mmr-autism', 'artefact', null, null, 7],
      ['flu-palsy', 'negative', null, null, 8], ['hepb-ms', 'negative', null, null, 9],
    ]);
    expect(set.pairs[5].source).toBe("IOM 2011, Bell's palsy");
    // The one-term form: each row a concept of its event alone, without a group.
    expect(set.pairs.every((p) => p.terms.length === 1 && p.terms[0] === p.event && p.group === null)).toBe(true);
  });

  it('reads concepts: terms split on |, a group item, the five classes; a bad terms cell is a bad row', () => {
    const text = [
      'id,vaccine,event,terms,group,class,emerged,source',
      'dtp-crying,DTP,Inconsolable crying,Crying | Screaming,,positive,,IOM 1991',
      'rota,ROTAVIRUS (ROTASHIELD),Intussusception,,Intussusception and bowel obstruction,positive,1999q3,MMWR 1999',
      'men-gbs,MNQ,Guillain-Barre syndrome,,,refuted,,ACIP 2010',
      'hpv-syncope,HPV4,Syncope,Syncope|Syncope vasovagal,Syncope,administration,,MMWR 2008',
      'x,MMR,Autism,,,artefact,,Goodman 2006',
      'empty-term,MMR,Crying,Crying||Screaming,,positive,,x',
      'twice,MMR,Crying,Crying|Crying,,positive,,x',
      'dated-refuted,MNQ,Guillain-Barre syndrome,,,refuted,2005Q4,x',
    ].join('\n');
    const set = parseReferenceSet(text, 'c.csv');
    expect(set.pairs.map((p) => [p.id, p.event, p.terms, p.group, p.class, p.emerged])).toEqual([
      ['dtp-crying', 'Inconsolable crying', ['Crying', 'Screaming'], null, 'positive', null],
      ['rota', 'Intussusception', ['Intussusception'], 'Intussusception and bowel obstruction', 'positive', '1999Q3'],
      ['men-gbs', 'Guillain-Barre syndrome', ['Guillain-Barre syndrome'], null, 'refuted', null],
      ['hpv-syncope', 'Syncope', ['Syncope', 'Syncope vasovagal'], 'Syncope', 'administration', null],
      ['x', 'Autism', ['Autism'], null, 'artefact', null],
    ]);
    expect(set.problems).toEqual([
      { line: 7, message: 'an empty term in terms "Crying||Screaming" (terms are separated by |)' },
      { line: 8, message: 'term "Crying" is listed twice' },
      { line: 9, message: 'emerged is given for a refuted pair (leave it blank)' },
    ]);
  });

  it('reports bad rows with their line numbers and skips them', () => {
    expect(parseReferenceSet(FIXTURE_REFERENCE, 'fixture.csv').problems).toEqual([
      { line: 10, message: 'unknown class "probable" (expected positive, negative, refuted, administration, artefact)' },
      { line: 11, message: 'bad quarter "1999-13" in emerged (expected YYYYQn, e.g. 1999Q3)' },
      { line: 12, message: 'missing source' },
    ]);
    const text = [
      'id,vaccine,event,class,emerged,source', 'a,MMR,"Febrile\nconvulsion",positive,,x', 'a,MMR,Autism,negative,,x',
      'b,MMR,Autism,negative,2001Q1,x', 'c,MMR,Autism', ',MMR,,negative,,x', 'd,MMR,Autism,artefact,2001Q1,x',
    ].join('\n');
    expect(parseReferenceSet(text, 'f.csv').problems).toEqual([
      { line: 4, message: 'id "a" is repeated' },
      { line: 5, message: 'emerged is given for a negative pair (leave it blank)' },
      { line: 6, message: '3 fields (expected 6: id,vaccine,event,class,emerged,source)' },
      { line: 7, message: 'missing id, event' },
      { line: 8, message: 'emerged is given for an artefact pair (leave it blank)' },
    ]);
  });

  it('a file with no valid row, a wrong header or no row at all is a UserError naming the file and line', () => {
    const bad = 'id,vaccine,event,class,emerged,source\nx,MMR,Autism,maybe,,IOM\ny,MMR,Autism,negative,,\n';
    expect(() => parseReferenceSet(bad, 'bad.csv')).toThrow(new UserError('bad.csv: no valid reference pair (line 2: unknown class "maybe" (expected positive, negative, refuted, administration, artefact); and 1 more bad rows)'));
    expect(() => parseReferenceSet('id,vaccine,event,class,emerged,source\n', 'h.csv')).toThrow('h.csv: no valid reference pair (the file has a header only)');
    expect(() => parseReferenceSet('# only a comment\nvaccine,event\n', 'w.csv')).toThrow('w.csv:2: the header must be id,vaccine,event,terms,group,class,emerged,source (or the one-term form id,vaccine,event,class,emerged,source; got vaccine,event)');
    expect(() => parseReferenceSet('', 'e.csv')).toThrow('e.csv: empty reference set');
    expect(() => parseReferenceSet('id,vaccine,event,class,emerged,source\n"a,b\n', 'q.csv')).toThrow(/^q\.csv:2: not a CSV reference set/);
  });
});

describe('wilson (Wilson 1927)', () => {
  it('matches R prop.test(x, n, correct = FALSE)$conf.int', () => {
    // R 4.3: prop.test(3, 4, correct = FALSE)$conf.int -> 0.3006418 0.9544127
    expect(wilson(3, 4).lower).toBeCloseTo(0.3006418, 7);
    expect(wilson(3, 4).upper).toBeCloseTo(0.9544127, 7);
    // prop.test(0, 5, correct = FALSE)$conf.int -> 0.0000000 0.4344825
    expect(wilson(0, 5)).toMatchObject({ estimate: 0, lower: 0 });
    expect(wilson(0, 5).upper).toBeCloseTo(0.4344825, 7);
    expect(wilson(0, 0)).toEqual({ x: 0, n: 0, estimate: null, lower: null, upper: null });
    expect(() => wilson(3, 2)).toThrow('wilson: need whole numbers 0 <= x <= n (got x 3, n 2)');
  });
});
