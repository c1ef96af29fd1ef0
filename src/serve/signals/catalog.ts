/**
 * The served pairs in memory, with the indexes a request needs (docs/design.md: the pair aggregate
 * is computed once at load time, so a request never runs SQL; the store is closed after the
 * load and stays the source of truth).
 *
 * Built from one read of the store (src/serve/store/serving.ts `readServingData`: every quarterly
 * row as typed columns grouped by pair): each pair is aggregated (src/serve/signals/aggregate.ts) and
 * indexed by vaccine name, by vax_type and by VAERS `VAX_TYPE` code (both case-insensitive), by
 * event (exact, and lower-cased for substring search); one precomputed order per sort key and
 * direction (spec 4.1 sort/order: nulls last in both orders, ties by vaccine then event); the
 * JSON text of every Pair; and the quarterly columns of every pair for `format=series`.
 */
import { finiteOrNull } from '../../domain/columns.js';
import { formatQuarter, parseQuarter, type QuarterIndex } from '../../domain/quarter.js';
import { readServingData, type ServingRows } from '../store/serving.js';
import { NULL_INT as NULL_N, SeriesStore } from '../store/series-store.js';
import { vaxType as vaxTypeOfName } from '../../domain/vaccine-type.js';
import type { Pair } from './pair.js';
import { PairAccumulator } from './aggregate.js';
import { compareText, eventIndex, pushTo, vaccineIndex, vaxTypeIndex, type Vocabulary } from '../query/names.js';
import type { ItemKind } from '../../domain/analysis-rules.js';
import { ORDERS, SORT_KEYS, type SortKey } from './parameters.js';

/** Everything a request reads; immutable after `loadCatalog`. */
export interface Catalog extends Vocabulary {
  /** What the pairs' vaccine is: the product (`vaccine`) or the VAERS VAX_TYPE code (`vax_type`, whose vax_type is the code itself and whose long name matches too). */
  items: ItemKind;
  /** Served pairs (at least one quarter with n_methods_flagged >= 2), ordered by vaccine, event. */
  pairs: Pair[];
  /** Latest quarter in the data (spec 2.2 reports_through), or null for an empty store. */
  reportsThrough: string | null;
  /** Whether quarters carry `ic025` (spec 2.3). */
  hasIc025: boolean;
  /** Vaccine name -> pair ids. */
  pairsByVaccine: Map<string, number[]>;
  /** Event -> pair ids. */
  pairsByEvent: Map<string, number[]>;
  /** Vaccine name -> the VAERS VAX_TYPE codes seen with it (the store's `vaccines` table). */
  codesOf: ReadonlyMap<string, readonly string[]>;
  /** `${sort}:${order}` -> rank of each pair id (0 = first). */
  ranks: Map<string, Int32Array>;
  /** `${sort}:${order}` -> pair ids in that order. */
  orders: Map<string, Int32Array>;
  /** JSON text of each pair (spec 2.1 Pair, fields in table order), by pair id. */
  pairJson: string[];
  /** Quarterly rows of pair `id` are records `seriesFrom[id] .. seriesTo[id] - 1` of `series`, quarters ascending. */
  series: SeriesStore;
  seriesFrom: Int32Array;
  seriesTo: Int32Array;
}

/** Where a pair's quarterly rows lie in the series records (for indexPairs). */
export interface SeriesSpan {
  series: SeriesStore;
  from: Int32Array;
  to: Int32Array;
}

const EMPTY_SPAN: SeriesSpan = { series: SeriesStore.create(0), from: new Int32Array(0), to: new Int32Array(0) };



function sortValue(pair: Pair, key: SortKey): number | null {
  if (key === 'eb05') return pair.eb05;
  if (key === 'n') return pair.n;
  return parseQuarter(pair.latest_quarter);
}

function buildOrders(pairs: Pair[]): { ranks: Map<string, Int32Array>; orders: Map<string, Int32Array> } {
  const ranks = new Map<string, Int32Array>();
  const orders = new Map<string, Int32Array>();
  for (const key of SORT_KEYS) {
    const values = pairs.map((p) => sortValue(p, key));
    for (const order of ORDERS) {
      const sign = order === 'desc' ? -1 : 1;
      const ids = Int32Array.from(pairs.keys());
      // pairs are already ordered by vaccine, event: the id is the tie-break.
      ids.sort((a, b) => {
        const va = values[a];
        const vb = values[b];
        if (va === null || vb === null) return va === vb ? a - b : va === null ? 1 : -1;
        return va !== vb ? sign * (va - vb) : a - b;
      });
      const rank = new Int32Array(pairs.length);
      ids.forEach((id, i) => { rank[id] = i; });
      ranks.set(`${key}:${order}`, rank);
      orders.set(`${key}:${order}`, ids);
    }
  }
  return { ranks, orders };
}

/**
 * Reads the store file at `storePath` once (a lean read, no database kept open) and builds the
 * catalog.
 * @throws Error naming the file when it is missing or not a store.
 */
