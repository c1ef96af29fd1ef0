/**
 * Issue 13 with real signals sent to a real `reporting-signals serve` child process:
 * - SIGHUP under load (40 concurrent keep-alive connections): the store file is replaced and
 *   reloaded; no request fails or gets a non-200, and X-REPORTS-Through / X-REPORTS-Build change;
 * - `--watch`: replacing the store file (a rename, as a build does) swaps it in;
 * - SIGTERM with a request in flight (a /pipeline call whose fake registry answers after 1.5 s):
 *   the request completes, then the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/paths.js';
import { ROTA } from '../serve/cases/fixture.js';
import { buildTwoStores, replaceStore, type TwoStores } from './stores.js';

const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const CONNECTIONS = 40;

let stores: TwoStores;
const children: ChildProcess[] = [];

beforeAll(async () => {
  stores = await buildTwoStores();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(stores.dir, { recursive: true, force: true });
});

/** A running server: its process, base URL and exit. */
interface Served {
  child: ChildProcess;
  base: string;
  exit: Promise<number | null>;
  /** Everything the process printed so far. */
  output: () => string;
}

/** Starts `serve` on port 0 (the compiled CLI) and resolves with its URL once /readyz is 200. */
async function serve(store: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--store', store, '--port', '0', ...extra], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let out = '';
  const base = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  });
  for (let i = 0; i < 200; i++) {
    if ((await fetch(`${base}/readyz`)).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, exit, output: () => out };
}

async function readyz(base: string): Promise<{ reports_through: string; store_build: string; build: string }> {
  return (await fetch(`${base}/readyz`)).json() as Promise<{ reports_through: string; store_build: string; build: string }>;
}

describe('serve as a service (child process)', () => {
  it(`SIGHUP under load (${CONNECTIONS} connections): no failed request, no non-200, the headers change`, async () => {
    const path = join(stores.dir, 'hup.duckdb');
    await copyFile(stores.older, path);
    const { child, base } = await serve(path);
    const urls = [`/signals?vaccine=${encodeURIComponent(ROTA)}`, `/cases?vaccine=${encodeURIComponent(ROTA)}`, '/vaccines', '/analyses/serious/signals?vaccine=ROTAVIRUS'];
    const seen = new Map<string, number>();
    const builds = new Set<string>();
    let failures = 0;
    const statuses = new Map<number, number>();
    let requests = 0;
    let stop = false;
    const worker = async (k: number): Promise<void> => {
      for (let i = k; !stop; i++) {
        try {
          const res = await fetch(base + urls[i % urls.length]);
          await res.arrayBuffer();
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const through = res.headers.get('x-reports-through') ?? '';
          seen.set(through, (seen.get(through) ?? 0) + 1);
          builds.add(res.headers.get('x-reports-build') ?? '');
        } catch {
          failures++;
        }
      }
    };
    const load = Array.from({ length: CONNECTIONS }, (_, k) => worker(k));
    await new Promise((r) => setTimeout(r, 1000));
    const before = await readyz(base);
    await replaceStore(stores.newer, path);
    child.kill('SIGHUP');
    let after = before;
    for (let i = 0; i < 300 && after.reports_through === before.reports_through; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await readyz(base);
    }
    await new Promise((r) => setTimeout(r, 1000)); // load continues on the new store
    stop = true;
    await Promise.all(load);
    child.kill('SIGTERM');
    expect(failures).toBe(0);
    expect([...statuses.keys()]).toEqual([200]);
    expect(requests).toBeGreaterThan(CONNECTIONS * 4);
    expect(before.reports_through).toBe('2000Q3');
    expect(after.reports_through).toBe('2001Q4');
    expect(after.store_build).not.toBe(before.store_build);
    expect(after.build).not.toBe(before.build);
    expect(seen.get('2000Q3')).toBeGreaterThan(0);
    expect(seen.get('2001Q4')).toBeGreaterThan(0);
    expect(builds).toEqual(new Set([before.build, after.build]));
  }, 120_000);

  it('--watch: a store file replaced by a rename is swapped in', async () => {
    const path = join(stores.dir, 'watched.duckdb');
    await copyFile(stores.newer, path);
    const { child, base } = await serve(path, ['--watch']);
    expect((await readyz(base)).reports_through).toBe('2001Q4');
    await new Promise((r) => setTimeout(r, 500)); // the watcher is ready
    await replaceStore(stores.older, path);
    let through = '2001Q4';
    for (let i = 0; i < 300 && through === '2001Q4'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      through = (await readyz(base)).reports_through;
    }
    child.kill('SIGTERM');
    expect(through).toBe('2000Q3');
  }, 120_000);

  it('SIGTERM: the request in flight completes, then the process exits 0', async () => {
    let upstream: Server | null = null;
    try {
      upstream = createServer((_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"studies":[],"totalCount":0}'), 1500);
      });
      await new Promise<void>((done) => upstream!.listen(0, '127.0.0.1', done));
      const { port } = upstream.address() as AddressInfo;
      const { child, base, exit, output } = await serve(stores.older, [], { CTGOV_BASE_URL: `http://127.0.0.1:${port}` });
      const started = Date.now();
      const inFlight = fetch(`${base}/pipeline?sponsor=Pfizer&format=json`).then(async (res) => ({ status: res.status, body: await res.text() }));
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toHaveProperty('studies');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      expect(await exit).toBe(0);
      expect(output()).toContain('SIGTERM: closing');
      expect(output()).not.toContain('after the grace period'); // closed because the requests were done, not forced
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      upstream?.close();
    }
  }, 120_000);
});
