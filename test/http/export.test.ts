/**
 * The bulk export (issue 36) on the real default store: GET /analyses/NAME/export and GET /export.
 * Every expected figure is read from another resource of the API (the /analyses listing's pair
 * and row counts, the /signals row and series of a pair, /reports/{id}), and the Parquet files are
 * read back with DuckDB itself, not with project code. Skips without the default store.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { defaultApp } from '../helpers/default-app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { DEFAULT_STORE, hasDefaultStore } from '../helpers/default-store.js';

const hasStore = hasDefaultStore('bulk export tests');
const ROTASHIELD = 'ROTAVIRUS (ROTASHIELD)';

/** Rows of a CSV body (header as keys). */
function csvRows(body: string): Array<Record<string, string>> {
  return parse(body, { columns: true }) as Array<Record<string, string>>;
}

/**
 * The rows of a CSV body whose first cell is `id`: the header and the lines starting `id,` parsed (the long report
 * tables hold no line break inside a cell), instead of the whole body of some hundred thousand rows.
 */
function csvRowsOf(body: string, id: string): Array<Record<string, string>> {
  const lines = body.split('\n');
  return csvRows([lines[0], ...lines.filter((l) => l.startsWith(`${id},`))].join('\n'));
}

/** Reads a Parquet body with DuckDB: the rows of `select` over it (`t`). */
async function parquetRows(body: Buffer, select: string): Promise<Array<Record<string, unknown>>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rs-export-test-'));
  try {
    const file = path.join(dir, 'x.parquet');
    await writeFile(file, body);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${file}')`);
      return (await connection.runAndReadAll(select)).getRowObjectsJS() as Array<Record<string, unknown>>;
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasStore)('GET /analyses/NAME/export and GET /export on the default store', () => {
  let app: FastifyInstance;
  let listing: Array<{ name: string; pairs: number; rows: number }>;
  const get = (url: string) => app.inject({ url });
  beforeAll(async () => {
    app = await defaultApp();
    const deadline = Date.now() + 240_000;
    while ((await get('/readyz')).statusCode !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    listing = (await get('/analyses')).json().analyses;
  }, 300_000);

  it('pairs as CSV: every pair of the analysis (the listing\'s count), the /signals fields and values; headers say the caveat', async () => {
    const res = await get('/analyses/all/export?table=pairs&format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe('attachment; filename="all-pairs.csv"');
    expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
    expect(res.headers['x-reports-analysis']).toBe('all');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const rows = csvRows(res.body);
    expect(rows).toHaveLength(listing.find((a) => a.name === 'all')!.pairs);
    const api = (await get(`/signals?vaccine=${encodeURIComponent(ROTASHIELD)}&event=Intussusception`)).json()[0];
    const row = rows.find((r) => r.vaccine === ROTASHIELD && r.event === 'Intussusception')!;
    expect(Object.keys(row)).toEqual(Object.keys(api));
    expect([Number(row.n), Number(row.eb05), row.first_quarter, row.emerging]).toEqual([api.n, api.eb05, api.first_quarter, String(api.emerging)]);
  }, 120_000);

  it('pairs as Parquet: the same pairs, typed', async () => {
    const res = await get('/analyses/types/export?table=pairs&format=parquet');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apache.parquet');
    const [count] = await parquetRows(res.rawPayload, 'SELECT count(*)::INTEGER AS n FROM t');
    expect(count.n).toBe(listing.find((a) => a.name === 'types')!.pairs);
    const api = (await get('/analyses/types/signals?vaccine=RV&event=Intussusception')).json()[0];
    const [rv] = await parquetRows(res.rawPayload, 'SELECT n::INTEGER AS n, eb05, emerging FROM t WHERE vaccine = \'RV\' AND event = \'Intussusception\'');
    expect(rv).toEqual({ n: api.n, eb05: api.eb05, emerging: api.emerging });
  }, 120_000);

  it('quarterly as CSV and Parquet: every row of the analysis (the listing\'s rows), a pair\'s rows are its series', async () => {
    const death = listing.find((a) => a.name === 'death')!;
    const csv = csvRows((await get('/analyses/death/export?table=quarterly')).body);
    expect(csv).toHaveLength(death.rows);
    expect(new Set(csv.map((r) => r.analysis))).toEqual(new Set(['death']));
    const parquet = await get('/analyses/death/export?table=quarterly&format=parquet');
    const [count] = await parquetRows(parquet.rawPayload, 'SELECT count(*)::INTEGER AS n FROM t');
    expect(count.n).toBe(death.rows);
    const first = csv[0];
    const series = (await get(`/analyses/death/signals?vaccine=${encodeURIComponent(first.drug)}&event=${encodeURIComponent(first.event)}&format=series`)).json();
    const mine = csv.filter((r) => r.drug === first.drug && r.event === first.event);
    expect(mine.map((r) => [r.quarter, Number(r.n)])).toEqual(series.quarters.map((q: { quarter: string; n: number }) => [q.quarter, q.n]));
  }, 120_000);

  it('report_vaccines and report_events: long format, one row per report and vaccine (event), as /reports/{id} lists them', async () => {
    const report = (await get('/reports/118916')).json();
    const vaccines = csvRowsOf((await get('/export?table=report_vaccines')).body, '118916');
    expect(vaccines.map((v) => v.vax_name)).toEqual(report.vaccines.map((v: { name: string }) => v.name));
    expect(vaccines.length).toBeGreaterThan(1);
    const events = csvRowsOf((await get('/export?table=report_events')).body, '118916');
    expect(events.map((e) => e.term).sort()).toEqual(report.events.map((e: { term: string }) => e.term).sort());
  }, 120_000);

  it('the reports CSV goes through the CSV cell rule: report 77395\'s narrative starts \'+swelling; no cell a spreadsheet would run but numbers', async () => {
    const res = await get('/export?table=reports&format=csv');
    expect(res.statusCode).toBe(200);
    const rows = csvRows(res.body);
    const report = rows.find((r) => r.vaers_id === '77395')!;
    expect(Object.values(report).filter((cell) => cell.toLowerCase().startsWith("'+swelling in rt thigh"))).toHaveLength(1);
    let neutralised = 0;
    for (const row of rows) {
      for (const cell of Object.values(row)) {
        if (/^[=+\-@\t\r]/.test(cell)) expect([cell, Number.isFinite(Number(cell))]).toEqual([cell, true]);
        if (/^'[=+\-@\t\r]/.test(cell)) neutralised++;
      }
    }
    // The issue counted 314 such cells in the reports export before the rule applied.
    expect(neutralised).toBe(314);
  }, 300_000);

  it('bad parameters are 400 Error objects with allowed; an unknown analysis 404', async () => {
    for (const url of ['/export', '/export?table=everything', '/export?table=pairs&format=xlsx', '/export?table=pairs&limit=5',
      '/export?table=pairs&table=quarterly', '/analyses/all/export?table=reports']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json();
      expect(body.hypothesis).toBe(HYPOTHESIS);
      expect(typeof body.error).toBe('string');
    }
    expect((await get('/analyses/all/export?table=reports')).json().allowed).toEqual(['pairs', 'quarterly']);
    expect((await get('/export?table=pairs&format=xlsx')).json().allowed).toEqual(['csv', 'parquet']);
    expect((await get('/analyses/nope/export?table=pairs')).statusCode).toBe(404);
  }, 120_000);
});

describe.skipIf(!hasStore)('a client that stops reading an export (default store)', () => {
  let app: FastifyInstance;
  let port: number;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rs-export-idle-'));
    app = await buildApp({ storePath: DEFAULT_STORE!, exports: { root, limits: { exports: 16, writers: 2, idleSeconds: 1 } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    while ((await app.inject({ url: '/readyz' })).statusCode !== 200) await new Promise((r) => setTimeout(r, 500));
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('is disconnected once it has read nothing for idleSeconds (it held the connection and its file before)', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /export?table=quarterly&format=csv HTTP/1.1\r\nHost: a\r\n\r\n');
    let head = '';
    let received = 0;
    // Reads the head and the first chunk, then stops reading: the 122 MB body fills the buffers.
    await new Promise<void>((done) => socket.once('data', (chunk: Buffer) => { head = chunk.toString('latin1', 0, 200); received = chunk.length; socket.pause(); done(); }));
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    // The server closes its side (a paused client sees no FIN until it reads): its connections drop to none.
    const connections = (): Promise<number> => new Promise((done) => app.server.getConnections((_error, n) => done(n)));
    while ((await connections()) > 0) await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    expect(received).toBeGreaterThan(0);
    // The server still answers, and the export is still served to a client that reads.
    expect((await app.inject({ method: 'HEAD', url: '/export?table=quarterly&format=csv' })).headers['content-length']).toMatch(/^\d+$/);
  }, 300_000);
});
