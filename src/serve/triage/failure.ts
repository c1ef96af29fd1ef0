/**
 * Vaccine failure (the triage caution `vaccine_failure`): a pair whose event says the vaccine did
 * not work, either a lack-of-effect term (src/serve/triage/term-category.ts category `lack_of_effect`:
 * "Drug ineffective", "Vaccination failure", ...) or the disease the pair's vaccine prevents,
 * reported after it (`data/terms/vaccine-prevented.csv`, read once on first use; its README says
 * what it lists and leaves out). Such a pair is about effectiveness, not an adverse reaction.
 */
import { tableOnce, tableRows } from '../query/csv-table.js';
import { termCategory } from './term-category.js';

/** One row of the list: a word that begins a word of the vax_type, and the disease term. */
export interface PreventedDisease {
  vaccine: string;
  event: string;
}

/** Where the list lives: `data/terms/vaccine-prevented.csv` at the repository root. */
export const PREVENTED_LIST_URL = new URL('../../../data/terms/vaccine-prevented.csv', import.meta.url);

/**
 * Parses the list's CSV text (header `vaccine,event,note`).
 * @throws Error naming the line of a row without a vaccine or an event.
 */
export function parsePreventedList(text: string): PreventedDisease[] {
  return tableRows(text).map(({ cells, line }) => {
    if (!cells.vaccine || !cells.event) throw new Error(`parsePreventedList: line ${line} needs a vaccine and an event`);
    return { vaccine: cells.vaccine, event: cells.event };
  });
}

const preventedList = tableOnce(PREVENTED_LIST_URL, parsePreventedList);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `word` begins a word of `vaxType` (case-insensitive). Example: startsAWord('DTAP + HEPB + IPV', 'HEPB') = true; startsAWord('HEP B', 'HEP A') = false. */
function startsAWord(vaxType: string, word: string): boolean {
  return new RegExp(`(?:^|[^A-Z0-9])${escape(word)}`, 'i').test(vaxType);
}

/**
 * Why a pair reads as vaccine failure, or null: `lack_of_effect` for a lack-of-effect term, or
 * `prevented_disease` when `event` is a disease the vaccine of type `vaxType` prevents.
 * Example: failureKind('VARICELLA', 'Varicella') = 'prevented_disease'; failureKind('VARICELLA', 'Herpes zoster') = null;
 * failureKind('HEP B', 'Drug ineffective') = 'lack_of_effect'.
 */
export function failureKind(vaxType: string, event: string): 'lack_of_effect' | 'prevented_disease' | null {
  if (termCategory(event) === 'lack_of_effect') return 'lack_of_effect';
  const term = event.trim().toLowerCase();
  return preventedList().some((row) => row.event.toLowerCase() === term && startsAWord(vaxType, row.vaccine)) ? 'prevented_disease' : null;
}
