/**
 * The reports of a store in memory, indexed for case series (the reports behind a query): the names as a
 * vocabulary for the one name matching (src/serve/query/names.ts), and per vaccine name and per
 * event term the reports naming it. Report indexes follow the store's order (newest RECVDATE
 * first, then VAERS_ID descending), so an ascending list of indexes is the listing's order.
 */
import { eventIndex, pushTo, vaccineIndex, vaxTypeIndex, type EventIndex, type Vocabulary } from '../query/names.js';
import type { NarrativeIndex } from '../narratives/index.js';
import type { CodedColumn, ReportData } from '../store/reports.js';
import { indexNarratives } from './narratives.js';

/** Reports and their indexes (immutable after `indexReports`). */
export interface ReportIndex {
  data: ReportData;
  vocabulary: Vocabulary;
  /** Vaccine name -> ascending report indexes naming it (each report once). */
  reportsByVaccine: Map<string, Int32Array>;
  /** Event term -> ascending report indexes naming it (each report once). */
  reportsByEvent: Map<string, Int32Array>;
  /** Per vaccine row (ReportData.vaccines order) the id of its name in `vaccineNames`; per event row the id of its term. */
  vaccineId: Int32Array;
  eventId: Int32Array;
  vaccineNames: string[];
  eventNames: string[];
  /** Name -> its id (the inverse of `vaccineNames` / `eventNames`). */
  vaccineIdOf: Map<string, number>;
  eventIdOf: Map<string, number>;
  /** The full-text index of the six narrative fields (ordinal = report index), or null when the store keeps no narratives. */
  narratives: NarrativeIndex | null;
  /** The same reports by VAERS VAX_TYPE code, for analyses whose items are codes ({@link TypeIndex}). */
  types: TypeIndex;
}

/**
 * The reports by VAERS `VAX_TYPE` code (each VAX row's own code), for the case series of an
 * analysis whose items are codes: the case series of code C is every report with a VAX row of
 * type C, whatever its product.
 */
export interface TypeIndex {
  /** The codes as vaccine names (each answering to its long name too) and the events: what matching reads. */
  vocabulary: Vocabulary;
  /** Code -> ascending report indexes with a VAX row of that code (each report once). */
  reportsByCode: Map<string, Int32Array>;
  /** Code -> the products (VAX_NAME) of the rows carrying it, sorted. */
  productsOf: Map<string, string[]>;
}

/** Distinct ascending report indexes per name, from per-row names (null: the row names none, id -1) and report starts. */
function reportsByName(start: Int32Array, names: CodedColumn<string | null>): { byName: Map<string, Int32Array>; ids: Int32Array; list: string[]; idOf: Map<string, number> } {
  const lists = new Map<string, number[]>();
  const idOf = new Map<string, number>();
  const ids = new Int32Array(names.length).fill(-1);
  for (let report = 0; report + 1 < start.length; report++) {
    for (let row = start[report]; row < start[report + 1]; row++) {
      const name = names.at(row);
      if (name === null) continue;
      let id = idOf.get(name);
      if (id === undefined) idOf.set(name, (id = idOf.size));
      ids[row] = id;
      const list = lists.get(name);
      if (!list || list[list.length - 1] !== report) pushTo(lists, name, report);
    }
  }
  const byName = new Map<string, Int32Array>();
  for (const [name, list] of lists) byName.set(name, Int32Array.from(list));
  return { byName, ids, list: [...idOf.keys()], idOf };
}

/**
 * Indexes the reports of a store; `narratives` is their narrative index (ordinal = report index),
 * by default built from `data` (its six indexed narrative columns move into it: src/serve/cases/narratives.ts).
 */
export function indexReports(data: ReportData, narratives: NarrativeIndex | null = indexNarratives(data)): ReportIndex {
  const vaccines = reportsByName(data.vaccines.start, data.vaccines.name);
  const events = reportsByName(data.events.start, data.events.term);
  const terms = eventIndex(events.byName.keys());
  const codesOf = new Map<string, string[]>();
  for (let row = 0; row < data.vaccines.name.length; row++) {
    const name = data.vaccines.name.at(row);
    const code = data.vaccines.type.at(row);
    if (code === null) continue;
    const codes = codesOf.get(name);
    if (!codes) codesOf.set(name, [code]);
    else if (!codes.includes(code)) codes.push(code);
  }
  return {
    data,
    vocabulary: { ...vaccineIndex(vaccines.byName.keys(), new Map(), codesOf), ...terms },
    reportsByVaccine: vaccines.byName,
    reportsByEvent: events.byName,
    vaccineId: vaccines.ids,
    eventId: events.ids,
    vaccineNames: vaccines.list,
    eventNames: events.list,
    vaccineIdOf: vaccines.idOf,
    eventIdOf: events.idOf,
    narratives,
    types: typeIndex(data, terms),
  };
}

/** Indexes the reports by the VAX_TYPE code of each VAX row (rows without one name no type). */
function typeIndex(data: ReportData, terms: EventIndex): TypeIndex {
  const codes = reportsByName(data.vaccines.start, data.vaccines.type);
  const products = new Map<string, Set<string>>();
  for (let row = 0; row < data.vaccines.type.length; row++) {
    const code = data.vaccines.type.at(row);
    if (code !== null) products.set(code, (products.get(code) ?? new Set<string>()).add(data.vaccines.name.at(row)));
  }
  return {
    vocabulary: { ...vaxTypeIndex(codes.byName.keys()), ...terms },
    reportsByCode: codes.byName,
    productsOf: new Map([...products].map(([code, names]) => [code, [...names].sort()])),
  };
}
