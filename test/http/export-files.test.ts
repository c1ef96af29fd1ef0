/**
 * The bulk export's files, limits and CSV cells (issue 45) on a crafted store: the history fixture
 * (test/ingest/mining/fixtures.ts) with a vaccine named `+CMD(1)`, an event `@SUM(A1)` and a
 * grouping file whose group label is `=HYPERLINK("http://evil.example","x")`.
 * - Every text cell of every export CSV goes through the CSV cell rule (src/domain/csv-cell.ts),
 *   the numbers as numbers (a negative IC025 stays `-0.8...`).
 * - A file is written once per generation and served again; HEAD answers without writing it;
 *   the files go with the app (app.close: SIGTERM) and a dead process's folder at the next start.
 * - Past the cap on concurrent exports: 503 with Retry-After and the Error object; a client that
 *   leaves stops the writing (its partial file removed).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildServedApp } from '../../src/http/app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { RETRY_AFTER_SECONDS } from '../../src/http/live-store.js';
import { csvCell } from '../../src/domain/csv-cell.js';
import { historyFixture, type FixtureReport } from '../ingest/mining/fixtures.js';
import { GROUPS_CSV, writeGroupsStore } from '../helpers/groups-fixture.js';

const LABEL = '=HYPERLINK("http://evil.example","x")';
const VACCINE = '+CMD(1)';
const EVENT = '@SUM(A1)';

/** The fixture with the crafted names (the Gardasil cluster's vaccine renamed, an event added to ten reports). */
function craftedReports(): FixtureReport[] {
  return historyFixture().map((r, i) => ({
    ...r,
    vaccines: r.vaccines.map(([name, type]) => [name === 'HPV (GARDASIL)' ? VACCINE : name, type] as [string, string]),
    events: i < 10 ? [...r.events, EVENT] : r.events,
  }));
}

/** Files under `dir` (recursive), relative. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** The per-file folders under `root` (`<pid>-<hex>/<store>-<n>/<n>`): one while a file is written or kept. */
function entryFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name))).filter((p) => p.split(path.sep).length === 3);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('export files on a crafted store', () => {
  let dir: string;
  let store: string;
  let root: string;
  let app: FastifyInstance;
  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url });
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-export-files-'));
    const groups = GROUPS_CSV.replace(/Fainting/g, `"${LABEL.replace(/"/g, '""')}"`);
    ({ store } = await writeGroupsStore(dir, groups, craftedReports()));
    root = path.join(dir, 'exports');
    app = await buildApp({ storePath: store, exports: { root } });
    while ((await get('/readyz')).statusCode !== 200) await new Promise((r) => setTimeout(r, 100));
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every text cell of every export CSV is neutralised as the one CSV cell writer does; numbers stay numbers', async () => {
    const seen = new Set<string>();
    let negative = 0;
    for (const url of ['/analyses/groups/export?table=pairs', '/analyses/groups/export?table=quarterly', '/analyses/stratified/export?table=pairs',
      '/export?table=reports', '/export?table=report_vaccines', '/export?table=report_events']) {
      const res = await get(url);
      expect([url, res.statusCode]).toEqual([url, 200]);
      const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>;
      expect(rows.length, url).toBeGreaterThan(0);
      for (const row of rows) {
        for (const [column, cell] of Object.entries(row)) {
          if (cell.startsWith("'")) seen.add(cell);
          // A cell a spreadsheet would run: none, unless it is a number the program computed.
          if (/^[=+\-@\t\r]/.test(cell)) {
            expect([url, column, Number.isFinite(Number(cell))]).toEqual([url, column, true]);
            negative++;
          }
        }
      }
    }
    expect([...seen]).toEqual(expect.arrayContaining([`'${EVENT}`, `'${LABEL}`, `'${LABEL} (broad)`, `'${VACCINE}`]));
    // Nothing else starts with a quote but the crafted names (and their parts: a vaccine's name before its brackets).
    expect([...seen].filter((cell) => ![EVENT, LABEL, VACCINE].some((n) => n.startsWith(cell.slice(1)) || cell.slice(1).startsWith(n)))).toEqual([]);
    expect(negative).toBeGreaterThan(0);
    // The same bytes the cell writer gives for the label, quoted because it holds quotes and a comma.
    expect((await get('/analyses/groups/export?table=pairs')).body).toContain(`,${csvCell(LABEL)},`);
  }, 120_000);

  it('a file is written once per store and served again; HEAD answers without writing it, then with its length', async () => {
    const url = '/analyses/groups/export?table=quarterly&format=parquet';
    const before = filesUnder(root).length;
    const head = await get(url, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBeUndefined();
    expect(head.headers['content-disposition']).toBe('attachment; filename="groups-quarterly.parquet"');
    expect(head.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    expect(filesUnder(root)).toHaveLength(before);
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const written = filesUnder(root).filter((f) => f.endsWith('groups-quarterly.parquet'));
    expect(written).toHaveLength(1);
    const stamp = statSync(path.join(root, written[0])).mtimeMs;
    const second = await get(url);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(filesUnder(root).filter((f) => f.endsWith('groups-quarterly.parquet'))).toEqual(written);
    expect(statSync(path.join(root, written[0])).mtimeMs).toBe(stamp);
    const again = await get(url, 'HEAD');
    expect(again.headers['content-length']).toBe(String(first.rawPayload.length));
    expect(again.body).toBe('');
  }, 120_000);

  it('a store swap removes the old store\'s files once its last request is done; the new store writes its own', async () => {
    const served = await buildServedApp({ storePath: store, exports: { root: path.join(dir, 'swap') } });
    try {
      while ((await served.app.inject({ url: '/readyz' })).statusCode !== 200) await new Promise((r) => setTimeout(r, 100));
      expect((await served.app.inject({ url: '/export?table=report_events' })).statusCode).toBe(200);
      const before = entryFolders(path.join(dir, 'swap'));
      expect(before).toHaveLength(1);
      const reloaded = await served.live.reload(store, { force: true });
      expect(reloaded.ok).toBe(true);
      await until(() => entryFolders(path.join(dir, 'swap')).length === 0, 'the old store\'s files to be removed');
      expect((await served.app.inject({ url: '/export?table=report_events' })).statusCode).toBe(200);
      expect(entryFolders(path.join(dir, 'swap'))).toHaveLength(1);
    } finally {
      await served.app.close();
    }
  }, 120_000);

  it('a dead process\'s export folder is removed at the next start; the files go with the app', async () => {
    const crashed = path.join(root, '999999999-deadbeef');
    mkdirSync(crashed, { recursive: true });
    writeFileSync(path.join(crashed, 'left-over.csv'), 'x');
    const other = await buildApp({ storePath: store, exports: { root } });
    try {
      expect(existsSync(crashed)).toBe(false);
      while ((await other.inject({ url: '/readyz' })).statusCode !== 200) await new Promise((r) => setTimeout(r, 100));
      expect((await other.inject({ url: '/export?table=report_events' })).statusCode).toBe(200);
      const mine = readdirSync(root).filter((name) => name.startsWith(`${process.pid}-`));
      expect(mine.length).toBe(2);
    } finally {
      await other.close();
    }
    expect(readdirSync(root).filter((name) => name.startsWith(`${process.pid}-`))).toHaveLength(1);
  }, 120_000);
});

