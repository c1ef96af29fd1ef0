/**
 * `build --like STORE`: the options that decide what a store serves, read from the metadata of
 * the store it will replace, so that the weekly rebuild serves the same analyses (in the same
 * order: the first is the default), strata, narratives, non-domestic choice and grouping file of
 * its analyses of event groups (a user's file, recorded in the store) as the store it
 * replaces (a swap that would drop an analysis or the narratives is refused, src/http/live-store.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SHIPPED_EVENT_GROUPS_URL } from '../domain/event-groups.js';
import { UserError } from '../domain/user-error.js';
import { readStoreMeta } from '../serve/store/serving.js';
import type { BuildCommandOptions } from './build.js';

/** The options `--like` sets (the CLI refuses them given beside it). */
export const LIKE_OPTIONS = ['analyses', 'strata', 'narratives', 'includeNondomestic', 'eventGroups'] as const;

/** The options `--like` reads from a store. */
export type LikeOptions = Pick<BuildCommandOptions, (typeof LIKE_OPTIONS)[number]>;

/**
 * The build options of the store at `path`: its analyses (`parameters.analyses`, else the names
 * of `analyses`), strata, narratives and non-domestic choice as its metadata records them.
 * @throws UserError when the file is not a store, or is an import (it records no build options).
 */
export async function likeOptions(path: string): Promise<LikeOptions> {
  let meta;
  try {
    meta = await readStoreMeta(path);
  } catch (error) {
    throw new UserError(`build --like ${path}: ${(error as Error).message}`);
  }
  if (meta.origin !== 'build') throw new UserError(`build --like ${path}: the store was made by ${meta.origin}, not build: it records no build options`);
  const p = meta.parameters;
  const analyses = Array.isArray(p.analyses) && p.analyses.every((a) => typeof a === 'string') ? p.analyses as string[] : meta.analyses?.map((a) => a.name) ?? ['all'];
  const options: LikeOptions = { analyses: analyses.join(','), narratives: p.narratives === true, includeNondomestic: p.include_nondomestic === true };
  if (typeof p.strata === 'string') options.strata = p.strata;
  // A user's grouping file (not the shipped one) is recorded in the store: written to a temporary file for the rebuild.
  const recorded = meta.analyses?.find((a) => a.items === 'event_group' && a.event_groups)?.event_groups;
  if (recorded && recorded.digest !== createHash('sha256').update(readFileSync(SHIPPED_EVENT_GROUPS_URL, 'utf8'), 'utf8').digest('hex')) {
    const file = join(mkdtempSync(join(tmpdir(), 'rs-like-groups-')), basename(recorded.file));
    writeFileSync(file, recorded.csv);
    options.eventGroups = file;
  }
  return options;
}
