/**
 * Clusters of duplicate reports from the links above the threshold, without chaining.
 *
 * Rule (complete linkage, greedy): the links are taken in order of decreasing weight (ties:
 * lower row indexes first); a link joins the clusters of its two reports only when **every**
 * pair of reports across the two clusters scores at least the threshold (pairs the blocking did
 * not produce are scored on demand with `score`). A link whose clusters cannot join is cut (not
 * listed in the result). So every two members of a cluster pairwise match: a chain A-B-C in which
 * A and C do not match keeps the stronger of A-B and B-C and cuts the other. Links between two
 * reports already in one cluster are kept.
 *
 * Representative of a cluster (LinkageResult.representative): the most complete report (the
 * most identifying fields known, features.ts), then the earliest RECVDATE, then the lowest
 * VAERS_ID.
 */

/** The representative rule in words (LinkageSummary.representative_rule). */
export const REPRESENTATIVE_RULE = 'the most complete report (most of age, sex, state, vaccination date, onset date, lot, SPLTTYPE and narrative known), then the earliest RECVDATE, then the lowest VAERS_ID';

/** A candidate link: row indexes a < b and its weight. */
export interface WeightedPair {
  a: number;
  b: number;
  weight: number;
}

/** What clustering gives: the kept links (indexes into the input) and each report's cluster representative. */
export interface Clusters {
  kept: number[];
  representative: Int32Array;
  /** Clusters of two or more reports. */
  clusters: number;
}

/**
 * Clusters `count` reports from `links` (each with weight >= threshold) by the rule of the module
 * header. `score(a, b)` is the match weight of any two reports; `rank(a, b)` < 0 when a is the
 * better representative. Returns the kept links and the representatives.
 */
export function clusterLinks(count: number, links: readonly WeightedPair[], threshold: number,
  score: (a: number, b: number) => number, rank: (a: number, b: number) => number): Clusters {
  const clusterOf = new Int32Array(count).map((_, i) => i);
  const members = new Map<number, number[]>();
  const membersOf = (c: number): number[] => members.get(c) ?? [c];
  const order = links.map((_, i) => i).sort((x, y) => links[y].weight - links[x].weight || links[x].a - links[y].a || links[x].b - links[y].b);
  const kept: number[] = [];
  for (const i of order) {
    const { a, b } = links[i];
    const ca = clusterOf[a];
    const cb = clusterOf[b];
    if (ca === cb) {
      kept.push(i);
      continue;
    }
    const left = membersOf(ca);
    const right = membersOf(cb);
    let joins = true;
    for (const x of left) {
      for (const y of right) {
        if ((x === a && y === b) || score(Math.min(x, y), Math.max(x, y)) >= threshold) continue;
        joins = false;
        break;
      }
      if (!joins) break;
    }
    if (!joins) continue;
    const [big, small, into] = left.length >= right.length ? [left, right, ca] : [right, left, cb];
    for (const y of small) {
      clusterOf[y] = into;
      big.push(y);
    }
    members.set(into, big);
    members.delete(into === ca ? cb : ca);
    kept.push(i);
  }
  const representative = new Int32Array(count).map((_, i) => i);
  let clusters = 0;
  for (const group of members.values()) {
    clusters++;
    let best = group[0];
    for (const x of group) if (rank(x, best) < 0) best = x;
    for (const x of group) representative[x] = best;
  }
  kept.sort((x, y) => x - y);
  return { kept, representative, clusters };
}
