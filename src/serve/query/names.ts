/**
 * Name matching (spec 4.1), the one code that turns a request's `vaccine`, `event` or `q` into
 * vaccine names and event terms; `/signals` (src/serve/signals/match.ts) and `/cases` (src/serve/cases) both use it, each
 * over its own vocabulary (the served pairs' names, or every report's).
 *
 * - `vaccine`: an exact vaccine name, an exact vax_type (e.g. `COVID19`) or a VAERS `VAX_TYPE`
 *   abbreviation present in the data (e.g. `HPV9`, `TD`), all case-insensitive; the union of the
 *   three; a type or abbreviation expands to every product of that type. In an analysis whose
 *   items are VAX_TYPE codes the vaccine names are the codes, and each code also answers to its
 *   long name (`INFLUENZA (SEASONAL) TRIVALENT` for `FLU3`, data/vax-types; {@link vaxTypeIndex}).
 * - `event`: an exact preferred term, ignoring case (`pain` selects the term `Pain` only);
 *   otherwise a case-insensitive substring of at least 3 characters.
 * - `q`: vaccines as `vaccine` or by a case-insensitive substring (>= 3 characters) of a name,
 *   and events as `event`.
 * - A text shorter than 3 characters that matches nothing exactly is "too short" (spec 7).
 */
import type { ParamError } from './error-object.js';
import { vaxTypeName } from '../../domain/vax-type-names.js';
import { vaxType as vaxTypeOfName } from '../../domain/vaccine-type.js';
import { MIN_QUERY_LENGTH, quoteValue } from './parameters.js';

/** The vaccine names of a vocabulary with their indexes (all built by `vaccineIndex`). */
export interface VaccineIndex {
  /** Vaccine name -> its vax_type. */
  vaxTypeOf: Map<string, string>;
  /** Upper-cased vaccine name -> vaccine name. */
  vaccineByUpperName: Map<string, string>;
  /** Upper-cased vax_type -> vaccine names of that type. */
  vaccinesByUpperType: Map<string, string[]>;
  /** Upper-cased VAERS VAX_TYPE code -> vaccine names seen with it. */
  vaccinesByUpperCode: Map<string, string[]>;
  /** vax_type -> vaccine names. */
  vaccinesByType: Map<string, string[]>;
  /** Upper-cased other name (a VAX_TYPE code's long name) -> vaccine names it stands for. */
  vaccinesByUpperAlias: Map<string, string[]>;
  /** Vaccine names in order, and their lower-cased forms (substring search). */
  vaccineNames: string[];
  vaccineNamesLower: string[];
  /** Per vaccine name (same order) its other names lower-cased (substring search of `q`); empty lists without aliases. */
  aliasesLower: string[][];
}

/** The event terms of a vocabulary (built by `eventIndex`). */
export interface EventIndex {
  /** Distinct terms in order, and their lower-cased forms. */
  events: string[];
  eventsLower: string[];
}

/** What name matching reads. */
export type Vocabulary = VaccineIndex & EventIndex;

/** Compares two strings by UTF-16 code units (stable, locale-free). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Appends `value` to the list of `key`. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes vaccine names: by name, by vax_type (given in `vaxTypeOf`, else spec 2.1's rule), by
 * the VAERS VAX_TYPE codes seen with each name (`codesOf`) and by other names (`aliasesOf`,
 * e.g. a code's long name), all case-insensitive.
 */
export function vaccineIndex(
  names: Iterable<string>, vaxTypeOf: ReadonlyMap<string, string>, codesOf: ReadonlyMap<string, readonly string[]>,
  aliasesOf: ReadonlyMap<string, readonly string[]> = new Map(),
): VaccineIndex {
  const vaccineNames = [...new Set(names)].sort(compareText);
  const index: VaccineIndex = {
    vaxTypeOf: new Map(vaxTypeOf), vaccineByUpperName: new Map(), vaccinesByUpperType: new Map(), vaccinesByUpperCode: new Map(),
    vaccinesByType: new Map(), vaccinesByUpperAlias: new Map(), vaccineNames, vaccineNamesLower: vaccineNames.map((v) => v.toLowerCase()),
    aliasesLower: vaccineNames.map((v) => (aliasesOf.get(v) ?? []).map((a) => a.toLowerCase())),
  };
  for (const name of vaccineNames) {
    const type = index.vaxTypeOf.get(name) ?? vaxTypeOfName(name);
    index.vaxTypeOf.set(name, type);
    if (!index.vaccineByUpperName.has(name.toUpperCase())) index.vaccineByUpperName.set(name.toUpperCase(), name);
    pushTo(index.vaccinesByUpperType, type.toUpperCase(), name);
    pushTo(index.vaccinesByType, type, name);
    for (const code of new Set((codesOf.get(name) ?? []).map((c) => c.toUpperCase()))) pushTo(index.vaccinesByUpperCode, code, name);
    for (const alias of new Set((aliasesOf.get(name) ?? []).map((a) => a.toUpperCase()))) pushTo(index.vaccinesByUpperAlias, alias, name);
  }
  return index;
}

/**
 * Indexes VAERS VAX_TYPE codes as the vaccine names of an analysis whose items are codes
 * (src/domain/analysis-rules.ts `ItemKind` `vax_type`): each code is its own vax_type and code,
 * and answers to its long name from data/vax-types (src/domain/vax-type-names.ts) when it has one.
 */
