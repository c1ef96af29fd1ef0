/** The one binary search of the serve wing (src/serve/query/search.ts), on hand-worked arrays. */
import { describe, expect, it } from 'vitest';
import { ordinalById, partitionPoint } from '../../../src/serve/query/search.js';

describe('partitionPoint and ordinalById', () => {
  it('finds the lower bound, the end of a prefix run and the range ends', () => {
    const values = [2, 4, 4, 7, 9];
    expect(partitionPoint(0, values.length, (i) => values[i] < 4)).toBe(1);
    expect(partitionPoint(0, values.length, (i) => values[i] < 5)).toBe(3);
    expect(partitionPoint(0, values.length, (i) => values[i] < 1)).toBe(0);
    expect(partitionPoint(0, values.length, (i) => values[i] < 10)).toBe(5);
    expect(partitionPoint(3, values.length, (i) => values[i] < 4)).toBe(3);
    const words = ['fe', 'fev', 'fever', 'fog'];
    expect(partitionPoint(1, words.length, (i) => words[i].startsWith('fev'))).toBe(3);
  });

  it('finds a VAERS_ID through the ordinals sorted by id, -1 when absent', () => {
    const ids = Int32Array.from([30, 10, 20]);
    const byId = Int32Array.from([1, 2, 0]);
    expect([10, 20, 30].map((id) => ordinalById(ids, byId, id))).toEqual([1, 2, 0]);
    expect([5, 15, 31].map((id) => ordinalById(ids, byId, id))).toEqual([-1, -1, -1]);
  });
});
