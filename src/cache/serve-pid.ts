/**
 * How a person finds the server `npm start` runs (issue 46: under `npm start` there was neither a
 * store file to replace nor the server's process id; `kill -HUP` on npm's id killed npm and left
 * the server running): each `serve` writes a pid file in the cache folder (key.ts `cacheDir`),
 * `serve-<port>.json` = `{pid, port, host, store, vaers, started}`, and removes it when it stops;
 * `reporting-signals reload` (src/commands/reload.ts) reads it, sends SIGHUP to that pid, and
 * waits for the outcome the server writes to `serve-<port>.reload.json` = `{requested_at,
 * finished_at, ok, message, store_build, reports_through}` (times in ms since the epoch). Both
 * files are written whole (a temporary file renamed).
 */
import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from './lock.js';

/** What the pid file of a serve process says. */
export interface ServePid {
  pid: number;
  port: number;
  host: string;
  /** The store file served (`--store`), or null: the default store in the cache. */
  store: string | null;
  /** The VAERS folder of the default store (`--vaers`, else data/vaers), or null with `--store`. */
  vaers: string | null;
  /** ISO time the server started. */
  started: string;
  /**
   * The store file it serves now (the default store's cache file once prepared, or `--store`); null
   * while the default store is still being built. A default-store build does not prune the store a
   * live server serves (src/cache/default-store.ts `pruneOthers`). Absent in files of older versions.
   */
  served?: string | null;
}

/** The outcome of the last reload asked for by SIGHUP (or SIGUSR2). */
export interface ReloadOutcome {
  /** When the server received the signal, and when it finished (ms since the epoch; null while it runs). */
  requested_at: number;
  finished_at: number | null;
  ok: boolean | null;
  /** One line for the person who asked: what was done (rebuilt, reloaded, already current) or why not. */
  message: string;
  /** The served store's id and latest quarter after it (GET /readyz `store_build`, `reports_through`). */
  store_build: string | null;
  reports_through: string | null;
}

/** The pid file of the server on `port` in `dir`. */
export function pidFile(dir: string, port: number): string {
  return join(dir, `serve-${port}.json`);
}

/** The reload outcome file of the server on `port` in `dir`. */
export function reloadFile(dir: string, port: number): string {
  return join(dir, `serve-${port}.reload.json`);
}

const PID_RE = /^serve-(\d+)\.json$/;

/** The pid files this process wrote (removed at its exit; a second write only rewrites the file). */
const written = new Set<string>();

/** Writes `value` as JSON to `path` whole (a temporary file of this process renamed). */
async function writeWhole(path: string, value: unknown): Promise<void> {
  const draft = `${path}.tmp-${process.pid}`;
  await writeFile(draft, `${JSON.stringify(value)}\n`);
  await rename(draft, path);
}

/**
 * Writes the pid file of this process (the folder created when absent) and removes it when the
 * process exits. Resolves with its path.
 * @throws the file system's Error when the folder cannot be written (the caller logs it: a server
 *   without a pid file still serves; only `reload` cannot find it).
 */
export async function writePidFile(dir: string, info: Omit<ServePid, 'pid' | 'started'>, started = new Date().toISOString()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = pidFile(dir, info.port);
  await writeWhole(path, { pid: process.pid, started, ...info } satisfies ServePid);
  if (written.has(path)) return path;
  written.add(path);
  process.once('exit', () => {
    try {
      rmSync(path, { force: true });
      rmSync(reloadFile(dir, info.port), { force: true });
    } catch { /* the folder went away: nothing to remove */ }
  });
  return path;
}

/** The pid file's content, or null when there is none or it cannot be parsed. */
export async function readPidFile(path: string): Promise<ServePid | null> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<ServePid>;
    return Number.isInteger(value.pid) && (value.pid as number) > 0 ? (value as ServePid) : null;
  } catch {
    return null;
  }
}

/**
 * The servers whose pid files in `dir` name a live process. The pid files (and reload outcomes) of
 * dead processes (a server killed with SIGKILL, a crashed machine) are removed on the way, so they
 * do not accumulate. Never throws: an unreadable folder gives no servers.
 */
export async function liveServers(dir: string): Promise<ServePid[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const servers: ServePid[] = [];
  for (const name of names) {
    const found = PID_RE.exec(name);
    if (!found) continue;
    const server = await readPidFile(join(dir, name));
    if (server !== null && isAlive(server.pid)) {
      servers.push(server);
    } else {
      await rm(join(dir, name), { force: true });
      await rm(reloadFile(dir, Number(found[1])), { force: true });
    }
  }
  return servers;
}

/** Writes the reload outcome (see the file comment). */
export async function writeReloadOutcome(dir: string, port: number, outcome: ReloadOutcome): Promise<void> {
  await writeWhole(reloadFile(dir, port), outcome);
}

/** The last reload outcome, or null when none was written or it cannot be parsed. */
export async function readReloadOutcome(dir: string, port: number): Promise<ReloadOutcome | null> {
  try {
    return JSON.parse(await readFile(reloadFile(dir, port), 'utf8')) as ReloadOutcome;
  } catch {
    return null;
  }
}
