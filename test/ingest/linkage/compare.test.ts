/** The comparison levels of two reports (src/ingest/linkage/compare.ts), worked by hand. */
import { describe, expect, it } from 'vitest';
import { comparePair, identifiesCase, isExactDuplicate, levelsOf, patternOf } from '../../../src/ingest/linkage/compare.js';
import { linkageFeatures } from '../../../src/ingest/linkage/features.js';
import { columnsOf } from './fixtures.js';

describe('comparePair', () => {
  it('gives each field its level: exact, near and missing values (worked by hand)', () => {
    const f = linkageFeatures(columnsOf([
      { id: 1, age: 4, sex: 'F', state: 'CA', vaxDate: 20000110, onsetDate: 20000112, vaccines: [{ name: 'MMR', lot: 'AB123' }, { name: 'IPV' }],
        events: ['Pyrexia', 'Rash', 'Cough'], splttype: 'WAES1', narrative: 'fever and rash after mmr on day two' },
      { id: 2, age: 5, sex: 'U', state: 'CA', vaxDate: 20000112, onsetDate: 20000112, vaccines: [{ name: 'MMR', lot: 'AB-124' }],
        events: ['Pyrexia', 'Rash'], narrative: 'fever and rash after mmr on day three' },
    ]));
    // age 1 year apart: 2; sex U: missing 0; state: 2; vax 2 days apart: 1 (two visits, issue 43); onset exact: 3;
    // vaccines {MMR} vs {IPV, MMR}: Jaccard 1/2 -> 2; lots AB123 vs AB124: not the same lot -> 1; events 2 of 3: Jaccard 2/3 -> 3;
    // SPLTTYPE missing: 0; narrative words {fever, and, rash, after, mmr, on, day} + two / three: Jaccard 7/9 = 0.78 -> 3;
    // OTHER_MEDS missing: 0.
    expect(levelsOf(comparePair(f, 0, 1))).toEqual([2, 0, 2, 1, 3, 2, 1, 3, 0, 3, 0]);
    expect(patternOf(levelsOf(comparePair(f, 0, 1)))).toBe(comparePair(f, 0, 1));
  });
});

describe('isExactDuplicate', () => {
  it('needs both dates, the vaccines and the events equal, age, sex and state equal or missing; lots, SPLTTYPE and narrative do not count', () => {
    // Levels: age, sex, state, vax_date, onset_date, vaccines, lots, events, splttype, narrative, medicines.
    expect(isExactDuplicate(patternOf([0, 0, 0, 3, 3, 3, 0, 4, 0, 0, 0]))).toBe(true); // blanks agree with nothing and disagree with nothing
    expect(isExactDuplicate(patternOf([3, 2, 2, 3, 3, 3, 2, 4, 2, 4, 0]))).toBe(true);
    expect(isExactDuplicate(patternOf([0, 0, 0, 0, 3, 3, 0, 4, 0, 0, 0]))).toBe(false); // no vaccination date
    expect(isExactDuplicate(patternOf([2, 2, 2, 3, 3, 3, 2, 4, 2, 4, 0]))).toBe(false); // age a year apart
    expect(isExactDuplicate(patternOf([3, 1, 2, 3, 3, 3, 2, 4, 2, 4, 0]))).toBe(false); // sex disagrees
    expect(isExactDuplicate(patternOf([3, 2, 2, 3, 3, 3, 1, 4, 1, 3, 0]))).toBe(true); // lots, SPLTTYPE and narrative differ
    expect(isExactDuplicate(patternOf([3, 2, 2, 3, 2, 3, 2, 4, 2, 4, 0]))).toBe(false); // onset 1-3 days apart
    expect(isExactDuplicate(patternOf([3, 2, 2, 3, 3, 3, 2, 3, 2, 4, 0]))).toBe(false); // events half shared
  });
});

describe('identifiesCase', () => {
  it('needs half the events, half the narrative, the SPLTTYPE, or the same age with some event or words, or age within a year with both; no age, sex, state or vaccination date disagreeing but with the same SPLTTYPE', () => {
    // Levels: age, sex, state, vax_date, onset_date, vaccines, lots, events, splttype, narrative, medicines.
    expect(identifiesCase(patternOf([3, 2, 2, 3, 3, 3, 2, 1, 0, 0, 0]))).toBe(false); // one clinic day, same age, no event in common
    expect(identifiesCase(patternOf([1, 2, 2, 3, 3, 3, 2, 2, 0, 1, 0]))).toBe(false); // clinic day, another age, one event in common
    expect(identifiesCase(patternOf([3, 2, 2, 3, 3, 3, 2, 2, 0, 0, 0]))).toBe(true); // same age and an event in common
    expect(identifiesCase(patternOf([2, 2, 2, 3, 3, 3, 2, 2, 0, 1, 0]))).toBe(false); // age within a year and an event in common, narratives differ
    expect(identifiesCase(patternOf([2, 2, 2, 3, 3, 3, 2, 2, 0, 2, 0]))).toBe(true); // age within a year, an event and some words in common
    expect(identifiesCase(patternOf([0, 0, 0, 2, 2, 3, 0, 3, 0, 0, 0]))).toBe(true); // half the events
    expect(identifiesCase(patternOf([0, 0, 0, 0, 0, 1, 0, 1, 0, 3, 0]))).toBe(true); // half the narrative's words
    expect(identifiesCase(patternOf([0, 0, 0, 0, 0, 1, 0, 1, 2, 0, 0]))).toBe(true); // same SPLTTYPE
    expect(identifiesCase(patternOf([1, 2, 2, 3, 3, 3, 2, 4, 0, 3, 0]))).toBe(false); // age more than a year apart
    expect(identifiesCase(patternOf([3, 1, 2, 3, 3, 3, 2, 4, 0, 3, 0]))).toBe(false); // sex disagrees
    expect(identifiesCase(patternOf([3, 2, 1, 3, 3, 3, 2, 4, 0, 3, 0]))).toBe(false); // state disagrees
    expect(identifiesCase(patternOf([3, 2, 2, 1, 3, 3, 2, 4, 0, 3, 0]))).toBe(false); // vaccination dates apart
    expect(identifiesCase(patternOf([1, 1, 1, 3, 3, 3, 2, 4, 2, 1, 0]))).toBe(true); // all three disagree, same SPLTTYPE: one report
    expect(identifiesCase(patternOf([1, 1, 0, 3, 3, 3, 2, 4, 0, 4, 0]))).toBe(false); // age and sex disagree, near identical (templated) narratives
  });
});
