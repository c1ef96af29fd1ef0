/**
 * The shipped reference set and event groups against their READMEs and the 1990-2006 files (issue
 * 47): every row of data/reference/vaers-1990-2006.csv has a row in data/reference/README.md quoting
 * the line of its source, every (group, term) of data/event-groups/aesi.csv a row in
 * data/event-groups/README.md, and (the 1990-2006 files that ship in data/vaers, else ../shared/data/vaers;
 * plain CSV parsing of the raw files, test/helpers/raw-vaers.ts) every reference vaccine names a VAX_NAME or VAX_TYPE of the
 * files, every term occurs in them, and every group names an item of the shipped groups.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventGroupItems, parseEventGroups } from '../../../src/domain/event-groups.js';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { loadRawReports } from '../../helpers/raw-vaers.js';
import { REPO_ROOT, SHARED_DATA } from '../../helpers/paths.js';

const referenceText = readFileSync(path.join(REPO_ROOT, 'data', 'reference', 'vaers-1990-2006.csv'), 'utf8');
const reference = parseReferenceSet(referenceText, 'vaers-1990-2006.csv');
const referenceReadme = readFileSync(path.join(REPO_ROOT, 'data', 'reference', 'README.md'), 'utf8');
const groupsText = readFileSync(path.join(REPO_ROOT, 'data', 'event-groups', 'aesi.csv'), 'utf8');
const groups = parseEventGroups(groupsText, 'aesi.csv');
const groupsReadme = readFileSync(path.join(REPO_ROOT, 'data', 'event-groups', 'README.md'), 'utf8');

/** The rows of the Markdown tables of `text` as arrays of trimmed cells. */
function tableRows(text: string): string[][] {
  return text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('|---')).map((l) => l.slice(1, -1).split(' | ').map((c) => c.trim()));
}

describe('the shipped reference set', () => {
  it('parses without a bad row; 47 concepts by class, 114 vaccine x term pairs', () => {
    expect(reference.problems).toEqual([]);
    const byClass: Record<string, number> = {};
    for (const p of reference.pairs) byClass[p.class] = (byClass[p.class] ?? 0) + 1;
    expect(byClass).toEqual({ positive: 15, negative: 23, refuted: 3, administration: 3, artefact: 3 });
    expect(reference.pairs.reduce((k, p) => k + p.terms.length, 0)).toBe(114);
    expect(new Set(reference.pairs.filter((p) => p.class === 'negative').map((p) => p.vaccine)).size).toBeGreaterThanOrEqual(6);
  });

  it('the README quotes a line of the source of every row, and lists no other id', () => {
    const rows = tableRows(referenceReadme).filter((r) => /^`[^`]+`$/.test(r[0]));
    const quoted = new Map(rows.map((r) => [r[0].slice(1, -1), r[r.length - 1]]));
    expect(reference.pairs.filter((p) => !/"[^"]{15,}"/.test(quoted.get(p.id) ?? '')).map((p) => p.id)).toEqual([]);
    expect([...quoted.keys()].sort()).toEqual(reference.pairs.map((p) => p.id).sort());
  });

  it('every negative quotes its outcome line of the final Eumaeus list (outcomeId,outcomeName)', () => {
    const rows = new Map(tableRows(referenceReadme).map((r) => [r[0].slice(1, -1), r[r.length - 1]]));
    for (const p of reference.pairs.filter((x) => x.class === 'negative')) expect(rows.get(p.id), p.id).toMatch(/^"\d+,[^"]+" \(NegativeControls\.csv at f9cf9de\)$/);
  });

  it('every group names an item of the shipped event groups', () => {
    const items = new Set(eventGroupItems(groups).map((i) => i.name));
    expect(reference.pairs.filter((p) => p.group !== null && !items.has(p.group)).map((p) => p.id)).toEqual([]);
  });
});

describe('the shipped event groups', () => {
  it('the README has a row, with its reason, for every (group, term) of aesi.csv, under its group', () => {
    const sections = groupsReadme.split('\n### ').slice(1);
    const missing: string[] = [];
    for (const group of groups.groups) {
      const section = sections.find((s) => s.split('\n')[0].endsWith(`(\`${group.id}\`)`));
      const rows = new Map(tableRows(section ?? '').map((r) => [r[0], r]));
      for (const t of group.terms) {
        const row = rows.get(t.term);
        if (!row || row[1] !== t.scope || row[3].length < 10) missing.push(`${group.id}: ${t.term}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cites no source it did not read: no "CDC VAERS SOP", "SPEAC AESI list" or Bonetto citation in a source cell', () => {
    const rows = parse(groupsText, { columns: true }) as Array<Record<string, string>>;
    expect(rows.filter((r) => /VAERS SOP|SPEAC AESI list|Bonetto/.test(r.source)).map((r) => r.term)).toEqual([]);
  });
});

const vaers = [path.join(REPO_ROOT, 'data', 'vaers'), path.join(SHARED_DATA, 'vaers')].find((d) => existsSync(path.join(d, '2006VAERSDATA.csv.gz')));
const present = vaers !== undefined;
if (!present) console.warn('reference set against the 1990-2006 files skipped: neither data/vaers nor ../shared/data/vaers holds them');

describe.skipIf(!present)('the reference set against the 1990-2006 files', () => {
  let terms: Set<string>;
  let vaccines: Set<string>;
  beforeAll(async () => {
    const years = Array.from({ length: 17 }, (_, i) => 1990 + i);
    const { reports } = await loadRawReports(vaers!, years);
    terms = new Set(reports.flatMap((r) => r.events));
    vaccines = new Set(reports.flatMap((r) => [...r.vaccines, ...r.vaxTypes]));
  }, 600_000);

  it('every vaccine is a VAX_NAME or VAX_TYPE code of the files, and every term occurs in them', () => {
    expect(reference.pairs.filter((p) => !vaccines.has(p.vaccine)).map((p) => `${p.id}: ${p.vaccine}`)).toEqual([]);
    expect(reference.pairs.flatMap((p) => p.terms.filter((t) => !terms.has(t)).map((t) => `${p.id}: ${t}`))).toEqual([]);
  });
});
