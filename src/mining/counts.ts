/**
 * Counting (DESIGN.md "Data flow" -> counts; "Statistics, precisely"): per quarter of
 * `RECVDATE`, the number of distinct reports naming each (vaccine, event) pair, and the margins
 * `n_vaccine`, `n_event` and `N` (reports naming >= 1 vaccine and >= 1 event). Every report is
 * in exactly one quarter, so the counts of the 4-quarter window ending at quarter q are the sums
 * of the counts of quarters q-3..q (`windowCounts`).
 *
 * Memory: quarters are counted one at a time (reports are visited in quarter order), and each
 * finished quarter is kept as sorted typed arrays: pair keys, pair counts, and a count per
 * vaccine and per event.
 */
import type { QuarterIndex } from '../spec/quarter.js';

/** Quarters in a window (DESIGN.md: window q covers q-3..q). */
export const WINDOW_QUARTERS = 4;

/** A report as counting needs it: its quarter and distinct vaccine and event indexes. */
export interface CountableReport {
  quarter: QuarterIndex;
  vaccines: readonly number[];
  events: readonly number[];
}

/**
 * Counts of one quarter. A pair is keyed `vaccine * nEvents + event`; `keys` ascend.
 * `nVaccine[v]` / `nEvent[e]` are reports naming vaccine v / event e; `reports` is N.
 */
export interface QuarterCounts {
  quarter: QuarterIndex;
  keys: Float64Array;
  n: Int32Array;
  nVaccine: Int32Array;
  nEvent: Int32Array;
  reports: number;
}

/** Per-quarter counts of a whole history, quarters ascending (only quarters with reports). */
export interface HistoryCounts {
  nVaccines: number;
  nEvents: number;
  quarters: QuarterCounts[];
  /** Reports counted (after `scale` replays). */
  reports: number;
  /** Replays of the real reports (`--scale`, benchmarks only); 1 for a real build. */
  scale: number;
  /** Quarters the history is shifted by per replay (the span of the real history); 0 when scale is 1. */
  shift: number;
}

/**
 * Counts reports per quarter.
 * `scale` K (benchmarks only, `--scale`): the reports are replayed K times, replay k with its
 * quarter shifted by k whole spans of the history (span = last - first + 1 quarters), so the
 * synthetic history is K times longer and holds K times the reports; each replayed report counts
 * as a distinct report (a fresh id).
 * @throws Error when a report names a vaccine or event index outside the vocabulary.
 */
export function countQuarters(
  reports: readonly CountableReport[],
  nVaccines: number,
  nEvents: number,
  options: { scale?: number; onProgress?: (done: number, total: number) => void } = {},
): HistoryCounts {
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`countQuarters: scale must be a whole number >= 1, got ${scale}`);
  const order = Array.from(reports.keys()).sort((i, j) => reports[i].quarter - reports[j].quarter);
  const first = order.length > 0 ? reports[order[0]].quarter : 0;
  const last = order.length > 0 ? reports[order[order.length - 1]].quarter : -1;
  const shift = scale > 1 ? last - first + 1 : 0;
  const quarters: QuarterCounts[] = [];
  const total = order.length * scale;
  let done = 0;
  for (let replay = 0; replay < scale; replay++) {
    let start = 0;
    while (start < order.length) {
      const quarter = reports[order[start]].quarter;
      let end = start;
      const pairs = new Map<number, number>();
      const nVaccine = new Int32Array(nVaccines);
      const nEvent = new Int32Array(nEvents);
      while (end < order.length && reports[order[end]].quarter === quarter) {
        const report = reports[order[end]];
        for (const v of report.vaccines) {
          if (!(v >= 0 && v < nVaccines)) throw new Error(`countQuarters: vaccine index ${v} outside 0..${nVaccines - 1}`);
          nVaccine[v]++;
          const base = v * nEvents;
          for (const e of report.events) pairs.set(base + e, (pairs.get(base + e) ?? 0) + 1);
        }
        for (const e of report.events) {
          if (!(e >= 0 && e < nEvents)) throw new Error(`countQuarters: event index ${e} outside 0..${nEvents - 1}`);
          nEvent[e]++;
        }
        end++;
      }
      const keys = Float64Array.from(pairs.keys()).sort();
      const n = new Int32Array(keys.length);
      for (let i = 0; i < keys.length; i++) n[i] = pairs.get(keys[i])!;
      quarters.push({ quarter: quarter + replay * shift, keys, n, nVaccine, nEvent, reports: end - start });
      done += end - start;
      options.onProgress?.(done, total);
      start = end;
    }
  }
  return { nVaccines, nEvents, quarters, reports: total, scale, shift };
}

/** Inputs of one window, pairs with n >= 1 in ascending key order (a `WindowInput` plus keys). */
export interface WindowCounts {
  /** Quarter that ends the window. */
  quarter: QuarterIndex;
  /** Quarters of the window that hold reports (1..4; fewer than 4 at the start of the history or after a gap). */
  quartersWithData: number;
  keys: Float64Array;
  n: Float64Array;
  n_vaccine: Float64Array;
  n_event: Float64Array;
  n_reports: number;
}

function mergeSorted(aKeys: Float64Array, aN: Float64Array, bKeys: Float64Array, bN: ArrayLike<number>): [Float64Array, Float64Array] {
  const keys = new Float64Array(aKeys.length + bKeys.length);
  const n = new Float64Array(keys.length);
  let i = 0, j = 0, k = 0;
  while (i < aKeys.length || j < bKeys.length) {
    if (j >= bKeys.length || (i < aKeys.length && aKeys[i] < bKeys[j])) {
      keys[k] = aKeys[i]; n[k++] = aN[i++];
    } else if (i >= aKeys.length || bKeys[j] < aKeys[i]) {
      keys[k] = bKeys[j]; n[k++] = bN[j++];
    } else {
      keys[k] = aKeys[i]; n[k++] = aN[i++] + bN[j++];
    }
  }
  return [keys.slice(0, k), n.slice(0, k)];
}

/**
 * Counts of the window ending at quarter `quarter` (quarters quarter-3..quarter): sums of the
 * quarters' pair counts and margins. `byQuarter` maps a quarter index to its counts.
 * @returns null when no quarter of the window holds reports.
 */
export function windowCounts(history: HistoryCounts, byQuarter: ReadonlyMap<QuarterIndex, QuarterCounts>, quarter: QuarterIndex): WindowCounts | null {
  let keys: Float64Array = new Float64Array(0);
  let n: Float64Array = new Float64Array(0);
  const nVaccine = new Float64Array(history.nVaccines);
  const nEvent = new Float64Array(history.nEvents);
  let reports = 0;
  let quartersWithData = 0;
  for (let q = quarter - WINDOW_QUARTERS + 1; q <= quarter; q++) {
    const counts = byQuarter.get(q);
    if (!counts) continue;
    quartersWithData++;
    [keys, n] = mergeSorted(keys, n, counts.keys, counts.n);
    for (let v = 0; v < nVaccine.length; v++) nVaccine[v] += counts.nVaccine[v];
    for (let e = 0; e < nEvent.length; e++) nEvent[e] += counts.nEvent[e];
    reports += counts.reports;
  }
  if (quartersWithData === 0) return null;
  const pairVaccine = new Float64Array(keys.length);
  const pairEvent = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const v = Math.floor(keys[i] / history.nEvents);
    pairVaccine[i] = nVaccine[v];
    pairEvent[i] = nEvent[keys[i] - v * history.nEvents];
  }
  return { quarter, quartersWithData, keys, n, n_vaccine: pairVaccine, n_event: pairEvent, n_reports: reports };
}
