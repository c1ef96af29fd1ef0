/**
 * The streamed linkage (src/ingest/linkage/link.ts streamPairs, issue 41): holding only the pairs
 * whose link weight reaches the threshold (the default lower bound) gives the clusters, links
 * and figures of the linkage holding every candidate pair (`lowerBound: -Infinity`, the way the
 * linkage worked before the stream), on the planted duplicates of test/ingest/linkage/fixtures.ts
 * (on the real 1990-2006 reports of data/vaers: real-linkage.test.ts, which shares one reading
 * and linkage of those reports between its tests); and the EM fitted on the first pass's pattern
 * counts is the one fitted on every pair's pattern. Past its cap on held pairs, the second pass
 * makes the pairs again, with the same answer.
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/prng.js';
import { estimate } from '../../../src/ingest/linkage/estimate.js';
import { linkReports, scorePairs } from '../../../src/ingest/linkage/link.js';
import { columnsOf, perturb, syntheticReports } from './fixtures.js';
import { answer, expectSameLinkage } from './same-linkage.js';

describe('the streamed linkage', () => {
  const uniform = random(11);
  const background = syntheticReports(uniform, 2000);
  const copies = background.slice(0, 150).map((r, k) => perturb(r, 70_000 + k, uniform, ['Term 77', 'Term 76']));
  const exact = background.slice(150, 170).map((r, k) => ({ ...r, id: 75_000 + k, splttype: null }));
  const columns = columnsOf([...background, ...copies, ...exact]);

  it('links the planted duplicates as the linkage holding every candidate pair does', () => {
    const streamed = linkReports(columns);
    expectSameLinkage(streamed, linkReports(columns, { lowerBound: -Infinity }));
    expect(streamed.summary.links).toBeGreaterThan(100);
  });

  it('gives the same answer when the second pass makes the pairs again (more pairs pass than it may hold)', () => {
    const held = linkReports(columns);
    const again = linkReports(columns, { maxHeld: 10 });
    expect(held.heldPairs).toBeGreaterThan(10);
    expect(again.heldPairs).toBe(held.heldPairs);
    expect(answer(again)).toEqual(answer(held));
  });

  it('fits the EM on the first pass\'s pattern counts as on every pair\'s pattern', () => {
    const scored = scorePairs(columns);
    expect(scored.pattern.length).toBe(scored.candidatePairs);
    const counts = new Map<number, number>();
    for (const p of scored.pattern) counts.set(p, (counts.get(p) ?? 0) + 1);
    expect(estimate(scored.features, counts)).toEqual(scored.model);
  });
});
