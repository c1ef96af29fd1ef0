/**
 * Which MedDRA terms are not clinical adverse events, and of what kind: the committed list
 * `data/terms/non-clinical.csv` (columns `term,category,note`; how it was built, the categories
 * and their counts: `data/terms/README.md`). Term names only: no MedDRA hierarchy is shipped.
 *
 * The list is read once, on the first call, from the repository's `data/terms` folder (found
 * relative to this module, so it works from `src/` under tsx and from `dist/` alike; the
 * served process never reads ../shared). Matching is on the trimmed term, case-insensitively
 * (VAERS writes "Wrong drug administered", a quarterly table imported from elsewhere may write
 * "WRONG DRUG ADMINISTERED").
 */
import { tableOnce, tableRows } from './csv-table.js';

/** The categories of the list, in the README's order. */
export const TERM_CATEGORIES = [
  'medication_error',
  'product_issue',
  'product_use_issue',
  'no_adverse_event',
  'lack_of_effect',
  'unevaluable_event',
  'exposure',
  'rechallenge',
  'social_circumstance',
  'investigation_no_finding',
] as const;

/** A category of non-clinical term. */
export type TermCategory = (typeof TERM_CATEGORIES)[number];

/** One sentence per category, for answers that explain a `non_clinical_term` caution. */
export const TERM_CATEGORY_TEXT: Record<TermCategory, string> = {
  medication_error: 'a medication or administration error (wrong product, dose, route, site, schedule, age, storage or expiry), not a reaction',
  product_issue: 'a product or device quality problem, not a reaction',
  product_use_issue: 'off-label or intentional use of the product, not a reaction',
  no_adverse_event: 'the report states that no adverse event occurred',
  lack_of_effect: 'lack of effect (the vaccine or drug did not work), not an adverse reaction',
  unevaluable_event: 'information that could not be coded to an event',
  exposure: 'a circumstance of exposure (pregnancy, breast feeding, accidental or occupational exposure), not an outcome',
  rechallenge: 'a history of the reaction after an earlier dose, not a new event',
  social_circumstance: 'a circumstance or history of the person, not an event after vaccination',
  investigation_no_finding: 'an investigation with a normal, negative or false-positive result',
};

/** One row of the list. */
export interface NonClinicalTerm {
  term: string;
  category: TermCategory;
  /** Why the term is listed, where the decision needed a word; may be empty. */
  note: string;
}

/** Where the list lives: `data/terms/non-clinical.csv` at the repository root (two folders above this module). */
export const TERM_LIST_URL = new URL('../../data/terms/non-clinical.csv', import.meta.url);

/**
 * Parses the list's CSV text (header `term,category,note`) into a map keyed by the lower-cased
 * term. Throws an Error naming the line for a missing header, an empty term, a category not in
 * {@link TERM_CATEGORIES} or a term listed twice (case-insensitively).
 */
export function parseTermList(text: string): Map<string, NonClinicalTerm> {
  const out = new Map<string, NonClinicalTerm>();
  for (const { cells: row, line } of tableRows(text)) {
    const term = row.term ?? '';
    const category = row.category ?? '';
    if (!term) throw new Error(`parseTermList: line ${line} has no term`);
    if (!(TERM_CATEGORIES as readonly string[]).includes(category)) {
      throw new Error(`parseTermList: line ${line} (${term}) has category '${category}', not one of ${TERM_CATEGORIES.join(', ')}`);
    }
    const key = term.toLowerCase();
    if (out.has(key)) throw new Error(`parseTermList: line ${line} lists '${term}' a second time`);
    out.set(key, { term, category: category as TermCategory, note: row.note ?? '' });
  }
  return out;
}

/** The whole list, keyed by lower-cased term (read and checked on the first call; throws when the file is missing or invalid). */
export const nonClinicalTerms: () => ReadonlyMap<string, NonClinicalTerm> = tableOnce(TERM_LIST_URL, parseTermList);

/**
 * The category of a MedDRA term, or null for a term not on the list (a clinical term).
 * Example: termCategory('Wrong drug administered') = 'medication_error';
 * termCategory('Intussusception') = null.
 */
export function termCategory(term: string): TermCategory | null {
  return nonClinicalTerms().get(term.trim().toLowerCase())?.category ?? null;
}
