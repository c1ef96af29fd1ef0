/**
 * What a report's other fields say of its patient and its episode (issue 43, round 9, declared
 * post hoc in docs/duplicates.md; tuned on every label of rounds 1-8, round 8's now tuning data).
 * Round 8's wrong clusters and the twins of earlier rounds differed in what the linkage did not
 * read: HISTORY, PRIOR_VAX, RPT_DATE, a case's number in the narrative, the numbers a form writes.
 *
 * Per report (`readFormEvidence`, row by row into `emptyFormEvidence`; patient-evidence.ts reads it with the rest):
 * - `caseLabel`: the label a narrative gives its patient among several ("Case 1 -- Local reddened
 *   area", "Case 2 -- ..."; "case #2", "patient #2", "pt #1", "Twin A", "Baby B", "triplet C"),
 *   as a hash, 0 when none: two labels that differ are two patients of one reporter;
 * - `numbers`: the sorted distinct hashes of the numbers a narrative writes ("BP 192/86, P 104,
 *   T 99.1" gives 192, 86, 104, 99.1), empty when none: a form written twice copies its numbers
 *   (two recruits of one template: "BP 192/86, P 104" against "BP 166/100, P 87"; twins of one
 *   day: "1st day measured 4.5 x 4" against "4x3");
 * - `sibling`: which of HISTORY and PRIOR_VAX name a sibling, twin or triplet: two forms stating
 *   one of these fields, only one naming a sibling there ("pt sibling exp rxn 14APR99 @ 3 1/2mo"
 *   against "pt exp rxn 14APR99 @ 3 1/2mo"), are forms of two children of a family
 *   (otherSiblingFields; a blank field says nothing, a copy may leave it out; the narrative's own
 *   wording is patient-evidence.ts `sibling`).
 * The per-report word lists of HISTORY and PRIOR_VAX (features.ts `history`, `priorVax`) and the
 * day the form was written (features.ts `writtenDay`, RPT_DATE) are in LinkageFeatures.
 */
import { jaccard, sortedIncludes } from './compare.js';
import { fnv1a, NO_MEDICINE, type LinkageFeatures } from './features.js';

/** A label among several patients: "Case 1", "case #2", "patient #2", "pt #1", "Twin A", "Baby B", "triplet C" (the letter in capitals). */
const CASE_LABEL = /\b(?:[Cc]ase|CASE)\s*#?\s*(\d{1,2})\b(?!\s*(?:[/.,:]\d|%|years?|yrs?|months?|mos?|weeks?|wks?|days?|hrs?|hours?|doses?))|\b(?:patient|pt|PATIENT|PT|Patient|Pt)\s*#\s*(\d{1,2})\b|\b(?:[Tt]win|TWIN|[Bb]aby|BABY|[Tt]riplet|TRIPLET)\s+([ABC])\b/;
/** Dates ("1/10/01", "9/11", "3-28-07") and years (1999, 2000), left out of a narrative's numbers: a follow-up adds its own. */
const DATES = /\b\d{1,2}[/-]\d{1,2}(?:[/-]\d{2,4})?\b|\b(?:19|20)\d\d\b/g;
/** A number, not an ordinal ("1st day", "2nd dose"). */
const NUMBER = /\d+(?:\.\d+)?(?!\d|\.\d|st\b|nd\b|rd\b|th\b)/gi;
const SIBLING = /\b(?:twins?|triplets?|siblings?|brothers?|sisters?)\b/i;

/** Whether a text (a narrative, HISTORY, PRIOR_VAX) names a sibling or twin. */
export function namesSibling(text: string): boolean {
  return SIBLING.test(text);
}

/** The label a narrative gives its patient among several (see the module header), '' when none. */
export function caseLabelOf(text: string): string {
  const m = CASE_LABEL.exec(text);
  if (m === null) return '';
  // "Case 2" and "pt #2" number one reporter's series; "Twin A" and "Baby A" a family's.
  return m[3] === undefined ? `case ${Number(m[1] ?? m[2])}` : `sibling ${m[3]}`;
}

/** Which of HISTORY (1) and PRIOR_VAX (2) name a sibling, twin or triplet, as bits. */
export function fieldsNamingSibling(history: string | null | undefined, priorVax: string | null | undefined): number {
  return (namesSibling(history ?? '') ? 1 : 0) | (namesSibling(priorVax ?? '') ? 2 : 0);
}

const EMPTY = new Int32Array(0);

/** The sorted distinct hashes of the numbers a narrative writes (see the module header). */
export function numbersOf(text: string | null | undefined): Int32Array {
  const found = text?.replace(DATES, ' ').match(NUMBER);
  if (!found) return EMPTY;
  return Int32Array.from(new Set(found.map((x) => fnv1a(String(Number(x)))))).sort();
}

