import { describe, expect, it } from 'vitest';
import { formatQuarter, parseQuarter } from '../src/domain/quarter.js';

describe('quarter (spec 2.1: quarter strings have the form <year>Q<1-4>)', () => {
  it('round-trips 2021Q3 and accepts 2021-Q3', () => {
    expect(formatQuarter(parseQuarter('2021Q3')!)).toBe('2021Q3');
    expect(parseQuarter('2021-Q3')).toBe(parseQuarter('2021Q3'));
    expect(parseQuarter('2021Q5')).toBeNull();
    expect(parseQuarter('2021Q1')! - parseQuarter('2020Q4')!).toBe(1);
  });
});
