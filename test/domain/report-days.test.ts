/**
 * The one day count (src/domain/report-days.ts dayNumber) over both date representations: the
 * build's `yyyymmdd` integers and the store's ISO strings give the same day numbers, so a lag
 * the build computes for the triage evidence equals the one the case series computes when serving.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber, daysBetween } from '../../src/domain/report-days.js';

describe('dayNumber: one day count for yyyymmdd and ISO dates', () => {
  it('counts days since 1970-01-01 (UTC) alike in both representations', () => {
    expect([dayNumber(19700101), dayNumber('1970-01-01')]).toEqual([0, 0]);
    expect([dayNumber(19700102), dayNumber('1970-01-02')]).toEqual([1, 1]);
    // 2000 is a leap year: 1999-12-31 -> 2000-03-01 is 31 + 29 + 1 = 61 days.
    expect(dayNumber(20000301)! - dayNumber(19991231)!).toBe(61);
    expect(dayNumber('2000-03-01')! - dayNumber('1999-12-31')!).toBe(61);
    expect(daysBetween('1999-12-31', '2000-03-01')).toBe(61);
    for (const [ymd, iso] of [[19990715, '1999-07-15'], [20061231, '2006-12-31'], [19900701, '1990-07-01']] as const) expect(dayNumber(ymd)).toBe(dayNumber(iso));
  });

  it('is null for an unknown date: 0 or less in the build, null or another shape when served', () => {
    expect([dayNumber(0), dayNumber(-1), dayNumber(null), dayNumber(''), dayNumber('07/15/1999'), dayNumber('1999-7-15')]).toEqual([null, null, null, null, null, null]);
  });
});
