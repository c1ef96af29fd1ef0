/**
 * Event groups: one medical concept counted once, not each of its preferred terms (issue 33;
 * docs/event-groups.md). A grouping file is a CSV with one row per group and term:
 *
 * ```text
 * group_id,group_label,term,scope,source,version
 * seizures,Seizures,Convulsion,narrow,"Brighton Collaboration ...",1
 * seizures,Seizures,Tonic clonic movements,broad,"Brighton Collaboration ...",1
 * ```
 *
 * - `group_id`: letters, digits, `_`, `-`, `.`; `group_label` names the group in every answer (a
 *   pair's `event`), the same on every row of the group and unique (ignoring case) among groups.
 * - `term`: a MedDRA preferred term exactly as the VAERS files spell it (SYMPTOM1..5); a term may
 *   sit in several groups, at most once in each.
 * - `scope`: `narrow` (the case definition's own diagnosis) or `broad` (its signs and symptoms, and
 *   alternative codings of the concept); the shipped file's basis: data/event-groups/README.md.
 * - `source`, `version`: where the group comes from (a case definition, a list of adverse events
 *   of special interest) and the group's version; the same on every row of the group.
 *
 * The items of a `@groups` analysis ({@link eventGroupItems}): per group, the item named by its
 * label counts the reports carrying any of its narrow terms; when the group has broad terms, the
 * item `LABEL (broad)` counts the reports carrying any of its terms, narrow or broad. A report
 * counts once per item however many of the item's terms it carries.
 *
 * Ground floor: imports nothing outside src/domain (and csv-parse, node:crypto).
 */
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';

/** The columns of a grouping file, in their canonical order (any order is read). */
export const EVENT_GROUP_COLUMNS = ['group_id', 'group_label', 'term', 'scope', 'source', 'version'] as const;

/** The scopes of a term in a group. */
export const EVENT_GROUP_SCOPES = ['narrow', 'broad'] as const;

/** A term's scope in its group. */
export type EventGroupScope = (typeof EVENT_GROUP_SCOPES)[number];

/** What the label of a group's broad item ends with. */
export const BROAD_SUFFIX = ' (broad)';

/** The shipped groups (docs/event-groups.md): `data/event-groups/aesi.csv` at the repository root. */
export const SHIPPED_EVENT_GROUPS_URL = new URL('../../data/event-groups/aesi.csv', import.meta.url);

/** One term of a group, with the line of the file that lists it. */
export interface EventGroupTerm {
  term: string;
  scope: EventGroupScope;
  line: number;
}

/** One group of a grouping file, its terms in file order. */
export interface EventGroup {
  id: string;
  label: string;
  source: string;
  version: string;
  terms: EventGroupTerm[];
}

/** A grouping file read: its groups in file order and the SHA-256 of its bytes (hex). */
export interface EventGroupSet {
  groups: EventGroup[];
  /** SHA-256 (hex) of the file's UTF-8 text: recorded in the analysis metadata and the cache key. */
  digest: string;
}

/**
 * Limits of a grouping file (issue 45: a file with a 50 MB cell or a million rows built a store
 * the server then refused), checked before anything is built: its size in bytes (UTF-8), its data
 * rows, the characters of one cell, the terms of one group. The shipped file has 110 rows, 14
 * groups, at most 13 terms in a group and 178 characters in a cell.
 */
export const EVENT_GROUP_LIMITS = { bytes: 1_048_576, rows: 10_000, cellCharacters: 1_000, termsPerGroup: 500 } as const;

/** The problems an error message lists (the rest are counted). */
export const PROBLEMS_SHOWN = 10;

