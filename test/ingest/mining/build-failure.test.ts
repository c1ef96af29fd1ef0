/**
 * A build that fails after its linkage thread has started (here: the triage evidence's read of the
 * scratch text) ends that thread: the process ends by itself with the error (build.ts buildFrom's
 * `finally`, linkInWorker's `cancel`), rather than staying alive on the thread (the default-store
 * builder child would never exit).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./build-fails-after-link.mts', import.meta.url));

describe('a build that fails after the linkage thread started', () => {
  it('rejects with the error and ends the thread, so the process exits by itself', async () => {
    // The vitest timeout is the check: a process kept alive by the thread never exits.
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(TSX, [SCRIPT], (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
    });
    expect(stdout.trim()).toBe('failed: IO Error: simulated read failure (reads 2)');
  }, 60_000);
});
