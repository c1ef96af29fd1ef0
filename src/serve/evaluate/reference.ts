/**
 * Reference sets: vaccine x event concepts of known status against which the signal methods are
 * evaluated (issue 47: a concept, not a preferred term, is the unit), as a CSV file with the header
 *
 *   id,vaccine,event,terms,group,class,emerged,source
 *
 * - `id`: a unique label of the concept (any text without leading or trailing spaces);
 * - `vaccine`: anything the `/signals` `vaccine` parameter accepts: a VAERS `VAX_NAME`, a vaccine
 *   type (`ROTAVIRUS`) or a VAERS `VAX_TYPE` code (`MMR`, `FLU3`), case-insensitive; a type or
 *   code expands to every product of the store (src/serve/query/names.ts `exactVaccines`);
 * - `event`: the concept's name (for a one-term concept, the term itself);
 * - `terms`: the concept's MedDRA preferred terms exactly as VAERS spells them, separated by `|`
 *   (`Crying|Screaming`); blank: the one term `event`. Synonyms are one concept, scored once;
 * - `group`: an item of the store's event-group analysis (a group label such as `Seizures`, or
 *   `LABEL (broad)`: src/domain/event-groups.ts) that stands for the concept, or blank. The concept
 *   is flagged in a window when any of its terms is, or its group item is (src/serve/evaluate/evaluate.ts);
 * - `class`: `positive` (an established adverse reaction of the vaccine), `negative` (a negative
 *   control: an outcome with no plausible vaccine cause that VAERS receives), `refuted` (a signal
 *   raised and later rejected), `administration` (an effect of any injection, not of the product)
 *   or `artefact` (reported for litigation or publicity); the last three are scored apart;
 * - `emerged`: for a positive, the quarter `YYYYQn` it became known (the first public report), or
 *   blank (known before the data); blank for the other classes;
 * - `source`: the citation the class rests on.
 *
 * The six-column header of the first sets (`id,vaccine,event,class,emerged,source`) is still read:
 * each row is then a one-term concept without a group. RFC 4180 quoting; `#` at the start of a line
 * makes it a comment; blank lines are skipped. A bad row (a missing field, an unknown class, a bad
 * quarter, `emerged` not on a positive, a repeated id or term) is reported with its line number and
 * skipped; a file with no valid row is a UserError.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { parseQuarterInput, type QuarterIndex } from '../../domain/quarter.js';
import { UserError } from '../../domain/user-error.js';

/** The columns of a reference set, in order. */
export const REFERENCE_COLUMNS = ['id', 'vaccine', 'event', 'terms', 'group', 'class', 'emerged', 'source'] as const;
/** The columns of the first reference sets (one term per row, no group), still read. */
export const LEGACY_REFERENCE_COLUMNS = ['id', 'vaccine', 'event', 'class', 'emerged', 'source'] as const;
/** What separates the terms of a concept in the `terms` cell. */
export const TERM_SEPARATOR = '|';

/** The classes of a reference concept: TP/FP/FN/TN come from `positive` and `negative`; the others are scored apart. */
export const REFERENCE_CLASSES = ['positive', 'negative', 'refuted', 'administration', 'artefact'] as const;
/** Class of a reference pair. */
export type ReferenceClass = (typeof REFERENCE_CLASSES)[number];

/** One valid row of a reference set: a vaccine x event concept. */
export interface ReferencePair {
  id: string;
  vaccine: string;
  /** The concept's name. */
  event: string;
  /** Its preferred terms (at least one, distinct, in file order). */
  terms: string[];
  /** The event-group item that stands for it, or null. */
  group: string | null;
  class: ReferenceClass;
  /** `YYYYQn` as written (normalised to upper case), or null. */
  emerged: string | null;
  /** Quarter index of `emerged` (src/domain/quarter.ts), or null. */
  emergedIndex: QuarterIndex | null;
  source: string;
  /** Line of the file the row starts on (1-based; the header is line 1). */
  line: number;
}

/** A skipped row: its line (1-based) and why. */
export interface ReferenceProblem {
  line: number;
  message: string;
}

/** A parsed reference set: the valid pairs and the skipped rows. */
export interface ReferenceSet {
  /** File name, for messages. */
  file: string;
  pairs: ReferencePair[];
  problems: ReferenceProblem[];
}

