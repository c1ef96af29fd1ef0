/**
 * The default store: `serve` without `--store` serves the default analyses built from
 * the official files (data/vaers) into the cache (key.ts). `ensureDefaultStore` returns the path
 * of a complete cached store, building it first when absent:
 * - a complete store of the entry is returned as it is (nothing is written: a read-only folder that
 *   holds one serves it); else the cache folder is created and checked writable first; a
 *   read-only or full folder is a `CacheDirError` (one line: the folder and what to do);
 * - the build runs in a child process (build-child.ts), never on the server's event loop, under
 *   the entry's lock (lock.ts: one builder per entry; a process that finds a live builder waits
 *   for its store, reading its progress file; a dead builder's lock is taken over);
 * - the builder writes a temporary file and renames it when complete, so the store's name never
 *   names a half store (a start killed mid-build leaves only temporary files, which the next
 *   builder removes when their pid is dead);
 * - after a build, other entries of the folder (stores of older inputs or code) are removed.
 * Status (building or waiting, phase, percent) goes to `onStatus` for /readyz.
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../domain/user-error.js';
import { buildHeapFlag } from './heap.js';
import { DEFAULT_ANALYSES } from '../domain/analysis-rules.js';
import type { EndMessage, FirstMessage, PlanMessage, ProgressMessage } from './build-child.js';
import { ProgressReport, type PhaseTime } from './progress-report.js';
import { formatDuration, phasePercent, type ExpectedTimes, type ProgressSnapshot } from './progress-view.js';
import { cacheDir, cacheEntry, cacheKey, DEFAULT_VAERS_DIR, exists, type CacheEntry } from './key.js';
import { isAlive, tryLock, unlock } from './lock.js';
import { liveServers } from './serve-pid.js';
import { heldStores, holdStore } from './holds.js';

/** Where the default store's preparation stands (for /readyz and the logs). */
export interface BuildStatus {
  /**
   * `building`: this process's builder runs; `waiting`: another process (`pid`) builds this entry;
   * `loading`: the store file is complete and this process loads it (a cached start is only this);
   * `checking`: the cache key is computed (a fraction of a second), whether to build is not known yet.
   */
  state: 'checking' | 'building' | 'waiting' | 'loading';
  /** The build's phase (`read`, `link`, `count all`, `fit serious`, `rows death`, `write`, ...), `starting` or `loading`. */
  phase: string;
  /** Percent of the phase done (0-100), or null when not known (the phase gives no count). */
  percent: number | null;
  /** 1-based number of the phase among `steps` (absent or 0: not known yet). */
  step?: number;
  steps?: number;
  /** Estimated seconds left in the phase and in the whole build (null: not known yet; progress-view.ts). */
  phaseLeft?: number | null;
  left?: number | null;
  /** The builder's pid. */
  pid: number;
  /** When the preparation began (ms since the epoch). */
  since: number;
}

/** Options of {@link ensureDefaultStore}. */
export interface DefaultStoreOptions {
  /** The cache folder (key.ts `cacheDir`). */
  cacheDir: string;
  /** The VAERS folder (default: data/vaers). */
  vaers: string;
  /** The analyses (default: DEFAULT_ANALYSES). */
  analyses?: readonly string[];
  onStatus?: (status: BuildStatus) => void;
  /**
   * When given, a build writes the first analysis alone first, a complete store at the path this
   * is called with (`default-<key>.first-<pid>.duckdb`), and goes on with the others: the caller
   * may serve it meanwhile and should remove it once the full store is served.
   */
  onFirstAnalysis?: (path: string) => void;
  log?: (message: string) => void;
  /** Where the build's progress is shown (default: a ProgressReport on standard error). */
  progress?: ProgressReport;
}

/** A BuildStatus from a progress snapshot. */
export function statusOf(snapshot: ProgressSnapshot, pid: number, since: number): BuildStatus {
  const { state, phase, done, total, step, steps, phaseLeft, left } = snapshot;
  const round = (x: number | null): number | null => (x === null ? null : Math.round(x));
  return { state, phase, percent: phasePercent(done, total), step, steps, phaseLeft: round(phaseLeft), left: round(left), pid, since };
}

/** A cache folder that cannot hold the store: the message names it and says what to do. */
export class CacheDirError extends UserError {
  constructor(dir: string, cause: string) {
    super(`cache directory ${dir} is not usable (${cause}): make it writable with free space (the default store needs about 200 MB: 205 MB for the 1990-2006 files), ` +
      'or set REPORTING_SIGNALS_CACHE_DIR to another folder, or serve a store file with --store FILE');
    this.name = 'CacheDirError';
  }
}

