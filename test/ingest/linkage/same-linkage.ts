/**
 * The comparison of the streamed linkage with the linkage holding every candidate pair
 * (src/ingest/linkage/link.ts streamPairs, issue 41), for test/ingest/linkage/stream.test.ts (planted
 * duplicates) and real-linkage.test.ts (the real 1990-2006 reports).
 */
import { expect } from 'vitest';
import type { LinkageResult } from '../../../src/ingest/linkage/types.js';

/** A linkage result without its build time (`seconds`) and the figures of its memory. */
export function answer(result: LinkageResult): unknown {
  const { seconds: _seconds, ...summary } = result.summary;
  return { representative: Array.from(result.representative), links: result.links, summary };
}

/**
 * Checks that `streamed` (linkReports with the default lower bound) and `every` (the same reports
 * linked with `lowerBound: -Infinity`) give one answer, `every` holding every candidate pair and
 * `streamed` fewer.
 */
export function expectSameLinkage(streamed: LinkageResult, every: LinkageResult): void {
  expect(every.heldPairs).toBe(every.summary.candidate_pairs);
  expect(every.keptPairs).toBe(every.summary.candidate_pairs);
  expect(streamed.heldPairs).toBeLessThan(streamed.summary.candidate_pairs);
  expect(streamed.keptPairs).toBeLessThanOrEqual(streamed.heldPairs!);
  expect(streamed.keptPairs).toBeGreaterThanOrEqual(streamed.summary.links);
  expect(answer(streamed)).toEqual(answer(every));
}
