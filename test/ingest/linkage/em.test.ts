/**
 * The EM of the Fellegi-Sunter model (src/ingest/linkage/em.ts) recovers m, u and p from a synthetic
 * mixture of comparison patterns drawn from known values.
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/prng.js';
import { fitMatchModel } from '../../../src/ingest/linkage/em.js';

describe('fitMatchModel', () => {
  it('recovers m, u and p of a mixture of 40,000 pairs, 3% of them matches, 6 binary fields with some values missing', () => {
    const uniform = random(20260101);
    const mTrue = [0.95, 0.9, 0.85, 0.9, 0.8, 0.7];
    const uTrue = [0.1, 0.3, 0.05, 0.2, 0.02, 0.15];
    const pTrue = 0.03;
    const radix = mTrue.map(() => 3); // 0 missing, 1 disagree, 2 agree
    const counts = new Map<string, number>();
    for (let i = 0; i < 40_000; i++) {
      const match = uniform() < pTrue;
      const levels = mTrue.map((m, k) => (uniform() < 0.1 ? 0 : uniform() < (match ? m : uTrue[k]) ? 2 : 1));
      const key = levels.join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const patterns = [...counts.keys()].map((k) => k.split(',').map(Number));
    const model = fitMatchModel(patterns, [...counts.values()], radix);
    expect(model.converged).toBe(true);
    expect(model.p).toBeGreaterThan(0.02);
    expect(model.p).toBeLessThan(0.04);
    mTrue.forEach((m, k) => {
      expect(Math.abs(model.m[k][2] - m)).toBeLessThan(0.05);
      expect(Math.abs(model.u[k][2] - uTrue[k])).toBeLessThan(0.02);
      expect(model.weights[k][2]).toBeCloseTo(Math.log2(model.m[k][2] / model.u[k][2]), 12);
      expect(model.weights[k][0]).toBe(0);
    });
  });

  it('with no pairs, returns finite starting values without throwing', () => {
    const model = fitMatchModel([], [], [3, 4]);
    expect(model.weights.flat().every(Number.isFinite)).toBe(true);
  });
});
