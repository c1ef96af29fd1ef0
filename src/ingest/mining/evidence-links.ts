/**
 * The triage evidence that links a pair to the window's other pairs (computed where the rows are
 * scored, a worker thread of the build, from the pairs' EB05 and flags in the window):
 * - the co-reported type (`co_vaccine`, `co_share`, `co_type_event`, `co_type_reports`,
 *   `co_own_event`, `co_own_reports`, `co_products`): another vaccine type (VAX_TYPE: every DTaP
 *   brand together) named on at least CO_REPORTED_SHARE of the pair's reports, with which the
 *   event is more frequent without the vaccine's own type than with the own type without it:
 *   the "innocent bystander" pattern of co-administered vaccines (POLIOVAX x Intussusception in
 *   1999Q3: 54 of its 56 reports also name ROTASHIELD; POLIOVAX x Screaming: DTaP, split over
 *   TRIPEDIA and ACEL-IMUNE);
 * - the related pairs (`related_events`): two pairs of one vaccine, both flagged in the window,
 *   with their overlap (shared reports / the smaller pair's reports, the Szymkiewicz-Simpson
 *   coefficient) when at least RELATED_STORED; GET /triage folds them as one signal told in
 *   several terms from RELATED_OVERLAP.
 * Thresholds: src/domain/triage-evidence.ts.
 */
import { CO_REPORTED_SHARE, RELATED_STORED } from '../../domain/triage-evidence.js';

/** What the co-reported type needs of the evidence tables (evidence-step.ts EvidenceTables): the reports' vaccine items and VAX_TYPE codes. */
export interface VaccineLists {
  vaccineStart: Int32Array;
  vaccines: Int32Array;
  nEvents: number;
  /** Report i's VAX_TYPE codes (indexes into the build's type names) are `types[typeStart[i] .. typeStart[i + 1] - 1]`, distinct. */
  typeStart: Int32Array;
  types: Int32Array;
  /** Per vaccine item: its own type (a product's VAX_TYPE code, a code's itself), -1 unknown. */
  itemType: Int32Array;
  /** Whether the vaccine items are the types themselves (an analysis `@types`): then no products are listed. */
  itemsAreTypes: boolean;
}

/** A window's scores of its pairs as the links need them: EB05 (NaN null) and whether GET /triage takes the row (1 or 0). */
export interface PairScores {
  eb05: Float64Array;
  flagged: Uint8Array;
}

/** What a window's pairs link to: per pair (keys order) its co-reported type, and the related pairs as triples. */
export interface WindowLinks {
  /** Per pair: the co-reported type's index (into the build's type names), -1 for none. */
  coVaccine: Int32Array;
  /** Triples (j, item, reports): the products of pair j's co-reported type on its reports. */
  coProducts: Float64Array;
  /** Triples (j, k, overlap): pair k (keys index) is related to pair j; each related couple both ways. */
  related: Float64Array;
}

/** Whether pair j is flagged in the window as GET /triage takes it (flags.ts: eb05 >= 2 or two methods). */
export type Flagged = ArrayLike<number>;

/**
 * A window's report counts by vaccine type (countTypes): reports per type, per type and event,
 * per two types, and per two types and an event of `events` (the flagged pairs' events; keys
 * `(t * nTypes + u) * nEvents + e`).
 */
export interface TypeCounts {
  type: Map<number, number>;
  typeEvent: Map<number, number>;
  typeType: Map<number, number>;
  typeTypeEvent: Map<number, number>;
  /** The events whose two-type counts are kept. */
  events: ReadonlySet<number>;
}

/** A count looked up by key (a Map, or a sum over several: evidence-groups.ts); undefined for none. */
export interface CountLookup {
  get(key: number): number | undefined;
}

/** The type counts as coReportedType reads them (TypeCounts, or a window's sum of its quarters'). */
export interface TypeCountsView {
  type: CountLookup;
  typeEvent: CountLookup;
  typeType: CountLookup;
  typeTypeEvent: CountLookup;
}

/** Empty type counts keeping the two-type counts of `events`. */
export function typeCounts(events: ReadonlySet<number>): TypeCounts {
  return { type: new Map(), typeEvent: new Map(), typeType: new Map(), typeTypeEvent: new Map(), events };
}

const bump = (map: Map<number, number>, key: number): void => void map.set(key, (map.get(key) ?? 0) + 1);

