/**
 * Counting, the one module that turns per-report sets into counts (docs/design.md "Data flow" ->
 * counts; "Statistics, precisely"): per quarter of `RECVDATE`, the number of distinct reports
 * naming each (vaccine, event) pair, and the margins `n_vaccine`, `n_event` and `N` (reports
 * naming >= 1 vaccine and >= 1 event). Every report is in exactly one quarter, so the counts of
 * the 4-quarter window ending at quarter q are the sums of the counts of quarters q-3..q
 * (`windowCounts`). The build counts the VAERS history with it; `score` counts one report
 * table as a single quarter.
 *
 * Stratified expected counts (DuMouchel 1999, section 2; openEBGM `processRaw(stratify =
 * TRUE)`): when reports carry a stratum, each quarter also keeps the margins per stratum, and
 * a window's expected count of a pair is `E = sum_s n_vaccine,s * n_event,s / N_s` over the
 * strata s of the window's reports.
 *
 * Memory: quarters are counted one at a time (reports are visited in quarter order), and each
 * finished quarter is kept as sorted typed arrays: pair keys, pair counts, and a count per
 * vaccine and per event (per stratum: only the vaccines and events it names).
 */
import { WINDOW_QUARTERS, type QuarterIndex } from '../../domain/quarter.js';


/**
 * A report as counting needs it: its quarter and distinct vaccine and event indexes. Its pairs
 * are every vaccine x every event (a VAERS report), unless `pairs` lists them (a row-level
 * table such as openEBGM's raw data, where a report's rows name the pairs). `stratum` (0..,
 * only with `countQuarters`' `strata` option) is the report's stratum for stratified E.
 */
export interface CountableReport {
  quarter: QuarterIndex;
  vaccines: readonly number[];
  events: readonly number[];
  /** Distinct pair keys `vaccine * nEvents + event`; absent: the cross product. */
  pairs?: readonly number[];
  /** Stratum index, 0 <= stratum < strata (ignored without the `strata` option). */
  stratum?: number;
}

/**
 * Margins of one stratum in one quarter, sparse: the vaccines (events) its reports name, in
 * ascending index order, with their report counts; `reports` is N_s.
 */
export interface StratumCounts {
  stratum: number;
  reports: number;
  vaccines: Int32Array;
  nVaccine: Int32Array;
  events: Int32Array;
  nEvent: Int32Array;
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
  /** Per stratum present in the quarter (ascending), when counted with strata. */
  strata?: StratumCounts[];
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
  /** Number of strata when counted with strata (stratified E), else 0. */
  strata: number;
}

/** Options of {@link countQuarters}. */
export interface CountOptions {
  /**
   * Benchmarks only (`--scale`): the reports are replayed K times, replay k with its quarter
   * shifted by k whole spans of the history (span = last - first + 1 quarters), so the synthetic
   * history is K times longer and holds K times the reports; each replay counts as distinct reports.
   */
  scale?: number;
  /** Count margins per stratum too (stratified E): the number of strata; reports carry `stratum`. */
  strata?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Counts reports per quarter.
 * @throws Error when a report names a vaccine, event or stratum index outside its range.
 */
export function countQuarters(
  reports: readonly CountableReport[],
  nVaccines: number,
  nEvents: number,
  options: CountOptions = {},
): HistoryCounts {
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`countQuarters: scale must be a whole number >= 1, got ${scale}`);
  const strata = options.strata ?? 0;
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
      while (end < order.length && reports[order[end]].quarter === quarter) end++;
      const counted = countQuarter(order.slice(start, end).map((i) => reports[i]), nVaccines, nEvents, strata);
      quarters.push({ ...counted, quarter: quarter + replay * shift });
      done += end - start;
      options.onProgress?.(done, total);
      start = end;
    }
  }
  return { nVaccines, nEvents, quarters, reports: total, scale, shift, strata };
}

function checkIndex(what: string, index: number, size: number): void {
  if (!(Number.isInteger(index) && index >= 0 && index < size)) throw new Error(`countQuarters: ${what} index ${index} outside 0..${size - 1}`);
}

/** The counts of the reports of one quarter (`quarter` left 0 for the caller to set). */
function countQuarter(reports: readonly CountableReport[], nVaccines: number, nEvents: number, strata: number): QuarterCounts {
  const pairs = new Map<number, number>();
  const nVaccine = new Int32Array(nVaccines);
  const nEvent = new Int32Array(nEvents);
  const byStratum = new Map<number, { reports: number; vaccines: Map<number, number>; events: Map<number, number> }>();
  for (const report of reports) {
    for (const v of report.vaccines) {
      checkIndex('vaccine', v, nVaccines);
      nVaccine[v]++;
    }
    for (const e of report.events) {
      checkIndex('event', e, nEvents);
      nEvent[e]++;
    }
    if (report.pairs) {
      for (const key of report.pairs) pairs.set(key, (pairs.get(key) ?? 0) + 1);
    } else {
      for (const v of report.vaccines) {
        const base = v * nEvents;
        for (const e of report.events) pairs.set(base + e, (pairs.get(base + e) ?? 0) + 1);
      }
    }
    if (strata > 0) {
      const s = report.stratum ?? 0;
      checkIndex('stratum', s, strata);
      let margins = byStratum.get(s);
      if (!margins) byStratum.set(s, (margins = { reports: 0, vaccines: new Map(), events: new Map() }));
      margins.reports++;
      for (const v of report.vaccines) margins.vaccines.set(v, (margins.vaccines.get(v) ?? 0) + 1);
      for (const e of report.events) margins.events.set(e, (margins.events.get(e) ?? 0) + 1);
    }
  }
  const keys = Float64Array.from(pairs.keys()).sort();
  const n = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) n[i] = pairs.get(keys[i])!;
  const counts: QuarterCounts = { quarter: 0, keys, n, nVaccine, nEvent, reports: reports.length };
  if (strata > 0) {
    counts.strata = [...byStratum.keys()].sort((a, b) => a - b).map((stratum) => {
      const m = byStratum.get(stratum)!;
      const [vaccines, nV] = sparse(m.vaccines);
      const [events, nE] = sparse(m.events);
      return { stratum, reports: m.reports, vaccines, nVaccine: nV, events, nEvent: nE };
    });
  }
  return counts;
}

