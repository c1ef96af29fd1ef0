/**
 * The event-groups fixture of the HTTP and explorer tests: the history fixture's VAERS folder
 * (test/ingest/mining/fixtures.ts historyFixture) and a user's grouping file with a group with a
 * broad term, a term in two groups and a term no report carries, built with
 * `build --analyses stratified,groups --event-groups FILE`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildStore } from '../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../src/ingest/mining/summary.js';
import { historyFixture, writeVaersFolder, type FixtureReport } from '../ingest/mining/fixtures.js';

/** The grouping file (line 6: Angioedema, a term no report of the fixture carries). */
export const GROUPS_CSV = [
  'group_id,group_label,term,scope,source,version',
  'faint,Fainting,Syncope,narrow,test source,1',
  'faint,Fainting,Dizziness,broad,test source,1',
  'skin,Skin eruptions,Rash,narrow,test source,2',
  'skin,Skin eruptions,Urticaria,narrow,test source,2',
  'skin,Skin eruptions,Angioedema,broad,test source,2',
  'dizzy,Dizziness group,Dizziness,narrow,test source,1',
].join('\n');

/** The vaccine of the fixture's Syncope cluster. */
export const GARDASIL = 'HPV (GARDASIL)';

/**
 * Writes the fixture into `dir` and builds `dir/store.duckdb`: the reports, the store's path and
 * the build summary. `groups` (default GROUPS_CSV) and `reports` (default historyFixture()) craft another.
 */
export async function writeGroupsStore(dir: string, groups = GROUPS_CSV, reports: FixtureReport[] = historyFixture()): Promise<{ reports: FixtureReport[]; store: string; summary: BuildSummary }> {
  await writeVaersFolder(path.join(dir, 'vaers'), reports);
  writeFileSync(path.join(dir, 'mine.csv'), groups);
  const store = path.join(dir, 'store.duckdb');
  const summary = await buildStore({ vaers: path.join(dir, 'vaers'), out: store, analyses: 'stratified,groups', eventGroups: path.join(dir, 'mine.csv'), workers: 1 });
  return { reports, store, summary };
}
