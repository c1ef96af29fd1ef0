/**
 * The weekly refresh of a server started with `npm start` (docs/operations.md, issue 46), run as
 * written in a fresh clone of the repository (test/helpers/fresh-clone.ts): the block marked
 * `refresh-start` (`npm start -- --vaers "$VAERS"`) started with `VAERS` the official 1990 and 1991
 * files of data/vaers, a cache folder of its own (REPORTING_SIGNALS_CACHE_DIR) and `PORT`; once
 * /readyz is 200 (reports through 1991Q4), the block marked `refresh` with `WEEK` holding the 1992
 * files: it copies them in, `npx reporting-signals reload` waits for the server's rebuild and
 * swap, and the block's curl prints /readyz of the new store: 1992Q4, another store_build. A second
 * `reload` (nothing changed) builds nothing; `reload` on a port with no server exits 1 naming the
 * pid file. The server is npm's child: the pid file holds the server's own pid, not npm's.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { recipe } from '../helpers/recipes.js';
import { freshClone, removeFreshClone, seedDist } from '../helpers/fresh-clone.js';
import { realYears, ROOT } from './serve-process.js';

const run = promisify(execFile);
const hasData = existsSync(join(ROOT, 'data/vaers/1992VAERSDATA.csv.gz'));
if (!hasData) console.warn('refresh recipe test skipped: data/vaers is absent');

let dir: string | null = null;
let server: ChildProcess | null = null;
afterAll(async () => {
  if (server?.pid) try { process.kill(-server.pid, 'SIGTERM'); } catch { /* ended */ }
  await new Promise((r) => setTimeout(r, 1000));
  if (server?.pid) try { process.kill(-server.pid, 'SIGKILL'); } catch { /* ended */ }
  if (dir) await rm(dir, { recursive: true, force: true });
  removeFreshClone();
});

/** GET /readyz on `port`: status and body. */
async function readyz(port: number): Promise<{ status: number; body: Record<string, unknown> | null }> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch {
    return { status: 0, body: null };
  }
}

describe.skipIf(!hasData)('the weekly refresh under npm start (docs/operations.md), as written', () => {
  it('npm start -- --vaers "$VAERS"; then the week\'s files copied in and `npx reporting-signals reload`: /readyz shows the new quarter and store', async () => {
    const start = recipe('docs/operations.md', 'refresh-start');
    const refresh = recipe('docs/operations.md', 'refresh');
    expect(start.trim()).toMatch(/^npm start -- --vaers "\$VAERS"/);
    expect(refresh).toContain('npx reporting-signals reload');
    dir = await mkdtemp(join(tmpdir(), 'rs-refresh-'));
    const vaers = await realYears(join(dir, 'vaers'), [1990, 1991]);
    const week = await realYears(join(dir, 'week'), [1992]);
    const port = 20_000 + (process.pid % 20_000);
    const env = { ...process.env, VAERS: vaers, WEEK: week, PORT: String(port), HOST: '127.0.0.1', REPORTING_SIGNALS_CACHE_DIR: join(dir, 'cache') };
    const clone = freshClone();
    seedDist(clone); // the refresh is the subject here, not the first compile (recipes.test.ts has that)
    let output = '';
    server = spawn('bash', ['-c', start], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 400_000;
    let first = await readyz(port);
    while (first.status !== 200 && Date.now() < deadline && server.exitCode === null) {
      await new Promise((r) => setTimeout(r, 500));
      first = await readyz(port);
    }
    expect(first.status, output).toBe(200);
    expect(first.body!.reports_through).toBe('1991Q4');
    // The terminal said when the default analysis answered, and the pid file names the server (not npm).
    expect(output).toMatch(new RegExp(`the default analysis \\(all\\) answers now at http://127\\.0\\.0\\.1:${port}/`));
    const pid = JSON.parse(readFileSync(join(dir, 'cache', `serve-${port}.json`), 'utf8')) as { pid: number; vaers: string };
    expect(pid.pid).not.toBe(server.pid);
    expect(readFileSync(`/proc/${pid.pid}/cmdline`, 'utf8').split('\0')).toContain('serve');
    expect(pid.vaers).toBe(vaers);

    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', refresh], { cwd: clone, env, timeout: 400_000 });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-2)).toMatch(/^reload: the default store of .* was rebuilt and swapped in: reports through 1992Q4, store_build [0-9a-f]{12}/);
    const after = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(after.reports_through).toBe('1992Q4');
    expect(after.store_build).not.toBe(first.body!.store_build);
    expect(lines.at(-2)).toContain(`store_build ${String(after.store_build)}`);

    // Nothing changed: nothing built, the same store.
    const again = await run('npx', ['reporting-signals', 'reload'], { cwd: clone, env, timeout: 120_000 });
    expect(again.stdout).toContain('have not changed: the served store is current');
    expect((await readyz(port)).body!.store_build).toBe(after.store_build);
    // No server on that port: exit 1, naming the pid file it looked for.
    const none = await run('npx', ['reporting-signals', 'reload', '--port', '1'], { cwd: clone, env }).then(() => null, (error: { code: number; stderr: string }) => error);
    expect(none?.code).toBe(1);
    expect(none?.stderr).toContain(`no pid file ${join(dir, 'cache', 'serve-1.json')}`);
  }, 900_000);
});
