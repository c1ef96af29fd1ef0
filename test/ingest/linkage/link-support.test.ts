/**
 * A weak link must pin the person (src/ingest/linkage/link-support.ts `pinnedPerson`, issue 43
 * round 8): under PINNED_WEIGHT bits, both reports state an age and name the same state or share
 * 0.3 of their narratives' words. The examples are round 7's wrong links, reduced to the fields
 * that decide.
 */
import { describe, expect, it } from 'vitest';
import { linkageFeatures } from '../../../src/ingest/linkage/features.js';
import { PINNED_WEIGHT, pinnedPerson, THIN_WEIGHT } from '../../../src/ingest/linkage/link-support.js';
import { DEFAULT_THRESHOLD } from '../../../src/ingest/linkage/link.js';
import { columnsOf, type FixtureReport } from './fixtures.js';

const pinned = (x: Partial<FixtureReport>, y: Partial<FixtureReport>): boolean => {
  const base: FixtureReport = { id: 0, sex: 'F', vaccines: [{ name: 'INFLUENZA (FLUZONE)', lot: '7F81819' }], events: ['Injection site swelling'], vaxDate: 19970922 };
  return pinnedPerson(linkageFeatures(columnsOf([{ ...base, ...x, id: 1 }, { ...base, ...y, id: 2 }])), 0, 1);
};

describe('pinnedPerson', () => {
  it('needs an age in both reports (X39: one woman of 27 beside a report of "5 adults")', () => {
    const woman = { age: 27, state: 'HI', narrative: 'approx 3 inch diameter redness, swollen, lumpy, painful' };
    expect(pinned(woman, { age: null, state: 'HI', narrative: '5 adults exp local rxn @ inj site' })).toBe(false);
    expect(pinned(woman, { ...woman, narrative: 'redness and swelling at the site' })).toBe(true);
  });

  it('needs the same state or a shared text when both ages are known', () => {
    const man = { age: 17, narrative: 'very nauseated and short of breath after the injection' };
    // W102-like: one age, two texts apart, no state on one side
    expect(pinned({ ...man, state: 'OH' }, { ...man, state: null, narrative: 'dyspnea, coughing and a sore throat' })).toBe(false);
    expect(pinned({ ...man, state: 'OH' }, { ...man, state: 'PA', narrative: 'dyspnea, coughing and a sore throat' })).toBe(false);
    expect(pinned({ ...man, state: 'OH' }, { ...man, state: 'OH', narrative: 'dyspnea, coughing and a sore throat' })).toBe(true);
    // the same words in both narratives pin the person without a state
    expect(pinned({ ...man, state: null }, { ...man, state: null, narrative: 'very nauseated and short of breath after the injection, recovered' })).toBe(true);
  });

  it('applies between the threshold and the thin links\' weight', () => {
    expect(DEFAULT_THRESHOLD).toBeLessThan(PINNED_WEIGHT);
    expect(PINNED_WEIGHT).toBeLessThan(THIN_WEIGHT);
  });
});
