/**
 * Issue 18: a cache folder that cannot hold the default store ends `serve` (no `--store`) with
 * one clear line naming the folder and what to do, and exit status 1 (real processes, a small
 * VAERS folder): a path through a file (not a folder), a read-only folder, a full one. The
 * read-only and full cases need a file system of their own: a tmpfs mounted read-only or of
 * 512 KiB (root); as another user, `chmod 555` gives the read-only case; where neither is
 * possible they skip with a message. A read-only folder that already holds the complete store
 * serves it (issue 35).
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseFolder } from '../serve/cases/fixture.js';
import { killAll, startServe, untilReady } from './serve-process.js';

let dir: string;
let vaers: string;
const mounted: string[] = [];
const root = process.getuid?.() === 0;

/** Mounts a tmpfs at `at` with `options`; false when this process may not. */
function mountTmpfs(at: string, options: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' });
    mounted.push(at);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-cachedir-'));
  vaers = await writeCaseFolder(join(dir, 'vaers'));
});
afterAll(async () => {
  killAll();
  for (const at of mounted) execFileSync('umount', [at], { stdio: 'ignore' });
  await rm(dir, { recursive: true, force: true });
});

/** Runs serve on `cache` until it exits; its exit code and standard error lines. */
async function failingServe(cache: string): Promise<{ code: number | null; lines: string[] }> {
  const serve = startServe(['--vaers', vaers], { REPORTING_SIGNALS_CACHE_DIR: cache });
  const code = await serve.exit;
  return { code, lines: serve.output().split('\n').filter((l) => l.startsWith('reporting-signals: ')) };
}

function expectOneLine(result: { code: number | null; lines: string[] }, cache: string, cause: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.lines).toHaveLength(1);
  expect(result.lines[0]).toMatch(cause);
  expect(result.lines[0]).toContain(`cache directory ${cache} is not usable (`);
  expect(result.lines[0]).toContain('set REPORTING_SIGNALS_CACHE_DIR to another folder, or serve a store file with --store FILE');
}

describe('a cache folder that cannot hold the store: one line naming it and what to do, exit 1', () => {
  it('a path through a file', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const cache = join(dir, 'file', 'cache');
    expectOneLine(await failingServe(cache), cache, /ENOTDIR/);
  }, 120_000);

  const readOnly = join(tmpdir(), `rs-cachedir-ro-${process.pid}`);
  const canReadOnly = root ? (execFileSync('mkdir', ['-p', readOnly]), mountTmpfs(readOnly, 'ro,size=1m')) : true;
  if (!canReadOnly) console.warn('cache-dir read-only test skipped: cannot mount a read-only tmpfs');
  it.skipIf(!canReadOnly)('a read-only folder', async () => {
    if (!root) {
      await mkdir(readOnly, { recursive: true });
      await chmod(readOnly, 0o555);
    }
    expectOneLine(await failingServe(readOnly), readOnly, /EROFS|EACCES/);
    if (!root) await chmod(readOnly, 0o755);
  }, 120_000);

  const full = join(tmpdir(), `rs-cachedir-full-${process.pid}`);
  const canFull = root && (execFileSync('mkdir', ['-p', full]), mountTmpfs(full, 'size=512k'));
  if (!canFull) console.warn('cache-dir full test skipped: cannot mount a small tmpfs (needs root)');
  it.skipIf(!canFull)('a full folder (the build runs out of space)', async () => {
    expectOneLine(await failingServe(full), full, /No space left|ENOSPC/);
  }, 300_000);
});

describe('a read-only cache folder that holds a valid store (issue 35)', () => {
  const holding = join(tmpdir(), `rs-cachedir-holding-${process.pid}`);
  const canRemount = root && (execFileSync('mkdir', ['-p', holding]), mountTmpfs(holding, 'size=64m'));
  if (!root) console.warn('cache-dir read-only store test: chmod 555 (not root)');
  it.skipIf(root && !canRemount)('serves it: ready, the store\'s build id as built, nothing written', async () => {
    if (!root) await mkdir(holding, { recursive: true });
    const first = startServe(['--vaers', vaers], { REPORTING_SIGNALS_CACHE_DIR: holding });
    const built = await untilReady(await first.listening(), first, 300_000);
    first.child.kill('SIGTERM');
    await first.exit;
    const files = (await readdir(holding)).sort();
    if (root) execFileSync('mount', ['-o', 'remount,ro', holding], { stdio: 'ignore' });
    else await chmod(holding, 0o555);
    try {
      const again = startServe(['--vaers', vaers], { REPORTING_SIGNALS_CACHE_DIR: holding });
      const ready = await untilReady(await again.listening(), again, 120_000);
      expect(ready.store_build).toBe(built.store_build);
      expect(again.output()).not.toContain('building the default store');
      expect((await readdir(holding)).sort()).toEqual(files);
      again.child.kill('SIGTERM');
      expect(await again.exit).toBe(0);
    } finally {
      if (!root) await chmod(holding, 0o755);
      else execFileSync('mount', ['-o', 'remount,rw', holding], { stdio: 'ignore' });
      if (!root) await rm(holding, { recursive: true, force: true });
    }
  }, 420_000);
});