/** A report's form evidence (see the module header), index i: report row i. */
export interface FormEvidence {
  /** Hash of caseLabelOf, 0 when none. */
  caseLabel: Int32Array;
  /** numbersOf the narrative. */
  numbers: Int32Array[];
  /** fieldsNamingSibling: bit 1 HISTORY, bit 2 PRIOR_VAX names a sibling, twin or triplet. */
  sibling: Uint8Array;
}

/** The form evidence of `count` reports without text (every text blank), to be read row by row (readFormEvidence). */
export function emptyFormEvidence(count: number): FormEvidence {
  return { caseLabel: new Int32Array(count), numbers: new Array<Int32Array>(count).fill(EMPTY), sibling: new Uint8Array(count) };
}

/** Sets row i of `e` from that report's SYMPTOM_TEXT, HISTORY and PRIOR_VAX (null or undefined: blank). */
export function readFormEvidence(e: FormEvidence, i: number, narrative: string | null | undefined, history: string | null | undefined, priorVax: string | null | undefined): void {
  if (narrative) {
    const label = caseLabelOf(narrative);
    e.caseLabel[i] = label === '' ? 0 : fnv1a(label) || 1;
    e.numbers[i] = numbersOf(narrative);
  }
  e.sibling[i] = fieldsNamingSibling(history, priorVax);
}

/** Whether the two narratives label their patients otherwise ("Case 1" and "Case 2"; see the module header). */
export function otherCaseLabels(e: FormEvidence, a: number, b: number): boolean {
  return e.caseLabel[a] !== 0 && e.caseLabel[b] !== 0 && e.caseLabel[a] !== e.caseLabel[b];
}

/**
 * Whether both narratives write numbers and some number of the one writing fewer is not in the
 * other (a form written twice copies its numbers; a follow-up may add some: "fever of 99.6"
 * against "On 1/10/01 ... fever of 99.6", dates and years left out).
 */
export function otherNumbers(e: FormEvidence, a: number, b: number): boolean {
  const [x, y] = e.numbers[a].length <= e.numbers[b].length ? [e.numbers[a], e.numbers[b]] : [e.numbers[b], e.numbers[a]];
  if (x.length === 0) return false;
  for (const value of x) if (!sortedIncludes(y, value)) return true;
  return false;
}

/** Whether both reports state HISTORY, or both PRIOR_VAX, and only one of the two names a sibling there (see FormEvidence `sibling`). */
export function otherSiblingFields(f: LinkageFeatures, e: FormEvidence, a: number, b: number): boolean {
  const differ = (e.sibling[a] ^ e.sibling[b]);
  return ((differ & 1) !== 0 && f.history[a].length > 0 && f.history[b].length > 0)
    || ((differ & 2) !== 0 && f.priorVax[a].length > 0 && f.priorVax[b].length > 0);
}

/** Whether both reports state a HISTORY and they disagree: none against a history, or two histories with no word in common (features.ts history). */
export function otherHistories(f: LinkageFeatures, a: number, b: number): boolean {
  const [x, y] = [f.history[a], f.history[b]];
  if (x.length === 0 || y.length === 0) return false;
  const none = (h: Int32Array): boolean => h.length === 1 && h[0] === NO_MEDICINE;
  if (none(x) && none(y)) return false;
  return jaccard(x, y) === 0;
}

/** PRIOR_VAX words, at least this many, that a later report shares with the earlier report's narrative (citesReaction). */
export const PRIOR_WORDS = 3;

/** The share of the earlier report's narrative words that the later report's PRIOR_VAX holds (citesReaction). */
export const PRIOR_SHARE = 0.6;

/**
 * Whether one report's PRIOR_VAX tells the other's reaction as an earlier one (one person's
 * later dose: "p/2nd dose severe nausea" against the other's whole narrative "pt exp severe nausea
 * p/2nd vax"): PRIOR_VAX holds PRIOR_WORDS or more of the other's narrative words and at least
 * PRIOR_SHARE of them. One person's reports of one reaction each name the earlier dose's reaction
 * in PRIOR_VAX ("pt exp hives w/1st dose"), a part of the narrative, not the whole.
 */
export function citesReaction(f: LinkageFeatures, a: number, b: number): boolean {
  const cites = (x: number, y: number): boolean => {
    const [prior, told] = [f.priorVax[x], f.narrative[y]];
    if (prior.length < PRIOR_WORDS || told.length === 0) return false;
    let shared = 0;
    for (const w of told) if (sortedIncludes(prior, w)) shared++;
    return shared >= PRIOR_WORDS && shared >= PRIOR_SHARE * told.length;
  };
  return cites(a, b) || cites(b, a);
}
