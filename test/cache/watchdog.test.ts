/**
 * Issue 35 item 7: a child that dies with its parent (src/cache/watchdog.ts, the default store's
 * builder uses it) even while its main thread is busy: real processes, the parent killed with
 * SIGKILL. Without the watchdog, the IPC channel's `disconnect` event (which build-child.ts also
 * handles) waits for the busy thread, so the child runs on (`the control` below).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/cache/lock.js';

const WATCHDOG = fileURLToPath(new URL('../../src/cache/watchdog.ts', import.meta.url));

/** Whether `pid` runs: alive and not a zombie waiting for its new parent to reap it. */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return existsSync('/proc/self/stat') ? false : isAlive(pid);
  }
}

/**
 * Starts a parent that forks a child busy on its main thread for 20 s (with the watchdog or
 * not; either way exiting on `disconnect`), then kills the parent with SIGKILL once the child
 * runs; resolves with the child's pid.
 */
async function orphan(watchdog: boolean): Promise<number> {
  const child = `${watchdog ? `const { dieWithParent } = await import(${JSON.stringify(WATCHDOG)}); dieWithParent();` : ''}
process.on('disconnect', () => process.exit(70));
process.send('busy');
await new Promise((done) => setTimeout(done, 200));
const end = Date.now() + 20000; while (Date.now() < end);`;
  const parent = `import { fork } from 'node:child_process';
const child = fork('-', [], { execArgv: ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(child)}] });
child.on('message', () => process.stdout.write(String(child.pid)));`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', parent], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve, reject) => {
    proc.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString())));
    proc.once('exit', (code) => reject(new Error(`parent exited (${code}) before its child ran`)));
  });
  await new Promise((done) => setTimeout(done, 500)); // the child is in its busy loop
  proc.kill('SIGKILL');
  await new Promise((done) => proc.once('exit', done));
  return pid;
}

/** Polls `running(pid)` for at most `ms`; whether it still runs then. */
async function stillRunningAfter(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms && running(pid); waited += 100) await new Promise((done) => setTimeout(done, 100));
  return running(pid);
}

describe('a child dies with its parent, busy as its main thread is', () => {
  it('with the watchdog: gone within a second of the parent\'s kill -9', async () => {
    const pid = await orphan(true);
    expect(await stillRunningAfter(pid, 1000)).toBe(false);
  }, 60_000);

  it('the control: without it, the busy child runs on (its disconnect handler waits for the main thread)', async () => {
    const pid = await orphan(false);
    try {
      expect(await stillRunningAfter(pid, 1000)).toBe(true);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});
