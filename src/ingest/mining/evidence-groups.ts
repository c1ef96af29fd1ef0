/**
 * The grouping behind the triage evidence (evidence-step.ts): per quarter, the reports of the
 * analysis (its subset mask) grouped once (`quarterGroups`): the wanted pairs' report lists, the
 * onsets per vaccine and per event (counts per day), the reports by vaccine type (the co-reported
 * type, evidence-links.ts `countTypes`) and each vaccine's dated reports and latest VAX_DATE.
 * A window (quarters q-3..q) reads its four quarters' groupings (`WindowGroups`): a pair's reports
 * are the quarters' lists concatenated in quarter order (each list ascends by report index, so
 * the window's list is the one a grouping of the window's reports would give), every count is
 * the sum of the quarters' counts, the latest date their maximum. Every value is a whole number,
 * so the window's figures are exactly those of grouping its reports directly.
 *
 * `ChunkGrouping` keeps the groupings of the quarters a chunk of consecutive windows needs
 * (passes.ts CHUNK_WINDOWS): each quarter is grouped once per chunk instead of once per window
 * that covers it (11 groupings for 8 windows instead of 32), and a quarter is let go once the
 * windows have passed it (windows ascending), so memory holds about four quarters' groupings.
 */
import { WINDOW_QUARTERS, type QuarterIndex } from '../../domain/quarter.js';
import { onsetCounts } from './evidence.js';
import { countTypes, typeCounts, type CountLookup, type TypeCounts, type TypeCountsView, type VaccineLists } from './evidence-links.js';

/** What the grouping reads of the evidence tables (evidence-step.ts EvidenceTables). */
export interface GroupingTables extends VaccineLists {
  eventStart: Int32Array;
  events: Int32Array;
  nTypes: number;
  /** Per report: onset days 0..60, -1 when null. */
  onsetDays: Int8Array;
  /** Per report: VAX_DATE (yyyymmdd, 0 unknown). */
  vaxDate: Int32Array;
}

/** One quarter's grouping of an analysis's reports (quarterGroups). */
export interface QuarterGroups {
  /** Wanted pair key -> its reports in the quarter (ascending report index). */
  pairReports: Map<number, number[]>;
  /** Vaccine item -> its reports' onsets (counts per day), and the same per event item. */
  vaccineOnsets: Map<number, Int32Array>;
  eventOnsets: Map<number, Int32Array>;
  /** Reports by vaccine type; the two-type counts only for the `typeEvents` of quarterGroups. */
  types: TypeCounts;
  /** Per vaccine item: the latest VAX_DATE (yyyymmdd) of its reports, and how many have one. */
  lastVaxDate: Map<number, number>;
  datedReports: Map<number, number>;
}

function count(map: Map<number, Int32Array>, key: number, day: number): void {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = onsetCounts([])));
  counts[day]++;
}

