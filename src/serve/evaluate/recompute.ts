/**
 * The uncensored recomputation: the quarterly statistics of a pair the store did not keep (the
 * store keeps only pairs that reach n_methods_flagged >= 2 in some window), computed from the
 * store's report tables exactly as the build computes a kept pair's, so that every method is
 * judged in every window of every reference pair.
 *
 * For one analysis, the reports it counts are those its subset rule keeps
 * (src/domain/analysis-rules.ts `subsetMask`) that name at least one of its items (products, or
 * VAX_TYPE codes for `@types`); each is counted in its quarter of RECVDATE. For a window w
 * (quarters w-3..w, WINDOW_QUARTERS in src/domain/quarter.ts) and a pair with n >= 1 reports in it: n, n_vaccine,
 * n_event, N are the window's distinct-report counts; a stratified analysis's E is
 * `sum_s n_vaccine,s * n_event,s / N_s` over the window's strata in ascending order (the build's
 * `stratifiedExpected`, same order of summation); then src/stats/window.ts `scoreWindow` with the
 * window's fitted prior (the store's `windows` table) gives EB05, PRR with its chi-square, the ROR
 * bound and IC025 - the very code the build runs. A window without a recorded prior (skipped by
 * the build) gets no EB05. Only the asked items and events are tallied, so the pass over the
 * reports is linear in the reports and the memory in asked names x quarters x strata.
 */
import { stratumOf, strataCount, subsetMask, type AnalysisDefinition, type StrataScheme } from '../../domain/analysis-rules.js';
import { formatQuarter, WINDOW_QUARTERS, type QuarterIndex } from '../../domain/quarter.js';
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import { scoreWindow } from '../../stats/window.js';
import type { FlagRow } from '../store/evaluation.js';
import type { ReportData } from '../store/reports.js';

/** Tallies per quarter (and stratum) of one analysis's reports for a few items and events. */
export interface AnalysisTallies {
  /** First quarter with a counted report, and the number of quarters tallied from it (through the last asked). */
  first: QuarterIndex;
  quarters: number;
  /** Strata per quarter (1 for a crude analysis). */
  strata: number;
  /** Whether E is stratified. */
  stratified: boolean;
  /** Reports counted per quarter x stratum (index `(q - first) * strata + s`). */
  reports: Float64Array;
  /** Per asked item / event: reports naming it per quarter x stratum. */
  items: Map<string, Float64Array>;
  events: Map<string, Float64Array>;
  /** Per `item \u0000 event`: reports naming both, per quarter. */
  pairs: Map<string, Float64Array>;
}

/** The items of report i: its distinct product names, or VAX_TYPE codes (rows without one name none). */
function itemsOf(data: ReportData, kind: AnalysisDefinition['items'], i: number): Set<string> {
  const names = new Set<string>();
  const { start } = data.vaccines;
  for (let row = start[i]; row < start[i + 1]; row++) {
    const name = kind === 'vaccine' ? data.vaccines.name.at(row) : data.vaccines.type.at(row);
    if (name !== null && name !== undefined) names.add(name);
  }
  return names;
}

/**
 * Tallies the reports of `analysis` through quarter `through` for the asked items and events.
 * `scheme`: the strata the store's build used (its analysis metadata `strata`), null for a crude analysis.
 * `termsOf`: the terms of an asked event that stands for several (an event-group item); by default each event is its own term.
 */