/** A grouping file that cannot be read: its problems, each naming its line (the message lists the first PROBLEMS_SHOWN and counts the rest). */
export class EventGroupsError extends Error {
  constructor(readonly file: string, readonly problems: readonly string[]) {
    const shown = problems.slice(0, PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the grouping file:\n  ${shown.join('\n  ')}${more > 0 ? `\n  ... and ${more} more` : ''}`);
    this.name = 'EventGroupsError';
  }
}

/** The problem of a grouping file of `bytes` bytes, or null within EVENT_GROUP_LIMITS.bytes (the build checks it before reading the file). */
export function fileSizeProblem(bytes: number): string | null {
  return bytes > EVENT_GROUP_LIMITS.bytes ? `the file has ${bytes} bytes, more than the ${EVENT_GROUP_LIMITS.bytes} a grouping file may have (docs/event-groups.md, limits)` : null;
}

/** A cell as a message quotes it: at most 60 characters. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

const ID_PATTERN = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads a grouping file's text (`file` names it in the messages). All or nothing: every problem
 * is collected, then thrown together.
 * @throws EventGroupsError naming each line: a file, a row count, a cell or a group's terms past
 *   EVENT_GROUP_LIMITS (the size before the file is parsed); a missing, unknown or repeated column; a row with a
 *   wrong number of cells; an empty cell; a bad group id; a scope other than narrow/broad; a group
 *   whose rows disagree on label, source or version; a label used by two groups (ignoring case)
 *   or ending in " (broad)"; a term listed twice in one group (a duplicate row); no group at all.
 */
export function parseEventGroups(text: string, file: string): EventGroupSet {
  const problems: string[] = [];
  const tooLarge = fileSizeProblem(Buffer.byteLength(text, 'utf8'));
  if (tooLarge !== null) throw new EventGroupsError(file, [tooLarge]);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { info: true, relax_column_count: true, skip_empty_lines: true, bom: true, trim: true }) as unknown as typeof records;
  } catch (error) {
    throw new EventGroupsError(file, [`not readable as CSV: ${(error as Error).message.slice(0, 300)}`]);
  }
  if (records.length - 1 > EVENT_GROUP_LIMITS.rows) throw new EventGroupsError(file, [`the file has ${records.length - 1} rows, more than the ${EVENT_GROUP_LIMITS.rows} a grouping file may have (docs/event-groups.md, limits)`]);
  for (const { record, info } of records) {
    const long = record.findIndex((cell) => cell.length > EVENT_GROUP_LIMITS.cellCharacters);
    if (long >= 0) problems.push(`line ${info.lines}: cell ${long + 1} has ${record[long].length} characters, more than the ${EVENT_GROUP_LIMITS.cellCharacters} a cell may have`);
  }
  if (problems.length > 0) throw new EventGroupsError(file, problems);
  if (records.length === 0) throw new EventGroupsError(file, ['empty file: expected the header ' + EVENT_GROUP_COLUMNS.join(',')]);
  const header = records[0].record;
  const headerLine = records[0].info.lines;
  for (const [i, name] of header.entries()) {
    if (!(EVENT_GROUP_COLUMNS as readonly string[]).includes(name)) problems.push(`line ${headerLine}: unknown column ${quoted(name)} (the columns: ${EVENT_GROUP_COLUMNS.join(', ')})`);
    else if (header.indexOf(name) !== i) problems.push(`line ${headerLine}: column "${name}" is named twice`);
  }
  const missing = EVENT_GROUP_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) problems.push(`line ${headerLine}: missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  if (problems.length > 0) throw new EventGroupsError(file, problems);
  const column = Object.fromEntries(EVENT_GROUP_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof EVENT_GROUP_COLUMNS)[number], number>;

  const groups = new Map<string, EventGroup & { line: number }>();
  const termLine = new Map<string, number>();
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    if (record.length !== header.length) {
      problems.push(`line ${line}: ${record.length} cells, expected ${header.length}`);
      continue;
    }
    const cell = (name: (typeof EVENT_GROUP_COLUMNS)[number]): string => record[column[name]];
    const empty = EVENT_GROUP_COLUMNS.filter((c) => cell(c) === '');
    if (empty.length > 0) {
      problems.push(`line ${line}: empty ${empty.join(', ')}${empty.includes('term') ? ` (group "${cell('group_id')}" needs a term on every row)` : ''}`);
      continue;
    }
    const id = cell('group_id');
    const scope = cell('scope');
    if (!ID_PATTERN.test(id)) problems.push(`line ${line}: group_id "${id}" may hold only letters, digits, _, - and .`);
    if (!(EVENT_GROUP_SCOPES as readonly string[]).includes(scope)) problems.push(`line ${line}: scope "${scope}" is not narrow or broad`);
    let group = groups.get(id);
    if (!group) {
      group = { id, label: cell('group_label'), source: cell('source'), version: cell('version'), terms: [], line };
      groups.set(id, group);
    } else {
      for (const [name, value] of [['group_label', group.label], ['source', group.source], ['version', group.version]] as const) {
        if (cell(name) !== value) problems.push(`line ${line}: ${name} "${cell(name)}" differs from line ${group.line}'s "${value}" for group "${id}"`);
      }
    }
    const key = `${id}\u0000${cell('term')}`;
    const earlier = termLine.get(key);
    if (earlier !== undefined) problems.push(`line ${line}: duplicate row: term "${cell('term')}" is already in group "${id}" (line ${earlier})`);
    else termLine.set(key, line);
    if (earlier === undefined && (EVENT_GROUP_SCOPES as readonly string[]).includes(scope)) group.terms.push({ term: cell('term'), scope: scope as EventGroupScope, line });
  }
  const byLabel = new Map<string, EventGroup & { line: number }>();
  for (const group of groups.values()) {
    if (group.label.endsWith(BROAD_SUFFIX)) problems.push(`line ${group.line}: group_label "${group.label}" may not end with "${BROAD_SUFFIX}" (the name of a group's broad item)`);
    const other = byLabel.get(group.label.toLowerCase());
    if (other) problems.push(`line ${group.line}: group_label "${group.label}" is also the label of group "${other.id}" (line ${other.line}); labels name the groups in answers and must differ`);
    else byLabel.set(group.label.toLowerCase(), group);
  }
  for (const group of groups.values()) {
    if (group.terms.length > EVENT_GROUP_LIMITS.termsPerGroup) problems.push(`line ${group.line}: group "${group.id}" has ${group.terms.length} terms, more than the ${EVENT_GROUP_LIMITS.termsPerGroup} a group may have`);
  }
  if (problems.length === 0 && groups.size === 0) problems.push('no group: the file has a header but no row');
  if (problems.length > 0) throw new EventGroupsError(file, problems);
  return {
    groups: [...groups.values()].map(({ line: _line, ...group }) => group),
    digest: createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}

/** One item of a `@groups` analysis: a pair's `event` (the group's label, or `LABEL (broad)`) and the terms it counts. */
export interface EventGroupItem {
  /** The item's name: the group's label (narrow terms) or `LABEL (broad)` (narrow and broad terms). */
  name: string;
  group: EventGroup;
  scope: EventGroupScope;
  /** The terms a report carries to count in the item, in file order. */
  terms: EventGroupTerm[];
}

/**
 * The items of a grouping (see the module's comment), sorted by name (UTF-16 code units): per
 * group the narrow item (when the group has narrow terms) and the broad item (when it has broad
 * terms: all its terms).
 */
export function eventGroupItems(set: EventGroupSet): EventGroupItem[] {
  const items: EventGroupItem[] = [];
  for (const group of set.groups) {
    const narrow = group.terms.filter((t) => t.scope === 'narrow');
    if (narrow.length > 0) items.push({ name: group.label, group, scope: 'narrow', terms: narrow });
    if (narrow.length < group.terms.length) items.push({ name: `${group.label}${BROAD_SUFFIX}`, group, scope: 'broad', terms: group.terms });
  }
  return items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A term of the grouping file that no report carries (a warning of the build, by line). */
export interface TermInNoReport {
  line: number;
  group_id: string;
  term: string;
}

/** The terms of `set` that are not among `knownTerms` (the terms of the reports read), in file order. */
export function termsInNoReport(set: EventGroupSet, knownTerms: ReadonlySet<string>): TermInNoReport[] {
  return set.groups.flatMap((g) => g.terms.filter((t) => !knownTerms.has(t.term)).map((t) => ({ line: t.line, group_id: g.id, term: t.term })))
    .sort((a, b) => a.line - b.line);
}

/** What a `@groups` analysis records of its grouping file in the store's metadata (`AnalysisMeta.event_groups`). */
export interface EventGroupsMeta {
  /** The file's name (its base name; the shipped file: `aesi.csv`). */
  file: string;
  /** SHA-256 (hex) of the file's text. */
  digest: string;
  /** The file's text, read again by the server with {@link parseEventGroups} (so one reader checks it). */
  csv: string;
  /** The file's terms that no report of the build carries. */
  terms_in_no_report: TermInNoReport[];
}
