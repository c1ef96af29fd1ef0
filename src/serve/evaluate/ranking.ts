/**
 * The triage queue judged against plain orderings of the same windows. In each window of an
 * analysis the candidates are the pairs `/triage` ranks (the flagged rows of the window,
 * src/serve/store/triage-rows.ts); the queue is their triage order, computed by the triage ranking's
 * public function (src/serve/triage/rank.ts `rankPairs`, so a change of the ranking changes this
 * evaluation), and the plain orderings are the same candidates by EB05, PRR and IC025 descending
 * (a missing statistic last; ties by vaccine, then event). A pair's rank is 1-based; a pair not
 * among the window's candidates has none. Pure: the caller reads the windows.
 *
 * Per dated positive (a positive with `emerged`) and ordering: its rank in every window (the best
 * of its items and terms: the queue ranks preferred terms) and the first window where it enters the top 10, 20 and 50, with the quarters
 * from `emerged` to the first top-20 window. Per window and ordering: of the top 20, how many are
 * reference positives, negatives, artefacts, and how many carry an artefact caution of triage
 * (`late_reports`, `legal_reports`, `non_clinical_term`: `hasArtefact`).
 */
import { formatQuarter, parseQuarter } from '../../domain/quarter.js';
import { hasArtefact, rankPairs, type TriagePair } from '../triage/rank.js';
import type { TriageRow } from '../store/triage-rows.js';
import { median } from './evaluate.js';
import type { ReferencePair } from './reference.js';

/** The orderings compared, the triage queue first. */
export const ORDERINGS = ['triage', 'eb05', 'prr', 'ic025'] as const;
/** An ordering of a window's candidates. */
export type Ordering = (typeof ORDERINGS)[number];
/** The queue depths whose first entry is reported. */
export const TOPS = [10, 20, 50] as const;
/** The depth whose composition is reported. */
export const TOP = 20;

/** One window as `/triage` reads it. */
export interface RankingWindow {
  quarter: string;
  rows: readonly TriageRow[];
  /** The window's MGPS fit parameters on a bound (triage's `fit_at_bound`), or null. */
  at_bound: string | null;
}

/** What the comparison of one analysis reads. */
export interface RankingInput {
  analysis: string;
  pairs: readonly ReferencePair[];
  /** Per reference id: the items its vaccine expands to in this analysis. */
  items: ReadonlyMap<string, readonly string[]>;
  /** The windows, in quarter order. */
  windows: readonly RankingWindow[];
  /** An item's VAX_TYPE (the triage pairs' `vax_type`). */
  vaxTypeOf: (item: string) => string;
  /** The narrow event groups of an event (the triage's special interest; src/serve/triage/rank.ts), as /triage reads them from the store; absent: none. */
  specialGroups?: (event: string) => readonly string[];
}

/** A dated positive under one ordering (ranking.json `positives`, ranking.csv). */
export interface PositiveRanking {
  analysis: string;
  id: string;
  vaccine: string;
  event: string;
  emerged: string;
  ordering: Ordering;
  /** First window in the top 10, 20 and 50, or null. */
  first_top10: string | null;
  first_top20: string | null;
  first_top50: string | null;
  /** Quarters from `emerged` to `first_top20` (negative: before it was known), or null. */
  quarters_to_top20: number | null;
  /** Best rank in the window `quarter`, or null when not among its candidates; every window of the analysis. */
  ranks: Array<{ quarter: string; rank: number | null }>;
}

/** The top 20 of one window under one ordering (ranking.json `windows`, top20.csv). */
export interface WindowTop {
  analysis: string;
  quarter: string;
  ordering: Ordering;
  /** Candidates of the window, and how many are in its top (at most TOP). */
  candidates: number;
  top: number;
  positives: number;
  negatives: number;
  artefacts: number;
  /** Pairs of the top with an artefact caution of triage. */
  cautioned: number;
}

/** One ordering over one analysis (ranking.json `summary`, the Markdown table). */
export interface RankingSummary {
  analysis: string;
  ordering: Ordering;
  /** Dated positives, and those entering the top 20 in some window. */
  dated_positives: number;
  entered_top20: number;
  /** Median quarters from `emerged` to the first top-20 window, over those entering. */
  median_quarters_to_top20: number | null;
  /** Pooled over the windows: top-20 slots, and the shares of reference negatives, artefacts and artefact cautions. */
  slots: number;
  negative_share: number | null;
  artefact_share: number | null;
  cautioned_share: number | null;
}

/** The comparison of one or more analyses. */
export interface RankingResult {
  positives: PositiveRanking[];
  windows: WindowTop[];
  summary: RankingSummary[];
}

const compareNames = (a: { vaccine: string; event: string }, b: { vaccine: string; event: string }): number =>
  (a.vaccine < b.vaccine ? -1 : a.vaccine > b.vaccine ? 1 : 0) || (a.event < b.event ? -1 : a.event > b.event ? 1 : 0);

