/**
 * The masking ratio of a pair (Maignen F., Hauben M., Hung E., Van Holle L., Dogne J.-M.,
 * "Assessing the extent and impact of the masking effect of disproportionality analyses on two
 * spontaneous reporting systems databases", Pharmacoepidemiology and Drug Safety 2014;23:195-207):
 * for a vaccine V and event E in a window and another vaccine M, the PRR of (V, E) recomputed on
 * the reports that do not name M, divided by the PRR of (V, E) on every report. A ratio above 1:
 * M's reports hide part of the pair's disproportionality (M is a masker).
 *
 * Closed form (what removing M's reports does to the 2x2 table of docs/design.md, a = V and E,
 * b = V without E, c = E without V, d = neither): a' = a - n(M,V,E), a'+b' = n(V) - n(M,V),
 * c' = n(E) - a - (n(M,E) - n(M,V,E)), c'+d' = N - n(V) - (n(M) - n(M,V)). The recomputation by
 * deleting M's reports and recounting is its oracle (test/stats/masking.test.ts and the real-data test).
 */
import { prr } from './prr.js';

/** The counts of a pair (V, E) in a window: a = reports naming V and E, nVaccine V, nEvent E, N every report. */
export interface PairCounts {
  a: number;
  nVaccine: number;
  nEvent: number;
  N: number;
}

/** The counts of a vaccine M among the reports of the window: M, M with V, M with E, M with V and E. */
export interface MaskerCounts {
  nMasker: number;
  nMaskerVaccine: number;
  nMaskerEvent: number;
  nMaskerPair: number;
}

/** The pair's counts on the reports that do not name M (closed form; see the file's docstring). */
export function withoutMasker(pair: PairCounts, m: MaskerCounts): PairCounts {
  return {
    a: pair.a - m.nMaskerPair,
    nVaccine: pair.nVaccine - m.nMaskerVaccine,
    nEvent: pair.nEvent - m.nMaskerEvent,
    N: pair.N - m.nMasker,
  };
}

/** PRR of a pair from its counts (src/stats/prr.ts: null when undefined). */
export function pairPrr(p: PairCounts): number | null {
  return prr(p.a, p.nVaccine - p.a, p.nEvent - p.a, p.N - p.nVaccine - p.nEvent + p.a).prr;
}

/**
 * The masking ratio PRR(without M) / PRR: null when either PRR is undefined or the PRR is 0
 * (a = 0); the unmasked counts and PRR with it.
 */
export function maskingRatio(pair: PairCounts, m: MaskerCounts): { ratio: number | null; prrWithout: number | null; without: PairCounts } {
  const without = withoutMasker(pair, m);
  const before = pairPrr(pair), after = pairPrr(without);
  return { ratio: before === null || after === null || before === 0 ? null : after / before, prrWithout: after, without };
}