/** The problem of one row, or the pair. */
function checkRow(fields: Record<string, string>, line: number, seen: Set<string>): ReferencePair | string {
  const missing = REFERENCE_COLUMNS.filter((c) => c !== 'emerged' && c !== 'terms' && c !== 'group' && fields[c] === '');
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  const cls = fields.class.toLowerCase();
  if (!(REFERENCE_CLASSES as readonly string[]).includes(cls)) return `unknown class "${fields.class}" (expected ${REFERENCE_CLASSES.join(', ')})`;
  let emergedIndex: QuarterIndex | null = null;
  if (fields.emerged !== '') {
    if (parseQuarterInput(fields.emerged) === null) return `bad quarter "${fields.emerged}" in emerged (expected YYYYQn, e.g. 1999Q3)`;
    if (cls !== 'positive') return `emerged is given for a${/^[aeiou]/.test(cls) ? 'n' : ''} ${cls} pair (leave it blank)`;
    emergedIndex = parseQuarterInput(fields.emerged);
  }
  const terms = fields.terms === '' ? [fields.event] : fields.terms.split(TERM_SEPARATOR).map((t) => t.trim());
  if (terms.some((t) => t === '')) return `an empty term in terms "${fields.terms}" (terms are separated by ${TERM_SEPARATOR})`;
  const twice = terms.find((t, i) => terms.indexOf(t) !== i);
  if (twice !== undefined) return `term "${twice}" is listed twice`;
  if (seen.has(fields.id)) return `id "${fields.id}" is repeated`;
  seen.add(fields.id);
  return {
    id: fields.id, vaccine: fields.vaccine, event: fields.event, terms, group: fields.group === '' ? null : fields.group, class: cls as ReferenceClass,
    emerged: emergedIndex === null ? null : fields.emerged.toUpperCase(), emergedIndex, source: fields.source, line,
  };
}

/**
 * Parses the text of a reference set. Rows with a problem are skipped and listed.
 * @throws UserError naming `file` (and the line) when the header is not REFERENCE_COLUMNS, the
 *   CSV cannot be read, or no row is valid.
 */
export function parseReferenceSet(text: string, file: string): ReferenceSet {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { comment: '#', skip_empty_lines: true, relax_column_count: true, trim: true, info: true, bom: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new UserError(`${file}${line ? `:${line}` : ''}: not a CSV reference set: ${(error as Error).message}`);
  }
  if (records.length === 0) throw new UserError(`${file}: empty reference set (expected the header ${REFERENCE_COLUMNS.join(',')})`);
  const [header, ...rows] = records;
  const headerText = header.record.join(',').toLowerCase();
  const columns: readonly string[] | null = headerText === REFERENCE_COLUMNS.join(',') ? REFERENCE_COLUMNS
    : headerText === LEGACY_REFERENCE_COLUMNS.join(',') ? LEGACY_REFERENCE_COLUMNS : null;
  if (columns === null) {
    throw new UserError(`${file}:${header.info.lines}: the header must be ${REFERENCE_COLUMNS.join(',')} (or the one-term form ${LEGACY_REFERENCE_COLUMNS.join(',')}; got ${header.record.join(',')})`);
  }
  const pairs: ReferencePair[] = [];
  const problems: ReferenceProblem[] = [];
  const seen = new Set<string>();
  for (const { record, info } of rows) {
    // csv-parse counts lines up to the end of the record; a quoted field may span lines.
    const line = info.lines - record.reduce((k, field) => k + (field.match(/\n/g)?.length ?? 0), 0);
    if (record.length !== columns.length) {
      problems.push({ line, message: `${record.length} fields (expected ${columns.length}: ${columns.join(',')})` });
      continue;
    }
    const fields: Record<string, string> = { terms: '', group: '', ...Object.fromEntries(columns.map((c, i) => [c, record[i]])) };
    const checked = checkRow(fields, line, seen);
    if (typeof checked === 'string') problems.push({ line, message: checked });
    else pairs.push(checked);
  }
  if (pairs.length === 0) {
    const first = problems[0];
    throw new UserError(`${file}: no valid reference pair${first ? ` (line ${first.line}: ${first.message}${problems.length > 1 ? `; and ${problems.length - 1} more bad rows` : ''})` : ' (the file has a header only)'}`);
  }
  return { file, pairs, problems };
}

/**
 * Reads and parses a reference set file.
 * @throws UserError naming the file when it cannot be read or holds no valid pair.
 */
export async function readReferenceSet(file: string): Promise<ReferenceSet> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read the reference set ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseReferenceSet(text, file);
}
