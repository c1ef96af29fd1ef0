/**
 * Holds on a default store by processes that are not servers (src/cache/holds.ts): a test run's
 * in-process servers answered 503 after another checkout's build, sharing the cache folder, pruned
 * the store they used (src/cache/default-store.ts `pruneOthers`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneOthers } from '../../src/cache/default-store.js';
import { heldStores, holdFile, holdStore } from '../../src/cache/holds.js';
import { cacheEntry } from '../../src/cache/key.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-holds-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** A store file of `key` last written an hour ago (past the pruning's 10 minutes). */
async function oldStore(key: string): Promise<string> {
  const path = cacheEntry(dir, key).store;
  await writeFile(path, 'store');
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(path, hourAgo, hourAgo);
  return path;
}

describe('holdStore and heldStores', () => {
  it('lists the store this process holds, and removes dead processes\' and unreadable hold files', async () => {
    const mine = join(dir, 'default-aaaaaaaaaaaaaaaa.duckdb');
    await holdStore(dir, mine);
    const dead = deadPid();
    await writeFile(holdFile(dir, dead), JSON.stringify({ pid: dead, store: join(dir, 'default-bbbbbbbbbbbbbbbb.duckdb') }));
    await writeFile(holdFile(dir, 1), JSON.stringify({ pid: process.pid, store: join(dir, 'default-cccccccccccccccc.duckdb') }));
    await writeFile(holdFile(dir, 999_999_999), 'not json');
    expect([...await heldStores(dir)]).toEqual([mine]);
    expect(await readdir(dir)).toEqual([`hold-${process.pid}.json`]);
  });

  it('holds nothing in a folder that does not exist', async () => {
    expect((await heldStores(join(dir, 'absent'))).size).toBe(0);
  });
});

describe('pruneOthers with holds', () => {
  it('keeps the store of another key that a live process holds and removes the one a dead process held', async () => {
    const held = await oldStore('aaaaaaaaaaaaaaaa');
    const byDead = await oldStore('cccccccccccccccc');
    await holdStore(dir, held);
    const dead = deadPid();
    await writeFile(holdFile(dir, dead), JSON.stringify({ pid: dead, store: byDead }));
    const log: string[] = [];
    await pruneOthers(cacheEntry(dir, 'dddddddddddddddd'), (message) => log.push(message));
    expect((await readdir(dir)).sort()).toEqual(['default-aaaaaaaaaaaaaaaa.duckdb', `hold-${process.pid}.json`]);
    expect(log.sort()).toEqual([
      `keeping ${held} (a default store of other inputs or code that a live process holds)`,
      `removing ${byDead} (a default store of other inputs or code)`,
    ]);
  });
});
