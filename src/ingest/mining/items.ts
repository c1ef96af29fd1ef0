/**
 * The items of an analysis (src/domain/analysis-rules.ts `ItemKind`): what each kept report
 * counts as its vaccines, before counting (src/ingest/mining/counts.ts).
 *
 * - `vaccine`: the products, the reader's distinct `VAX_NAME` indexes (`VaersData.reports[i].vaccines`).
 * - `vax_type`: the VAERS `VAX_TYPE` codes of the report's VAX rows (each row's own `VAX_TYPE`
 *   cell, as the VAERS data use guide defines it), each code once per report however many
 *   products of that type it names: the items of Oracle Empirica Signal's VAERS runs. A VAX
 *   row with a blank `VAX_TYPE` names no type; a report none of whose rows has one names no
 *   item and is not counted in that analysis.
 * - `event_group`: the products as vaccines, and as events the event groups
 *   (src/domain/event-groups.ts `eventGroupItems`) instead of the terms: a report's events are the
 *   items any of whose terms it carries, each once however many of the item's terms it carries. A
 *   report carrying no grouped term names no event item but still counts in N and its vaccine's
 *   margin (the same denominator as the term-level analyses).
 */
import type { ItemKind } from '../../domain/analysis-rules.js';
import { eventGroupItems, type EventGroupSet } from '../../domain/event-groups.js';
import type { VaersData } from '../vaers/read.js';

/** The items of every kept report: item names and, per report (index as `VaersData.reports`), its distinct ascending item indexes. */
export interface ReportItems {
  /** Item names (products, or VAX_TYPE codes sorted by UTF-16 code units). */
  names: readonly string[];
  /** Report i's items: distinct, ascending indexes into `names` (possibly empty for `vax_type`). */
  lists: ReadonlyArray<readonly number[]>;
  /** The event items when they are not the terms (`event_group`): names and, per report, its distinct ascending item indexes (possibly empty). */
  events?: { names: readonly string[]; lists: ReadonlyArray<readonly number[]> };
}

/**
 * The event-group items of every report: per report, the items of `groups` whose terms it carries.
 * `terms` are the read's term names (`VaersData.events`), `reportEvents` each report's term indexes.
 */
export function reportEventGroups(terms: readonly string[], reportEvents: ReadonlyArray<readonly number[]>, groups: EventGroupSet): { names: string[]; lists: number[][] } {
  const items = eventGroupItems(groups);
  const termIndex = new Map(terms.map((t, i) => [t, i]));
  const itemsOfTerm = new Map<number, number[]>();
  items.forEach((item, k) => {
    for (const { term } of item.terms) {
      const t = termIndex.get(term);
      if (t === undefined) continue;
      const list = itemsOfTerm.get(t) ?? [];
      if (!list.includes(k)) list.push(k);
      itemsOfTerm.set(t, list);
    }
  });
  const lists = reportEvents.map((events) => {
    const own = new Set<number>();
    for (const e of events) for (const k of itemsOfTerm.get(e) ?? []) own.add(k);
    return [...own].sort((a, b) => a - b);
  });
  return { names: items.map((i) => i.name), lists };
}

/**
 * The items of `kind` of every report of `data` (read from `data.reports` for products and from
 * the VAX rows of `data.details` for types; both share the report index); `event_group` needs the
 * grouping (`groups`).
 * @throws Error for `event_group` without `groups`.
 */
export function reportItems(data: VaersData, kind: ItemKind, groups?: EventGroupSet): ReportItems {
  if (kind === 'vaccine') return { names: data.vaccines, lists: data.reports.map((r) => r.vaccines) };
  if (kind === 'event_group') {
    if (!groups) throw new Error('reportItems: event_group items need the event groups');
    return { names: data.vaccines, lists: data.reports.map((r) => r.vaccines), events: reportEventGroups(data.events, data.reports.map((r) => r.events), groups) };
  }
  const { start, type } = data.details.vaccines;
  const { strings } = data.details;
  // The codes by their string numbers, then numbered in sorted order.
  const codeOfString = new Map<number, string>();
  for (const s of type) if (s >= 0 && !codeOfString.has(s)) codeOfString.set(s, strings[s]);
  const names = [...new Set(codeOfString.values())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const indexOfName = new Map(names.map((name, i) => [name, i]));
  const indexOfString = new Map([...codeOfString].map(([s, code]) => [s, indexOfName.get(code)!]));
  const lists: number[][] = [];
  for (let i = 0; i + 1 < start.length; i++) {
    const own = new Set<number>();
    for (let row = start[i]; row < start[i + 1]; row++) if (type[row] >= 0) own.add(indexOfString.get(type[row])!);
    lists.push([...own].sort((a, b) => a - b));
  }
  return { names, lists };
}
