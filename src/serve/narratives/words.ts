/**
 * Words of a narrative text: a word is a maximal run of letters and
 * digits (Unicode `\p{L}` and `\p{N}`) of the text folded by {@link fold}; every other character
 * (space, punctuation, the apostrophe, `%`, `_`, `*`, quotes, hyphens) only separates words.
 * So `Bell's palsy` holds the three words `bell`, `s`, `palsy`, and `Guillain-Barré` the two
 * words `guillain`, `barre`. The same functions fold the texts when the index is built and the
 * query when it is parsed, so both sides always agree.
 */

/** Combining marks (Mn, Mc, Me), dropped after the NFKD decomposition. */
const MARKS = /\p{M}+/gu;
/** One word of a folded text. */
const WORD = /[\p{L}\p{N}]+/gu;
/** One word of a folded ASCII text (the same runs as WORD there, found faster). */
const ASCII_WORD = /[a-z0-9]+/g;
/** A character outside tab..tilde: text without one is ASCII and folds by lower-casing alone (other text takes the general path, which gives the same words on ASCII). */
export const NON_ASCII = /[^\t-~]/;

/**
 * Folds a text for matching: Unicode NFKD, combining marks removed, then lower case; the Greek
 * final sigma `ς` becomes `σ` (lower-casing `Σ` depends on its place in the word, so the fold of a
 * word alone and inside a text would otherwise differ). `Barré` -> `barre`, `ﬁ` -> `fi`,
 * `²` -> `2`. ASCII text is only lower-cased (NFKD leaves it as it is).
 */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(/ς/g, 'σ');
}

/** The words of a text, folded, in order (`"Fever, FEVERS!"` -> `['fever', 'fevers']`). */
export function words(text: string): string[] {
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  return fold(text).match(WORD) ?? [];
}

/** Letters and digits in a folded word list (what the 3-character rule of the query counts). */
export function letterCount(list: readonly string[]): number {
  let n = 0;
  for (const w of list) n += w.length;
  return n;
}

/** One word of a text with where it lies in the text as written: `text.slice(start, end)` (UTF-16 offsets). */
export interface WordSpan {
  /** The folded word. */
  word: string;
  start: number;
  end: number;
}

/**
 * The words of a text with their offsets in the original (unfolded) text: the word list is
 * exactly `words(text)`, and a word folded from `é` or `ﬁ` spans that character whole (with the
 * combining marks that follow its last character). Used for
 * snippets (linear in the text; one text at a time).
 */
export function wordSpans(text: string): WordSpan[] {
  const spans: WordSpan[] = [];
  if (!NON_ASCII.test(text)) {
    for (const m of text.toLowerCase().matchAll(WORD)) spans.push({ word: m[0], start: m.index, end: m.index + m[0].length });
    return spans;
  }
  // Fold character by character, remembering for every folded UTF-16 unit the original
  // character it came from (NFKD works per character; marks are dropped wherever they stand).
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i) as number);
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) {
      from.push(i);
      to.push(i + ch.length);
    }
    folded += f;
    i += ch.length;
  }
  const marks = /\p{M}+/uy;
  for (const m of folded.matchAll(WORD)) {
    // Combining marks after the word's last character belong to it (`e` + U+0301 is one `é`).
    marks.lastIndex = to[m.index + m[0].length - 1];
    const end = marks.test(text) ? marks.lastIndex : to[m.index + m[0].length - 1];
    spans.push({ word: m[0], start: from[m.index], end });
  }
  return spans;
}
