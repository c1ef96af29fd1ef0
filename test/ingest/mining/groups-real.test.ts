/**
 * Event groups on the real files (issue 33): the `groups` analysis (every report, stratified E, the
 * shipped event groups as events) of the run's default store (built from the 1990-2006 files by
 * test/global-setup.ts; it was a store of its own from four of those years, the same windows at 25 s
 * of CPU more), against an independent computation from the raw files (test/helpers/raw-vaers.ts, plain CSV parsing without
 * any project code; the groups read from data/event-groups/aesi.csv with csv-parse here): for three
 * vaccine x group pairs in their windows (ROTASHIELD x intussusception 1999Q3, MMR II x seizures
 * 2006Q4, DRYVAX x myocarditis/pericarditis 2003Q4), and a broad item, n, the margins, N and the
 * stratified E (sex x AGE_GROUP_6 x year) agree within 1e-9. Also: every term of the shipped file
 * and of its list of left-out terms occurs in the 1990-2006 files, and no left-out term is in its
 * group. Skipped with a message when ../shared/data/vaers or the default store is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QuarterlyRow, StoreMeta } from '../../../src/domain/store-schema.js';
import { loadRawReports, pairStatistics, rawSymptomTerms, type RawReport } from '../../helpers/raw-vaers.js';
import { DEFAULT_STORE, hasDefaultStore } from '../../helpers/default-store.js';
import { Store } from '../../helpers/store.js';
import { REPO_ROOT, SHARED_DATA } from '../../helpers/paths.js';

const vaers = path.join(SHARED_DATA, 'vaers');
const present = existsSync(path.join(vaers, '2006VAERSDATA.csv.gz'));
if (!present) console.warn(`event groups on the real files skipped: ${vaers} is absent`);

type Row = Record<string, string>;
const shipped = parse(readFileSync(path.join(REPO_ROOT, 'data', 'event-groups', 'aesi.csv'), 'utf8'), { columns: true }) as Row[];
const leftOut = parse(readFileSync(path.join(REPO_ROOT, 'data', 'event-groups', 'left-out.csv'), 'utf8'), { columns: true }) as Row[];

/** The terms of group `id` of the shipped file: its narrow terms, or all its terms for `broad`. */
function termsOf(id: string, scope: 'narrow' | 'broad'): string[] {
  return shipped.filter((r) => r.group_id === id && (scope === 'broad' || r.scope === 'narrow')).map((r) => r.term);
}
function labelOf(id: string): string {
  return shipped.find((r) => r.group_id === id)!.group_label;
}

const PAIRS: Array<{ window: string; vaccine: string; group: string; scope: 'narrow' | 'broad' }> = [
  { window: '1999Q3', vaccine: 'ROTAVIRUS (ROTASHIELD)', group: 'intussusception', scope: 'narrow' },
  { window: '1999Q3', vaccine: 'ROTAVIRUS (ROTASHIELD)', group: 'intussusception', scope: 'broad' },
  { window: '2006Q4', vaccine: 'MEASLES + MUMPS + RUBELLA (MMR II)', group: 'seizures', scope: 'narrow' },
  { window: '2003Q4', vaccine: 'SMALLPOX (DRYVAX)', group: 'myocarditis_pericarditis', scope: 'narrow' },
];
/** The years of the default store (data/vaers) and of the raw reports read against it. */
const YEARS = Array.from({ length: 17 }, (_, i) => 1990 + i);

function close(actual: number | null | undefined, expected: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
}

