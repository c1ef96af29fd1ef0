/**
 * One signal, one row (GET /triage `group=signal`, the default): flagged pairs of one vaccine
 * whose reports largely coincide are one signal told in several terms (RotaShield's
 * intussusception, vomiting, GI haemorrhage, dehydration in 1999Q3). The build stores, per pair,
 * the other flagged events of its vaccine in the window whose reports overlap its own by at least
 * RELATED_OVERLAP (src/domain/triage-evidence.ts; shared reports / the smaller pair's reports;
 * column `related_events`). Walking the queue in triage order, each pair not yet folded heads its
 * signal and folds the related pairs not yet placed; a folded pair is listed under its head as
 * `related_events` (event, n, overlap) and not as a row. `group=none` lists every pair.
 */
import type { TriageRow } from '../store/triage-rows.js';
import type { RelatedEvent, TriagePair } from './rank.js';

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
 * lists the pairs it folded in `related_events`, overlap descending. `rows` are the window's rows
 * (their `related_events`).
 */
export function foldSignals(ranked: readonly TriagePair[], rows: readonly TriageRow[]): TriagePair[] {
  const key = (vaccine: string, event: string): string => `${vaccine}\0${event}`;
  const related = new Map(rows.map((r) => [key(r.vaccine, r.event), relatedOf(r.related_events)]));
  const byKey = new Map(ranked.map((p) => [key(p.vaccine, p.event), p]));
  const placed = new Set<string>();
  const out: TriagePair[] = [];
  for (const pair of ranked) {
    const own = key(pair.vaccine, pair.event);
    if (placed.has(own)) continue;
    placed.add(own);
    const folded: RelatedEvent[] = [];
    for (const [event, overlap] of related.get(own) ?? []) {
      const other = byKey.get(key(pair.vaccine, event));
      if (!other || placed.has(key(pair.vaccine, event))) continue;
      placed.add(key(pair.vaccine, event));
      folded.push({ event, n: other.n, overlap });
    }
    out.push(folded.length ? { ...pair, related_events: folded } : pair);
  }
  return out;
}