export function tallyAnalysis(data: ReportData, analysis: AnalysisDefinition, scheme: StrataScheme | null,
  items: readonly string[], events: readonly string[], through: QuarterIndex, termsOf?: ReadonlyMap<string, readonly string[]>): AnalysisTallies {
  // term -> the asked events it counts in (itself, or the group items listing it)
  const eventsOfTerm = new Map<string, string[]>();
  for (const event of events) {
    for (const term of termsOf?.get(event) ?? [event]) {
      const list = eventsOfTerm.get(term);
      if (list) list.push(event);
      else eventsOfTerm.set(term, [event]);
    }
  }
  let firstQ = Infinity;
  let firstYear = Infinity;
  let lastYear = -Infinity;
  for (let i = 0; i < data.count; i++) {
    firstYear = Math.min(firstYear, Math.floor(data.quarter[i] / 4));
    lastYear = Math.max(lastYear, Math.floor(data.quarter[i] / 4));
  }
  const stratified = analysis.stratified && scheme !== null;
  const strata = stratified ? strataCount(scheme, firstYear, lastYear) : 1;
  const mask = subsetMask(analysis, data);
  const kept: number[] = [];
  const itemSets: Array<Set<string>> = [];
  for (let i = 0; i < data.count; i++) {
    if (!mask[i] || data.quarter[i] > through) continue;
    const own = itemsOf(data, analysis.items, i);
    if (own.size === 0) continue;
    kept.push(i);
    itemSets.push(own);
    firstQ = Math.min(firstQ, data.quarter[i]);
  }
  const first = Number.isFinite(firstQ) ? firstQ : through;
  const quarters = Math.max(0, through - first + 1);
  const size = quarters * strata;
  const tallies: AnalysisTallies = {
    first, quarters, strata, stratified, reports: new Float64Array(size),
    items: new Map(items.map((v) => [v, new Float64Array(size)])), events: new Map(events.map((e) => [e, new Float64Array(size)])), pairs: new Map(),
  };
  kept.forEach((i, k) => {
    const cell = (data.quarter[i] - first) * strata + (stratified ? stratumOf(scheme, data, i, firstYear, lastYear) : 0);
    tallies.reports[cell]++;
    const named = [...itemSets[k]].filter((v) => tallies.items.has(v));
    for (const v of named) tallies.items.get(v)![cell]++;
    const hit = new Set<string>();
    for (let row = data.events.start[i]; row < data.events.start[i + 1]; row++) for (const event of eventsOfTerm.get(data.events.term.at(row)) ?? []) hit.add(event);
    for (const event of hit) {
      const counts = tallies.events.get(event)!;
      counts[cell]++;
      for (const v of named) {
        const key = `${v}\u0000${event}`;
        let pair = tallies.pairs.get(key);
        if (!pair) tallies.pairs.set(key, (pair = new Float64Array(quarters)));
        pair[data.quarter[i] - first]++;
      }
    }
  });
  return tallies;
}

/** Sum over the window ending at quarter offset `end` of per-quarter x stratum counts, per stratum. */
function windowSum(counts: Float64Array, end: number, strata: number): Float64Array {
  const out = new Float64Array(strata);
  for (let q = Math.max(0, end - WINDOW_QUARTERS + 1); q <= end; q++) {
    for (let s = 0; s < strata; s++) out[s] += counts[q * strata + s];
  }
  return out;
}

const total = (values: Float64Array): number => values.reduce((a, b) => a + b, 0);

/**
 * The quarterly rows of (item, event) recomputed from the tallies: one per window through the
 * tallies' last quarter with n >= 1, in quarter order, with the flags' inputs and n_methods_flagged
 * (as the store would hold them had it kept the pair). `priors`: the window's fitted prior by quarter index.
 * @throws Error when the item or the event was not asked of `tallyAnalysis`.
 */
export function recomputeRows(tallies: AnalysisTallies, item: string, event: string, priors: ReadonlyMap<QuarterIndex, Hyperparameters>): FlagRow[] {
  const itemCounts = tallies.items.get(item);
  const eventCounts = tallies.events.get(event);
  if (!itemCounts || !eventCounts) throw new Error(`recomputeRows: ${item} x ${event} was not tallied`);
  const pair = tallies.pairs.get(`${item}\u0000${event}`);
  const rows: FlagRow[] = [];
  if (!pair) return rows;
  const { strata } = tallies;
  for (let end = 0; end < tallies.quarters; end++) {
    let n = 0;
    for (let q = Math.max(0, end - WINDOW_QUARTERS + 1); q <= end; q++) n += pair[q];
    if (n === 0) continue;
    const reports = windowSum(tallies.reports, end, strata);
    const nv = windowSum(itemCounts, end, strata);
    const ne = windowSum(eventCounts, end, strata);
    let expected: number[] | undefined;
    if (tallies.stratified) {
      let e = 0;
      for (let s = 0; s < strata; s++) if (nv[s] !== 0) e += (nv[s] * ne[s]) / reports[s];
      expected = [e];
    }
    const quarter = tallies.first + end;
    const prior = priors.get(quarter);
    // Without a recorded prior the build skipped the window; the other statistics do not read it.
    const hyper = prior ?? { alpha1: 1, beta1: 1, alpha2: 1, beta2: 1, p: 0.5 };
    const [s] = scoreWindow({ n: [n], n_vaccine: [total(nv)], n_event: [total(ne)], n_reports: total(reports), expected }, { hyper }).pairs;
    const eb05 = prior ? s.eb05 : null;
    rows.push({
      drug: item, event, quarter: formatQuarter(quarter), n, eb05, prr: s.prr, prr_chisq: s.prr_chisq, ror_lci: s.ror_lci, ic025: s.ic025,
      n_methods_flagged: prior ? s.n_methods_flagged : s.n_methods_flagged - Number(s.eb05 !== null && s.eb05 >= 2),
    });
  }
  return rows;
}
