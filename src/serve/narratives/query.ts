/**
 * The `text` query of `/cases`, parsed into a typed value.
 *
 * Grammar (terms separated by white space; every term is folded by src/serve/narratives/words.ts, so
 * case and diacritics never matter):
 * - `word`: the report holds this word, whole (`fever` does not match `fevers`).
 * - `word*`: a word starting with `word` (`fever*` matches `fever`, `fevers`, `feverish`). The
 *   star counts only right after the last letter or digit of a one-word term; anywhere else it
 *   is plain text (a separator).
 * - `"two words"`: the words consecutively, in one narrative field, whatever separates them
 *   (`"bell's palsy"` is the words `bell s palsy`, and matches `BELL'S PALSY` and `Bell's-palsy`,
 *   not `bells palsy`).
 * - A term that separators split into several words is such a phrase too: `guillain-barré`
 *   = `"guillain barre"`, `bell's` = `"bell s"`.
 * - `-term` (a word, a prefix or a quoted phrase right after the minus): the report must not
 *   hold it.
 * - Terms are all required (an implicit AND); there is no OR, no grouping. `OR`, `AND`, `NOT`
 *   written in capitals as a term of their own, and `(` or `)` outside quotes, are refused
 *   (`operator`, below) rather than read as words or separators (issue 36: `surgery OR surgical`
 *   silently found nothing). In lower case, or inside quotes, they are words (`"rock and roll"`).
 * Every other character, `%`, `_`, `'`, `.`, regex or SQL syntax included, is plain text: it
 * only separates words. A term with no letter or digit (`%%`, `""`, a lone `-`) is dropped.
 * A term given twice counts once (`s* s* s*` is `s*`; `-x -x` is `-x`): the query and its key
 * hold each distinct term once, in the order of first appearance.
 *
 * Bad input is a value, never thrown, checked in this order:
 * `too-long` (more than 200 characters), `unbalanced-quote` (an odd number of `"`), `operator`
 * (OR, AND, NOT, parentheses), `only-exclusions` (`-` terms and nothing to find), `too-short`
 * (fewer than 3 letters or digits in total in the terms to find, e.g. `ab`, `"a b"`, `%_%`, or an
 * empty text). How far prefixes expand depends on the narratives searched: the index checks it
 * against TEXT_PREFIX_MAX_WORDS and TEXT_EXPANSION_MAX_WORDS (src/serve/narratives/index.ts `tooBroad`).
 */
import { fold, letterCount, words } from './words.js';

/** Longest accepted text, in characters (code points). */
export const TEXT_MAX_CHARS = 200;
/** Fewest letters or digits, in total over the terms to find. */
export const TEXT_MIN_LETTERS = 3;
/**
 * Most vocabulary words one prefix may expand to (`s*` on 1990-2006 expands to about 9,000, over
 * the limit; `fever*`, `intussus*`, `anaphyla*` to a few dozen at most). The cost of a prefix grows with
 * its words: they are united (with a vaccine or event, each first cut to the selection).
 */
export const TEXT_PREFIX_MAX_WORDS = 1000;
/** Most vocabulary words all the prefixes of one text may expand to together (required and excluded). */
export const TEXT_EXPANSION_MAX_WORDS = 2000;
/** Operators a text query does not support, as written (a term of its own, in capitals), and the parentheses. */
export const TEXT_OPERATORS = ['OR', 'AND', 'NOT', '(', ')'] as const;
/** Usage line for 400 answers. */
export const TEXT_USAGE = `text=WORDS: every word whole, ignoring case and diacritics, all required (no OR, AND, NOT or parentheses); word* = prefix (at most ${TEXT_PREFIX_MAX_WORDS} words each, ${TEXT_EXPANSION_MAX_WORDS} in all); "two words" = consecutive; -word or -"two words" = absent`;

/** One term of a text query (words folded: lower case, no diacritics). */
export type TextTerm =
  | { kind: 'word'; word: string }
  | { kind: 'prefix'; prefix: string }
  /** Two or more words, consecutive within one narrative field. */
  | { kind: 'phrase'; words: readonly string[] };

/** A parsed text query: the terms every matched report holds, and those it must not hold. */
export interface TextQuery {
  /** At least one term, with at least TEXT_MIN_LETTERS letters or digits in total. */
  required: readonly TextTerm[];
  excluded: readonly TextTerm[];
}

/** Which rule rejected a text. */
export type TextQueryRule = 'too-long' | 'unbalanced-quote' | 'operator' | 'only-exclusions' | 'too-short';

/**
 * The parse of a text: the query and its canonical form (`key`, for caches: re-parsing it gives
 * the same query), or the rule broken with its message (the Error object's `error`) and the usage line.
 */
