/**
 * The wait as written to standard error (src/cache/progress-report.ts): the mode chosen by
 * REPORTING_SIGNALS_PROGRESS, the `lines` schedule (a line when a phase begins, at most and at
 * least every 10 s, one when it ends), the JSON lines, and the phases' times; on a fake clock.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LINE_EVERY_MS, progressMode, ProgressReport } from '../../src/cache/progress-report.js';

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(...chunk.toString().split('\n').filter((l) => l !== '')); done(); } });
  return { stream, lines };
}

afterEach(() => { vi.useRealTimers(); });

describe('the progress on standard error', () => {
  it('mode: bar on a terminal, lines otherwise; json or lines on request; anything else is an error naming the variable', () => {
    expect(progressMode(undefined, true)).toBe('bar');
    expect(progressMode('', false)).toBe('lines');
    expect(progressMode('json', true)).toBe('json');
    expect(progressMode('lines', true)).toBe('lines');
    expect(progressMode('bar', false)).toBe('lines'); // no redraw in place outside a terminal
    expect(() => progressMode('fancy', true)).toThrow('REPORTING_SIGNALS_PROGRESS must be bar, lines or json (got "fancy")');
  });

  it('lines: phase k of n at the start, a line at most every 10 s while it reports, one every 10 s while it is silent, its time at the end', () => {
    vi.useFakeTimers({ now: 0 });
    const { stream, lines } = sink();
    const report = new ProgressReport({ stream, mode: 'lines', now: Date.now });
    report.plan(['read', 'link', 'write']);
    report.start('read', 4, 'files', 1);
    vi.advanceTimersByTime(4000);
    report.update(1, 'a.csv', 4.5); // 4 s after the phase's line: not shown
    vi.advanceTimersByTime(6000);
    // 10 s after the phase's line: the timer writes one (1 of 4 files); an update at that moment adds none.
    report.update(2, 'b.csv', 9);
    report.end(12);
    report.start('link', 0, '');
    vi.advanceTimersByTime(LINE_EVERY_MS); // silent phase: the timer writes a line
    report.stop();
    expect(lines).toEqual([
      'building the default store: phase 1 of 3, read: 0% (0 of 4 files); 0 s elapsed',
      // 10 s x 3 / 1 left in the phase; the build's share done (0.06 x 0.25) / 0.119: 10 x 0.104 / 0.015 = 69.3 s left in all.
      'building the default store: phase 1 of 3, read: 25% (1 of 4 files), about 30 s left in this phase; 10 s elapsed, about 1 min 09 s left in all',
      'read: done in 10.0 s (cpu 11.0 s)',
      // link counted as half done: share (0.06 + 0.0025) / 0.119, 10 x 0.0565 / 0.0625 = 9.0 s; at 20 s, 18.1 s.
      'building the default store: phase 2 of 3, link: working for 0 s (no progress count in this phase); 10 s elapsed, about 9 s left in all',
      'building the default store: phase 2 of 3, link: working for 10 s (no progress count in this phase); 20 s elapsed, about 18 s left in all',
    ]);
    // read: 10 s of wall time, 11 s of CPU (12 - 1).
    expect(report.phaseTimes()).toEqual([{ phase: 'read', seconds: 10, cpuSeconds: 11 }]);
  });

  it('json: the same schedule, one JSON object a line; loading is its own state', () => {
    vi.useFakeTimers({ now: 0 });
    const { stream, lines } = sink();
    const report = new ProgressReport({ stream, mode: 'json', now: Date.now, state: 'loading' });
    report.plan(['load']);
    report.start('load', 8, 'parts');
    vi.advanceTimersByTime(3000);
    report.update(8);
    report.end();
    report.stop();
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { state: 'loading', phase: 'load', step: 1, steps: 1, done: 0, total: 8, unit: 'parts', percent: 0, phase_seconds: 0, seconds: 0, phase_left_seconds: null, left_seconds: null },
      { phase: 'load', phase_done_seconds: 3, cpu_seconds: null },
    ]);
  });

  it('the time left in all never rises by more than the time elapsed since it was last computed (issue 46: 3 min to 15 min 37 s)', () => {
    vi.useFakeTimers({ now: 0 });
    const { stream } = sink();
    const report = new ProgressReport({ stream, mode: 'lines', now: Date.now });
    report.expect({ read: 10, link: 10, write: 10 });
    report.plan(['read', 'link', 'write']);
    report.start('read', 100, 'files');
    vi.advanceTimersByTime(2000);
    report.update(50);
    // share done 0.5 x 10 / 30: 2 s x (1 - 1/6) / (1/6) = 10 s left.
    expect(report.snapshot().left).toBeCloseTo(10, 6);
    vi.advanceTimersByTime(28_000);
    report.update(51);
    // The rate alone says 30 x 0.83 / 0.17 = 146.5 s; shown: 10 s + the 28 s elapsed.
    expect(report.snapshot().left).toBeCloseTo(38, 6);
    vi.advanceTimersByTime(1000);
    expect(report.snapshot().left).toBeCloseTo(39, 6);
    report.stop();
  });

  it('a phase without a count: its share of the last measured build, the time it spent there, and the estimate from those times', () => {
    vi.useFakeTimers({ now: 0 });
    const { stream, lines } = sink();
    const report = new ProgressReport({ stream, mode: 'lines', now: Date.now });
    report.expect({ read: 10, link: 90, write: 10 });
    report.plan(['read', 'link', 'write']);
    report.start('read', 10, 'files');
    vi.advanceTimersByTime(10_000);
    report.update(10);
    report.end();
    report.start('link', 0, '');
    // link counted done in 10 / 90 of its measured time: share (10 + 10) / 110, 20 s x 90 / 20 = 90 s left.
    vi.advanceTimersByTime(LINE_EVERY_MS);
    report.stop();
    expect(lines.at(-1)).toBe('building the default store: phase 2 of 3, link: working for 10 s (no progress count in this phase; the last measured build spent 1 min 30 s here, 82% of its time); 20 s elapsed, about 1 min 30 s left in all');
  });
});
