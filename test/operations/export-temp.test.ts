/**
 * The export's temporary files are owned (issue 45): a real `serve` process (TMPDIR a fresh
 * folder) writes its export files under TMPDIR/reporting-signals-exports/PID-XXXXXXXX/; SIGTERM
 * removes them before the process exits 0 (a redeploy left 340 MB before); after `kill -9` the
 * folder stays, and the next start removes it (nothing did before).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGroupsStore } from '../helpers/groups-fixture.js';
import { killAll, startServe } from './serve-process.js';

describe('export files of a serve process', () => {
  let dir: string;
  let store: string;
  let temp: string;
  const exportsRoot = (): string => path.join(temp, 'reporting-signals-exports');
  const folders = (): string[] => (existsSync(exportsRoot()) ? readdirSync(exportsRoot()) : []);
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-export-temp-'));
    ({ store } = await writeGroupsStore(dir));
    temp = path.join(dir, 'tmp');
    mkdirSync(temp);
  }, 300_000);
  afterAll(async () => {
    killAll();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function exportOnce(base: string): Promise<void> {
    const res = await fetch(`${base}/analyses/groups/export?table=quarterly&format=csv`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }

  it('SIGTERM removes the process\'s export files before it exits 0', async () => {
    const serve = startServe(['--store', store], { TMPDIR: temp });
    const base = await serve.listening();
    await exportOnce(base);
    const mine = folders().filter((name) => name.startsWith(`${serve.child.pid}-`));
    expect(mine).toHaveLength(1);
    expect(readdirSync(path.join(exportsRoot(), mine[0]), { recursive: true }).some((f) => String(f).endsWith('groups-quarterly.csv'))).toBe(true);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(folders()).toEqual([]);
  }, 120_000);

  it('after kill -9 the files stay; the next start removes them', async () => {
    const crashed = startServe(['--store', store], { TMPDIR: temp });
    await exportOnce(await crashed.listening());
    crashed.child.kill('SIGKILL');
    await crashed.exit;
    expect(folders().filter((name) => name.startsWith(`${crashed.child.pid}-`))).toHaveLength(1);
    const next = startServe(['--store', store], { TMPDIR: temp });
    await next.listening();
    expect(folders()).toEqual([]);
    next.child.kill('SIGTERM');
    expect(await next.exit).toBe(0);
  }, 120_000);
});