/** Adds report r (its types and events) to a window's type counts; `nTypes` numbers the types. */
export function countTypes(t: VaccineLists & { eventStart: Int32Array; events: Int32Array }, counts: TypeCounts, r: number, nTypes: number): void {
  for (let a = t.typeStart[r]; a < t.typeStart[r + 1]; a++) {
    const type = t.types[a];
    bump(counts.type, type);
    for (let b = t.eventStart[r]; b < t.eventStart[r + 1]; b++) bump(counts.typeEvent, type * t.nEvents + t.events[b]);
    for (let c = t.typeStart[r]; c < t.typeStart[r + 1]; c++) {
      if (c === a) continue;
      const two = type * nTypes + t.types[c];
      bump(counts.typeType, two);
      for (let b = t.eventStart[r]; b < t.eventStart[r + 1]; b++) if (counts.events.has(t.events[b])) bump(counts.typeTypeEvent, two * t.nEvents + t.events[b]);
    }
  }
}

/** The co-reported type of each pair (coReportedType), with its figures; NaN for none. */
export interface CoReported {
  coVaccine: Int32Array;
  coShare: Float64Array;
  /** Reports naming the co-reported type and the event but not the vaccine's own type, and naming the co-reported type but not the own type. */
  typeEvent: Float64Array;
  typeReports: Float64Array;
  /** Reports naming the vaccine's own type and the event but not the co-reported type, and naming the own type but not the co-reported one. */
  ownEvent: Float64Array;
  ownReports: Float64Array;
  /** Triples (j, item, reports): the products of the type on pair j's reports. */
  products: Float64Array;
}

/**
 * The co-reported type of each flagged pair (`flagged[j]` 1; docs/triage.md `co_reported`): among
 * the VAX_TYPE codes T other than the vaccine's own type U named on at least CO_REPORTED_SHARE
 * of its reports, those with which the event is more frequent: its rate on the window's reports
 * naming T but not U is above its rate on the reports naming U but not T (types on both sides,
 * so that a type split over brands is counted whole and only one direction of two co-reported
 * types can hold); the one with the highest such rate, with its share and the four counts. A
 * vaccine without a known type has none. `counts` are the window's (countTypes), `nTypes` the
 * number of types.
 * Example: POLIOVAX (IPV) x Screaming with DTAP on 59 of its 85 reports: Screaming on the DTAP
 * reports without IPV at a higher rate than on the IPV reports without DTAP: DTAP, 59/85.
 */
export function coReportedType(
  t: VaccineLists, keys: ArrayLike<number>, reportsOf: (j: number) => readonly number[], counts: TypeCountsView, nTypes: number, flagged?: Flagged,
): CoReported {
  const none = (): Float64Array => new Float64Array(keys.length).fill(Number.NaN);
  const out: CoReported = { coVaccine: new Int32Array(keys.length).fill(-1), coShare: none(), typeEvent: none(), typeReports: none(), ownEvent: none(), ownReports: none(), products: new Float64Array(0) };
  const products: number[] = [];
  const get = (map: CountLookup, key: number): number => map.get(key) ?? 0;
  for (let j = 0; j < keys.length; j++) {
    if (flagged && !flagged[j]) continue;
    const reports = reportsOf(j);
    const v = Math.floor(keys[j] / t.nEvents), e = keys[j] - v * t.nEvents;
    const own = t.itemType[v];
    if (reports.length === 0 || own < 0) continue;
    const shared = new Map<number, number>();
    for (const r of reports) for (let a = t.typeStart[r]; a < t.typeStart[r + 1]; a++) if (t.types[a] !== own) bump(shared, t.types[a]);
    let best = -1, bestRate = -1;
    for (const [type, count] of shared) {
      if (count / reports.length < CO_REPORTED_SHARE) continue;
      const both = get(counts.typeType, type * nTypes + own), bothEvent = get(counts.typeTypeEvent, (type * nTypes + own) * t.nEvents + e);
      const typeReports = get(counts.type, type) - both, typeEvent = get(counts.typeEvent, type * t.nEvents + e) - bothEvent;
      const ownReports = get(counts.type, own) - both, ownEvent = get(counts.typeEvent, own * t.nEvents + e) - bothEvent;
      if (typeReports <= 0) continue;
      const typeRate = typeEvent / typeReports, ownRate = ownReports > 0 ? ownEvent / ownReports : 0;
      if (typeRate <= ownRate || typeRate <= bestRate) continue;
      best = type;
      bestRate = typeRate;
      out.coShare[j] = count / reports.length;
      out.typeEvent[j] = typeEvent;
      out.typeReports[j] = typeReports;
      out.ownEvent[j] = ownEvent;
      out.ownReports[j] = ownReports;
    }
    if (best < 0) continue;
    out.coVaccine[j] = best;
    if (t.itemsAreTypes) continue;
    const named = new Map<number, number>();
    for (const r of reports) {
      for (let a = t.vaccineStart[r]; a < t.vaccineStart[r + 1]; a++) if (t.vaccines[a] !== v && t.itemType[t.vaccines[a]] === best) bump(named, t.vaccines[a]);
    }
    for (const [item, n] of named) products.push(j, item, n);
  }
  out.products = Float64Array.from(products);
  return out;
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