/** Appends `value` to the list of `key`. */
export function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Groups `reports` (one quarter's report indexes, ascending) kept by `mask` (1 kept): pairs
 * restricted to the `wanted` keys (`v * nEvents + e`), the two-type counts to the events of `typeEvents`.
 */
export function quarterGroups(t: GroupingTables, reports: Iterable<number>, mask: Uint8Array, wanted: ReadonlySet<number>, typeEvents: ReadonlySet<number>): QuarterGroups {
  const groups: QuarterGroups = {
    pairReports: new Map(), vaccineOnsets: new Map(), eventOnsets: new Map(), types: typeCounts(typeEvents), lastVaxDate: new Map(), datedReports: new Map(),
  };
  for (const r of reports) {
    if (!mask[r]) continue;
    const onset = t.onsetDays[r];
    countTypes(t, groups.types, r, t.nTypes);
    for (let a = t.vaccineStart[r]; a < t.vaccineStart[r + 1]; a++) {
      const v = t.vaccines[a];
      if (onset >= 0) count(groups.vaccineOnsets, v, onset);
      if (t.vaxDate[r] > 0) {
        groups.datedReports.set(v, (groups.datedReports.get(v) ?? 0) + 1);
        if (t.vaxDate[r] > (groups.lastVaxDate.get(v) ?? 0)) groups.lastVaxDate.set(v, t.vaxDate[r]);
      }
      for (let b = t.eventStart[r]; b < t.eventStart[r + 1]; b++) {
        const key = v * t.nEvents + t.events[b];
        if (wanted.has(key)) push(groups.pairReports, key, r);
      }
    }
    if (onset >= 0) for (let b = t.eventStart[r]; b < t.eventStart[r + 1]; b++) count(groups.eventOnsets, t.events[b], onset);
  }
  return groups;
}

const NO_REPORTS: readonly number[] = Object.freeze([]);

/** A count summed over several quarters' maps (undefined when none holds the key). */
class SummedCounts implements CountLookup {
  constructor(private readonly maps: ReadonlyArray<ReadonlyMap<number, number>>) {}

  get(key: number): number | undefined {
    let sum: number | undefined;
    for (const map of this.maps) {
      const value = map.get(key);
      if (value !== undefined) sum = (sum ?? 0) + value;
    }
    return sum;
  }
}

/**
 * A window's grouping read over its quarters' groupings (quarters ascending): the same figures
 * as grouping the window's reports at once (module header).
 */
export class WindowGroups {
  /** Reports by vaccine type over the window (for evidence-links.ts coReportedType). */
  readonly types: TypeCountsView;
  private readonly reports = new Map<number, readonly number[]>();
  private readonly onsetsOf = { vaccine: new Map<number, Int32Array | null>(), event: new Map<number, Int32Array | null>() };

  constructor(private readonly quarters: readonly QuarterGroups[]) {
    const over = (pick: (q: QuarterGroups) => ReadonlyMap<number, number>): SummedCounts => new SummedCounts(quarters.map(pick));
    this.types = { type: over((q) => q.types.type), typeEvent: over((q) => q.types.typeEvent), typeType: over((q) => q.types.typeType), typeTypeEvent: over((q) => q.types.typeTypeEvent) };
  }

  /** The window's reports of wanted pair `key`, ascending by quarter then report index ([] for none). */
  pairReports(key: number): readonly number[] {
    let list = this.reports.get(key);
    if (!list) {
      const parts: number[][] = [];
      for (const q of this.quarters) {
        const part = q.pairReports.get(key);
        if (part) parts.push(part);
      }
      // One quarter's list as it is (read only), several joined by the native concat.
      list = parts.length === 0 ? NO_REPORTS : parts.length === 1 ? parts[0] : parts[0].concat(...parts.slice(1));
      this.reports.set(key, list);
    }
    return list;
  }

  /** Onsets (counts per day) of the window's reports naming vaccine item `v`; undefined when none has an onset. */
  vaccineOnsets(v: number): Int32Array | undefined {
    return this.summedOnsets(this.onsetsOf.vaccine, v, (q) => q.vaccineOnsets);
  }

  /** Onsets (counts per day) of the window's reports naming event item `e`; undefined when none has an onset. */
  eventOnsets(e: number): Int32Array | undefined {
    return this.summedOnsets(this.onsetsOf.event, e, (q) => q.eventOnsets);
  }

  /** The latest VAX_DATE (yyyymmdd) of the window's reports naming vaccine item `v`; undefined when none has one. */
  lastVaxDate(v: number): number | undefined {
    let latest: number | undefined;
    for (const q of this.quarters) {
      const date = q.lastVaxDate.get(v);
      if (date !== undefined && date > (latest ?? 0)) latest = date;
    }
    return latest;
  }

  /** The window's reports naming vaccine item `v` with a VAX_DATE. */
  datedReports(v: number): number {
    let sum = 0;
    for (const q of this.quarters) sum += q.datedReports.get(v) ?? 0;
    return sum;
  }

  private summedOnsets(memo: Map<number, Int32Array | null>, item: number, of: (q: QuarterGroups) => Map<number, Int32Array>): Int32Array | undefined {
    let summed = memo.get(item);
    if (summed === undefined) {
      summed = null;
      for (const q of this.quarters) {
        const counts = of(q).get(item);
        if (!counts) continue;
        summed ??= onsetCounts([]);
        for (let d = 0; d < counts.length; d++) summed[d] += counts[d];
      }
      memo.set(item, summed);
    }
    return summed ?? undefined;
  }
}

/**
 * The groupings of the quarters a chunk of windows needs, each quarter grouped once (module
 * header): `reportsOf(quarter)` lists a quarter's report indexes (ascending), `mask` keeps the
 * analysis's reports, `wanted` holds every pair key any of the chunk's windows asks for and
 * `typeEvents` every event whose two-type counts any of them reads (supersets of each window's:
 * a window reads only its own keys and events, so its figures do not depend on the others').
 */
export class ChunkGrouping {
  private readonly grouped = new Map<QuarterIndex, QuarterGroups>();

  constructor(
    private readonly tables: GroupingTables,
    private readonly reportsOf: (quarter: QuarterIndex) => Iterable<number>,
    private readonly mask: Uint8Array,
    private readonly wanted: ReadonlySet<number>,
    private readonly typeEvents: ReadonlySet<number>,
  ) {}

  /**
   * The grouping of the window ending at quarter `q` (quarters q-3..q). Quarters before q-3 are
   * let go: ask for the windows in ascending order (any order gives the same figures, an earlier
   * window after a later one only groups its quarters again).
   */
  window(q: QuarterIndex): WindowGroups {
    const first = q - WINDOW_QUARTERS + 1;
    for (const quarter of this.grouped.keys()) if (quarter < first) this.grouped.delete(quarter);
    const quarters: QuarterGroups[] = [];
    for (let quarter = first; quarter <= q; quarter++) {
      let groups = this.grouped.get(quarter);
      if (!groups) this.grouped.set(quarter, (groups = quarterGroups(this.tables, this.reportsOf(quarter), this.mask, this.wanted, this.typeEvents)));
      quarters.push(groups);
    }
    return new WindowGroups(quarters);
  }
}