export function vaxTypeIndex(codes: Iterable<string>): VaccineIndex {
  const list = [...new Set(codes)];
  const aliases = new Map<string, string[]>();
  for (const code of list) {
    const name = vaxTypeName(code);
    if (name !== null) aliases.set(code, [name]);
  }
  return vaccineIndex(list, new Map(list.map((c) => [c, c])), new Map(list.map((c) => [c, [c]])), aliases);
}

/** Indexes event terms (distinct, ordered). */
export function eventIndex(terms: Iterable<string>): EventIndex {
  const events = [...new Set(terms)].sort(compareText);
  return { events, eventsLower: events.map((e) => e.toLowerCase()) };
}

/** Vaccine names matched exactly by name, vax_type, VAX_TYPE code or another name (a code's long name), case-insensitive. */
export function exactVaccines(vocabulary: VaccineIndex, text: string): string[] {
  const upper = text.toUpperCase();
  const found = new Set<string>();
  const name = vocabulary.vaccineByUpperName.get(upper);
  if (name !== undefined) found.add(name);
  for (const v of vocabulary.vaccinesByUpperType.get(upper) ?? []) found.add(v);
  for (const v of vocabulary.vaccinesByUpperCode.get(upper) ?? []) found.add(v);
  for (const v of vocabulary.vaccinesByUpperAlias.get(upper) ?? []) found.add(v);
  return [...found];
}

/** Vaccine names whose lower-cased name, or one of their other names, contains `text` (>= 3 characters, for `q`). */
export function substringVaccines(vocabulary: VaccineIndex, text: string): string[] {
  if (text.length < MIN_QUERY_LENGTH) return [];
  const lower = text.toLowerCase();
  return vocabulary.vaccineNames.filter((_, i) => vocabulary.vaccineNamesLower[i].includes(lower) || vocabulary.aliasesLower[i].some((a) => a.includes(lower)));
}

const lookups = new WeakMap<EventIndex, { exact: Set<string>; byLower: Map<string, string[]> }>();

/** The exact terms and lower-cased term -> terms with that spelling ignoring case (built once per vocabulary). */
function eventLookups(vocabulary: EventIndex): { exact: Set<string>; byLower: Map<string, string[]> } {
  let found = lookups.get(vocabulary);
  if (!found) {
    found = { exact: new Set(vocabulary.events), byLower: new Map() };
    vocabulary.events.forEach((e, i) => pushTo(found!.byLower, vocabulary.eventsLower[i], e));
    lookups.set(vocabulary, found);
  }
  return found;
}

/**
 * Events matched by `text` (spec 4.1 event: "an exact preferred term, or a case-insensitive
 * substring of at least 3 characters"). The exact test ignores case: `text` equal to a term
 * (e.g. `pain` and the term `Pain`) selects that term only, with the term spelt exactly as
 * typed preferred when two terms differ only by case. Otherwise, with at least 3 characters,
 * every term containing `text` ignoring case.
 */
export function matchEvents(vocabulary: EventIndex, text: string): string[] {
  const { exact, byLower } = eventLookups(vocabulary);
  if (exact.has(text)) return [text];
  const lower = text.toLowerCase();
  const same = byLower.get(lower);
  if (same) return same;
  if (text.length < MIN_QUERY_LENGTH) return [];
  return vocabulary.events.filter((_, i) => vocabulary.eventsLower[i].includes(lower));
}

/** The spec 7 "too short" error of parameter `name`, with the usage line of the resource asked. */
export function tooShortError(name: string, text: string, usage: string): ParamError {
  return { error: `${name} ${quoteValue(text)} is too short: give at least ${MIN_QUERY_LENGTH} characters, an exact name or an abbreviation`, usage };
}

/**
 * The names a request's filters select (spec 4.1). With `vaccine` and/or `event`: the vaccines
 * and the events they match (null for a filter not given). With `q` alone: the vaccines it
 * matches as a name, type or code or by substring, and the events it matches; the caller takes
 * the union.
 * @returns the names, or the "too short" error (with `usage`, the resource's usage line) of the filter that matched nothing.
 */
export function matchNames(
  vocabulary: Vocabulary, filters: { vaccine?: string; event?: string; q?: string }, usage: string,
): { ok: true; vaccines: string[] | null; events: string[] | null; union: boolean } | { ok: false; error: ParamError } {
  const { vaccine, event, q } = filters;
  if (vaccine !== undefined || event !== undefined) {
    const vaccines = vaccine === undefined ? null : exactVaccines(vocabulary, vaccine);
    if (vaccine !== undefined && vaccines!.length === 0 && vaccine.length < MIN_QUERY_LENGTH) return { ok: false, error: tooShortError('vaccine', vaccine, usage) };
    const events = event === undefined ? null : matchEvents(vocabulary, event);
    if (event !== undefined && events!.length === 0 && event.length < MIN_QUERY_LENGTH) return { ok: false, error: tooShortError('event', event, usage) };
    return { ok: true, vaccines, events, union: false };
  }
  const text = q ?? '';
  const vaccines = [...new Set([...exactVaccines(vocabulary, text), ...substringVaccines(vocabulary, text)])];
  const events = matchEvents(vocabulary, text);
  if (vaccines.length === 0 && events.length === 0 && text.length < MIN_QUERY_LENGTH) return { ok: false, error: tooShortError('q', text, usage) };
  return { ok: true, vaccines, events, union: true };
}