export async function loadCatalog(storePath: string, analysis?: string): Promise<Catalog> {
  const data = await readServingData(storePath, { analysis });
  return catalogFromRows(data, data.meta.analyses?.find((a) => a.name === analysis)?.items ?? 'vaccine');
}

/**
 * Aggregates and indexes the rows read from a store, whose pairs' vaccines are `items`
 * (products by default; VAX_TYPE codes: each pair's vax_type is its code).
 */
export function catalogFromRows(data: ServingRows, items: ItemKind = 'vaccine'): Catalog {
  const { meta, rows, start } = data;
  const vaxTypeOf = new Map<string, string>();
  const codesOf = new Map<string, string[]>();
  for (const v of items === 'vaccine' ? data.vaccines : []) {
    vaxTypeOf.set(v.vax_name, v.vax_type || vaxTypeOfName(v.vax_name));
    codesOf.set(v.vax_name, v.vax_type_codes ?? []);
  }
  let reportsThrough: QuarterIndex | null = meta.reports_through ? parseQuarter(meta.reports_through) : null;
  if (reportsThrough === null && rows.quarter.length > 0) reportsThrough = rows.quarter.reduce((a, b) => (b > a ? b : a), 0);

  const names = new Map<string, string>(); // one string per vaccine name (memory)
  const pairs: Pair[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let p = 0; p < data.drug.length; p++) {
    const acc = new PairAccumulator();
    for (let i = start[p]; i < start[p + 1]; i++) {
      const eb05 = rows.eb05[i];
      const ewma = rows.ewma_eb05[i];
      const n = rows.n[i];
      acc.addValues(rows.quarter[i], n === NULL_N ? 0 : n, finiteOrNull(eb05), finiteOrNull(ewma),
        rows.n_methods_flagged[i], rows.is_signal_any[i] === 1);
    }
    const drug = data.drug[p];
    const vaccine = names.get(drug) ?? (names.set(drug, drug), drug);
    let vaxType = vaxTypeOf.get(vaccine);
    if (vaxType === undefined) {
      vaxType = items === 'vax_type_code' ? vaccine : vaxTypeOfName(vaccine);
      vaxTypeOf.set(vaccine, vaxType);
    }
    const pair = acc.result(vaccine, vaxType, data.event[p], reportsThrough);
    if (!pair) continue;
    pairs.push(pair);
    from.push(start[p]);
    to.push(start[p + 1]);
  }
  return indexPairs(pairs, {
    reportsThrough: meta.reports_through ?? (reportsThrough === null ? null : formatQuarter(reportsThrough)),
    hasIc025: meta.has_ic025 !== false,
    vaxTypeOf,
    codesOf: items === 'vax_type_code' ? new Map([...vaxTypeOf.keys()].map((code) => [code, [code]])) : codesOf,
    items,
  }, { series: data.series, from: Int32Array.from(from), to: Int32Array.from(to) });
}

/** Builds the indexes over aggregated pairs (exported for tests). */
export function indexPairs(
  unsorted: Pair[],
  info: { reportsThrough: string | null; hasIc025: boolean; vaxTypeOf: Map<string, string>; codesOf: Map<string, string[]>; items?: ItemKind },
  span: SeriesSpan = EMPTY_SPAN,
): Catalog {
  const perm = Array.from(unsorted.keys()).sort((a, b) =>
    compareText(unsorted[a].vaccine, unsorted[b].vaccine) || compareText(unsorted[a].event, unsorted[b].event));
  const pairs = perm.map((i) => unsorted[i]);
  const seriesFrom = new Int32Array(pairs.length);
  const seriesTo = new Int32Array(pairs.length);
  if (span.from.length === unsorted.length) {
    perm.forEach((i, id) => {
      seriesFrom[id] = span.from[i];
      seriesTo[id] = span.to[i];
    });
  }
  const pairsByVaccine = new Map<string, number[]>();
  const pairsByEvent = new Map<string, number[]>();
  pairs.forEach((p, id) => {
    pushTo(pairsByVaccine, p.vaccine, id);
    pushTo(pairsByEvent, p.event, id);
  });
  const items = info.items ?? 'vaccine';
  return {
    items,
    pairs,
    reportsThrough: info.reportsThrough,
    hasIc025: info.hasIc025,
    ...(items === 'vax_type_code' ? vaxTypeIndex(pairsByVaccine.keys()) : vaccineIndex([...info.vaxTypeOf.keys(), ...pairsByVaccine.keys()], info.vaxTypeOf, info.codesOf)),
    ...eventIndex(pairsByEvent.keys()),
    pairsByVaccine,
    pairsByEvent,
    codesOf: info.codesOf,
    ...buildOrders(pairs),
    pairJson: pairs.map((p) => JSON.stringify(p)),
    series: span.series,
    seriesFrom,
    seriesTo,
  };
}
