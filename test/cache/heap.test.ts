/** The build's heap limit (src/cache/heap.ts): Node's default 4 GB heap is too small for the full download. */
import { describe, expect, it } from 'vitest';
import { BUILD_HEAP_MAX_MB, buildHeapFlag, heapLimitGiven } from '../../src/cache/heap.js';

describe('buildHeapFlag', () => {
  it('24 GiB of memory and the default 4,144 MB limit: three quarters of the memory, 18,432 MB', () => {
    expect(buildHeapFlag(24 * 2 ** 30, 4144, false)).toBe('--max-old-space-size=18432');
  });
  it('no flag when the limit is already as large, or when a limit was given', () => {
    expect(buildHeapFlag(24 * 2 ** 30, 18432, false)).toBeNull();
    expect(buildHeapFlag(24 * 2 ** 30, 4144, true)).toBeNull();
    expect(buildHeapFlag(4 * 2 ** 30, 4144, false)).toBeNull(); // 3 GiB wanted: the default is more
  });
  it('at most BUILD_HEAP_MAX_MB on a large machine', () => {
    expect(buildHeapFlag(256 * 2 ** 30, 4144, false)).toBe(`--max-old-space-size=${BUILD_HEAP_MAX_MB}`);
  });
  it('a limit given in the node options or NODE_OPTIONS counts, in either spelling', () => {
    expect(heapLimitGiven(['--max-old-space-size=2048'], '')).toBe(true);
    expect(heapLimitGiven([], '--enable-source-maps --max_old_space_size=9000')).toBe(true);
    expect(heapLimitGiven(['--enable-source-maps'], '')).toBe(false);
  });
});
