/**
 * The blocking (src/ingest/linkage/blocking.ts candidatePairs) against its definition, checked
 * pair by pair on synthetic reports (test/ingest/linkage/fixtures.ts): a pair of reports is a
 * candidate exactly when some kind of block gives both one key in a block of at most `maxBlock`
 * reports, it is produced once, by the first such kind, and the figures count the blocks, pairs
 * and skipped blocks of each kind. Two calls make the same pairs in the same order (the linkage
 * passes over them twice).
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/prng.js';
import { blocking, BLOCK_KINDS, candidatePairs } from '../../../src/ingest/linkage/blocking.js';
import { linkageFeatures } from '../../../src/ingest/linkage/features.js';
import { columnsOf, dateAfter, syntheticReports } from './fixtures.js';

// Crowded: a few clinic days, onset days and ages, some SPLTTYPEs shared, so that blocks of every
// kind overlap and some exceed the cap.
const uniform = random(5);
const reports = syntheticReports(uniform, 600).map((r, k) => {
  const day = Math.floor(uniform() * 12);
  return {
    ...r, vaxDate: dateAfter(day), onsetDate: k % 7 === 0 ? 0 : dateAfter(day + Math.floor(uniform() * 3)),
    age: k % 5 === 0 ? null : Math.floor(uniform() * 12), splttype: k % 4 === 0 ? `WAES${k % 40}` : null,
  };
});
const f = linkageFeatures(columnsOf(reports));
// A small cap, so that some blocks of every common kind are skipped.
const MAX = 6;
const blocks = blocking(f, MAX);

/** Per kind, the number of reports holding each key. */
const sizes = blocks.kinds.map(({ keys }) => {
  const size = new Map<number, number>();
  for (const key of keys) if (!Number.isNaN(key)) size.set(key, (size.get(key) ?? 0) + 1);
  return size;
});

/** The kind that makes the pair (a, b) by the definition, -1 when none does. */
function kindOf(a: number, b: number): number {
  return blocks.kinds.findIndex(({ keys }, j) => keys[a] === keys[b] && !Number.isNaN(keys[a]) && sizes[j].get(keys[a])! <= MAX);
}

describe('candidatePairs', () => {
  const made: Array<[number, number, number]> = [];
  const figures = candidatePairs(blocks, (a, b, kind) => void made.push([a, b, kind]));

  it('makes every pair its definition makes, once, by the first kind that shares a key in a block not skipped', () => {
    const expected: string[] = [];
    for (let a = 0; a < f.count; a++) {
      for (let b = a + 1; b < f.count; b++) {
        const kind = kindOf(a, b);
        if (kind >= 0) expected.push(`${a},${b},${kind}`);
      }
    }
    expect(expected.length).toBeGreaterThan(1000);
    const got = made.map((p) => p.join());
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual(expected.sort());
    expect(made.every(([a, b]) => a < b)).toBe(true);
  });

  it('counts each kind\'s blocks, pairs and skipped blocks and reports', () => {
    expect(figures.map((x) => x.block)).toEqual(BLOCK_KINDS);
    figures.forEach((x, j) => {
      const inBlocks = [...sizes[j].values()];
      expect(x.pairs).toBe(made.filter(([, , kind]) => kind === j).length);
      expect(x.blocks).toBe(inBlocks.filter((n) => n > 1 && n <= MAX).length);
      expect(x.skippedBlocks).toBe(inBlocks.filter((n) => n > MAX).length);
      expect(x.skippedReports).toBe(inBlocks.filter((n) => n > MAX).reduce((s, n) => s + n, 0));
    });
    expect(figures.some((x) => x.skippedBlocks > 0)).toBe(true);
  });

  it('makes the same pairs in the same order when called again', () => {
    const again: Array<[number, number, number]> = [];
    candidatePairs(blocks, (a, b, kind) => void again.push([a, b, kind]));
    expect(again).toEqual(made);
  });
});