export type TextQueryResult =
  | { ok: true; query: TextQuery; key: string }
  | { ok: false; rule: TextQueryRule; error: string; usage: string };

const fail = (rule: TextQueryRule, error: string): TextQueryResult => ({ ok: false, rule, error, usage: TEXT_USAGE });
const SPACE = /\s/;
/** A letter or digit (after folding) followed by the trailing stars of a prefix term. */
const PREFIX_END = /[\p{L}\p{N}]\*+$/u;

/** The term a run of text makes: null without words, a word or prefix with one, else a phrase. */
function termOf(text: string, quoted: boolean): TextTerm | null {
  const list = words(text);
  if (list.length === 0) return null;
  if (list.length > 1) return { kind: 'phrase', words: list };
  return !quoted && PREFIX_END.test(fold(text)) ? { kind: 'prefix', prefix: list[0] } : { kind: 'word', word: list[0] };
}

/** The letters or digits of a term. */
function termLetters(term: TextTerm): number {
  return term.kind === 'word' ? term.word.length : term.kind === 'prefix' ? term.prefix.length : letterCount(term.words);
}

/** A term as written in the canonical form (`fever`, `fever*`, `"bell s palsy"`). */
function formatTerm(term: TextTerm): string {
  return term.kind === 'word' ? term.word : term.kind === 'prefix' ? `${term.prefix}*` : `"${term.words.join(' ')}"`;
}

/** The canonical text of a query: required terms, then `-` excluded ones, as parsed, one space apart. */
export function formatTextQuery(query: TextQuery): string {
  return [...query.required.map(formatTerm), ...query.excluded.map((t) => `-${formatTerm(t)}`)].join(' ');
}

/** An unsupported operator: a parenthesis, or OR, AND, NOT in capitals as a term of their own (negated or not). */
const OPERATOR = /[()]|(?<!\S)-?(OR|AND|NOT)(?!\S)/;

/** The first unsupported operator of a text outside quotes (`OR`, `AND`, `NOT` or `parentheses`), or null. Called on a text whose quotes balance. */
function operatorIn(text: string): string | null {
  const m = OPERATOR.exec(text.split('"').filter((_, k) => k % 2 === 0).join(' '));
  return m ? (m[1] ?? 'parentheses') : null;
}

/** The terms without repeats (the first of equal terms kept, in order). */
function distinct(terms: readonly TextTerm[]): TextTerm[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key = formatTerm(term);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Parses the `text` parameter (as received, already URL-decoded).
 * @returns the query (each distinct term once) and its canonical key, or the broken rule with a message naming it.
 */
export function parseTextQuery(text: string): TextQueryResult {
  const chars = [...text].length;
  if (chars > TEXT_MAX_CHARS) return fail('too-long', `text must be at most ${TEXT_MAX_CHARS} characters (got ${chars})`);
  const quotes = text.split('"').length - 1;
  if (quotes % 2 === 1) return fail('unbalanced-quote', `text has an unbalanced quote: every " must be closed (got ${quotes} quote${quotes > 1 ? 's' : ''})`);
  const operator = operatorIn(text);
  if (operator !== null) {
    return fail('operator', `text does not support ${operator}: every term is required (an implicit AND), and there is no OR or grouping; ` +
      'search one alternative at a time, or use a prefix (surg* finds surgery and surgical), and -word for NOT');
  }
  const required: TextTerm[] = [];
  const excluded: TextTerm[] = [];
  let i = 0;
  while (i < text.length) {
    if (SPACE.test(text[i])) {
      i++;
      continue;
    }
    const negated = text[i] === '-';
    if (negated) i++;
    let term: TextTerm | null;
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      term = termOf(text.slice(i + 1, close), true);
      i = close + 1;
    } else {
      const start = i;
      while (i < text.length && text[i] !== '"' && !SPACE.test(text[i])) i++;
      term = termOf(text.slice(start, i), false);
    }
    if (term) (negated ? excluded : required).push(term);
  }
  if (required.length === 0 && excluded.length > 0) {
    return fail('only-exclusions', 'text must hold at least one term to find, not only exclusions (-word)');
  }
  const letters = distinct(required).reduce((n, t) => n + termLetters(t), 0);
  if (letters < TEXT_MIN_LETTERS) {
    return fail('too-short', `text must hold at least ${TEXT_MIN_LETTERS} letters or digits in the terms to find (got ${letters})`);
  }
  const query: TextQuery = { required: distinct(required), excluded: distinct(excluded) };
  return { ok: true, query, key: formatTextQuery(query) };
}
