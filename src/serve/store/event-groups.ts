/**
 * The grouping files a store records for its analyses of event groups (`AnalysisMeta.event_groups`,
 * written by the build: src/ingest/mining/event-groups-step.ts), read again with the one reader
 * of the format (src/domain/event-groups.ts), so a store's groups are checked as a user's file is.
 */
import { eventGroupItems, parseEventGroups, type EventGroupSet } from '../../domain/event-groups.js';
import type { AnalysisMeta, StoreMeta } from '../../domain/store-schema.js';

/**
 * The groups of each analysis of event groups of a store, by analysis name (empty when it has none).
 * @throws Error naming the analysis when its recorded grouping file is missing or not a valid one (a damaged store).
 */
export function eventGroupsOfMeta(meta: Pick<StoreMeta, 'analyses'>): Map<string, EventGroupSet> {
  const groups = new Map<string, EventGroupSet>();
  for (const analysis of meta.analyses ?? []) {
    if (analysis.items !== 'event_group') continue;
    const recorded = analysis.event_groups as { csv?: unknown; file?: unknown } | undefined;
    if (typeof recorded?.csv !== 'string') throw new Error(`invalid store metadata: analysis "${analysis.name}" counts event groups but records no grouping file (event_groups.csv)`);
    groups.set(analysis.name, parseEventGroups(recorded.csv, `the grouping file of analysis "${analysis.name}" (${String(recorded.file)})`));
  }
  return groups;
}

/** Term -> the names of the group items (a pair's `event` in an analysis of event groups) that count it, over every grouping of `groups`, sorted. */
export function itemsOfTerms(groups: ReadonlyMap<string, EventGroupSet>): Map<string, string[]> {
  const byTerm = new Map<string, Set<string>>();
  for (const set of groups.values()) {
    for (const item of eventGroupItems(set)) {
      for (const { term } of item.terms) {
        const names = byTerm.get(term) ?? new Set<string>();
        names.add(item.name);
        byTerm.set(term, names);
      }
    }
  }
  return new Map([...byTerm].map(([term, names]) => [term, [...names].sort()]));
}

/** An analysis's grouping file as `GET /analyses` lists it: the file, its digest, its groups with their items and terms. */
export interface EventGroupsListing {
  file: string;
  digest: string;
  groups: Array<{ id: string; label: string; source: string; version: string; items: string[]; terms: Array<{ term: string; scope: 'narrow' | 'broad' }> }>;
  terms_in_no_report: Array<{ line: number; group_id: string; term: string }>;
}

/** The listing of an analysis's recorded grouping file (`set`: its groups, read by {@link eventGroupsOfMeta}). */
export function eventGroupsListing(recorded: NonNullable<AnalysisMeta['event_groups']>, set: EventGroupSet): EventGroupsListing {
  const items = eventGroupItems(set);
  return {
    file: recorded.file, digest: set.digest,
    groups: set.groups.map((g) => ({
      id: g.id, label: g.label, source: g.source, version: g.version,
      items: items.filter((i) => i.group === g).map((i) => i.name), terms: g.terms.map((t) => ({ term: t.term, scope: t.scope })),
    })),
    terms_in_no_report: recorded.terms_in_no_report ?? [],
  };
}
