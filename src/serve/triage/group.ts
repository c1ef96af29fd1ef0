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
import { hasArtefact, sortTriage, type Note, type RelatedEvent, type TriagePair } from './rank.js';

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
    if (!Array.isArray(value)) return [];
    // The parsed list itself when every item is well formed (as the build writes it), else its well-formed items.
    const valid = (x: unknown): x is [string, number] => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'number';
    return value.every(valid) ? value : value.filter(valid);
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
  // By vaccine, then event (no key string to build and hash per link): each row's links, each ranked pair (in triage order).
  // The links' texts, parsed when a pair's links are first needed (a pair folded by its group never is).
  const texts = new Map<string, Map<string, string | null>>();
  for (const r of rows) {
    let ofVaccine = texts.get(r.vaccine);
    if (!ofVaccine) texts.set(r.vaccine, (ofVaccine = new Map()));
    ofVaccine.set(r.event, r.related_events);
  }
  const parsed = new Map<TriagePair, Array<[string, number]>>();
  const linksOf = (p: TriagePair): Array<[string, number]> => {
    let list = parsed.get(p);
    if (list === undefined) parsed.set(p, (list = relatedOf(texts.get(p.vaccine)?.get(p.event) ?? null)));
    return list;
  };
  // Each event's narrow groups, computed once.
  const narrow = new Map<string, string[]>();
  const narrowOf = (event: string): string[] => {
    let items = narrow.get(event);
    if (items === undefined) narrow.set(event, (items = narrowGroups(groupsOfTerm, event)));
    return items;
  };
  // By vaccine: its pairs by event, and by narrow group the positions (in triage order) of its pairs in the group.
  const byVaccine = new Map<string, { pairs: Map<string, TriagePair>; inGroup: Map<string, number[]>; order: TriagePair[] }>();
  for (const p of ranked) {
    let ofVaccine = byVaccine.get(p.vaccine);
    if (!ofVaccine) byVaccine.set(p.vaccine, (ofVaccine = { pairs: new Map(), inGroup: new Map(), order: [] }));
    ofVaccine.pairs.set(p.event, p);
    for (const g of narrowOf(p.event)) {
      const at = ofVaccine.inGroup.get(g);
      if (at) at.push(ofVaccine.order.length);
      else ofVaccine.inGroup.set(g, [ofVaccine.order.length]);
    }
    ofVaccine.order.push(p);
  }
  const placed = new Set<TriagePair>();
  const out: TriagePair[] = [];
  for (const head of ranked) {
    if (placed.has(head)) continue;
    placed.add(head);
    const { pairs, inGroup, order } = byVaccine.get(head.vaccine)!;
    // The head's overlap with each event, indexed when first needed (most heads link to no pair at FOLD_OVERLAP).
    let withHead: Map<string, number> | null = null;
    const direct = (event: string): number => (withHead ??= new Map(linksOf(head))).get(event) ?? 0;
    const folded: RelatedEvent[] = [];
    const queue: TriagePair[] = [head];
    for (let at = 0; at < queue.length; at++) {
      const from = queue[at];
      for (const [event, overlap] of linksOf(from)) {
        if (overlap < FOLD_OVERLAP) continue;
        const withIt = direct(event);
        if (withIt < HEAD_OVERLAP) continue;
        const other = pairs.get(event);
        if (!other || placed.has(other)) continue;
        placed.add(other);
        queue.push(other);
        folded.push({ event, n: other.n, overlap: withIt, via: from === head ? null : from.event });
      }
    }
    const headGroups = narrowOf(head.event);
    if (headGroups.length) {
      // The vaccine's pairs sharing a narrow group with the head, in triage order (as a walk over all its pairs would meet them).
      const positions = [...new Set(headGroups.flatMap((g) => inGroup.get(g) ?? []))].sort((a, b) => a - b);
      for (const other of positions.map((k) => order[k])) {
        if (placed.has(other)) continue;
        const group = narrowOf(other.event).find((g) => headGroups.includes(g));
        if (group === undefined) continue;
        placed.add(other);
        folded.push({ event: other.event, n: other.n, overlap: direct(other.event), via: null, group });
      }
    }
    out.push(folded.length ? withFoldedCautions({ ...head, related_events: folded }, folded, new Map(folded.map((f) => [f.event, pairs.get(f.event)!]))) : head);
  }
  return sortTriage(out);
}
