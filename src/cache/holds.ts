/**
 * Holds on a default store by processes that are not servers: the tests' global setup, the
 * golden recorder and the benchmarks open the default store in their own process (through
 * `defaultStorePath`, src/cache/default-store.ts), so no `serve-<port>.json` pid file
 * (src/cache/serve-pid.ts) names it. Without a hold, a build of other inputs or code in the same
 * cache folder (another checkout of the same user, whose cache folder is shared) removed such a
 * store after ten minutes while a test suite still answered from it (HTTP 503 in every later
 * test). Each holding process writes `hold-<pid>.json` = `{pid, store}` in the cache folder (whole:
 * a temporary file renamed) and removes it when it exits; `pruneOthers` keeps every store a live
 * process holds, and removes the hold files of dead processes on the way.
 */
import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isAlive } from './lock.js';

/** What a hold file says: the holding process and the store file it holds. */
export interface StoreHold {
  pid: number;
  /** The store file held (an absolute path). */
  store: string;
}

const HOLD_RE = /^hold-(\d+)\.json$/;

/** The hold file of process `pid` in the cache folder `dir`. */
export function holdFile(dir: string, pid = process.pid): string {
  return join(dir, `hold-${pid}.json`);
}

/** The hold files this process wrote (each removed at its exit). */
const written = new Set<string>();

/**
 * Records that this process holds `store` (one store per process: a second call rewrites the
 * file) until it exits. Never throws: a folder that cannot be written leaves the store unheld,
 * as before holds existed.
 */
export async function holdStore(dir: string, store: string): Promise<void> {
  const path = holdFile(dir);
  const draft = `${path}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(draft, `${JSON.stringify({ pid: process.pid, store: resolve(store) } satisfies StoreHold)}\n`);
    await rename(draft, path);
  } catch {
    return;
  }
  if (written.has(path)) return;
  written.add(path);
  process.once('exit', () => rmSync(path, { force: true }));
}

/**
 * The stores (absolute paths) that live processes hold in `dir`. The hold files of dead
 * processes, and unreadable ones (or whose pid is not their name's), are removed on the way. Never throws: an unreadable folder
 * holds nothing.
 */
export async function heldStores(dir: string): Promise<Set<string>> {
  const held = new Set<string>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const found = HOLD_RE.exec(name);
    if (!found) continue;
    const path = join(dir, name);
    const hold = await readFile(path, 'utf8').then((text) => JSON.parse(text) as Partial<StoreHold>).catch(() => null);
    if (hold !== null && hold.pid === Number(found[1]) && typeof hold.store === 'string' && isAlive(hold.pid)) {
      held.add(resolve(hold.store));
    } else {
      await rm(path, { force: true });
    }
  }
  return held;
}
