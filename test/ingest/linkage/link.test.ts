/**
 * linkReports on duplicates planted among 3,000 synthetic reports (test/ingest/linkage/fixtures.ts,
 * seeded): 200 perturbed copies (fixtures.ts perturb) and hand-made cases. True duplicates are
 * linked, near misses are not, a chain is not joined end to end, reports without identifying
 * fields are counted and never linked. (Without any duplicate in the data the EM has no match
 * class to find: the planted copies are what it learns m from.)
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/prng.js';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { columnsOf, dateAfter, perturb, syntheticReports, type FixtureReport } from './fixtures.js';

const uniform = random(7);
const background = syntheticReports(uniform, 3000);
const COPIED = 100; // background reports 100..299 get a perturbed copy each
const copies = background.slice(COPIED, COPIED + 200).map((r, k) => perturb(r, 80_000 + k, uniform, ['Term 77', 'Term 76']));
const [r0, r1, r2, r3] = background;
const planted: Record<string, FixtureReport> = {
  // r0 again from another reporter: onset a day later, age not given, one event dropped, a lot typo, a few words changed.
  edited0: {
    ...r0, id: 90001, age: null, onsetDate: dateAfter(0) === r0.onsetDate ? dateAfter(1) : r0.onsetDate, events: r0.events.length > 1 ? r0.events.slice(1) : [...r0.events, 'Term 79'],
    vaccines: r0.vaccines.map((v, k) => (k === 0 ? { ...v, lot: `${v.lot}1` } : v)), splttype: null,
    narrative: r0.narrative!.split(' ').map((w, k) => (k % 7 === 3 ? 'changed' : w)).join(' '),
  },
  // r1 exactly, under another id.
  exact1: { ...r1, id: 90002, splttype: null },
  // Not r2: same clinic and day (vaccination date, state, sex, vaccines, lots) but another patient.
  sibling2: { ...r2, id: 90003, age: (r2.age ?? 0) + 4, onsetDate: r2.vaxDate! + 0, events: ['Term 78'], narrative: 'another child entirely different words here', splttype: null },
  // Vaccines and events only: two identical reports that cannot be told apart from two patients.
  bare1: { id: 90004, vaccines: [{ name: 'MMR' }], events: ['Pyrexia'] },
  bare2: { id: 90005, vaccines: [{ name: 'MMR' }], events: ['Pyrexia'] },
  // A chain: middle is r3 without age, state, lots and narrative; far is middle with another age, state and narrative.
  middle3: { ...r3, id: 90006, age: null, state: null, narrative: null, splttype: null, vaccines: r3.vaccines.map((v) => ({ name: v.name })) },
  far3: { ...r3, id: 90007, age: (r3.age ?? 0) + 30, state: r3.state === 'CA' ? 'NY' : 'CA', narrative: 'unrelated words describe a different patient story', splttype: null,
    vaccines: r3.vaccines.map((v) => ({ name: v.name })) },
};
const reports = [...background, ...Object.values(planted), ...copies];
const row = (name: string): number => background.length + Object.keys(planted).indexOf(name);
const copyRow = (k: number): number => background.length + Object.keys(planted).length + k;
const result = linkReports(columnsOf(reports));
const rep = result.representative;

describe('linkReports on planted duplicates', () => {
  it('puts at least 90% of the 200 perturbed copies in their original\'s cluster', () => {
    const found = copies.filter((_, k) => rep[copyRow(k)] === rep[COPIED + k]).length;
    expect(found).toBeGreaterThanOrEqual(180);
  });

  it('links an edited duplicate (date +1 day, age missing, an event dropped, a lot typo, an edited narrative) and an exact one', () => {
    expect(rep[row('edited0')]).toBe(rep[0]);
    expect(rep[row('exact1')]).toBe(rep[1]);
    const link = result.links.find((l) => l.a === 1 && l.b === row('exact1'));
    expect(link?.agreed).toEqual(expect.arrayContaining(['age', 'sex', 'state', 'vax_date', 'onset_date', 'vaccines', 'lots', 'events', 'narrative']));
  });

  it('does not link a near miss (same clinic, day, vaccines and lots; another age, events and narrative)', () => {
    expect(rep[row('sibling2')]).not.toBe(rep[2]);
    expect(rep[row('sibling2')]).toBe(row('sibling2'));
  });

  it('never links reports with only vaccines and events, and counts them as unlinkable', () => {
    expect(result.summary.unlinkable).toBe(2);
    expect(rep[row('bare1')]).toBe(row('bare1'));
    expect(rep[row('bare2')]).toBe(row('bare2'));
  });

  it('does not join a chain end to end: r3 and a far report linked only through a sparse middle one stay apart', () => {
    expect(rep[3]).not.toBe(rep[row('far3')]);
  });

  it('links no two of the 3,000 distinct background reports, and the summary counts agree with the links', () => {
    expect(result.links.filter((l) => l.a < background.length && l.b < background.length)).toEqual([]);
    expect(result.summary.links).toBe(result.links.length);
    const folded = [...rep].filter((r, i) => r !== i).length;
    expect(result.summary.reports_folded).toBe(folded);
    expect(result.summary.reports).toBe(reports.length);
    // A link below the threshold is an exact duplicate (dates, vaccines and events the same).
    expect(result.links.every((l) => l.a < l.b && (l.weight >= result.summary.threshold
      || ['vax_date', 'onset_date', 'vaccines', 'events'].every((x) => l.agreed.includes(x))))).toBe(true);
  });

  it('the representative is the most complete report of its cluster (r1 has a SPLTTYPE, its exact copy none, when r1 has one)', () => {
    if (r1.splttype) expect(rep[row('exact1')]).toBe(1);
    expect(rep[row('edited0')]).toBe(0); // r0 has an age, its edited copy none
  });
});

describe('linkReports without narratives (a build without --narratives)', () => {
  it('still links the exact copy and the edited one, and never throws', () => {
    const bare = reports.map((r) => ({ ...r, narrative: null }));
    const { representative, summary } = linkReports(columnsOf(bare));
    expect(representative[row('exact1')]).toBe(representative[1]);
    expect(summary.reports).toBe(bare.length);
    expect(summary.unlinkable).toBe(2);
  });
});
