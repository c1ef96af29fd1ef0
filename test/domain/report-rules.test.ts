/** The report rules (src/domain/report-rules.ts): sex, CDC WONDER age groups, outcome flags, seriousness. */
import { describe, expect, it } from 'vitest';
import { AGE_GROUPS, ageGroupOf, ageOf, isSerious, isYes, OUTCOME, parseAge, sexOf, UNKNOWN_AGE_GROUP } from '../../src/domain/report-rules.js';

const group = (cell: string): string => AGE_GROUPS[ageGroupOf(parseAge(cell))].label;

describe('report fields', () => {
  it('sex: F and M (any case, trimmed), anything else U', () => {
    expect(['F', ' m ', 'U', '', 'X'].map(sexOf)).toEqual(['F', 'M', 'U', 'U', 'U']);
  });

  it('age groups are WONDER\'s half-open intervals; blank, text and negative ages are Unknown', () => {
    expect(['0', '0.49', '0.5', '0.99', '1', '2.9', '3', '5.99', '6', '17.99', '18', '29.9', '30', '59.9', '60', '64.99', '65', '79.99', '80', '104']
      .map(group)).toEqual(['<6 months', '<6 months', '6-11 months', '6-11 months', '1-2 years', '1-2 years', '3-5 years', '3-5 years',
      '6-17 years', '6-17 years', '18-29 years', '18-29 years', '30-39 years', '50-59 years', '60-64 years', '60-64 years',
      '65-79 years', '65-79 years', '80+ years', '80+ years']);
    expect(['', ' ', 'abc', '-1', 'NaN'].map((c) => ageGroupOf(parseAge(c)))).toEqual(Array(5).fill(UNKNOWN_AGE_GROUP));
    expect(AGE_GROUPS.map((g) => g.label)).toHaveLength(13);
  });

  it('age: AGE_YRS, else CAGE_YR + CAGE_MO (a fraction of a year) when AGE_YRS is blank; the source kept', () => {
    expect(ageOf('4.5', '4', '.5')).toEqual({ age: 4.5, source: 'AGE_YRS' });
    expect(ageOf(' ', '1', '.3')).toEqual({ age: 1.3, source: 'CAGE' });
    expect(ageOf('', '28', '')).toEqual({ age: 28, source: 'CAGE' });
    expect(ageOf('', '0', '.0')).toEqual({ age: 0, source: 'CAGE' });
    // an unreadable AGE_YRS is no age (counted by the build), not replaced; a blank or bad CAGE_YR, or a CAGE_MO of a year or more, is no age
    expect([ageOf('abc', '30', ''), ageOf('', '', '.5'), ageOf('', 'x', ''), ageOf('', '2', '1.5'), ageOf('', '-1', '')])
      .toEqual(Array(5).fill({ age: null, source: null }));
  });

  it('serious: death, life threat, hospital, prolonged stay, disability or birth defect; ER or office visit alone is not', () => {
    for (const flag of [OUTCOME.DIED, OUTCOME.L_THREAT, OUTCOME.HOSPITAL, OUTCOME.X_STAY, OUTCOME.DISABLE, OUTCOME.BIRTH_DEFECT]) {
      expect(isSerious(flag)).toBe(true);
    }
    expect(isSerious(OUTCOME.ER_VISIT | OUTCOME.OFC_VISIT)).toBe(false);
    expect(isSerious(0)).toBe(false);
    expect([' y', 'Y', 'N', '', undefined].map(isYes)).toEqual([true, true, false, false, false]);
  });
});
