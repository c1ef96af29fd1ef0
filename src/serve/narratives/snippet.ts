/**
 * The snippet of a matched report: about 200 characters of the first
 * narrative field (NARRATIVE_FIELDS order) that holds a term to find, around the first
 * occurrence, with the offsets of every occurrence of the query's terms inside it.
 *
 * The window starts about a third of the spare characters before the first occurrence (less at
 * the start of the field, more when the field ends first), is cut only between words (never
 * inside one), and is marked `…` (U+2026) where text was left out before or after. The text
 * between the cuts is as written (line breaks included). Occurrences are those of the required
 * terms (a word whole, a prefix, a phrase from its first word's start to its last word's end);
 * overlapping ones are merged into one range; excluded terms are never marked.
 */
import type { TextQuery, TextTerm } from './query.js';
import { NARRATIVE_FIELDS, type NarrativeField } from '../../domain/report-columns.js';
import { wordSpans, type WordSpan } from './words.js';

/** Target length of a snippet, in characters, besides the elision marks. */
export const SNIPPET_CHARS = 200;
/** The elision mark. */
export const ELISION = '…';

/** Where an occurrence lies: `text.slice(start, end)` (UTF-16 offsets, end exclusive). */
export interface MatchRange {
  start: number;
  end: number;
}

/** A snippet: the field it comes from, its text (with `…` marks), and the occurrences in that text, ascending and disjoint. */
export interface Snippet {
  field: NarrativeField;
  text: string;
  matches: MatchRange[];
}

/** Occurrences of one term among a field's words. */
function occurrences(spans: readonly WordSpan[], term: TextTerm, out: MatchRange[]): void {
  for (let i = 0; i < spans.length; i++) {
    const word = spans[i].word;
    if (term.kind === 'word' ? word === term.word : term.kind === 'prefix' ? word.startsWith(term.prefix) : false) {
      out.push({ start: spans[i].start, end: spans[i].end });
    } else if (term.kind === 'phrase' && i + term.words.length <= spans.length && term.words.every((w, k) => spans[i + k].word === w)) {
      out.push({ start: spans[i].start, end: spans[i + term.words.length - 1].end });
    }
  }
}

/** Ranges sorted by start, overlapping ones merged. */
function merged(ranges: MatchRange[]): MatchRange[] {
  ranges.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: MatchRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** The window [from, to) of a text around `first`, cut between words. */
function window(text: string, spans: readonly WordSpan[], first: MatchRange, chars: number): MatchRange {
  if (text.length <= chars) return { start: 0, end: text.length };
  const spare = Math.max(0, chars - (first.end - first.start));
  let from = Math.max(0, first.start - Math.floor(spare / 3));
  let to = Math.min(text.length, Math.max(from + chars, first.end));
  if (to === text.length) from = Math.max(0, Math.min(from, to - chars));
  if (from > 0) from = spans.find((s) => s.start >= from)?.start ?? first.start;
  if (to < text.length) {
    let end = first.end;
    for (const s of spans) if (s.end <= to && s.end > end) end = s.end;
    to = end;
  }
  return { start: Math.min(from, first.start), end: to };
}

/**
 * The snippet of a report given its six fields (NARRATIVE_FIELDS order, null when blank; e.g.
 * from `NarrativeIndex.fields`), or null when no field holds a required term of the query.
 * `chars` is the target length (default SNIPPET_CHARS); a longer first occurrence is kept whole.
 */
export function snippet(fields: ReadonlyArray<string | null>, query: TextQuery, chars = SNIPPET_CHARS): Snippet | null {
  for (let f = 0; f < NARRATIVE_FIELDS.length; f++) {
    const text = fields[f];
    if (!text) continue;
    const spans = wordSpans(text);
    const found: MatchRange[] = [];
    for (const term of query.required) occurrences(spans, term, found);
    if (found.length === 0) continue;
    const all = merged(found);
    const cut = window(text, spans, all[0], chars);
    const before = cut.start > 0 ? ELISION : '';
    const after = cut.end < text.length ? ELISION : '';
    const shift = before.length - cut.start;
    const matches = all.filter((m) => m.start >= cut.start && m.end <= cut.end).map((m) => ({ start: m.start + shift, end: m.end + shift }));
    return { field: NARRATIVE_FIELDS[f], text: before + text.slice(cut.start, cut.end) + after, matches };
  }
  return null;
}
