/**
 * Where the default store lives and what it is keyed by (docs/design.md "Where the default
 * data comes from"). `serve` without `--store` serves the default analyses built from the
 * official files in `data/vaers` into a cache folder, in a file whose name carries a digest of
 * everything its content depends on, so that a stale store is never served:
 * - the input files: name and SHA-256 of every file of the VAERS folder (the build reads them all);
 * - the build's own code: exactly the source modules a build runs, the transitive imports of the
 *   builder's entry (src/cache/build-code.ts; read from `src/`, whether the program runs from
 *   `dist/` or under tsx, so both find the same store), so a change to the reading, linkage,
 *   counting, statistics, analyses or store writing rebuilds, and a change to the serving wing,
 *   the HTTP layer or the commands does not (docs/architecture.md); plus DuckDB's library
 *   version (the file format);
 * - the build's parameters: the analyses (DEFAULT_ANALYSES) and CACHE_FORMAT.
 * - when an analysis counts event groups (`groups`), the SHA-256 of the shipped grouping file
 *   data/event-groups/aesi.csv (docs/event-groups.md), so an edited group rebuilds.
 * Cache folder: `$REPORTING_SIGNALS_CACHE_DIR`, else `$XDG_CACHE_HOME/reporting-signals`, else
 * `~/.cache/reporting-signals`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { analysisRule, DEFAULT_ANALYSES } from '../domain/analysis-rules.js';
import { SHIPPED_EVENT_GROUPS_URL } from '../domain/event-groups.js';
import { buildCodeDigest } from './build-code.js';

/**
 * Version of the cache entry's layout and of the builder's fixed options (src/cache/ is outside the
 * code digest): bump to rebuild every cached store. 2: the default store keeps the narratives; 3: the duplicate-report linkage (report column cluster, table report_links).
 */
export const CACHE_FORMAT = 3;

/** The source tree (`src/` beside `dist/`): the digest reads the sources whichever tree runs. */
export const SOURCE_ROOT = fileURLToPath(new URL('../../src/', import.meta.url));

/** The official 1990-2006 files shipped with the program (data/vaers beside dist/ and src/). */
export const DEFAULT_VAERS_DIR = fileURLToPath(new URL('../../data/vaers/', import.meta.url));

/**
 * The cache folder from the environment: `REPORTING_SIGNALS_CACHE_DIR`, else
 * `XDG_CACHE_HOME/reporting-signals`, else `HOME/.cache/reporting-signals` (empty values unset).
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (env.REPORTING_SIGNALS_CACHE_DIR) return env.REPORTING_SIGNALS_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'reporting-signals');
  return join(home, '.cache', 'reporting-signals');
}

/** SHA-256 of a file's bytes, hex. */
async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file below `dir` (relative paths, sorted). */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...await filesBelow(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** DuckDB's library version (the store's file format). */
async function duckdbVersion(): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return String((await connection.runAndReadAll('SELECT version() AS v')).getRowObjectsJS()[0].v);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What the default store's key digests (kept in the cache beside nothing: recomputed at each start). */
export interface CacheKey {
  /** 16 hex digits of SHA-256 over the parts below. */
  key: string;
  /** Name and SHA-256 of every input file. */
  inputs: Array<{ name: string; sha256: string }>;
  /** SHA-256 over the build's code files (path and content: build-code.ts). */
  code: string;
  analyses: readonly string[];
  duckdb: string;
  /** SHA-256 of the shipped grouping file (data/event-groups/aesi.csv) when an analysis counts event groups. */
  event_groups?: string;
}

/**
 * The key of the default store built from `vaers` with `analyses`.
 * @throws Error naming the folder when it cannot be read.
 */
export async function cacheKey(vaers: string, analyses: readonly string[] = DEFAULT_ANALYSES): Promise<CacheKey> {
  let names: string[];
  try {
    names = (await filesBelow(vaers)).filter((f) => !/(^|\/)README(\.md)?$/i.test(f));
  } catch (error) {
    throw new Error(`cannot read the VAERS folder ${vaers}: ${(error as Error).message}`, { cause: error });
  }
  const inputs = await Promise.all(names.map(async (name) => ({ name, sha256: await fileDigest(join(vaers, name)) })));
  // The shipped grouping file of the @groups analyses (docs/event-groups.md): a new group or term rebuilds.
  const eventGroups = analyses.some((a) => analysisRule(a)?.items === 'event_group') ? await fileDigest(fileURLToPath(SHIPPED_EVENT_GROUPS_URL)) : null;
  const parts = { format: CACHE_FORMAT, inputs, code: await buildCodeDigest(SOURCE_ROOT), analyses: [...analyses], duckdb: await duckdbVersion(), ...(eventGroups ? { event_groups: eventGroups } : {}) };
  return { key: createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16), ...parts };
}

/** The file names of one cache entry in `dir`. */
export interface CacheEntry {
  dir: string;
  /** The store: `default-<key>.duckdb`. */
  store: string;
  /** The builder's lock: `default-<key>.lock` (JSON `{pid, started}`). */
  lock: string;
  /** The builder's progress for processes waiting on it: `default-<key>.progress.json`. */
  progress: string;
}

/** The names of the cache entry of `key` in `dir`. */
export function cacheEntry(dir: string, key: string): CacheEntry {
  const base = join(dir, `default-${key}`);
  return { dir, store: `${base}.duckdb`, lock: `${base}.lock`, progress: `${base}.progress.json` };
}

/** Whether a path exists (any kind). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
