/**
 * Matching (spec 4.1): which served pairs a request's `vaccine`, `event` or `q` select (the names
 * through src/serve/query/names.ts, shared with /cases), then `min_eb05`/`min_n` (after the aggregate, before
 * the total), sorting and paging.
 *
 * - `vaccine`: an exact vaccine name, an exact vax_type (e.g. `COVID19`) or a VAERS `VAX_TYPE`
 *   abbreviation present in the data (e.g. `HPV9`, `TD`), all case-insensitive; the union of
 *   the three; a type or abbreviation expands to every product of that type.
 * - `event`: an exact preferred term, ignoring case (`pain` selects the term `Pain` only);
 *   otherwise a case-insensitive substring of at least 3 characters.
 * - `q` (only when `vaccine` and `event` are both omitted): union of the pairs of the vaccines
 *   it matches (as `vaccine`, or a case-insensitive substring of at least 3 characters of a
 *   vaccine name) and of the events it matches (as `event`).
 * - A text shorter than 3 characters that matches nothing exactly is "too short" (spec 7).
 * Unknown names give an empty match, never an error (spec 7: 200 with an empty list).
 */
import type { Catalog } from './catalog.js';
import { exactVaccines, matchNames, substringVaccines, matchEvents, tooShortError } from '../query/names.js';
import { MIN_QUERY_LENGTH } from '../query/parameters.js';
import { USAGE, type SignalsParams } from './parameters.js';
import type { ParamError } from '../query/error-object.js';

/** Spec 2.2 kind. */
export type Kind = 'vaccine' | 'event' | 'pair';

/** Pairs selected by a request, before sorting and paging. */
export interface Match {
  /** Pair ids after min_eb05/min_n (unsorted). */
  ids: number[];
  /** Pairs matched before min_eb05/min_n. */
  matchedBeforeFilters: number;
  kind: Kind;
  /** For format=class: the vax_types and their products (empty otherwise). */
  classTypes: string[];
  classVaccines: string[];
}

/** A match, or the spec 2.5 Error of a query that cannot be matched (errors as values). */
export type MatchResult = { ok: true; match: Match } | { ok: false; error: ParamError };

function tooShort(name: string, text: string): MatchResult {
  return { ok: false, error: tooShortError(name, text, USAGE) };
}

function pairsOfVaccines(catalog: Catalog, vaccines: Iterable<string>): number[] {
  const ids: number[] = [];
  for (const v of vaccines) for (const id of catalog.pairsByVaccine.get(v) ?? []) ids.push(id);
  return ids;
}

function pairsOfEvents(catalog: Catalog, events: Iterable<string>): number[] {
  const ids: number[] = [];
  for (const e of events) for (const id of catalog.pairsByEvent.get(e) ?? []) ids.push(id);
  return ids;
}

/** Union of two id lists without duplicates (a byte mark per pair: no Set on large matches). */
function union(catalog: Catalog, a: number[], b: number[]): number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const seen = new Uint8Array(catalog.pairs.length);
  const out: number[] = [];
  for (const list of [a, b]) {
    for (const id of list) {
      if (seen[id]) continue;
      seen[id] = 1;
      out.push(id);
    }
  }
  return out;
}

function keepEvents(catalog: Catalog, ids: number[], events: string[]): number[] {
  const set = new Set(events);
  return ids.filter((id) => set.has(catalog.pairs[id].event));
}

const CLASS_USAGE = 'format=class needs vaccine (a name, type or abbreviation) or q (the vaccine seed); event is optional';
const SERIES_USAGE = 'format=series needs vaccine and event, or q alone: e.g. /signals?format=series&vaccine=NAME&event=TERM';

/**
 * Selects the pairs of a request (unsorted) and applies min_eb05/min_n.
 * @returns the match, or a 400 Error's fields (too short; series/class usage).
 */
