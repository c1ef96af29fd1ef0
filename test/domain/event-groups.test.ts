/**
 * The grouping file format (src/domain/event-groups.ts): a hand-written file read into groups and
 * items, and every kind of bad file refused with its problems by line, all at once.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANALYSES, parseAnalysisName } from '../../src/domain/analysis-rules.js';
import { EVENT_GROUP_LIMITS, eventGroupItems, EventGroupsError, parseEventGroups, PROBLEMS_SHOWN, termsInNoReport } from '../../src/domain/event-groups.js';

const HEADER = 'group_id,group_label,term,scope,source,version';
const GOOD = [
  HEADER,
  'seizures,Seizures,Convulsion,narrow,Brighton 2004,1',
  'seizures,Seizures,Febrile convulsion,narrow,Brighton 2004,1',
  'seizures,Seizures,Myoclonus,broad,Brighton 2004,1',
  'palsy,Facial palsy,Facial palsy,narrow,"SPEAC, AESI list",2',
  'infant,Infant events,Febrile convulsion,narrow,own,1',
].join('\n');

/** The problems of a bad file (the test fails when it is read). */
function problems(text: string): readonly string[] {
  try {
    parseEventGroups(text, 'bad.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(EventGroupsError);
    expect((error as Error).message).toContain('bad.csv');
    return (error as EventGroupsError).problems;
  }
  throw new Error('the file was read');
}

describe('parseEventGroups', () => {
  it('reads groups in file order, their terms with scope and line, and a digest of the text', () => {
    const set = parseEventGroups(GOOD, 'good.csv');
    expect(set.groups.map((g) => [g.id, g.label, g.source, g.version, g.terms.map((t) => `${t.term}/${t.scope}/${t.line}`)])).toEqual([
      ['seizures', 'Seizures', 'Brighton 2004', '1', ['Convulsion/narrow/2', 'Febrile convulsion/narrow/3', 'Myoclonus/broad/4']],
      ['palsy', 'Facial palsy', 'SPEAC, AESI list', '2', ['Facial palsy/narrow/5']],
      ['infant', 'Infant events', 'own', '1', ['Febrile convulsion/narrow/6']],
    ]);
    expect(set.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(parseEventGroups(`${GOOD}\n`, 'good.csv').digest).not.toBe(set.digest);
  });

  it('reads the columns in any order', () => {
    const set = parseEventGroups('term,scope,group_id,version,source,group_label\nConvulsion,narrow,s,1,x,Seizures\n', 'f.csv');
    expect(set.groups).toEqual([{ id: 's', label: 'Seizures', source: 'x', version: '1', terms: [{ term: 'Convulsion', scope: 'narrow', line: 2 }] }]);
  });

  it('derives a narrow item per group and a broad item (narrow + broad terms) when the group has broad terms, sorted by name', () => {
    const items = eventGroupItems(parseEventGroups(GOOD, 'good.csv'));
    expect(items.map((i) => [i.name, i.group.id, i.scope, i.terms.map((t) => t.term)])).toEqual([
      ['Facial palsy', 'palsy', 'narrow', ['Facial palsy']],
      ['Infant events', 'infant', 'narrow', ['Febrile convulsion']],
      ['Seizures', 'seizures', 'narrow', ['Convulsion', 'Febrile convulsion']],
      ['Seizures (broad)', 'seizures', 'broad', ['Convulsion', 'Febrile convulsion', 'Myoclonus']],
    ]);
  });

  it('lists the terms no report carries, by line', () => {
    const set = parseEventGroups(GOOD, 'good.csv');
    expect(termsInNoReport(set, new Set(['Convulsion', 'Febrile convulsion']))).toEqual([
      { line: 4, group_id: 'seizures', term: 'Myoclonus' },
      { line: 5, group_id: 'palsy', term: 'Facial palsy' },
    ]);
  });

  it('refuses unknown, missing and repeated columns by line', () => {
    expect(problems('group_id,group_label,term,scope,source,version,weight\n')).toEqual([
      'line 1: unknown column "weight" (the columns: group_id, group_label, term, scope, source, version)',
    ]);
    expect(problems('group_id,group_label,term,scope\nx,X,Convulsion,narrow\n')).toEqual(['line 1: missing columns source, version']);
    expect(problems(`${HEADER},term\n`)).toEqual(['line 1: column "term" is named twice']);
    expect(problems('')[0]).toMatch(/^empty file/);
    expect(problems(`${HEADER}\n`)).toEqual(['no group: the file has a header but no row']);
  });

  it('refuses an empty group (a row without a term), empty cells, bad ids and scopes, by line, all at once', () => {
    expect(problems([HEADER, 'seizures,Seizures,,narrow,src,1', 'ok,OK,Rash,wide,src,1', 'bad id,Bad,Rash,narrow,src,', 'x,X,Rash,narrow,src'].join('\n'))).toEqual([
      'line 2: empty term (group "seizures" needs a term on every row)',
      'line 3: scope "wide" is not narrow or broad',
      'line 4: empty version',
      'line 5: 5 cells, expected 6',
    ]);
    expect(problems([HEADER, 'bad id,Bad,Rash,narrow,src,1'].join('\n'))).toEqual(['line 2: group_id "bad id" may hold only letters, digits, _, - and .']);
  });

  it('refuses duplicate rows, a group whose rows disagree, and two groups with one label', () => {
    expect(problems([HEADER, 's,Seizures,Convulsion,narrow,src,1', 's,Seizures,Convulsion,broad,src,1'].join('\n'))).toEqual([
      'line 3: duplicate row: term "Convulsion" is already in group "s" (line 2)',
    ]);
    expect(problems([HEADER, 's,Seizures,Convulsion,narrow,src,1', 's,Fits,Epilepsy,narrow,src,2'].join('\n'))).toEqual([
      'line 3: group_label "Fits" differs from line 2\'s "Seizures" for group "s"',
      'line 3: version "2" differs from line 2\'s "1" for group "s"',
    ]);
    expect(problems([HEADER, 's,Seizures,Convulsion,narrow,src,1', 't,SEIZURES,Epilepsy,narrow,src,1', 'u,Rash (broad),Rash,narrow,src,1'].join('\n'))).toEqual([
      'line 3: group_label "SEIZURES" is also the label of group "s" (line 2); labels name the groups in answers and must differ',
      'line 4: group_label "Rash (broad)" may not end with " (broad)" (the name of a group\'s broad item)',
    ]);
  });

  it('refuses a file past its limits before building anything: size, rows, a cell, terms per group (issue 45)', () => {
    const row = (i: number, group = 'g') => `${group},Label ${group},Term ${i},narrow,src,1`;
    // A 50 MB cell was read whole and went into the store's metadata: now the file's size alone refuses it.
    const big = `${HEADER}\ng,G,${'x'.repeat(EVENT_GROUP_LIMITS.bytes)},narrow,src,1\n`;
    expect(problems(big)).toEqual([`the file has ${Buffer.byteLength(big)} bytes, more than the 1048576 a grouping file may have (docs/event-groups.md, limits)`]);
    const rows = [HEADER, ...Array.from({ length: EVENT_GROUP_LIMITS.rows + 1 }, (_, i) => row(i, `g${i % 100}`))].join('\n');
    expect(problems(rows)).toEqual(['the file has 10001 rows, more than the 10000 a grouping file may have (docs/event-groups.md, limits)']);
    expect(problems(`${HEADER}\ng,G,${'y'.repeat(1001)},narrow,src,1\n`)).toEqual(['line 2: cell 3 has 1001 characters, more than the 1000 a cell may have']);
    const wide = [HEADER, ...Array.from({ length: EVENT_GROUP_LIMITS.termsPerGroup + 1 }, (_, i) => row(i))].join('\n');
    expect(problems(wide)).toEqual(['line 2: group "g" has 501 terms, more than the 500 a group may have']);
    // At the limits exactly: read.
    const full = [HEADER, ...Array.from({ length: EVENT_GROUP_LIMITS.termsPerGroup }, (_, i) => row(i))].join('\n');
    expect(parseEventGroups(full, 'full.csv').groups[0].terms).toHaveLength(500);
  });

  it('names the first problems and counts the rest, never the whole file', () => {
    const bad = [HEADER, ...Array.from({ length: 5000 }, (_, i) => `bad id ${i},X${i},Rash,narrow,src,1`)].join('\n');
    let message = '';
    try {
      parseEventGroups(bad, 'bad.csv');
    } catch (error) {
      message = (error as Error).message;
      expect((error as EventGroupsError).problems).toHaveLength(5000);
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe('bad.csv: 5000 problems in the grouping file:');
    expect(lines.slice(1, 1 + PROBLEMS_SHOWN)).toEqual(Array.from({ length: PROBLEMS_SHOWN }, (_, i) => `  line ${i + 2}: group_id "bad id ${i}" may hold only letters, digits, _, - and .`));
    expect(lines.slice(1 + PROBLEMS_SHOWN)).toEqual(['  ... and 4990 more']);
  });

  it('refuses text that is not CSV', () => {
    expect(problems(`${HEADER}\ns,"Seiz,Convulsion,narrow,src,1\n`)[0]).toMatch(/^not readable as CSV/);
  });
});

describe('the @groups modifier', () => {
  it('groups is stratified@groups: every report, stratified E, events as event groups; SUBSET@groups keeps the subset; @types with @groups is refused', () => {
    const groups = parseAnalysisName('groups');
    expect(groups.ok && [groups.analysis.name, groups.analysis.items, groups.analysis.stratified, groups.analysis.subset]).toEqual(['groups', 'event_group', true, null]);
    const serious = parseAnalysisName('serious@groups');
    expect(serious.ok && [serious.analysis.items, serious.analysis.subset]).toEqual(['event_group', expect.stringContaining('DIED')]);
    expect(parseAnalysisName('stratified@groups@types')).toEqual({ ok: false, error: expect.stringContaining('@types and @groups cannot be combined') });
    expect(DEFAULT_ANALYSES).toContain('groups');
  });
});
