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
 * itself); they are not rows. `group=none` lists every pair.
 */
import type { TriageRow } from '../store/triage-rows.js';
import type { RelatedEvent, TriagePair } from './rank.js';

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

/**
 * Folds the ranked pairs (triage order) into one row per signal: each head keeps its place and
 * lists the pairs of its signal in `related_events` (in the order they join: breadth first from
 * the head, each pair's links by overlap descending). `rows` are the window's rows (their
 * `related_events`).
 */
export function foldSignals(ranked: readonly TriagePair[], rows: readonly TriageRow[]): TriagePair[] {
  const key = (vaccine: string, event: string): string => `${vaccine}\0${event}`;
  const links = new Map(rows.map((r) => [key(r.vaccine, r.event), relatedOf(r.related_events)]));
  const byKey = new Map(ranked.map((p) => [key(p.vaccine, p.event), p]));
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
    out.push(folded.length ? { ...head, related_events: folded } : head);
  }
  return out;
}