/** How often a waiting process looks at the lock and the store, in ms. */
const POLL_MS = 250;
/** Entries of other keys younger than this are left alone (a process may be loading one). */
const PRUNE_AFTER_MS = 10 * 60_000;

/**
 * The temporary files of a builder (its pid in a group): the store's `.tmp-<pid>`, its staging
 * database, the build's scratch text file (src/ingest/vaers/report-text.ts) and its read's scratch
 * folder (`.read`: transcoded CSVs and DuckDB's spill; src/ingest/vaers/duckdb-read.ts), each with DuckDB's
 * WAL and spill folder (`.wal`, `.tmp`), the lock's draft, the first analysis's store and its
 * side files (its temporary file's WAL and spill folder too).
 */
export const TEMP_RE = /^default-[0-9a-f]{16}\.(?:duckdb\.tmp-(\d+)(?:\.staging|\.text|\.read)?(?:\.wal|\.tmp)?|lock\.draft-(\d+)|first-(\d+)\.duckdb(?:\.tmp-\d+(?:\.staging)?|\.(?:narratives|verified)(?:\.tmp-\d+-\d+)?)?(?:\.wal|\.tmp)?|duckdb\.(?:narratives|verified)\.tmp-(\d+)-\d+)$/;
const ENTRY_RE = /^default-([0-9a-f]{16})\.duckdb$/;

/** A file system error's code and message, short. */
function errno(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? e.message.split(',')[0] : e.message;
}

/** Codes that say the folder cannot be written (as opposed to a bug). */
const DIR_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EEXIST']);

/** Creates the folder and writes a probe file in it. @throws CacheDirError when it cannot. */
async function checkWritable(dir: string): Promise<void> {
  const probe = join(dir, `.probe-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'probe');
  } catch (error) {
    throw new CacheDirError(dir, errno(error));
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** Removes the temporary files of builders that are gone (killed mid-build). */
async function removeLeftovers(dir: string, log: (message: string) => void): Promise<void> {
  for (const name of await readdir(dir)) {
    const found = TEMP_RE.exec(name);
    const pid = found ? Number(found[1] ?? found[2] ?? found[3] ?? found[4]) : 0;
    if (found && pid !== process.pid && !isAlive(pid)) {
      log(`removing ${join(dir, name)} (left by a build that did not finish)`);
      await rm(join(dir, name), { force: true, recursive: true });
    }
  }
}

/**
 * Removes the stores of other keys (older inputs or code) that no live builder holds, no live
 * server serves (the `served` store of the pid files in the folder, src/cache/serve-pid.ts) and no
 * live process holds (a test run, the golden recorder, a benchmark: src/cache/holds.ts); the pid
 * and hold files of dead processes are removed on the way.
 */
export async function pruneOthers(entry: CacheEntry, log: (message: string) => void): Promise<void> {
  const served = new Set((await liveServers(entry.dir)).flatMap((server) => (typeof server.served === 'string' ? [resolve(server.served)] : [])));
  const held = await heldStores(entry.dir);
  for (const name of await readdir(entry.dir)) {
    const found = ENTRY_RE.exec(name);
    const path = join(entry.dir, name);
    if (!found || path === entry.store) continue;
    if (served.has(resolve(path))) {
      log(`keeping ${path} (a default store of other inputs or code that a live server serves)`);
      continue;
    }
    if (held.has(resolve(path))) {
      log(`keeping ${path} (a default store of other inputs or code that a live process holds)`);
      continue;
    }
    const age = Date.now() - (await stat(path).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age < PRUNE_AFTER_MS || (await exists(cacheEntry(entry.dir, found[1]).lock))) continue;
    log(`removing ${path} (a default store of other inputs or code)`);
    await rm(path, { force: true });
    await rm(`${path}.narratives`, { force: true }); // its narrative index (src/serve/narratives/index-file.ts)
    await rm(`${path}.verified`, { force: true }); // its integrity stamp (src/serve/store/verified.ts)
  }
}

/** The builder's entry module beside this one (`.ts` under tsx, `.js` compiled). */
const CHILD = new URL(`./build-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * V8 flags of the builder child: a young generation of 32 MiB semi-spaces instead of 16 (the
 * read, the linkage and the evidence allocate many short-lived strings and arrays, which then die
 * young instead of being promoted). Measured on the default build (2 cores, paired runs): user
 * time 209 -> 198 s and 196 -> 174 s, wall 135 -> 130 s and 127 -> 111 s, peak RSS 1.49-1.62 GB
 * either way; 64 MiB raised the peak to 2.2 GB. Only a command-line flag takes effect.
 */
const BUILDER_V8_FLAGS = ['--max-semi-space-size=32'];

/** Runs the builder child; resolves when it wrote `out`. @throws Error with the builder's message. */
function runBuilder(vaers: string, out: string, analyses: readonly string[], onProgress: (m: ProgressMessage | PlanMessage) => void, first?: { out: string; written: (path: string) => void }): Promise<void> {
  const base = CHILD.pathname.endsWith('.ts') && !process.execArgv.includes('tsx') ? [...process.execArgv, '--import', 'tsx'] : process.execArgv;
  const heap = buildHeapFlag(); // a VAERS folder of the full download needs more than the default 4 GB heap (src/cache/heap.ts)
  const execArgv = [...(base.some((a) => a.startsWith('--max-semi-space-size')) ? base : [...base, ...BUILDER_V8_FLAGS]), ...(heap ? [heap] : [])];
  const child = fork(fileURLToPath(CHILD), [vaers, out, analyses.join(','), ...(first ? [first.out] : [])], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let failure: string | null = null;
  child.on('message', (message: ProgressMessage | PlanMessage | EndMessage | FirstMessage) => {
    if (message.type === 'progress' || message.type === 'plan') onProgress(message);
    else if (message.type === 'first') first?.written(message.path);
    else if (message.type === 'failed') failure = message.message;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(failure ?? `the build process ended with ${signal ?? `code ${code}`}`));
    });
  });
}