/** The candidates in a plain ordering: `statistic` descending, a missing one last, then vaccine, event. */
export function plainOrder<T extends { vaccine: string; event: string }>(pairs: readonly T[], statistic: (p: T) => number | null): T[] {
  return [...pairs].sort((a, b) => {
    const x = statistic(a), y = statistic(b);
    if (x === null || y === null) return Number(x === null) - Number(y === null) || compareNames(a, b);
    return y - x || compareNames(a, b);
  });
}

/** The window's candidates under every ordering. */
function orderings(window: RankingWindow, vaxTypeOf: (item: string) => string, specialGroups?: (event: string) => readonly string[]): Record<Ordering, TriagePair[]> {
  const queue = rankPairs(window.rows, { quarter: window.quarter, at_bound: window.at_bound, vaxTypeOf, specialGroups });
  return { triage: queue, eb05: plainOrder(queue, (p) => p.eb05), prr: plainOrder(queue, (p) => p.prr), ic025: plainOrder(queue, (p) => p.ic025) };
}

const key = (vaccine: string, event: string): string => `${vaccine}\u0000${event}`;

/** Compares the triage queue with the plain orderings over the windows of one analysis. */
export function compareRankings(input: RankingInput): RankingResult {
  const classOf = new Map<string, ReferencePair['class']>();
  for (const pair of input.pairs) for (const item of input.items.get(pair.id) ?? []) for (const term of pair.terms) classOf.set(key(item, term), pair.class);
  const dated = input.pairs.filter((p) => p.class === 'positive' && p.emergedIndex !== null);
  const ranks = new Map<string, Array<{ quarter: string; rank: number | null }>>(); // id \u0000 ordering
  const windows: WindowTop[] = [];
  for (const window of input.windows) {
    const ordered = orderings(window, input.vaxTypeOf, input.specialGroups);
    for (const ordering of ORDERINGS) {
      const list = ordered[ordering];
      const rankOf = new Map(list.map((p, i) => [key(p.vaccine, p.event), i + 1]));
      for (const pair of dated) {
        const found = (input.items.get(pair.id) ?? []).flatMap((item) => pair.terms.map((term) => rankOf.get(key(item, term)))).filter((r): r is number => r !== undefined);
        const entry = { quarter: window.quarter, rank: found.length > 0 ? Math.min(...found) : null };
        const k = `${pair.id}\u0000${ordering}`;
        const series = ranks.get(k);
        if (series) series.push(entry);
        else ranks.set(k, [entry]);
      }
      const top = list.slice(0, TOP);
      const count = (cls: ReferencePair['class']): number => top.filter((p) => classOf.get(key(p.vaccine, p.event)) === cls).length;
      windows.push({
        analysis: input.analysis, quarter: window.quarter, ordering, candidates: list.length, top: top.length,
        positives: count('positive'), negatives: count('negative'), artefacts: count('artefact'), cautioned: top.filter(hasArtefact).length,
      });
    }
  }
  const positives: PositiveRanking[] = [];
  for (const pair of dated) {
    for (const ordering of ORDERINGS) {
      const series = ranks.get(`${pair.id}\u0000${ordering}`) ?? [];
      const first = (depth: number): string | null => series.find((r) => r.rank !== null && r.rank <= depth)?.quarter ?? null;
      const top20 = first(20);
      positives.push({
        analysis: input.analysis, id: pair.id, vaccine: pair.vaccine, event: pair.event, emerged: formatQuarter(pair.emergedIndex!), ordering,
        first_top10: first(10), first_top20: top20, first_top50: first(50),
        quarters_to_top20: top20 === null ? null : parseQuarter(top20)! - pair.emergedIndex!, ranks: series,
      });
    }
  }
  return { positives, windows, summary: summariseRankings(input.analysis, positives, windows) };
}

/** The per-ordering summary of one analysis. */
function summariseRankings(analysis: string, positives: readonly PositiveRanking[], windows: readonly WindowTop[]): RankingSummary[] {
  return ORDERINGS.map((ordering) => {
    const mine = positives.filter((p) => p.ordering === ordering);
    const times = mine.filter((p) => p.quarters_to_top20 !== null).map((p) => p.quarters_to_top20!);
    const tops = windows.filter((w) => w.ordering === ordering);
    const slots = tops.reduce((k, w) => k + w.top, 0);
    const share = (f: (w: WindowTop) => number): number | null => (slots === 0 ? null : tops.reduce((k, w) => k + f(w), 0) / slots);
    return {
      analysis, ordering, dated_positives: mine.length, entered_top20: times.length, median_quarters_to_top20: median(times), slots,
      negative_share: share((w) => w.negatives), artefact_share: share((w) => w.artefacts), cautioned_share: share((w) => w.cautioned),
    };
  });
}
