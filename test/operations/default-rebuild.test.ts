/**
 * Issue 35 item 3 with a real `serve` process and no `--store`: a served default store whose
 * storage fails at request time (its file corrupted in place after it loaded) answers 503 with the
 * Error object, `/readyz` says not ready, and the cached file is removed and built again, then
 * served (the same store_build: builds are deterministic). A small VAERS folder (the case-series
 * fixture): a real build of a few seconds.
 */
import { randomBytes } from 'node:crypto';
import { open, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { writeCaseFolder } from '../serve/cases/fixture.js';
import { get, killAll, startServe, untilReady } from './serve-process.js';

let dir: string;
let vaers: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-rebuild-'));
  vaers = await writeCaseFolder(join(dir, 'vaers'));
});
afterAll(async () => {
  killAll();
  await rm(dir, { recursive: true, force: true });
});

describe('a default store found broken while served', () => {
  it('answers 503 with the Error object, is not ready, and is removed, rebuilt and served again', async () => {
    const cache = join(dir, 'cache');
    const serve = startServe(['--vaers', vaers], { REPORTING_SIGNALS_CACHE_DIR: cache });
    const base = await serve.listening();
    const first = await untilReady(base, serve, 300_000);
    const name = (await readdir(cache)).find((n) => /^default-[0-9a-f]{16}\.duckdb$/.test(n))!;
    const file = join(cache, name);
    const inode = (await stat(file)).ino;
    // Every block after the file header overwritten in place: the file the server holds open.
    const size = (await stat(file)).size;
    const handle = await open(file, 'r+');
    for (let offset = 12_288; offset < size; offset += 4096) await handle.write(randomBytes(4096), 0, 4096, offset);
    await handle.close();
    // The fitted windows are read at request time (never before in this process).
    const broken = await get(`${base}/analyses/serious`);
    expect(broken.status).toBe(503);
    expect(broken.body).toEqual({ error: expect.stringMatching(/could not be read/), hypothesis: HYPOTHESIS });
    const notReady = await get(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    // Rebuilt and served: ready again on a new file with the same store_build.
    let again = notReady;
    for (let i = 0; i < 1500 && again.status !== 200; i++) {
      await new Promise((done) => setTimeout(done, 200));
      again = await get(`${base}/readyz`);
    }
    expect(again.status).toBe(200);
    expect(again.body!.store_build).toBe(first.store_build);
    expect((await stat(file)).ino).not.toBe(inode);
    expect(serve.output()).toContain('is broken: removing it and building it again');
    expect((await get(`${base}/analyses/serious`)).status).toBe(200);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 600_000);
});