/** The file in the cache folder that keeps the last build's phase times (the next build's estimate). */
export const BUILD_TIMES_FILE = 'build-times.json';

/**
 * The phase times of the last build of `vaers` measured in `dir` (BUILD_TIMES_FILE: written after
 * each build, whatever its key), or null when none was measured there or it is unreadable.
 */
export async function readBuildTimes(dir: string, vaers: string): Promise<ExpectedTimes | null> {
  try {
    const kept = JSON.parse(await readFile(join(dir, BUILD_TIMES_FILE), 'utf8')) as { vaers?: string; phases?: Record<string, unknown> };
    if (kept.vaers !== vaers || typeof kept.phases !== 'object' || kept.phases === null) return null;
    const phases = Object.entries(kept.phases).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] >= 0);
    return phases.length > 0 ? Object.fromEntries(phases) : null;
  } catch {
    return null;
  }
}

/** Keeps a finished build's phase times (temporary file renamed); a failure to write only loses the next estimate's weights. */
async function writeBuildTimes(dir: string, vaers: string, times: readonly PhaseTime[]): Promise<void> {
  const file = join(dir, BUILD_TIMES_FILE);
  const draft = `${file}.tmp-${process.pid}`;
  const phases = Object.fromEntries(times.map((t) => [t.phase, Math.round(t.seconds * 10) / 10]));
  await writeFile(draft, `${JSON.stringify({ vaers, measured_at: new Date().toISOString(), phases })}\n`);
  await rename(draft, file);
}

/** Builds the entry's store (this process holds its lock). */
async function build(entry: CacheEntry, options: DefaultStoreOptions, analyses: readonly string[]): Promise<void> {
  const log = options.log ?? (() => undefined);
  const since = Date.now();
  const progress = options.progress ?? new ProgressReport();
  progress.setState('building');
  progress.expect(await readBuildTimes(entry.dir, options.vaers));
  let lastWrite = 0;
  const report = (): void => {
    const status = statusOf(progress.snapshot(), process.pid, since);
    options.onStatus?.(status);
    if (Date.now() - lastWrite < 1000) return;
    lastWrite = Date.now();
    const tmp = `${entry.progress}.tmp-${process.pid}`;
    void writeFile(tmp, JSON.stringify(status)).then(() => rename(tmp, entry.progress)).catch(() => undefined);
  };
  await removeLeftovers(entry.dir, log);
  report();
  // The status (elapsed time, estimates) moves every second, even while a phase reports nothing.
  const ticker = setInterval(report, 1000).unref();
  log(`building the default store ${entry.store} from ${options.vaers} (analyses ${analyses.join(', ')}); progress follows on standard error`);
  try {
    // The first analysis alone (when asked) goes to a file of this process, removed by the next start once this process is gone (TEMP_RE).
    const first = options.onFirstAnalysis ? { out: entry.store.replace(/\.duckdb$/, `.first-${process.pid}.duckdb`), written: options.onFirstAnalysis } : undefined;
    await runBuilder(options.vaers, entry.store, analyses, (m) => {
      if (m.type === 'plan') progress.plan([...m.phases, 'load']); // the load follows the build (serve-default.ts)
      else if (m.event === 'start') progress.start(m.phase, m.total, m.unit, m.cpu);
      else if (m.event === 'update') progress.update(m.done, undefined, m.cpu);
      else progress.end(m.cpu);
      report();
    }, first);
  } catch (error) {
    const message = (error as Error).message;
    if (/No space left|ENOSPC|Read-only file system|EROFS|Permission denied|EACCES|Disk quota/i.test(message)) throw new CacheDirError(entry.dir, message.split('\n')[0]);
    throw new Error(`building the default store failed: ${message}`, { cause: error });
  } finally {
    clearInterval(ticker);
    if (!options.progress) progress.stop();
    await rm(entry.progress, { force: true });
  }
  const phases = progress.phaseTimes().map((t) => `${t.phase} ${t.seconds.toFixed(1)}${t.cpuSeconds === null ? '' : `/${t.cpuSeconds.toFixed(1)}`}`);
  log(`default store built in ${formatDuration((Date.now() - since) / 1000)}: ${entry.store}; phases (wall/cpu s): ${phases.join(', ')}`);
  await writeBuildTimes(entry.dir, options.vaers, progress.phaseTimes()).catch(() => undefined);
  await pruneOthers(entry, log).catch(() => undefined);
}

