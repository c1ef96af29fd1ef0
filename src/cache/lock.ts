/**
 * The builder's lock of a cache entry (two processes started at once on one cache
 * build once): a file holding JSON `{pid, started}`, created whole by a hard link from a draft
 * (`link` is atomic and fails when the name exists, so no process ever reads a half-written lock).
 * A lock whose pid is no longer alive (a builder killed, even with `kill -9`) is stale and taken
 * over. Taking over is not atomic across two processes that find the same stale lock at once:
 * both may then build; that costs time, never correctness, since every build writes a temporary
 * file and renames it (a rename replaces a store whole, so no partial store is ever served).
 */
import { readFileSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';

/** What a lock file says. */
export interface LockInfo {
  pid: number;
  /** ISO time the lock was taken. */
  started: string;
}

/** Whether process `pid` is alive (signal 0: EPERM means alive, owned by another user; a zombie is dead). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * Whether `pid` is a zombie: dead, waiting for its parent (or init) to collect it, yet still
 * answering `kill(pid, 0)`. A builder killed with its parent stays one for about a second here,
 * and its temporary files must count as left behind (Linux: the state letter of
 * `/proc/PID/stat`; elsewhere false).
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/** The lock's content, or null when there is no lock file; `{pid: 0}` when it cannot be parsed. */
export async function readLock(path: string): Promise<LockInfo | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockInfo>;
    if (Number.isInteger(value.pid) && (value.pid as number) > 0) return { pid: value.pid as number, started: String(value.started ?? '') };
  } catch {
    // fall through: unreadable content
  }
  return { pid: 0, started: '' };
}

/** Outcome of one attempt: the lock is ours, or held by a live process. */
export type LockAttempt = { acquired: true } | { acquired: false; holder: LockInfo };

/**
 * Tries once to take the lock at `path` for this process; a stale lock (dead pid, or content
 * that cannot be read and no live writer) is removed and the attempt repeated.
 * @throws the file system's Error when the folder is not writable (EACCES, EROFS, ENOSPC...).
 */
export async function tryLock(path: string): Promise<LockAttempt> {
  for (let attempt = 0; attempt < 5; attempt++) {
    // The lock appears whole or not at all: its content is written to a file of this process
    // first and hard-linked to the lock's name (`link` fails with EEXIST when the name exists).
    // Creating the lock empty and writing it afterwards let a second process read it empty in
    // between, take it for stale, remove it and build too.
    const draft = `${path}.draft-${process.pid}`;
    await writeFile(draft, JSON.stringify({ pid: process.pid, started: new Date().toISOString() } satisfies LockInfo));
    try {
      await link(draft, path);
      return { acquired: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(draft, { force: true });
    }
    const holder = await readLock(path);
    if (holder === null) continue; // released meanwhile: try again
    if (holder.pid !== 0 && isAlive(holder.pid)) return { acquired: false, holder };
    await rm(path, { force: true }); // stale: its builder is gone
  }
  const holder = await readLock(path);
  return { acquired: false, holder: holder ?? { pid: 0, started: '' } };
}

/** Releases the lock at `path` if this process holds it. */
export async function unlock(path: string): Promise<void> {
  const holder = await readLock(path).catch(() => null);
  if (holder?.pid === process.pid) await rm(path, { force: true });
}
