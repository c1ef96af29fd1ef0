import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importQuarterly } from '../../src/ingest/store/import.js';
import { UserError } from '../../src/domain/user-error.js';
import { Store, storeSeries } from '../helpers/store.js';

const HEADER = 'drug_name,outcome_name,quarter,observed,eb05,eb50,eb95,prr,ror,ic,n_methods_flagged,is_signal_any,ewma_eb05';
const ROWS = [
  'HPV (GARDASIL),Syncope,2007Q1,12,2.5,3.1,3.9,4.2,4.8,1.7,4,TRUE,2.5',
  'HPV (GARDASIL),Syncope,2007-Q2,15,2.9,3.4,4.1,4.5,5.0,1.8,4,TRUE,2.62',
  'HPV (GARDASIL 9),Syncope,2016Q1,3,NA,1.2,2.0,Inf,,0.2,0,FALSE,NA',
  '"COVID19 (COVID19 (MODERNA))",Myocarditis,2021Q3,40,5.5,6.0,6.6,7.0,7.5,2.6,4,TRUE,5.5',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-import-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function csv(name: string, lines: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

async function importError(file: string, out: string): Promise<string> {
  try {
    await importQuarterly(file, out);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('import: a quarterly table computed elsewhere', () => {
  it('imports a CSV: rows, quarters normalised, NA/Inf/empty as null, vaccines from names, meta', async () => {
    const file = await csv('q.csv', [HEADER, ...ROWS]);
    const out = join(dir, 'csv.duckdb');
    const summary = await importQuarterly(file, out);
    expect(summary).toEqual({ rows: 4, pairs: 3, vaccines: 3, reportsThrough: '2021Q3', hasIc025: false });
    const store = await Store.open(out);
    try {
      const meta = await store.meta();
      expect(meta.origin).toBe('import');
      expect(meta.has_ic025).toBe(false);
      expect(meta.reports_through).toBe('2021Q3');
      expect(meta.sources[0].name).toBe('q.csv');
      expect(meta.sources[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      const series = await storeSeries(store, 'HPV (GARDASIL)', 'Syncope');
      expect(series.map((r) => r.quarter)).toEqual(['2007Q1', '2007Q2']);
      expect(series[1]).toMatchObject({ n: 15, eb05: 2.9, eb50: 3.4, eb95: 4.1, prr: 4.5, ror: 5, ic: 1.8, n_methods_flagged: 4, is_signal_any: true, ewma_eb05: 2.62, ic025: null, expected: null });
      const [g9] = await storeSeries(store, 'HPV (GARDASIL 9)', 'Syncope');
      expect(g9).toMatchObject({ n: 3, eb05: null, prr: null, ror: null, is_signal_any: false, ewma_eb05: null });
      expect(await store.vaccines()).toEqual([
        { vax_name: 'COVID19 (COVID19 (MODERNA))', vax_type: 'COVID19', vax_type_codes: [] },
        { vax_name: 'HPV (GARDASIL 9)', vax_type: 'HPV', vax_type_codes: [] },
        { vax_name: 'HPV (GARDASIL)', vax_type: 'HPV', vax_type_codes: [] },
      ]);
      expect(await store.windows()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('imports Parquet with typed columns and keeps ic025 when present (spec 2.3)', async () => {
    const source = await csv('typed.csv', [`${HEADER},ic025,extra_column`, ...ROWS.map((r, i) => `${r},${i === 2 ? 'NA' : 0.5 + i},x`)]);
    const parquet = join(dir, 'q.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (SELECT * REPLACE (CAST(observed AS INTEGER) AS observed, CAST(is_signal_any AS BOOLEAN) AS is_signal_any)
      FROM read_csv('${source}', nullstr = ['NA', ''])) TO '${parquet}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
    const out = join(dir, 'parquet.duckdb');
    const summary = await importQuarterly(parquet, out);
    expect(summary).toMatchObject({ rows: 4, hasIc025: true, reportsThrough: '2021Q3' });
    const store = await Store.open(out);
    try {
      expect((await store.meta()).has_ic025).toBe(true);
      const series = await storeSeries(store, 'HPV (GARDASIL)', 'Syncope');
      expect(series.map((r) => r.ic025)).toEqual([0.5, 1.5]);
      expect(series[0]).toMatchObject({ n: 12, eb05: 2.5, is_signal_any: true, quarter: '2007Q1' });
      expect((await storeSeries(store, 'HPV (GARDASIL 9)', 'Syncope'))[0].ic025).toBeNull();
    } finally {
      store.close();
    }
  });

  it('names the missing required columns', async () => {
    const file = await csv('missing.csv', ['drug_name,outcome_name,quarter,observed,eb05', 'A (X),B,2020Q1,1,2']);
    const message = await importError(file, join(dir, 'missing.duckdb'));
    expect(message).toContain('missing required column(s): eb50, eb95, prr, ror, ic, n_methods_flagged, is_signal_any, ewma_eb05');
  });

  it.each([
    ['a bad quarter', 'A (X),B,2020Q5,1,1,1,1,1,1,1,0,FALSE,1', 'row 2 (line 3): column quarter: not a quarter'],
    ['a non-numeric eb05', 'A (X),B,2020Q1,1,abc,1,1,1,1,1,0,FALSE,1', 'row 2 (line 3): column eb05: not a number: "abc"'],
    ['a fractional observed', 'A (X),B,2020Q1,1.5,1,1,1,1,1,1,0,FALSE,1', 'row 2 (line 3): column observed: expected a whole number >= 0'],
    ['n_methods_flagged out of 0..4', 'A (X),B,2020Q1,1,1,1,1,1,1,1,5,TRUE,1', 'row 2 (line 3): column n_methods_flagged: expected a whole number 0..4'],
    ['a bad boolean', 'A (X),B,2020Q1,1,1,1,1,1,1,1,0,maybe,1', 'row 2 (line 3): column is_signal_any: expected true or false, got "maybe"'],
    ['an empty vaccine name', ',B,2020Q1,1,1,1,1,1,1,1,0,FALSE,1', 'row 2 (line 3): column drug_name: empty value'],
    ['a repeated (drug, event, quarter)', 'A (X),B,2020-Q2,1,1,1,1,1,1,1,0,FALSE,1', 'row 2: (A (X), B, 2020Q2) already given in row 1'],
  ])('rejects %s, naming column and row, and writes no store', async (_label, bad, expected) => {
    const file = await csv('bad.csv', [HEADER, 'A (X),B,2020Q2,1,1,1,1,1,1,1,0,FALSE,1', bad]);
    const out = join(dir, 'bad.duckdb');
    expect(await importError(file, out)).toContain(expected);
    expect((await readdir(dir)).filter((f) => f.startsWith('bad.duckdb'))).toEqual([]);
  });

  it('rejects an empty table, a missing file and a file that is not a table; an existing store is untouched', async () => {
    const out = join(dir, 'existing.duckdb');
    await importQuarterly(await csv('ok.csv', [HEADER, ROWS[0]]), out);
    const before = await readFile(out);
    expect(await importError(await csv('empty.csv', [HEADER]), out)).toContain('the table has no rows');
    expect(await importError(join(dir, 'nope.csv'), out)).toContain('file not found');
    const binary = join(dir, 'binary.csv');
    await writeFile(binary, Buffer.from([0, 1, 2, 255, 254, 0, 10, 0, 0, 3]));
    expect(await importError(binary, out)).toMatch(/binary\.csv/);
    expect(Buffer.compare(await readFile(out), before)).toBe(0);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
