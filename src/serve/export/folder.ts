/**
 * The folder the export files live in (issue 45, "temporary files owned"): one folder per served
 * app, `<system temp>/reporting-signals-exports/<pid>-<8 hex>/`, created at the first export and
 * removed
 * - with the app (`remove()`, at `app.close()`: SIGTERM and SIGINT close the app before exiting),
 * - at the process's exit however it exits (`process.exit`, an uncaught error: a synchronous
 *   removal in one `exit` listener for every folder of the process),
 * - after a crash (kill -9, a power cut), at the next start: {@link sweepDeadFolders} removes every
 *   folder there whose process is gone, and the per-export folders of older versions
 *   (`<system temp>/reporting-signals-export-*`) not touched for an hour.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The parent of every process's exports folder. */
export function exportsRoot(): string {
  return path.join(tmpdir(), 'reporting-signals-exports');
}

/** Prefix of the per-export folders of older versions (mkdtemp in the system temp folder). */
const LEGACY_PREFIX = 'reporting-signals-export-';
/** Age after which an older version's export folder counts as left over by a crash. */
const LEGACY_AGE_MS = 3_600_000;

/** Folders of this process to remove at exit. */
const owned = new Set<string>();
let exitHook = false;

/** Whether process `pid` runs (a process of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the exports folders whose process is gone (see the file comment) and the old per-export
 * folders older than an hour.
 * @returns the folders removed
 */
export function sweepDeadFolders(root: string = exportsRoot()): string[] {
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    // no folder yet
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || running(pid)) continue;
    rmSync(path.join(root, name), { recursive: true, force: true });
    removed.push(path.join(root, name));
  }
  const temp = path.dirname(root);
  for (const name of readdirSync(temp)) {
    if (!name.startsWith(LEGACY_PREFIX)) continue;
    const full = path.join(temp, name);
    try {
      if (Date.now() - statSync(full).mtimeMs < LEGACY_AGE_MS) continue;
      rmSync(full, { recursive: true, force: true });
      removed.push(full);
    } catch {
      // removed meanwhile
    }
  }
  return removed;
}

/** One app's exports folder (see the file comment); created on first use. */
export class ExportFolder {
  private dir: string | null = null;
  private serial = 0;

  constructor(private readonly root: string = exportsRoot()) {}

  /** A new empty subfolder (one per generation's files), creating the app's folder first. */
  subfolder(name: string): string {
    if (this.dir === null) {
      this.dir = path.join(this.root, `${process.pid}-${randomBytes(4).toString('hex')}`);
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      owned.add(this.dir);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
          for (const dir of owned) rmSync(dir, { recursive: true, force: true });
        });
      }
    }
    const sub = path.join(this.dir, `${name}-${++this.serial}`);
    mkdirSync(sub, { mode: 0o700 });
    return sub;
  }

  /** The app's folder (null before the first export). */
  get path(): string | null {
    return this.dir;
  }

  /** Removes the app's folder and everything in it (idempotent). */
  async remove(): Promise<void> {
    const dir = this.dir;
    if (dir === null) return;
    this.dir = null;
    owned.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }
}
