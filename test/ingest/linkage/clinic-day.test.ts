/**
 * The clinic-day case: several patients vaccinated at one clinic on one day share the
 * vaccination date, the vaccines and their lots, the state and often the onset day; the
 * Fellegi-Sunter model, taking the fields as independent, sums their agreements into a weight
 * well above the threshold. linkReports must keep them apart (compare.ts identifiesCase: they
 * agree neither on age, nor on half their events, nor on the narrative, nor on SPLTTYPE) while it
 * still links a report of that day sent twice with an edited age and one event more.
 * Background: 3,000 synthetic reports with 200 perturbed copies (what the EM learns m from), as
 * in link.test.ts (which checks their recall).
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/prng.js';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { columnsOf, dateAfter, perturb, syntheticReports, type FixtureReport } from './fixtures.js';

const uniform = random(11);
const background = syntheticReports(uniform, 3000);
const copies = background.slice(0, 200).map((r, k) => perturb(r, 80_000 + k, uniform, ['Term 77', 'Term 76']));
const day = dateAfter(800); // after every background report's vaccination (days 0-729)
const campaign = { state: 'OH', vaxDate: day, onsetDate: day, vaccines: [{ name: 'FLU3', lot: 'U1234AA' }, { name: 'PNC', lot: 'P998877' }], narrative: null, splttype: null };
/** Six patients of the clinic day: ages 20 years apart or more (or one unknown), events sharing at most one term, no narrative. */
const patients: FixtureReport[] = [
  { ...campaign, id: 95001, age: 67, sex: 'F', events: ['Injection site erythema', 'Pyrexia', 'Chills'] },
  { ...campaign, id: 95002, age: 45, sex: 'F', events: ['Pyrexia', 'Headache', 'Myalgia'] },
  { ...campaign, id: 95003, age: 72, sex: 'M', events: ['Guillain-Barre syndrome'] },
  { ...campaign, id: 95004, age: 23, sex: 'F', events: ['Urticaria', 'Pruritus'] },
  { ...campaign, id: 95005, age: null, sex: 'F', events: ['Syncope', 'Pyrexia', 'Nausea'] },
  { ...campaign, id: 95006, age: 88, sex: 'M', events: ['Injection site erythema', 'Injection site swelling'] },
];
/** Patient 95004 reported again by the manufacturer: age a year off, one event more (two direct reports' ages agree: issue 43). */
// The manufacturer's copy is entered later (a VAERS_ID far from the clinic's batch: round 3's batch veto reads near IDs with other ages as one batch's patients).
const again: FixtureReport = { ...patients[3], id: 95107, age: 24, events: ['Urticaria', 'Pruritus', 'Rash'], received: dateAfter(830), splttype: 'WAES0002' };
const reports = [...background, ...copies, ...patients, again];
const rowOf = (id: number): number => reports.findIndex((r) => r.id === id);
const result = linkReports(columnsOf(reports));
const rep = result.representative;

describe('linkReports on one clinic day', () => {
  it('links no two of six different patients of one day, clinic, vaccines and lots', () => {
    const rows = patients.map((p) => rowOf(p.id));
    const linked = result.links.filter((l) => rows.includes(l.a) && rows.includes(l.b));
    expect(linked).toEqual([]);
    for (const r of rows.filter((r) => r !== rowOf(95004))) expect(rep[r]).toBe(r);
  });

  it('still links the one patient reported twice by the manufacturer (age a year off, an event more)', () => {
    expect(rep[rowOf(95107)]).toBe(rep[rowOf(95004)]);
  });
});
