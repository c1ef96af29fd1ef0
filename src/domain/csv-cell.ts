/**
 * The one CSV cell writer of every CSV the program writes: the service's `format=csv` answers
 * (`/signals`, `/cases`, `/triage`), the CLI's files (`score`, `evaluate`'s pairs.csv and
 * methods.csv) and, as the same rule in SQL ({@link csvTextSql}), the bulk export's CSV files,
 * which DuckDB writes (src/serve/export). RFC 4180 quoting plus formula neutralisation (OWASP
 * "CSV injection"):
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

/** First characters a spreadsheet reads as the start of a formula: `=`, `+`, `-`, `@`, tab, carriage return. */
export const FORMULA_START_CHARACTERS = ['=', '+', '-', '@', '\t', '\r'] as const;
const FORMULA_START: ReadonlySet<string> = new Set(FORMULA_START_CHARACTERS);

/** One CSV cell (see the file comment): `csvCell('+swelling')` is `'+swelling`, `csvCell(-1.5)` is `-1.5`, `csvCell('a,b')` is `"a,b"`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.has(text[0])) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The same neutralisation as {@link csvCell} as a DuckDB expression over a VARCHAR column (for a
 * `COPY ... (FORMAT csv)`, whose writer does the RFC 4180 quoting: a cell holding a comma, a
 * quote, CR or LF is quoted, quotes doubled): `'` prepended when the text starts with one of
 * FORMULA_START_CHARACTERS, null kept null.
 * @param column a quoted DuckDB identifier (`"narrative"`)
 * @returns e.g. `CASE WHEN left("term", 1) IN (chr(61), ...) THEN '''' || "term" ELSE "term" END`
 */
export function csvTextSql(column: string): string {
  const starts = FORMULA_START_CHARACTERS.map((c) => `chr(${c.charCodeAt(0)})`).join(', ');
  return `CASE WHEN left(${column}, 1) IN (${starts}) THEN '''' || ${column} ELSE ${column} END`;
}
