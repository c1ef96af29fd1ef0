/**
 * The builder's lock (src/cache/lock.ts) taken by real processes at the same instant: exactly one
 * acquires it, whatever the interleaving. Before the lock was created whole (a hard link from a
 * draft), a process could read it empty between another's create and write, take it for stale,
 * remove it and acquire it too: two builds of one default store.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLock, tryLock, unlock } from '../../src/cache/lock.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** The compiled module (dist/, current: test/global-setup.ts), loaded by plain node in a few tens of milliseconds. */
const LOCK = join(REPO_ROOT, 'dist', 'cache', 'lock.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * One process: waits for the instant `at` (ms since the epoch: asleep until 50 ms before it, then spinning, so that
 * eight processes do not spin for seconds on two cores), tries the lock, prints the outcome, holds it 3 s (asleep:
 * a contender the loaded machine started late still finds it held, not left by a process gone, which it may take over).
 */
function contender(path: string, at: number): Promise<string> {
  const script = `import { tryLock } from ${JSON.stringify(LOCK)};
await new Promise((done) => setTimeout(done, Math.max(0, ${at} - 50 - Date.now())));
while (Date.now() < ${at});
const r = await tryLock(${JSON.stringify(path)});
process.stdout.write(r.acquired ? 'acquired' : 'held by ' + r.holder.pid);
await new Promise((done) => setTimeout(done, 3000));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`contender exited with ${code}`))));
  });
}

describe('the lock under contention', () => {
  it('of eight processes trying at one instant, exactly one acquires it; the others see it held (five rounds)', async () => {
    // The five rounds' 40 processes start at once, each round on a lock of its own and at an instant of its own,
    // 300 ms apart: a round's eight contenders spin alone on the cores and race only each other, as when the rounds
    // ran one after another (30 s of waiting, now about 9 s).
    const start = Date.now() + 5000; // after all forty have loaded (node and one compiled module)
    const rounds = await Promise.all(Array.from({ length: 5 }, (_, round) => {
      const path = join(dir, `round-${round}.lock`);
      return Promise.all(Array.from({ length: 8 }, () => contender(path, start + round * 300)));
    }));
    rounds.forEach((outcomes, round) => {
      expect(outcomes.filter((o) => o === 'acquired'), `round ${round}: ${outcomes.join(', ')}`).toHaveLength(1);
      expect(outcomes.filter((o) => /^held by [1-9]\d*$/.test(o))).toHaveLength(7);
    });
    expect((await readdir(dir)).filter((n) => n.includes('.draft-'))).toEqual([]);
  }, 120_000);

  it('a lock whose pid is dead, or whose content cannot be read, is taken over; a live one is not', async () => {
    const path = join(dir, 'stale.lock');
    await writeFile(path, JSON.stringify({ pid: 2 ** 22 + 12345, started: '2026-01-01T00:00:00.000Z' }));
    expect(await tryLock(path)).toEqual({ acquired: true });
    expect((await readLock(path))?.pid).toBe(process.pid);
    await unlock(path);
    expect(await readLock(path)).toBeNull();
    await writeFile(path, 'not json');
    expect(await tryLock(path)).toEqual({ acquired: true });
    await unlock(path);
    await writeFile(path, JSON.stringify({ pid: process.ppid, started: '2026-01-01T00:00:00.000Z' }));
    expect(await tryLock(path)).toEqual({ acquired: false, holder: { pid: process.ppid, started: '2026-01-01T00:00:00.000Z' } });
    await unlock(path); // not ours: left in place
    expect((await readLock(path))?.pid).toBe(process.ppid);
  });
});