/** A count map as ascending index and count arrays. */
function sparse(map: Map<number, number>): [Int32Array, Int32Array] {
  const index = Int32Array.from(map.keys()).sort();
  return [index, Int32Array.from(index, (i) => map.get(i)!)];
}

/** Inputs of one window, pairs with n >= 1 in ascending key order (a `WindowInput` plus keys). */
export interface WindowCounts {
  /** Quarter that ends the window. */
  quarter: QuarterIndex;
  /** Quarters of the window that hold reports (1..4; fewer than 4 at the start of the history or after a gap). */
  quartersWithData: number;
  /** The window's pairs with n >= 1 (more than `keys` holds when windowCounts was given `keep`). */
  pairs: number;
  keys: Float64Array;
  n: Float64Array;
  n_vaccine: Float64Array;
  n_event: Float64Array;
  n_reports: number;
  /** Stratified expected count per pair (`sum_s n_vaccine,s * n_event,s / N_s`), when counted with strata. */
  expected?: Float64Array;
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

/** The keys (and their counts) that `keep` keeps, in their order. */
function kept(keys: Float64Array, n: Float64Array, keep: (key: number) => boolean): [Float64Array, Float64Array] {
  const at: number[] = [];
  for (let i = 0; i < keys.length; i++) if (keep(keys[i])) at.push(i);
  return [Float64Array.from(at, (i) => keys[i]), Float64Array.from(at, (i) => n[i])];
}

/**
 * Counts of the window ending at quarter `quarter` (quarters quarter-3..quarter): sums of the
 * quarters' pair counts and margins. `byQuarter` maps a quarter index to its counts. With `keep`,
 * only the pairs whose key it keeps (the build's rows pass: the stored pairs), each with the same
 * values as without it (a pair's margins and stratified E do not depend on the other pairs), the
 * others' margins and E not computed; `pairs` still counts every pair of the window.
 * @returns null when no quarter of the window holds reports.
 */
export function windowCounts(history: HistoryCounts, byQuarter: ReadonlyMap<QuarterIndex, QuarterCounts>, quarter: QuarterIndex, keep?: (key: number) => boolean): WindowCounts | null {
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
  const pairs = keys.length;
  if (keep) [keys, n] = kept(keys, n, keep);
  const pairVaccine = new Float64Array(keys.length);
  const pairEvent = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const v = Math.floor(keys[i] / history.nEvents);
    pairVaccine[i] = nVaccine[v];
    pairEvent[i] = nEvent[keys[i] - v * history.nEvents];
  }
  const counts: WindowCounts = { quarter, quartersWithData, pairs, keys, n, n_vaccine: pairVaccine, n_event: pairEvent, n_reports: reports };
  if (history.strata > 0) counts.expected = stratifiedExpected(history, byQuarter, quarter, keys);
  return counts;
}

/**
 * Stratified expected counts of the window ending at `quarter` (DuMouchel 1999, section 2):
 * per pair `E = sum_s n_vaccine,s * n_event,s / N_s`, the margins of each stratum summed over
 * the window's quarters. A stratum contributes only where it names both the vaccine and the
 * event. Summed in ascending stratum order, so the result does not depend on quarter order.
 */
function stratifiedExpected(history: HistoryCounts, byQuarter: ReadonlyMap<QuarterIndex, QuarterCounts>, quarter: QuarterIndex, keys: Float64Array): Float64Array {
  const margins = new Map<number, { reports: number; nVaccine: Map<number, number>; nEvent: Map<number, number> }>();
  for (let q = quarter - WINDOW_QUARTERS + 1; q <= quarter; q++) {
    for (const s of byQuarter.get(q)?.strata ?? []) {
      let m = margins.get(s.stratum);
      if (!m) margins.set(s.stratum, (m = { reports: 0, nVaccine: new Map(), nEvent: new Map() }));
      m.reports += s.reports;
      s.vaccines.forEach((v, i) => m.nVaccine.set(v, (m.nVaccine.get(v) ?? 0) + s.nVaccine[i]));
      s.events.forEach((e, i) => m.nEvent.set(e, (m.nEvent.get(e) ?? 0) + s.nEvent[i]));
    }
  }
  const expected = new Float64Array(keys.length);
  const vaccineOf = Int32Array.from(keys, (key) => Math.floor(key / history.nEvents));
  const nv = new Float64Array(history.nVaccines);
  const ne = new Float64Array(history.nEvents);
  for (const stratum of [...margins.keys()].sort((a, b) => a - b)) {
    const m = margins.get(stratum)!;
    nv.fill(0);
    ne.fill(0);
    for (const [v, count] of m.nVaccine) nv[v] = count;
    for (const [e, count] of m.nEvent) ne[e] = count;
    for (let i = 0; i < keys.length; i++) {
      const v = vaccineOf[i];
      if (nv[v] === 0) continue;
      expected[i] += (nv[v] * ne[keys[i] - v * history.nEvents]) / m.reports;
    }
  }
  return expected;
}
