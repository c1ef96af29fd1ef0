/**
 * The full store written from the first analysis's store (src/ingest/store/write.ts `copyFrom`,
 * build.ts `firstAnalysis`, as the default store's first start builds it) holds the same rows, in
 * the same order, as the store written in one go: when the first analysis sorts before the others
 * (its file copied and the other analyses' rows appended) and when it does not (written anew).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { identityOf } from '../../../src/serve/generation/identity.js';
import { historyFixture, writeVaersFolder } from '../mining/fixtures.js';

let dir: string;
let vaers: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-write-copy-'));
  vaers = join(dir, 'vaers');
  await writeVaersFolder(vaers, historyFixture());
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every table of the store at `path`, its rows in stored order as JSON; `meta` without what measures the run (identityOf). */
async function tablesOf(path: string): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const json = (value: unknown): string => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  try {
    const names = (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1')).getRows().map((r) => String(r[0]));
    const tables: Record<string, string> = {};
    for (const name of names) {
      const rows = (await connection.runAndReadAll(`SELECT * FROM ${name} ORDER BY rowid`)).getRowObjectsJS();
      tables[name] = name === 'meta'
        ? json(rows.filter((r) => r.key !== 'built_at').map((r) => [r.key, identityOf(JSON.parse(String(r.value)))]))
        : json(rows);
    }
    return tables;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('the full store from the first analysis\'s store', () => {
  for (const [analyses, how] of [['all,serious,stratified', 'its file copied, the others appended'], ['stratified,all,serious', 'written anew (stratified sorts after all)']]) {
    it(`${analyses}: the same tables, rows and order as one write (${how})`, async () => {
      const whole = join(dir, `whole-${analyses}.duckdb`);
      const full = join(dir, `full-${analyses}.duckdb`);
      const first = join(dir, `first-${analyses}.duckdb`);
      await buildStore({ vaers, out: whole, analyses, workers: 1 });
      const written: string[] = [];
      await buildStore({ vaers, out: full, analyses, workers: 1, firstAnalysis: { out: first, written: (path) => void written.push(path) } });
      expect(written).toEqual([first]);
      const [a, b] = [await tablesOf(whole), await tablesOf(full)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const name of Object.keys(a)) expect(b[name], name).toBe(a[name]);
      expect(JSON.parse(a.quarterly).length).toBeGreaterThan(0);
      // Rows of the first analysis and of another one (serious flags no pair in this fixture).
      expect([...new Set(JSON.parse(a.quarterly).map((r: { analysis: string }) => r.analysis))].sort()).toEqual(['all', 'stratified']);
      // The first analysis's store is left as it was written (the caller removes it); no temporary file stays.
      expect(Object.keys(await tablesOf(first))).toEqual(Object.keys(a));
      expect((await readdir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([]);
    }, 240_000);
  }
});
