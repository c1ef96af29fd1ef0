/**
 * The weekly recipe of docs/operations.md (section "Operating it"), run as written: the fenced
 * block marked `<!-- recipe: weekly -->` is taken from that page and run by bash with `VAERS`, `STORE`,
 * `SERVE_PID` and `PORT` set, in the repository's root, where its `npx reporting-signals` is the
 * package's own binary (dist/cli.js, built before the tests: `npm test` builds first), as on a
 * fresh clone after `npm ci && npm run build`; nothing is added to PATH. The store is built to `$STORE.new`, moved onto the served path, and the server
 * reloads it: on SIGHUP (the block's `kill -HUP`), and with `serve --watch` (the block's first
 * command only: the rename is the trigger). Then `/readyz` shows the new store's build id, and the
 * new store serves what the old one served (`build --like`, issue 35): its analyses and narratives.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../src/ingest/mining/build.js';
import { CASE_NARRATIVES, writeCaseFolder } from '../serve/cases/fixture.js';
import { buildTwoStores, type TwoStores } from './stores.js';
import { recipe } from '../helpers/recipes.js';
import { get, killAll, ROOT, startServe, untilReady } from './serve-process.js';

const run = promisify(execFile);
let stores: TwoStores;
/** A served store as an operator builds it: analyses all and serious (serious not the first), with the narratives; reports of 2000. */
let servedOlder: string;

/** The weekly recipe of docs/operations.md (the lines between its fences). */
async function weeklyRecipe(): Promise<string> {
  return recipe('docs/operations.md', 'weekly');
}

beforeAll(async () => {
  stores = await buildTwoStores();
  const vaers = await writeCaseFolder(join(stores.dir, 'vaers-2000'), CASE_NARRATIVES);
  for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) await rm(join(vaers, `2001VAERS${kind}.csv`));
  servedOlder = join(stores.dir, 'served-older.duckdb');
  await buildStore({ vaers, out: servedOlder, analyses: 'serious,all', narratives: true, workers: 1 });
}, 300_000);
afterAll(async () => {
  killAll();
  await rm(stores.dir, { recursive: true, force: true });
});

/** Runs `script` with the recipe's variables; its standard output. */
async function bash(script: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 1 << 24, timeout: 600_000,
  });
  return stdout;
}

describe('the weekly recipe of docs/operations.md, as written', () => {
  it('build to $STORE.new, mv onto the served path, kill -HUP: /readyz shows the new store_build', async () => {
    const block = await weeklyRecipe();
    expect(block).toContain('--out "$STORE.new" && mv "$STORE.new" "$STORE"');
    expect(block).toContain('--like "$STORE"');
    expect(block).toContain('kill -HUP "$SERVE_PID"');
    const served = join(stores.dir, 'store.duckdb');
    await run('cp', [servedOlder, served]);
    const serve = startServe(['--store', served]);
    const base = await serve.listening();
    const before = await untilReady(base, serve);
    const port = new URL(base).port;
    // The newer folder: both years (buildTwoStores removed 2001 after building `newer`).
    const vaers = await writeCaseFolder(join(stores.dir, 'vaers-week'), CASE_NARRATIVES);
    const stdout = await bash(block, { VAERS: vaers, STORE: served, SERVE_PID: String(serve.child.pid), PORT: port });
    // curl may run before the swap completes: the last line is /readyz at that moment; wait for the swap.
    expect(stdout).toContain('"store_build"');
    let after = await untilReady(base, serve);
    for (let i = 0; i < 300 && after.store_build === before.store_build; i++) {
      await new Promise((done) => setTimeout(done, 100));
      after = (await get(`${base}/readyz`)).body!;
    }
    expect(after.store_build).not.toBe(before.store_build);
    expect(before.reports_through).toMatch(/^2000Q/);
    expect(after.reports_through).toBe('2001Q4');
    // The same analyses, the default first, and the narratives (text search) as before the swap.
    expect(before.analyses).toEqual(['serious', 'all']);
    expect(after.analyses).toEqual(before.analyses);
    const text = await get(`${base}/cases?text=intussusception`);
    expect(text.status).toBe(200);
    expect((text.body as { n_reports: number }).n_reports).toBeGreaterThan(0);
    expect((await readFile(served)).subarray(8, 12).toString('latin1')).toBe('DUCK');
    expect(serve.output()).toContain('SIGHUP: reloading the store');
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 600_000);

  it('with serve --watch: the build and mv of the recipe swap the store in without a signal', async () => {
    const block = await weeklyRecipe();
    const buildAndMove = block.split('\nkill -HUP')[0];
    const served = join(stores.dir, 'watched.store');
    await run('cp', [servedOlder, served]);
    const serve = startServe(['--store', served, '--watch']);
    const base = await serve.listening();
    const before = await untilReady(base, serve);
    const vaers = await writeCaseFolder(join(stores.dir, 'vaers-watch'), CASE_NARRATIVES);
    await bash(buildAndMove, { VAERS: vaers, STORE: served });
    let after = before;
    for (let i = 0; i < 600 && after.store_build === before.store_build; i++) {
      await new Promise((done) => setTimeout(done, 100));
      after = (await get(`${base}/readyz`)).body!;
    }
    expect(after.store_build).not.toBe(before.store_build);
    expect(after.reports_through).toBe('2001Q4');
    expect(after.analyses).toEqual(['serious', 'all']);
    expect((await get(`${base}/cases?text=intussusception`)).status).toBe(200);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 600_000);
});
