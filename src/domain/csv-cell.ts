/**
 * The one CSV cell writer of every CSV the program writes: the service's `format=csv` answers
 * (`/signals`, `/cases`, `/triage`) and the CLI's files (`score`, `evaluate`'s pairs.csv and
 * methods.csv). RFC 4180 quoting plus formula neutralisation (OWASP "CSV injection"):
 * - a string cell whose first character is `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 *   leading `'`, so that a spreadsheet opening the file shows the text instead of evaluating a
 *   formula (VAERS narratives are written by the public: report 77395 begins `+swelling`, 28812
 *   begins `@ 1030PM`);
 * - numbers and booleans are written as they are (`-1.5` stays a number: a value the program
 *   computed is never text from outside); only string cells are neutralised, so a negative number
 *   that reached the writer as a string (none does today) would be written `'-1.5`;
 * - then the cell is quoted when it holds a comma, a quote, CR or LF (quotes doubled);
 * - null and undefined are an empty cell.
 */

/** First characters a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (see the file comment): `csvCell('+swelling')` is `'+swelling`, `csvCell(-1.5)` is `-1.5`, `csvCell('a,b')` is `"a,b"`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
