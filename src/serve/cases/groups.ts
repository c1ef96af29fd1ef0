/**
 * The case series of an analysis whose events are event groups (items `event_group`;
 * src/domain/event-groups.ts, docs/event-groups.md): `event` names a group's item (its label, or
 * `LABEL (broad)`, matched as any event: exact ignoring case, else a substring of 3 or more
 * characters), and the reports are those carrying any of the item's terms; the answer says which
 * terms, with the reports carrying each (`group_terms`).
 */
import { eventGroupItems, type EventGroupItem, type EventGroupSet } from '../../domain/event-groups.js';
import { eventIndex, type Vocabulary } from '../query/names.js';

/** The group items of one grouping over a store's reports: the vocabulary to match `event` in, and each item's terms. */
export interface GroupVocabulary {
  /** The reports' vaccine names and, as events, the item names. */
  vocabulary: Vocabulary;
  /** Item name -> the item. */
  itemOf: ReadonlyMap<string, EventGroupItem>;
}

/** The vocabulary of the items of `set`, the vaccines being those of `base` (the reports' vocabulary). */
export function groupVocabulary(base: Vocabulary, set: EventGroupSet): GroupVocabulary {
  const items = eventGroupItems(set);
  return { vocabulary: { ...base, ...eventIndex(items.map((i) => i.name)) }, itemOf: new Map(items.map((i) => [i.name, i])) };
}

/** The distinct terms of the named items, in item then file order. */
export function termsOfItems(groups: GroupVocabulary, names: readonly string[]): string[] {
  return [...new Set(names.flatMap((name) => groups.itemOf.get(name)?.terms.map((t) => t.term) ?? []))];
}

/** One term of a matched group in a case series: its group item, scope, and the selected reports carrying it. */
export interface GroupTermCount {
  /** The item's name (a pair's `event`). */
  event: string;
  group_id: string;
  term: string;
  scope: 'narrow' | 'broad';
  /** Selected reports carrying the term (a report carrying two terms counts under each). */
  reports: number;
}

/**
 * Per term of the matched items, the reports of `reports` (ascending indexes of `count` reports)
 * carrying it, from `reportsByEvent` (term -> its reports).
 */
export function groupTermCounts(groups: GroupVocabulary, names: readonly string[], reports: Int32Array, count: number, reportsByEvent: ReadonlyMap<string, Int32Array>): GroupTermCount[] {
  const selected = new Uint8Array(count);
  for (const r of reports) selected[r] = 1;
  return names.flatMap((name) => {
    const item = groups.itemOf.get(name);
    if (!item) return [];
    return item.terms.map((t) => {
      let n = 0;
      for (const r of reportsByEvent.get(t.term) ?? []) n += selected[r];
      return { event: name, group_id: item.group.id, term: t.term, scope: t.scope, reports: n };
    });
  });
}
