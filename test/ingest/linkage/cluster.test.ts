/**
 * Clustering without chains (src/ingest/linkage/cluster.ts): complete linkage over the links taken by
 * decreasing weight, and the representative rule.
 */
import { describe, expect, it } from 'vitest';
import { clusterLinks } from '../../../src/ingest/linkage/cluster.js';

const THRESHOLD = 10;

/** A score from a table of pair weights ("a-b"), -20 for pairs not listed. */
const table = (weights: Record<string, number>) => (a: number, b: number): number => weights[`${a}-${b}`] ?? -20;
const byIndex = (a: number, b: number): number => a - b;

describe('clusterLinks', () => {
  it('a chain 0-1-2 whose ends do not match keeps the stronger link and cuts the weaker', () => {
    const score = table({ '0-1': 20, '1-2': 15, '0-2': -3 });
    const links = [{ a: 1, b: 2, weight: 15 }, { a: 0, b: 1, weight: 20 }];
    const clusters = clusterLinks(4, links, THRESHOLD, score, byIndex);
    expect(clusters.kept).toEqual([1]); // only 0-1
    expect([...clusters.representative]).toEqual([0, 0, 2, 3]);
    expect(clusters.clusters).toBe(1);
  });

  it('joins three reports that pairwise match, keeps all three links, and picks the representative by rank', () => {
    const score = table({ '0-1': 20, '1-2': 15, '0-2': 12 });
    const links = [{ a: 0, b: 1, weight: 20 }, { a: 1, b: 2, weight: 15 }, { a: 0, b: 2, weight: 12 }];
    const preferTwo = (a: number, b: number): number => (a === 2 ? -1 : b === 2 ? 1 : a - b);
    const clusters = clusterLinks(3, links, THRESHOLD, score, preferTwo);
    expect(clusters.kept).toEqual([0, 1, 2]);
    expect([...clusters.representative]).toEqual([2, 2, 2]);
  });

  it('two pairs bridged by a weak intermediate link stay two clusters (the bridge is cut)', () => {
    // 0-1 and 2-3 are duplicates; 1-2 links above the threshold but 0-2, 0-3, 1-3 do not.
    const score = table({ '0-1': 30, '2-3': 30, '1-2': 11, '0-2': 2, '1-3': 4, '0-3': -5 });
    const links = [{ a: 0, b: 1, weight: 30 }, { a: 1, b: 2, weight: 11 }, { a: 2, b: 3, weight: 30 }];
    const clusters = clusterLinks(4, links, THRESHOLD, score, byIndex);
    expect(clusters.kept).toEqual([0, 2]);
    expect([...clusters.representative]).toEqual([0, 0, 2, 2]);
    expect(clusters.clusters).toBe(2);
  });
});
