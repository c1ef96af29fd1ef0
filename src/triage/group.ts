/**
 * One signal, one row (GET /triage `group=signal`, the default): flagged pairs of one vaccine
 * whose reports largely coincide are one signal told in several terms (RotaShield's
 * intussusception, vomiting, GI haemorrhage, dehydration in 1999Q3). The build stores, per pair,
 * its overlap with the other flagged pairs of its vaccine in the window (column `related_events`:
 * shared reports / the smaller pair's reports, from RELATED_STORED). Two pairs are linked when
 * their overlap is at least FOLD_OVERLAP; a signal is a connected group of linked pairs (single
 * linkage: vomiting shares half its reports with intussusception, dehydration two thirds of its
 * own with vomiting). Its first pair in triage order heads it and lists the others in
 * `related_events` (event, n, overlap: with the head when the build stored it, else with the pair
 * through which it joined, named in `via`); they are not rows. `group=none` lists every pair.
 */
import type { TriageRow } from '../store/triage-rows.js';
import type { RelatedEvent, TriagePair } from './rank.js';

/** Overlap from which two flagged pairs of one vaccine are linked (one signal). */
export const FOLD_OVERLAP = 0.4;

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
        if (overlap < FOLD_OVERLAP || !other || placed.has(k)) continue;
        placed.add(k);
        queue.push(other);
        const direct = withHead.get(event);
        folded.push(from === head || direct !== undefined
          ? { event, n: other.n, overlap: direct ?? overlap, via: null }
          : { event, n: other.n, overlap, via: from.event });
      }
    }
    out.push(folded.length ? { ...head, related_events: folded } : head);
  }
  return out;
}
