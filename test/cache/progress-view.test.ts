/**
 * The wait's human and machine lines (src/cache/progress-view.ts), exact on fixed inputs; the
 * estimates worked by hand from the weights table.
 */
import { describe, expect, it } from 'vitest';
import { formatDuration, phaseLeft, PHASE_WEIGHTS, progressJson, progressLine, totalLeft, type ProgressSnapshot } from '../../src/cache/progress-view.js';

const snapshot: ProgressSnapshot = {
  state: 'building', phase: 'count all', step: 3, steps: 22, done: 91551, total: 203446, unit: 'reports',
  phaseSeconds: 9.6, seconds: 65.2, phaseLeft: 11.7, left: 130.4,
};

describe('progress lines of the first start', () => {
  it('durations: seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(44.6)).toBe('45 s');
    expect(formatDuration(59.4)).toBe('59 s');
    expect(formatDuration(59.6)).toBe('1 min 00 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDuration(3725)).toBe('1 h 02 min');
    expect(formatDuration(-3)).toBe('0 s');
  });

  it('the human line: who, phase k of n, percent with the counts, time left in the phase and in all', () => {
    expect(progressLine(snapshot)).toBe('building the default store: phase 3 of 22, count all: 45% (91,551 of 203,446 reports), about 12 s left in this phase; 1 min 05 s elapsed, about 2 min 10 s left in all');
  });

  it('a phase without a count says how long it has worked; unknown estimates are left out', () => {
    expect(progressLine({ ...snapshot, phase: 'link', step: 9, done: 0, total: 0, unit: '', phaseSeconds: 42, phaseLeft: null, left: null }))
      .toBe('building the default store: phase 9 of 22, link: working for 42 s (no progress count in this phase); 1 min 05 s elapsed');
  });

  it('loading from the cache and waiting for another builder are named as such', () => {
    expect(progressLine({ ...snapshot, state: 'loading', phase: 'load', step: 1, steps: 1, done: 3, total: 8, unit: 'parts', phaseLeft: null, left: null, seconds: 4 }))
      .toBe('loading the default store: phase 1 of 1, load: 37% (3 of 8 parts); 4 s elapsed');
    expect(progressLine({ ...snapshot, state: 'waiting', steps: 0, step: 0, done: 2.5, total: 4, unit: 'files', phaseLeft: null, left: null }))
      .toBe('waiting for another process to build the default store: count all: 62% (2.5 of 4 files); 1 min 05 s elapsed');
  });

  it('the machine line: one JSON object, seconds to 0.1', () => {
    expect(JSON.parse(progressJson(snapshot))).toEqual({
      state: 'building', phase: 'count all', step: 3, steps: 22, done: 91551, total: 203446, unit: 'reports', percent: 45,
      phase_seconds: 9.6, seconds: 65.2, phase_left_seconds: 11.7, left_seconds: 130.4,
    });
  });

  it('the phase estimate: its elapsed time times (total - done) / done, once 2 s and 1% have passed', () => {
    expect(phaseLeft(25, 100, 10)).toBe(30);
    expect(phaseLeft(0, 100, 10)).toBeNull();
    expect(phaseLeft(25, 100, 1.9)).toBeNull();
    expect(phaseLeft(5, 1000, 10)).toBeNull();
    expect(phaseLeft(3, 0, 10)).toBeNull();
  });

  it('the whole estimate weighs each phase by its kind; a phase without a count counts as half done', () => {
    // plan read, link, write: weights 0.06, 0.005, 0.054 (sum 0.119); in link, unknown: share (0.06 + 0.0025) / 0.119 = 0.5252.
    const plan = ['read', 'link', 'write'];
    expect([PHASE_WEIGHTS.read, PHASE_WEIGHTS.link, PHASE_WEIGHTS.write]).toEqual([0.06, 0.005, 0.054]);
    expect(totalLeft(plan, 2, null, 60)).toBeCloseTo(54.24, 2); // 60 x 0.0565 / 0.0625
    // in write, 50% done: share (0.065 + 0.027) / 0.119: 100 x 0.027 / 0.092.
    expect(totalLeft(plan, 3, 0.5, 100)).toBeCloseTo(29.35, 2);
    // before 5% of the build is done, no estimate: read at 5% is 0.003 / 0.119 = 2.5%.
    expect(totalLeft(plan, 1, 0.05, 30)).toBeNull();
    expect(totalLeft([], 1, 0.5, 30)).toBeNull();
  });
});
