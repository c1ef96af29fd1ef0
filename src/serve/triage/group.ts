/**
 * One signal, one row (GET /triage `group=signal`, the default): flagged pairs of one vaccine
 * whose reports largely coincide are one signal told in several terms (RotaShield's
 * intussusception, vomiting, GI haemorrhage, dehydration in 1999Q3). The build stores, per pair,
 * its overlap with the other flagged pairs of its vaccine in the window (column `related_events`:
 * shared reports / the smaller pair's reports, from RELATED_STORED). Two pairs are linked when
 * their overlap is at least FOLD_OVERLAP. Walking the queue in triage order, each pair not yet
 * placed heads a signal, which grows through links (vomiting shares half its reports with
 * intussusception, dehydration two thirds of its own with vomiting) to pairs that also overlap
 * the head by at least HEAD_OVERLAP. The head lists the others in `related_events` (event, n,
 * overlap with the head, `via`: the pair through which it joined, null when linked to the head
 * itself); they are not rows. Pairs of the vaccine whose events share a narrow group of the
 * shipped event groups (data/event-groups, read through the store: one syndrome told in terms
 * that sit on different reports) join the head too. `group=none` lists every pair.
 */
import { BROAD_SUFFIX } from '../../domain/event-groups.js';
import type { TriageRow } from '../store/triage-rows.js';
import { compareTriage, hasArtefact, type Note, type RelatedEvent, type TriagePair } from './rank.js';

/** Overlap from which two flagged pairs of one vaccine are linked (one signal). */
export const FOLD_OVERLAP = 0.4;
/**
 * The least overlap a member must have with the head itself (the build's stored minimum): a chain
 * of links may not drift to pairs that share little with the signal's first pair (single linkage
 * alone chained DRYVAX x Pericarditis in 2006Q4 to 90 events through small pairs; with this bound, 12).
 */
export const HEAD_OVERLAP = 0.25;

/** Parses a row's `related_events` text (`[[event, overlap], ...]`); [] for null or a malformed text. */
export function relatedOf(text: string | null): Array<[string, number]> {
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((x): x is [string, number] => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'number') : [];
  } catch {
    return [];
  }
}

/** The share of a head's reports a folded pair must cover for the head to carry the folded pair's artefact cautions: most of them. */
export const INHERIT_COVERAGE = 0.5;

/** The narrow event-group items of a term (`groupsOfTerm`: term -> items; a `(broad)` item is left out: broad terms often stand for other concepts). */
export function narrowGroups(groupsOfTerm: ReadonlyMap<string, readonly string[]> | undefined, event: string): string[] {
  return (groupsOfTerm?.get(event) ?? []).filter((item) => !item.endsWith(BROAD_SUFFIX));
}

/**
 * The head with the artefact cautions of the pairs folded under it that cover at least
 * INHERIT_COVERAGE of its reports (shared reports, from the overlap coefficient: overlap x the
 * smaller pair's n, over the head's n), each said so; the head unchanged when none does.
 */
function withFoldedCautions(head: TriagePair, folded: readonly RelatedEvent[], byEvent: ReadonlyMap<string, TriagePair>): TriagePair {
  const added: Note[] = [];
  for (const f of folded) {
    const other = byEvent.get(f.event);
    if (!other || f.via !== null) continue;
    const shared = Math.round(f.overlap * Math.min(head.n, other.n));
    if (head.n <= 0 || shared / head.n < INHERIT_COVERAGE) continue;
    for (const c of other.cautions) {
      if (!hasArtefact({ cautions: [c] }) || head.cautions.some((h) => h.code === c.code) || added.some((a) => a.code === c.code)) continue;
      added.push({ code: c.code, text: `Folded under this row: ${head.vaccine} x ${other.event} shares about ${shared} of this row's ${head.n} reports (${Math.round((shared / head.n) * 100)}%) and carries it: ${c.text}` });
    }
  }
  return added.length ? { ...head, cautions: [...head.cautions, ...added] } : head;
}

/**
 * Folds the ranked pairs (triage order) into one row per signal: each head keeps its place and
 * lists the pairs of its signal in `related_events` (in the order they join: breadth first from
 * the head, each pair's links by overlap descending; then the pairs of the vaccine whose event
 * shares a narrow event group with the head's, `group` naming it). `rows` are the window's rows
 * (their `related_events`), `groupsOfTerm` the event-group items of each term (the store's
 * groups, src/serve/store/event-groups.ts itemsOfTerms; absent: no group folding). A head carries
 * the artefact cautions of folded pairs covering most of its reports (withFoldedCautions) and
 * then ranks as compareTriage orders it.
 */
export function foldSignals(ranked: readonly TriagePair[], rows: readonly TriageRow[], groupsOfTerm?: ReadonlyMap<string, readonly string[]>): TriagePair[] {
  const key = (vaccine: string, event: string): string => `${vaccine}\0${event}`;
  const links = new Map(rows.map((r) => [key(r.vaccine, r.event), relatedOf(r.related_events)]));
  const byKey = new Map(ranked.map((p) => [key(p.vaccine, p.event), p]));
  const byVaccine = new Map<string, TriagePair[]>();
  for (const p of ranked) {
    const list = byVaccine.get(p.vaccine);
    if (list) list.push(p);
    else byVaccine.set(p.vaccine, [p]);
  }
  // Each event's narrow groups, computed once (a head is compared with every pair of its vaccine).
  const narrow = new Map<string, string[]>();
  const narrowOf = (event: string): string[] => {
    let items = narrow.get(event);
    if (items === undefined) narrow.set(event, (items = narrowGroups(groupsOfTerm, event)));
    return items;
  };
  const placed = new Set<string>();
  const out: TriagePair[] = [];
  for (const head of ranked) {
    const own = key(head.vaccine, head.event);
    if (placed.has(own)) continue;
    placed.add(own);
    const withHead = new Map(links.get(own) ?? []);
    const folded: RelatedEvent[] = [];
    const queue: TriagePair[] = [head];
    while (queue.length) {
      const from = queue.shift()!;
      for (const [event, overlap] of links.get(key(from.vaccine, from.event)) ?? []) {
        const k = key(head.vaccine, event);
        const other = byKey.get(k);
        const direct = withHead.get(event) ?? 0;
        if (overlap < FOLD_OVERLAP || direct < HEAD_OVERLAP || !other || placed.has(k)) continue;
        placed.add(k);
        queue.push(other);
        folded.push({ event, n: other.n, overlap: direct, via: from === head ? null : from.event });
      }
    }
    const headGroups = narrowOf(head.event);
    if (headGroups.length) {
      for (const other of byVaccine.get(head.vaccine) ?? []) {
        const k = key(other.vaccine, other.event);
        if (placed.has(k)) continue;
        const group = narrowOf(other.event).find((g) => headGroups.includes(g));
        if (group === undefined) continue;
        placed.add(k);
        folded.push({ event: other.event, n: other.n, overlap: withHead.get(other.event) ?? 0, via: null, group });
      }
    }
    out.push(folded.length ? withFoldedCautions({ ...head, related_events: folded }, folded, new Map(folded.map((f) => [f.event, byKey.get(key(head.vaccine, f.event))!]))) : head);
  }
  return out.sort(compareTriage);
}
