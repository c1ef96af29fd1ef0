/**
 * src/stats/gamma-quantile.ts: the memoised gamma quantile is @stdlib's to the last bit, on the
 * first call of a (probability, shape) and on the later ones (the memo), whatever the rate.
 */
import stdlibGammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import { describe, expect, it } from 'vitest';
import { gammaQuantile } from '../../src/stats/gamma-quantile.js';

describe('gammaQuantile (memoised root search)', () => {
  it('is @stdlib gammaQuantile to the last bit, first call and memo alike', () => {
    let state = 41;
    const next = (): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const probs = [0.025, 0.05, 0.5, 0.95, 0.975];
    // IC's shapes (n + 0.5), MGPS posterior shapes (alpha + n), and arbitrary ones.
    const shapes = [0.5, 1.5, 11.5, 200.5, 0.20731 + 1, 0.20731 + 3, 7.3e-4 + 1, 19.99 + 40, 1e-5 + 2, 3000.5];
    for (let t = 0; t < 200; t++) shapes.push(1e-3 + next() * 50);
    let compared = 0;
    for (let round = 0; round < 2; round++) {
      for (const prob of probs) {
        for (const shape of shapes) {
          for (const rate of [1, 0.5 + next() * 1000, 1e-3 + next(), 20.000001]) {
            const expected = stdlibGammaQuantile(prob, shape, rate);
            expect(Object.is(gammaQuantile(prob, shape, rate), expected), `prob ${prob} shape ${shape} rate ${rate}`).toBe(true);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(2 * 5 * 210 * 4);
  });

  it('hands other inputs to @stdlib as they are (NaN, shape 0, probability outside [0, 1])', () => {
    expect(gammaQuantile(0.5, 0, 2)).toBe(0);
    expect(Number.isNaN(gammaQuantile(1.5, 2, 1))).toBe(true);
    expect(Number.isNaN(gammaQuantile(0.5, Number.NaN, 1))).toBe(true);
    expect(Number.isNaN(gammaQuantile(0.5, 2, 0))).toBe(true);
    expect(gammaQuantile(0.5, 1, 2)).toBeCloseTo(Math.LN2 / 2, 15);
  });
});