export function matchPairs(catalog: Catalog, params: SignalsParams): MatchResult {
  const { vaccine, event, q, format } = params;
  let ids: number[];
  let kind: Kind;
  let classTypes: string[] = [];
  let classVaccines: string[] = [];
  if (format === 'series' && !((vaccine !== undefined && event !== undefined) || (q !== undefined && vaccine === undefined && event === undefined))) {
    return { ok: false, error: { error: 'format=series needs a vaccine and an event, or q', usage: SERIES_USAGE } };
  }
  if (format === 'class') {
    const seedText = vaccine ?? q;
    if (seedText === undefined) return { ok: false, error: { error: 'format=class needs vaccine or q (the vaccine seed)', usage: CLASS_USAGE } };
    let seeds = exactVaccines(catalog, seedText);
    if (vaccine === undefined && seeds.length === 0) seeds = substringVaccines(catalog, seedText);
    if (seeds.length === 0 && seedText.length < MIN_QUERY_LENGTH) return tooShort(vaccine !== undefined ? 'vaccine' : 'q', seedText);
    classTypes = [...new Set(seeds.map((s) => catalog.vaxTypeOf.get(s) ?? s))].sort();
    classVaccines = classTypes.flatMap((t) => catalog.vaccinesByType.get(t) ?? []).sort();
    ids = pairsOfVaccines(catalog, classVaccines);
    if (event !== undefined) {
      const events = matchEvents(catalog, event);
      if (events.length === 0 && event.length < MIN_QUERY_LENGTH) return tooShort('event', event);
      ids = keepEvents(catalog, ids, events);
    }
    kind = event !== undefined ? 'pair' : 'vaccine';
  } else {
    const names = matchNames(catalog, { vaccine, event, q }, USAGE);
    if (!names.ok) return names;
    const { vaccines, events } = names;
    if (names.union) {
      ids = union(catalog, pairsOfVaccines(catalog, vaccines!), pairsOfEvents(catalog, events!));
      kind = vaccines!.length > 0 || events!.length === 0 ? 'vaccine' : 'event';
    } else if (vaccines && events) {
      ids = keepEvents(catalog, pairsOfVaccines(catalog, vaccines), events);
      kind = 'pair';
    } else if (vaccines) {
      ids = pairsOfVaccines(catalog, vaccines);
      kind = 'vaccine';
    } else {
      ids = pairsOfEvents(catalog, events!);
      kind = 'event';
    }
  }
  const matchedBeforeFilters = ids.length;
  const { min_eb05: minEb05, min_n: minN } = params;
  if (minEb05 !== undefined || minN !== undefined) {
    ids = ids.filter((id) => {
      const p = catalog.pairs[id];
      if (minEb05 !== undefined && (p.eb05 === null || p.eb05 < minEb05)) return false;
      return !(minN !== undefined && p.n < minN);
    });
  }
  return { ok: true, match: { ids, matchedBeforeFilters, kind, classTypes, classVaccines } };
}

/**
 * Sorts pair ids by a precomputed rank (spec 4.1: nulls last in both orders, ties by vaccine
 * then event) and returns the page `offset .. offset+limit`.
 */
export function sortAndPage(catalog: Catalog, ids: number[], sort: string, order: string, offset: number, limit: number): number[] {
  if (offset >= ids.length) return [];
  const key = `${sort}:${order}`;
  const total = catalog.pairs.length;
  if (ids.length * 8 > total) {
    // Large match: walk the global order and keep members.
    const member = new Uint8Array(total);
    for (const id of ids) member[id] = 1;
    const page: number[] = [];
    let skipped = 0;
    for (const id of catalog.orders.get(key)!) {
      if (!member[id]) continue;
      if (skipped < offset) skipped++;
      else {
        page.push(id);
        if (page.length === limit) break;
      }
    }
    return page;
  }
  const rank = catalog.ranks.get(key)!;
  const sorted = Int32Array.from(ids).sort((a, b) => rank[a] - rank[b]);
  return Array.from(sorted.subarray(offset, offset + limit));
}
