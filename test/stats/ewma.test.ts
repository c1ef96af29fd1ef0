/** EWMA of EB05 per pair (docs/design.md statistics: lambda 0.3, s_0 = x_0). */
import { describe, expect, it } from 'vitest';
import { ewma } from '../../src/stats/ewma.js';

describe('ewma (docs/design.md statistics)', () => {
  it('s_0 = x_0 and s_t = 0.3 x_t + 0.7 s_(t-1)', () => {
    // 1; 0.3*2 + 0.7*1 = 1.3; 0.3*4 + 0.7*1.3 = 2.11
    const out = ewma([1, 2, 4]);
    expect(out[0]).toBe(1);
    expect(out[1]).toBeCloseTo(1.3, 15);
    expect(out[2]).toBeCloseTo(2.11, 15);
  });
  it('leading nulls stay null, the first non-null starts, later nulls carry the previous value', () => {
    const out = ewma([null, 1, null, 2]);
    expect(out[0]).toBeNull();
    expect(out[1]).toBe(1);
    expect(out[2]).toBe(1);
    expect(out[3]).toBeCloseTo(1.3, 15);
  });
  it('lambda 1 returns the input; an empty series is empty; a bad lambda throws', () => {
    expect(ewma([3, 5], 1)).toEqual([3, 5]);
    expect(ewma([])).toEqual([]);
    expect(() => ewma([1], 0)).toThrow(/lambda/);
  });
});
