/**
 * The linkage's text read a chunk at a time (src/ingest/linkage/linkage-text.ts, the build's
 * linkage thread, issue 41): the features and patient evidence must be those of the text read
 * whole (features.ts linkageFeatures, patient-evidence.ts patientEvidence), and the linkage's links
 * the same, whatever the chunks.
 */
import { describe, expect, it } from 'vitest';
import { linkageFeatures, NO_MEDICINE } from '../../../src/ingest/linkage/features.js';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { LinkageTextReader } from '../../../src/ingest/linkage/linkage-text.js';
import { patientEvidence } from '../../../src/ingest/linkage/patient-evidence.js';
import { columnsOf, type FixtureReport } from './fixtures.js';

const base = { vaccines: [{ name: 'HEP B (ENGERIX-B)', lot: 'A12B' }], events: ['Pyrexia'], sex: 'F' as const, age: 34, state: 'CA', vaxDate: 20030625, onsetDate: 20030626 };
const REPORTS: FixtureReport[] = [
  { ...base, id: 1, narrative: 'Case 1 -- on 06/25/2003 she had fever of 101.2 and a rash', otherMeds: 'none', history: 'twin sister with asthma', priorVax: 'rash after dose 1' },
  { ...base, id: 2, narrative: 'Case 1 -- on 06/25/2003 she had fever of 101.2 and a rash', otherMeds: 'none', history: 'twin sister with asthma', priorVax: 'rash after dose 1' },
  { ...base, id: 3, narrative: null, otherMeds: 'ibuprofen 200 mg', history: null, priorVax: null },
  { ...base, id: 4, sex: 'M', age: 7, narrative: 'A 7 year old boy; his arm swelled on June 25, 2003. 1 of 5 pts', otherMeds: null, history: 'None', priorVax: 'brother reacted' },
  { ...base, id: 5, narrative: 'Patient #2 developed hives 25-Jun-2003, BP 120/80', otherMeds: 'Tylenol', history: 'unknown', priorVax: null },
];

describe('the linkage text read a chunk at a time', () => {
  const whole = columnsOf(REPORTS);
  const noText = { ...whole, narrative: null, otherMeds: null, history: null, priorVax: null };

  it.each([1, 2, 3, 5])('chunks of %i reports: the features and patient evidence of the text read whole', (size) => {
    const reader = new LinkageTextReader(whole.count);
    for (let start = 0; start < whole.count; start += size) {
      const part = (column: ReadonlyArray<string | null> | null | undefined): Array<string | null> | null => column?.slice(start, start + size) ?? null;
      reader.read(start, { narrative: part(whole.narrative), otherMeds: part(whole.otherMeds), history: part(whole.history), priorVax: part(whole.priorVax) });
    }
    const expected = linkageFeatures(whole);
    expect(linkageFeatures(noText, reader.values)).toEqual(expected);
    expect(reader.evidence).toEqual(patientEvidence(whole.narrative, whole.count, whole));
    // The text was read: the medicines of "none" and the named day of 06/25/2003 (12,228 days after 1970-01-01).
    expect([...expected.medicines[0]]).toEqual([NO_MEDICINE]);
    expect([...expected.namedDays[0]]).toEqual([12228]);
    expect(reader.evidence.form.sibling[0]).toBe(1);
  });

  it('a chunk with a column null reads it as blank; the linkage gives the links of the text read whole', () => {
    const reader = new LinkageTextReader(whole.count);
    reader.read(0, { narrative: whole.narrative!.slice(0, 3), otherMeds: null, history: whole.history!.slice(0, 3), priorVax: whole.priorVax!.slice(0, 3) });
    reader.read(3, { narrative: whole.narrative!.slice(3), otherMeds: whole.otherMeds!.slice(3), history: whole.history!.slice(3), priorVax: whole.priorVax!.slice(3) });
    expect(linkageFeatures(noText, reader.values)).toEqual(linkageFeatures({ ...whole, otherMeds: [null, null, null, ...whole.otherMeds!.slice(3)] }));
    const full = new LinkageTextReader(whole.count);
    full.read(0, whole);
    const links = linkReports(noText, { text: full });
    expect(links.links).toEqual(linkReports(whole).links);
    expect(links.links.some((l) => l.a === 0 && l.b === 1)).toBe(true);
  });

  it('refuses a chunk past the reports, and a reader of another count', () => {
    const reader = new LinkageTextReader(2);
    expect(() => reader.read(1, { narrative: ['a', 'b'] })).toThrow(RangeError);
    expect(() => linkReports(noText, { text: reader })).toThrow(/text read is of 2 reports, the columns of 5/);
  });
});
