/**
 * The build's event-groups step (docs/event-groups.md): the grouping file of the `@groups`
 * analyses is read and checked before the reports (a bad file stops the build before anything is
 * written: never a partial analysis), and after the read the file's terms that no report carries
 * are listed (a warning of the closing summary, by line; the analysis is still built).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisDefinition } from '../../domain/analysis-rules.js';
import {
  eventGroupItems, EventGroupsError, fileSizeProblem, parseEventGroups, SHIPPED_EVENT_GROUPS_URL, termsInNoReport, type EventGroupSet, type EventGroupsMeta, type TermInNoReport,
} from '../../domain/event-groups.js';
import { UserError } from '../../domain/user-error.js';

/** A grouping file read for the build: its name, text and groups. */
export interface EventGroupsRead {
  /** The file's base name (`aesi.csv` for the shipped groups). */
  file: string;
  /** Whether it is the shipped file (no `--event-groups`). */
  shipped: boolean;
  text: string;
  set: EventGroupSet;
}

/** What the closing summary says of the grouping file (BuildSummary.eventGroups). */
export interface EventGroupsSummary {
  file: string;
  shipped: boolean;
  digest: string;
  groups: number;
  /** Rows of the file (group x term). */
  terms: number;
  /** Items of the `@groups` analyses (a group's narrow item, and its broad item when it has broad terms). */
  items: number;
  terms_in_no_report: TermInNoReport[];
}

/**
 * Reads the grouping file when an analysis of `analyses` counts event groups: `path` (`build
 * --event-groups FILE`) or else the shipped data/event-groups/aesi.csv.
 * @returns null when no analysis counts event groups.
 * @throws UserError when `path` is given but no analysis counts event groups, when the file cannot
 *   be read, or when it is not a valid grouping file (every problem by line: src/domain/event-groups.ts).
 */
export async function readEventGroups(path: string | undefined, analyses: readonly AnalysisDefinition[]): Promise<EventGroupsRead | null> {
  const wanted = analyses.some((a) => a.items === 'event_group');
  if (!wanted) {
    if (path !== undefined) throw new UserError(`--event-groups: no analysis counts event groups (name one with @groups, e.g. --analyses stratified,groups)`);
    return null;
  }
  const file = path ?? fileURLToPath(SHIPPED_EVENT_GROUPS_URL);
  let text: string;
  try {
    // Its size first: a file past the limit is never read into memory (src/domain/event-groups.ts EVENT_GROUP_LIMITS).
    const tooLarge = fileSizeProblem((await stat(file)).size);
    if (tooLarge !== null) throw new UserError(`--event-groups: ${new EventGroupsError(file, [tooLarge]).message}`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`--event-groups: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return { file: basename(file), shipped: path === undefined, text, set: parseEventGroups(text, file) };
  } catch (error) {
    if (error instanceof EventGroupsError) throw new UserError(`--event-groups: ${error.message}`);
    throw error;
  }
}

/** The grouping file as the store's metadata records it (AnalysisMeta.event_groups); `terms` are the read's term names. */
export function eventGroupsMeta(read: EventGroupsRead, terms: readonly string[]): EventGroupsMeta {
  return { file: read.file, digest: read.set.digest, csv: read.text, terms_in_no_report: termsInNoReport(read.set, new Set(terms)) };
}

/** The grouping file as the closing summary reports it; `terms` are the read's term names. */
export function eventGroupsSummary(read: EventGroupsRead, terms: readonly string[]): EventGroupsSummary {
  return {
    file: read.file, shipped: read.shipped, digest: read.set.digest, groups: read.set.groups.length,
    terms: read.set.groups.reduce((sum, g) => sum + g.terms.length, 0), items: eventGroupItems(read.set).length,
    terms_in_no_report: termsInNoReport(read.set, new Set(terms)),
  };
}
