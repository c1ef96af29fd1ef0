/**
 * The triage evidence that links a pair to the window's other pairs (computed where the rows are
 * scored, a worker thread of the build, from the pairs' EB05 and flags in the window):
 * - the co-reported vaccine (`co_vaccine`, `co_share`): another vaccine named on at least
 *   CO_REPORTED_SHARE of the pair's reports whose pair with the same event has a higher EB05 in
 *   the window, the "innocent bystander" pattern of co-administered vaccines (POLIOVAX x
 *   Intussusception in 1999Q3: 54 of its 56 reports also name ROTASHIELD);
 * - the related pairs (`related_events`): two pairs of one vaccine, both flagged in the window,
 *   with their overlap (shared reports / the smaller pair's reports, the Szymkiewicz-Simpson
 *   coefficient) when at least RELATED_STORED; GET /triage folds them as one signal told in
 *   several terms from RELATED_OVERLAP.
 * Thresholds: src/domain/triage-evidence.ts.
 */
import { CO_REPORTED_SHARE, RELATED_STORED } from '../../domain/triage-evidence.js';

/** What the co-reported vaccine needs of the evidence tables (evidence-step.ts EvidenceTables): the reports' vaccine items. */
export interface VaccineLists {
  vaccineStart: Int32Array;
  vaccines: Int32Array;
  nEvents: number;
}

/** A window's scores of its pairs as the links need them: EB05 (NaN null) and whether GET /triage takes the row (1 or 0). */
export interface PairScores {
  eb05: Float64Array;
  flagged: Uint8Array;
}

/** What a window's pairs link to: per pair (keys order) its co-reported vaccine index (-1 none), and the related pairs as triples. */
export interface WindowLinks {
  /** Per pair: the co-reported vaccine's index (the item index of `v * nEvents + e`), -1 for none. */
  coVaccine: Int32Array;
  /** Triples (j, k, overlap): pair k (keys index) is related to pair j; each related couple both ways. */
  related: Float64Array;
}

/** Whether pair j is flagged in the window as GET /triage takes it (flags.ts: eb05 >= 2 or two methods). */
export type Flagged = ArrayLike<number>;

/**
 * The co-reported vaccine of each flagged pair (`flagged[j]` 1): among the other vaccines named on
 * at least CO_REPORTED_SHARE of its reports, the one whose pair with the same event is among
 * `keys` with the highest EB05, when that EB05 is above the pair's own (a null EB05, NaN, is
 * below any); its share of the pair's reports. Unflagged pairs: none.
 * Example: pair (P, X) with reports naming P and R in 9 of 10, R x X EB05 5 and P x X EB05 2: R, 0.9.
 */
export function coReported(
  t: VaccineLists, keys: ArrayLike<number>, reportsOf: (j: number) => readonly number[],
  eb05: ArrayLike<number>, flagged?: Flagged,
): { coVaccine: Int32Array; coShare: Float64Array } {
  const coVaccine = new Int32Array(keys.length).fill(-1);
  const coShare = new Float64Array(keys.length).fill(Number.NaN);
  const index = new Map<number, number>();
  for (let j = 0; j < keys.length; j++) index.set(keys[j], j);
  const strength = (j: number): number => (Number.isNaN(eb05[j]) ? -Infinity : eb05[j]);
  for (let j = 0; j < keys.length; j++) {
    if (flagged && !flagged[j]) continue;
    const reports = reportsOf(j);
    if (reports.length === 0) continue;
    const v = Math.floor(keys[j] / t.nEvents), e = keys[j] - v * t.nEvents;
    const counts = new Map<number, number>();
    for (const r of reports) {
      for (let a = t.vaccineStart[r]; a < t.vaccineStart[r + 1]; a++) {
        const other = t.vaccines[a];
        // A vaccine listed twice on one report counts once for it.
        let seen = false;
        for (let b = t.vaccineStart[r]; b < a && !seen; b++) seen = t.vaccines[b] === other;
        if (other !== v && !seen) counts.set(other, (counts.get(other) ?? 0) + 1);
      }
    }
    let best = -1, bestStrength = strength(j), bestCount = 0;
    for (const [other, count] of counts) {
      if (count / reports.length < CO_REPORTED_SHARE) continue;
      const k = index.get(other * t.nEvents + e);
      if (k === undefined || strength(k) <= strength(j)) continue;
      if (strength(k) > bestStrength || (best >= 0 && strength(k) === bestStrength && count > bestCount)) [best, bestStrength, bestCount] = [other, strength(k), count];
    }
    if (best >= 0) {
      coVaccine[j] = best;
      coShare[j] = bestCount / reports.length;
    }
  }
  return { coVaccine, coShare };
}

/**
 * The related couples among the flagged pairs (`flagged[j]` 1) of each vaccine: (j, k, overlap)
 * and (k, j, overlap) when overlap = |R_j ∩ R_k| / min(|R_j|, |R_k|) >= RELATED_STORED (GET
 * /triage folds those at RELATED_OVERLAP or more).
 * Example: A x X reports {1, 2, 3, 4}, A x Y {3, 4, 5}: overlap 2/3, related.
 */
export function relatedPairs(nEvents: number, keys: ArrayLike<number>, reportsOf: (j: number) => readonly number[], flagged: Flagged): Float64Array {
  const byVaccine = new Map<number, number[]>();
  for (let j = 0; j < keys.length; j++) {
    if (!flagged[j] || reportsOf(j).length === 0) continue;
    const v = Math.floor(keys[j] / nEvents);
    const list = byVaccine.get(v);
    if (list) list.push(j);
    else byVaccine.set(v, [j]);
  }
  const out: number[] = [];
  const sets = new Map<number, Set<number>>();
  const setOf = (j: number): Set<number> => {
    let set = sets.get(j);
    if (!set) sets.set(j, (set = new Set(reportsOf(j))));
    return set;
  };
  for (const pairs of byVaccine.values()) {
    for (let x = 0; x < pairs.length; x++) {
      for (let y = x + 1; y < pairs.length; y++) {
        const [small, large] = reportsOf(pairs[x]).length <= reportsOf(pairs[y]).length ? [pairs[x], pairs[y]] : [pairs[y], pairs[x]];
        const other = setOf(large);
        let shared = 0;
        for (const r of reportsOf(small)) if (other.has(r)) shared++;
        const overlap = shared / reportsOf(small).length;
        if (overlap >= RELATED_STORED) out.push(pairs[x], pairs[y], overlap, pairs[y], pairs[x], overlap);
      }
    }
  }
  return Float64Array.from(out);
}
