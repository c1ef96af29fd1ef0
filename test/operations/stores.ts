/**
 * Two small real stores for the operations tests, built by the real build from the case-series
 * fixture (test/serve/cases/fixture.ts): `older` from the reports of 2000 (reports through 2000Q3) and
 * `newer` from those of 2000-2001 (through 2001Q4), so that a swap changes X-REPORTS-Through and
 * the store's build id. DuckDB files (one file each: a rename replaces the whole store).
 */
import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStore } from '../../src/ingest/mining/build.js';
import { writeCaseFolder } from '../serve/cases/fixture.js';

/** Paths of the two stores and of their temporary folder. */
export interface TwoStores {
  dir: string;
  older: string;
  newer: string;
}

/** Builds both stores in a new temporary folder. */
export async function buildTwoStores(): Promise<TwoStores> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-ops-'));
  const vaers = await writeCaseFolder(join(dir, 'vaers'));
  const newer = join(dir, 'newer.duckdb');
  await buildStore({ vaers, out: newer, analyses: 'all,serious', workers: 1 });
  for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) await rm(join(vaers, `2001VAERS${kind}.csv`));
  const older = join(dir, 'older.duckdb');
  await buildStore({ vaers, out: older, analyses: 'all,serious', workers: 1 });
  return { dir, older, newer };
}

/** Copies `from` to a temporary name beside `to`, then renames it onto `to` (as a build does). */
export async function replaceStore(from: string, to: string): Promise<void> {
  const tmp = `${to}.tmp-${process.pid}`;
  await copyFile(from, tmp);
  await rename(tmp, to);
}