describe.skipIf(!present || !hasDefaultStore('event groups on the default store'))('the groups analysis on the real files against the raw files', () => {
  let raw: RawReport[];
  let meta: StoreMeta;
  const rows: QuarterlyRow[] = [];
  beforeAll(async () => {
    const store = await Store.open(DEFAULT_STORE!);
    const windows = new Set(PAIRS.map((p) => p.window));
    try {
      meta = await store.meta();
      await store.forEachQuarterlyRow((r) => { if (windows.has(r.quarter)) rows.push(r); }, 'groups');
    } finally {
      store.close();
    }
    raw = (await loadRawReports(vaers, YEARS)).reports;
  }, 600_000);

  it('n, n_vaccine, n_event (reports carrying any of the group\'s terms), N and the stratified E agree for the pairs', () => {
    for (const { window, vaccine, group, scope } of PAIRS) {
      const event = scope === 'narrow' ? labelOf(group) : `${labelOf(group)} (broad)`;
      const expected = pairStatistics(raw, window, vaccine, event, { ages: 'age6', eventTerms: termsOf(group, scope) });
      const stored = rows.find((r) => r.quarter === window && r.drug === vaccine && r.event === event);
      expect(stored, `${vaccine} x ${event} ${window} stored`).toBeDefined();
      expect([stored!.n, stored!.n_vaccine, stored!.n_event, stored!.n_reports], `${vaccine} x ${event} ${window}`)
        .toEqual([expected.n, expected.n_vaccine, expected.n_event, expected.N]);
      close(stored!.expected, expected.E_strat!);
      expect(expected.n).toBeGreaterThan(0);
    }
  });

  it('a report counts once per group: the group\'s n is below the sum of its terms\' n when reports carry two of its terms', () => {
    const terms = termsOf('seizures', 'narrow');
    const byTerm = terms.map((t) => pairStatistics(raw, '2006Q4', 'MEASLES + MUMPS + RUBELLA (MMR II)', t, { ages: 'age6' }).n);
    const group = rows.find((r) => r.quarter === '2006Q4' && r.drug === 'MEASLES + MUMPS + RUBELLA (MMR II)' && r.event === 'Seizures')!;
    expect(group.n).toBeLessThan(byTerm.reduce((a, b) => a + b, 0));
    expect(group.n).toBeGreaterThanOrEqual(Math.max(...byTerm));
  });

  it('records the grouping file in the analysis metadata: name, SHA-256 of its text, its text', () => {
    const analysis = meta.analyses!.find((a) => a.name === 'groups')!;
    expect(analysis.items).toBe('event_group');
    const text = readFileSync(path.join(REPO_ROOT, 'data', 'event-groups', 'aesi.csv'), 'utf8');
    expect(analysis.event_groups!.file).toBe('aesi.csv');
    expect(analysis.event_groups!.csv).toBe(text);
    expect(analysis.event_groups!.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.skipIf(!present)('the shipped groups against the 1990-2006 files', () => {
  /** Every term of the SYMPTOMS files of 1990-2006 (plain CSV parsing of the gzipped SYMPTOMS files alone). */
  let terms: Set<string>;
  beforeAll(() => {
    terms = rawSymptomTerms(vaers, YEARS);
  }, 600_000);

  it('every listed term occurs in the files', () => {
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.filter((r) => !terms.has(r.term)).map((r) => `${r.group_id}: ${r.term}`)).toEqual([]);
  });

  it('every left-out term occurs in the files, names a shipped group, gives a reason and is not in that group', () => {
    const ids = new Set(shipped.map((r) => r.group_id));
    expect(leftOut.filter((r) => !terms.has(r.term) || !ids.has(r.group_id) || r.reason.trim() === '' || termsOf(r.group_id, 'broad').includes(r.term)))
      .toEqual([]);
  });

  it('ships the 14 groups the issue names, each with a source and a narrow term', () => {
    const ids = [...new Set(shipped.map((r) => r.group_id))];
    expect(ids).toEqual(['seizures', 'gbs', 'myocarditis_pericarditis', 'anaphylaxis', 'thrombocytopenia', 'intussusception', 'encephalitis',
      'facial_palsy', 'syncope', 'hhe', 'arthritis', 'vasculitis', 'transverse_myelitis', 'death']);
    for (const id of ids) expect(termsOf(id, 'narrow').length, id).toBeGreaterThan(0);
    expect(shipped.every((r) => r.source.length > 20)).toBe(true);
  });
});