describe('export limits on a crafted store', () => {
  let dir: string;
  let store: string;
  let root: string;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-export-limits-'));
    ({ store } = await writeGroupsStore(dir, GROUPS_CSV, craftedReports()));
    root = path.join(dir, 'exports');
    app = await buildApp({ storePath: store, exports: { root, limits: { exports: 1, writers: 1, idleSeconds: 60 } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    while ((await app.inject({ url: '/readyz' })).statusCode !== 200) await new Promise((r) => setTimeout(r, 100));
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A GET on the real socket; resolves with the status once the answer ends, or 0 when aborted. */
  function download(url: string, signal?: AbortSignal): Promise<number> {
    return new Promise((resolve) => {
      const req = httpRequest(`${base}${url}`, { signal }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
      req.on('error', () => resolve(0));
      req.end();
    });
  }

  it('past the cap: 503 with Retry-After, no-store and the Error object; the export under way still answers', async () => {
    const before = entryFolders(root).length;
    const first = download('/export?table=reports&format=parquet');
    // The first export is admitted and writing (its folder exists) before the second is asked.
    await until(() => entryFolders(root).length > before, 'the first export to start writing');
    const refused = await app.inject({ url: '/export?table=report_events' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json()).toEqual({ error: '1 exports are under way, the most this server serves at once; retry in a few seconds', hypothesis: HYPOTHESIS });
    expect(await first).toBe(200);
    // The slot is given back when the writer process has finished, which may be a moment after the
    // client has read the last byte: a new export is admitted within a few seconds (a 503 meanwhile
    // carries Retry-After, as above), never refused for good.
    let status = 503;
    for (let i = 0; i < 100 && status === 503; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      status = (await app.inject({ url: '/export?table=report_events' })).statusCode;
    }
    expect(status).toBe(200);
  }, 120_000);

  it('a client that leaves while its file is written stops the writing: the partial file is removed, nothing is cached', async () => {
    const url = '/analyses/stratified/export?table=quarterly&format=csv';
    const controller = new AbortController();
    const before = entryFolders(root);
    const leaving = download(url, controller.signal);
    // Its folder exists: the writer process is starting.
    await until(() => entryFolders(root).length > before.length, 'the export to start writing');
    controller.abort();
    expect(await leaving).toBe(0);
    await until(() => entryFolders(root).length === before.length, 'the partial file to be removed');
    expect(filesUnder(root).filter((f) => f.includes('stratified-quarterly'))).toEqual([]);
    const head = await app.inject({ method: 'HEAD', url });
    expect(head.headers['content-length']).toBeUndefined();
    // Asked again, it is written from the start and answered.
    expect(await download(url)).toBe(200);
  }, 120_000);
});
