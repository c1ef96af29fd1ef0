/**
 * Masking diagnostics of a pair (V, E) in a window (docs/interactions.md; Maignen et al. 2014,
 * src/stats/masking.ts): counted from the reports held in memory for the case series
 * (src/serve/cases/index.ts), the pair's 2x2 counts and, for every other vaccine M named on the
 * window's reports, the counts that removing M's reports takes away; each M's masking ratio by the
 * closed form; and the pair's PRR and EB05 with one vaccine's reports removed (EB05 with the
 * window's fitted prior, not refitted, and the crude E = n(V) n(E) / N of the remaining reports).
 */
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import { posterior, posteriorQuantile } from '../../stats/mgps.js';
import { maskingRatio, pairPrr, withoutMasker, type MaskerCounts, type PairCounts } from '../../stats/masking.js';
import type { ReportIndex } from '../cases/index.js';

/** The counts of a pair in a window and of every vaccine co-named on the window's reports, by vaccine id (ReportIndex.vaccineNames). */
export interface WindowMaskingCounts {
  pair: PairCounts;
  maskers: Map<number, MaskerCounts>;
}

/**
 * Counts over the reports of `index` in quarters `from`..`to` (quarter indexes) kept by `keep`
 * (an analysis's subset; null: all): N, n(V), n(E), n(V, E), and per other vaccine M its reports,
 * with V, with E, with both. Each report counts once however many rows name a vaccine or event.
 */
export function countMasking(index: ReportIndex, keep: Uint8Array | null, from: number, to: number, vaccineId: number, eventId: number): WindowMaskingCounts {
  const { data, vaccineId: rowVaccine, eventId: rowEvent } = index;
  const seen = new Int32Array(index.vaccineNames.length).fill(-1);
  const pair: PairCounts = { a: 0, nVaccine: 0, nEvent: 0, N: 0 };
  const maskers = new Map<number, MaskerCounts>();
  const names: number[] = [];
  for (let r = 0; r < data.count; r++) {
    if (data.quarter[r] < from || data.quarter[r] > to || (keep !== null && keep[r] !== 1)) continue;
    names.length = 0;
    for (let row = data.vaccines.start[r]; row < data.vaccines.start[r + 1]; row++) {
      const id = rowVaccine[row];
      if (id >= 0 && seen[id] !== r) { seen[id] = r; names.push(id); }
    }
    if (names.length === 0) continue;
    let hasE = false;
    for (let row = data.events.start[r]; row < data.events.start[r + 1] && !hasE; row++) hasE = rowEvent[row] === eventId;
    const hasV = seen[vaccineId] === r;
    pair.N++;
    if (hasV) pair.nVaccine++;
    if (hasE) pair.nEvent++;
    if (hasV && hasE) pair.a++;
    for (const id of names) {
      if (id === vaccineId) continue;
      let m = maskers.get(id);
      if (!m) maskers.set(id, (m = { nMasker: 0, nMaskerVaccine: 0, nMaskerEvent: 0, nMaskerPair: 0 }));
      m.nMasker++;
      if (hasV) m.nMaskerVaccine++;
      if (hasE) m.nMaskerEvent++;
      if (hasV && hasE) m.nMaskerPair++;
    }
  }
  return { pair, maskers };
}

/** A masker of the pair: its name, its counts and the masking ratio. */
export interface Masker {
  vaccine: string;
  reports: number;
  with_vaccine: number;
  with_event: number;
  with_pair: number;
  prr_without: number | null;
  masking_ratio: number | null;
}

/** The pair's statistics on some reports: counts, PRR and EB05 (null without a prior or when undefined). */
export interface PairStatisticsOf {
  n: number;
  n_vaccine: number;
  n_event: number;
  N: number;
  prr: number | null;
  eb05: number | null;
}

/** PRR and EB05 of pair counts (EB05: the 5% quantile of the MGPS posterior with `prior`, crude E; null when E is 0 or no prior). */
export function pairStatistics(p: PairCounts, prior: Hyperparameters | null): PairStatisticsOf {
  const E = p.N > 0 ? (p.nVaccine * p.nEvent) / p.N : 0;
  const eb05 = prior !== null && E > 0 ? posteriorQuantile(posterior(prior, p.a, E), 0.05) : null;
  return { n: p.a, n_vaccine: p.nVaccine, n_event: p.nEvent, N: p.N, prr: pairPrr(p), eb05 };
}

/** Every masker with a defined ratio, ranked by masking ratio descending, then reports descending, then name. */
export function rankMaskers(counts: WindowMaskingCounts, names: readonly string[]): Masker[] {
  const out: Masker[] = [];
  for (const [id, m] of counts.maskers) {
    const r = maskingRatio(counts.pair, m);
    out.push({ vaccine: names[id], reports: m.nMasker, with_vaccine: m.nMaskerVaccine, with_event: m.nMaskerEvent, with_pair: m.nMaskerPair, prr_without: r.prrWithout, masking_ratio: r.ratio });
  }
  return out.filter((m) => m.masking_ratio !== null)
    .sort((a, b) => b.masking_ratio! - a.masking_ratio! || b.reports - a.reports || (a.vaccine < b.vaccine ? -1 : a.vaccine > b.vaccine ? 1 : 0));
}

/** The pair's statistics with vaccine `id`'s reports removed (closed form), or null when `id` is not co-named in the window. */
export function unmasked(counts: WindowMaskingCounts, id: number, prior: Hyperparameters | null): PairStatisticsOf | null {
  const m = counts.maskers.get(id);
  return m ? pairStatistics(withoutMasker(counts.pair, m), prior) : null;
}