/** The waiting status from the builder's progress file (phase and percent when it has written them). */
async function waitingStatus(entry: CacheEntry, pid: number, since: number): Promise<BuildStatus> {
  try {
    const written = JSON.parse(await readFile(entry.progress, 'utf8')) as Partial<BuildStatus>;
    const number = (x: unknown): number | null => (typeof x === 'number' ? x : null);
    return {
      state: 'waiting', phase: String(written.phase ?? 'starting'), percent: number(written.percent), step: number(written.step) ?? 0, steps: number(written.steps) ?? 0,
      phaseLeft: number(written.phaseLeft), left: number(written.left), pid, since,
    };
  } catch {
    return { state: 'waiting', phase: 'starting', percent: null, pid, since };
  }
}

/**
 * The path of the complete default store for `options.vaers` in the cache, built first when
 * absent (see the file comment).
 * @throws CacheDirError when the cache folder cannot be created or written (read-only, full);
 *   an Error when the VAERS folder cannot be read or the build fails.
 */
export async function ensureDefaultStore(options: DefaultStoreOptions): Promise<string> {
  const analyses = options.analyses ?? DEFAULT_ANALYSES;
  const { key } = await cacheKey(options.vaers, analyses);
  const entry = cacheEntry(options.cacheDir, key);
  // A complete store needs no write: a read-only folder that holds one serves it.
  if (await exists(entry.store)) return entry.store;
  await checkWritable(options.cacheDir);
  const since = Date.now();
  let waitedPhase = '';
  for (;;) {
    if (await exists(entry.store)) return entry.store;
    let attempt;
    try {
      attempt = await tryLock(entry.lock);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code && DIR_CODES.has(code)) throw new CacheDirError(options.cacheDir, errno(error));
      throw error;
    }
    if (attempt.acquired) {
      // An exit meanwhile (SIGTERM, a fatal error) releases the lock and the progress file at once.
      const release = (): void => {
        rmSync(entry.lock, { force: true });
        rmSync(entry.progress, { force: true });
      };
      process.once('exit', release);
      try {
        if (!(await exists(entry.store))) await build(entry, options, analyses);
      } finally {
        process.removeListener('exit', release);
        await unlock(entry.lock);
      }
      return entry.store;
    }
    const status = await waitingStatus(entry, attempt.holder.pid, since);
    options.onStatus?.(status);
    // The terminal follows the other builder's phases too (from its progress file).
    if (options.progress && status.phase !== waitedPhase) options.progress.setState('waiting', (waitedPhase = status.phase));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Removes a cached store that failed to load (truncated, edited by hand, a corrupt block), so that
 * the next `ensureDefaultStore` builds it again.
 * @throws CacheDirError when the folder does not let it be removed (read-only).
 */
export async function discardCachedStore(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
    await rm(`${path}.wal`, { force: true });
    await rm(`${path}.narratives`, { force: true });
    await rm(`${path}.verified`, { force: true });
  } catch (error) {
    throw new CacheDirError(dirname(path), `the cached store ${path} does not load and cannot be removed: ${errno(error)}`);
  }
}

/**
 * The default store as `serve` without `--store` serves it: `ensureDefaultStore` over data/vaers
 * (DEFAULT_VAERS_DIR), the default analyses and the cache folder from the environment. For the
 * benchmarks, the golden recorder and the tests' global setup, which open it in their own process:
 * the process holds it until it exits (src/cache/holds.ts), so that a build of other inputs or code
 * in the same folder does not remove it meanwhile.
 */
export async function defaultStorePath(log?: (message: string) => void): Promise<string> {
  const dir = cacheDir();
  const store = await ensureDefaultStore({ cacheDir: dir, vaers: DEFAULT_VAERS_DIR, analyses: DEFAULT_ANALYSES, log });
  await holdStore(dir, store);
  return store;
}
