/**
 * The servers' pid files in the cache folder (src/cache/serve-pid.ts) and the default store's
 * pruning (src/cache/default-store.ts `pruneOthers`), issue 46: a default-store build removed every
 * other key's store, even the one a live server served, and the pid files of dead servers piled up.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneOthers } from '../../src/cache/default-store.js';
import { cacheEntry } from '../../src/cache/key.js';
import { liveServers, pidFile, reloadFile, type ServePid } from '../../src/cache/serve-pid.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-serve-pid-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function server(port: number, pid: number, served: string | null): Promise<void> {
  const value: ServePid = { pid, port, host: '127.0.0.1', store: null, vaers: 'data/vaers', started: '2026-11-28T06:00:00.000Z', served };
  await writeFile(pidFile(dir, port), JSON.stringify(value));
  await writeFile(reloadFile(dir, port), '{}');
}

/** A store file of `key` last written an hour ago (past the pruning's 10 minutes). */
async function oldStore(key: string): Promise<string> {
  const path = cacheEntry(dir, key).store;
  await writeFile(path, 'store');
  await writeFile(`${path}.narratives`, 'index');
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(path, hourAgo, hourAgo);
  return path;
}

describe('liveServers', () => {
  it('lists the servers whose process runs and removes the files of dead ones and unreadable ones', async () => {
    const dead = deadPid();
    await server(40001, process.pid, join(dir, 'default-aaaaaaaaaaaaaaaa.duckdb'));
    await server(40002, dead, null);
    await writeFile(pidFile(dir, 40003), 'not json');
    const servers = await liveServers(dir);
    expect(servers.map((s) => [s.pid, s.port, s.served])).toEqual([[process.pid, 40001, join(dir, 'default-aaaaaaaaaaaaaaaa.duckdb')]]);
    expect((await readdir(dir)).sort()).toEqual(['serve-40001.json', 'serve-40001.reload.json']);
  });

  it('gives no servers for a folder that does not exist', async () => {
    expect(await liveServers(join(dir, 'absent'))).toEqual([]);
  });
});

describe('pruneOthers', () => {
  it('removes the stores of other keys except the one a live server serves, and the dead servers\' pid files', async () => {
    const served = await oldStore('aaaaaaaaaaaaaaaa');
    const other = await oldStore('bbbbbbbbbbbbbbbb');
    const byDead = await oldStore('cccccccccccccccc');
    await server(40001, process.pid, served);
    await server(40002, deadPid(), byDead);
    const log: string[] = [];
    await pruneOthers(cacheEntry(dir, 'dddddddddddddddd'), (message) => log.push(message));
    expect((await readdir(dir)).sort()).toEqual([
      'default-aaaaaaaaaaaaaaaa.duckdb', 'default-aaaaaaaaaaaaaaaa.duckdb.narratives', 'serve-40001.json', 'serve-40001.reload.json',
    ]);
    expect(log.sort()).toEqual([
      `keeping ${served} (a default store of other inputs or code that a live server serves)`,
      `removing ${other} (a default store of other inputs or code)`,
      `removing ${byDead} (a default store of other inputs or code)`,
    ]);
  });

  it('keeps a store of another key written within the last 10 minutes', async () => {
    const recent = cacheEntry(dir, 'eeeeeeeeeeeeeeee').store;
    await writeFile(recent, 'store');
    await pruneOthers(cacheEntry(dir, 'dddddddddddddddd'), () => undefined);
    expect(await readdir(dir)).toEqual(['default-eeeeeeeeeeeeeeee.duckdb']);
  });
});
