/**
 * The one binary search of the serve wing: the partition point of a range, and the ordinal of a
 * VAERS_ID through an index of ordinals sorted by id (the case series, src/serve/cases/service.ts,
 * and the narrative index, src/serve/narratives/index.ts, both keep one).
 */

/**
 * The first index of [lo, hi) at which `before` turns false, or hi when it never does; `before`
 * must be true on a prefix of the range and false after it (e.g. `value[i] < x` over ascending
 * values: the lower bound of x). O(log(hi - lo)) calls.
 */
export function partitionPoint(lo: number, hi: number, before: (index: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ordinal of report `id` (a VAERS_ID), or -1 when absent: `ids[ordinal]` is each report's id
 * and `byId` lists the ordinals in ascending order of id. O(log n).
 */
export function ordinalById(ids: ArrayLike<number>, byId: ArrayLike<number>, id: number): number {
  const at = partitionPoint(0, byId.length, (i) => ids[byId[i]] < id);
  return at < byId.length && ids[byId[at]] === id ? byId[at] : -1;
}
