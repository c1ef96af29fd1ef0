import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoreMeta } from '../../src/serve/store/serving.js';
import { cli } from './cli.js';
import { historyFixture, writeVaersFolder } from '../ingest/mining/fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-build-cli-'));
  await writeVaersFolder(join(dir, 'vaers'), historyFixture());
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reporting-signals build and import on the command line: progress on stderr, a summary at the end, clean errors', () => {
  it('builds, shows plain progress lines when stderr is not a terminal, and ends with the summary', async () => {
    const out = join(dir, 'store.duckdb');
    const { code, stderr } = await cli(['build', '--vaers', join(dir, 'vaers'), '--out', out, '--workers', '2']);
    expect(code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(stderr).toMatch(/^fit all: 12 windows$/m);
    expect(stderr).toMatch(/^fit all: done in [\d.]+ s \(cpu [\d.]+ s\)$/m);
    for (const label of ['reports read', 'reports kept', 'quarters', 'windows', 'pairs stored', 'rows', 'time', 'peak RSS']) {
      expect(stderr).toMatch(new RegExp(`^ +${label}\\s`, 'm'));
    }
    expect(stderr).toMatch(/quarters\s+12 \(2000Q1 to 2002Q4\)/);
    expect(stderr).toMatch(/partial, covering < 4 quarters: 2000Q1, 2000Q2, 2000Q3/);
    expect(stderr.includes('\u001b[')).toBe(false); // no terminal control codes in a log
  });

  it('--analyses: each named analysis is counted, fitted and summarised; an unknown name is one clear line', async () => {
    const out = join(dir, 'analyses.duckdb');
    const { code, stderr } = await cli(['build', '--vaers', join(dir, 'vaers'), '--out', out, '--analyses', 'stratified,all,serious']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^ {2}analysis stratified \(default\)$/m);
    expect(stderr).toMatch(/^ {2}analysis all$/m);
    expect(stderr).toMatch(/^ {2}analysis serious$/m);
    // `all` and `stratified` share one count: one "count" bar for both, one for serious.
    expect(stderr.match(/^count \S+: done/gm)).toEqual(['count stratified: done', 'count serious: done']);
    const bad = await cli(['build', '--vaers', join(dir, 'vaers'), '--out', join(dir, 'x.duckdb'), '--analyses', 'all,everything']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('reporting-signals: --analyses: unknown analysis "everything" (choose from all, stratified, serious, death, pediatric, adult, elderly, female, male, each optionally with @dedup, @types, @groups; or types, groups)');
  });

  it('--strata: recorded per stratified analysis (sex,age6,year by default); a bad choice is one clear line', async () => {
    const byDefault = await readStoreMeta(join(dir, 'analyses.duckdb'));
    expect(byDefault.analyses?.map((a) => [a.name, a.strata, a.stratified_by.length])).toEqual([['stratified', 'sex,age6,year', 3], ['all', null, 0], ['serious', 'sex,age6,year', 3]]);
    expect(byDefault.parameters.strata).toBe('sex,age6,year');
    const out = join(dir, 'age13.duckdb');
    expect((await cli(['build', '--vaers', join(dir, 'vaers'), '--out', out, '--analyses', 'serious', '--strata', 'year,sex,age13'])).code).toBe(0);
    const age13 = await readStoreMeta(out);
    expect(age13.analyses?.map((a) => [a.strata, a.stratified_by])).toEqual([['sex,age13,year', ['year of RECVDATE', 'age group (CDC WONDER, 13 groups)', 'sex (F, M, U)']]]);
    const bad = await cli(['build', '--vaers', join(dir, 'vaers'), '--out', join(dir, 'x.duckdb'), '--strata', 'sex,age']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('reporting-signals: --strata: unknown dimension "age" (choose from sex, age6, age13, year, e.g. sex,age6,year (default) or sex,age13,year)');
  });

  it('prints a bad input as one line naming the file, without a stack trace, and exits 1', async () => {
    const bad = join(dir, 'bad');
    await writeVaersFolder(bad, historyFixture().slice(0, 10));
    await writeFile(join(bad, '2000VAERSDATA.csv'), 'VAERS_ID,STATE\r\n1,CA\r\n');
    const { code, stderr } = await cli(['build', '--vaers', bad, '--out', join(dir, 'bad.duckdb')]);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('read:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^reporting-signals: .*2000VAERSDATA\.csv.*RECVDATE/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'bad.duckdb'))).toBe(false);
  });

  it('import prints a one-line summary', async () => {
    const file = join(dir, 'q.csv');
    await writeFile(file, 'drug_name,outcome_name,quarter,observed,eb05,eb50,eb95,prr,ror,ic,n_methods_flagged,is_signal_any,ewma_eb05\nA (X),B,2021-Q3,3,2.1,2.5,3,4,5,1,3,TRUE,2.1\n');
    const { code, stderr } = await cli(['import', '--quarterly', file, '--out', join(dir, 'imported.duckdb')]);
    expect(code).toBe(0);
    expect(stderr.trim()).toMatch(/^import: 1 rows, 1 pairs, 1 vaccines, reports through 2021Q3, ic025 absent -> /);
  });
});
