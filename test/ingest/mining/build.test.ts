import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../../src/ingest/mining/summary.js';
import { UserError } from '../../../src/domain/user-error.js';
import { formatQuarter, quarterOf } from '../../../src/domain/quarter.js';
import { ewma, ewmaStep } from '../../../src/stats/ewma.js';
import { scoreWindow } from '../../../src/stats/window.js';
import { Store } from '../../helpers/store.js';
import type { QuarterlyRow, WindowRow } from '../../../src/domain/store-schema.js';
import { historyFixture, writeVaersFolder, type FixtureReport } from './fixtures.js';

let dir: string;
let vaers: string;
let summary: BuildSummary;
let rows: QuarterlyRow[];
let windows: WindowRow[];
const reports = historyFixture();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-build-'));
  vaers = join(dir, 'vaers');
  await writeVaersFolder(vaers, reports);
  summary = await buildStore({ vaers, out: join(dir, 'store.duckdb'), workers: 2 });
  const store = await Store.open(join(dir, 'store.duckdb'));
  rows = [];
  await store.forEachQuarterlyRow((r) => rows.push(r));
  windows = await store.windows();
  store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function quarterOfReport(r: FixtureReport): number {
  const [month, , year] = r.recvdate.split('/').map(Number);
  return quarterOf(year, month);
}

/** Window counts by brute force from the fixture: distinct reports per pair and margins. */
function bruteForceWindow(quarter: number) {
  const inWindow = reports.filter((r) => quarterOfReport(r) <= quarter && quarterOfReport(r) > quarter - 4);
  const pairs = new Map<string, number>();
  const nVaccine = new Map<string, number>();
  const nEvent = new Map<string, number>();
  for (const r of inWindow) {
    const vaccines = [...new Set(r.vaccines.map(([name]) => name))];
    const events = [...new Set(r.events)];
    for (const v of vaccines) nVaccine.set(v, (nVaccine.get(v) ?? 0) + 1);
    for (const e of events) nEvent.set(e, (nEvent.get(e) ?? 0) + 1);
    for (const v of vaccines) for (const e of events) pairs.set(`${v}|${e}`, (pairs.get(`${v}|${e}`) ?? 0) + 1);
  }
  const keys = [...pairs.keys()];
  return {
    keys,
    input: {
      n: keys.map((k) => pairs.get(k)!),
      n_vaccine: keys.map((k) => nVaccine.get(k.split('|')[0])!),
      n_event: keys.map((k) => nEvent.get(k.split('|')[1])!),
      n_reports: inWindow.length,
    },
  };
}

describe('build (docs/design.md "Statistics, precisely") on a small history the test writes', () => {
  it('emits one window per quarter from the first to the last, the first three partial (documented in meta)', () => {
    expect(summary.quarters).toBe(12);
    expect(windows.map((w) => w.quarter)).toEqual(Array.from({ length: 12 }, (_, i) => formatQuarter(2000 * 4 + i)));
    expect(summary.analyses[0].partialWindows).toEqual(['2000Q1', '2000Q2', '2000Q3']);
    for (const w of windows) {
      const { keys, input } = bruteForceWindow(2000 * 4 + windows.indexOf(w));
      expect(w.n_reports).toBe(input.n_reports);
      expect(w.n_pairs).toBe(keys.length);
    }
  });

  it('stores exactly the pairs with n_methods_flagged >= 2 in some window, each row equal to scoreWindow on the window counts', () => {
    const expected = new Map<string, Array<{ quarter: string; n: number; stats: Record<string, unknown> }>>();
    const flagged = new Set<string>();
    windows.forEach((w, i) => {
      const { keys, input } = bruteForceWindow(2000 * 4 + i);
      const { pairs } = scoreWindow(input, { hyper: w });
      keys.forEach((key, j) => {
        if (pairs[j].n_methods_flagged >= 2) flagged.add(key);
        expected.set(key, [...(expected.get(key) ?? []), { quarter: w.quarter, n: input.n[j], stats: { ...pairs[j] } }]);
      });
    });
    expect(flagged.size).toBeGreaterThan(0);
    expect(flagged.size).toBeLessThan(expected.size); // the filter leaves some pairs out
    const stored = new Map<string, QuarterlyRow[]>();
    for (const r of rows) stored.set(`${r.drug}|${r.event}`, [...(stored.get(`${r.drug}|${r.event}`) ?? []), r]);
    expect([...stored.keys()].sort()).toEqual([...flagged].sort());
    expect(summary.analyses[0].pairs).toBe(flagged.size);
    expect(summary.analyses[0].rows).toBe(rows.length);
    for (const [key, series] of stored) {
      const want = expected.get(key)!;
      expect(series.map((r) => r.quarter)).toEqual(want.map((x) => x.quarter));
      series.forEach((r, i) => {
        expect(r.n).toBe(want[i].n);
        for (const [name, value] of Object.entries(want[i].stats)) expect(r[name as keyof QuarterlyRow]).toBe(value);
      });
    }
  });

  it('keeps the full series of a flagged pair, including its quarters below the floor', () => {
    const series = rows.filter((r) => r.drug === 'HPV (GARDASIL)' && r.event === 'Syncope');
    expect(series.map((r) => r.quarter)).toEqual(['2000Q2', '2000Q3', '2000Q4', '2001Q1', '2002Q2', '2002Q3', '2002Q4']);
    expect(series.map((r) => r.n)).toEqual([25, 25, 25, 25, 1, 1, 1]);
    expect(Math.max(...series.map((r) => r.n_methods_flagged))).toBeGreaterThanOrEqual(2);
    expect(series.slice(4).every((r) => r.n_methods_flagged < 2)).toBe(true);
    expect(series.every((r) => r.is_signal_any === r.n_methods_flagged >= 1)).toBe(true);
  });

  it('EWMA of EB05 per pair in quarter order, lambda 0.3 (docs/design.md "Statistics, precisely")', () => {
    const byPair = new Map<string, QuarterlyRow[]>();
    for (const r of rows) byPair.set(`${r.drug}|${r.event}`, [...(byPair.get(`${r.drug}|${r.event}`) ?? []), r]);
    for (const series of byPair.values()) {
      const want = ewma(series.map((r) => r.eb05), 0.3);
      series.forEach((r, i) => expect(r.ewma_eb05).toBe(want[i]));
    }
    const syncope = byPair.get('HPV (GARDASIL)|Syncope')!;
    expect(syncope[1].ewma_eb05).toBeCloseTo(0.3 * syncope[1].eb05! + 0.7 * syncope[0].eb05!, 12);
    expect(ewmaStep(null, 2)).toBe(2);
    expect(ewmaStep(2, null)).toBe(2);
    expect(ewmaStep(2, 4)).toBeCloseTo(2.6, 12);
  });

  it('writes the vaccine table (VAX_NAME, vax_type per spec 2.1, VAX_TYPE codes) and the metadata', async () => {
    const store = await Store.open(join(dir, 'store.duckdb'));
    try {
      const vaccines = await store.vaccines();
      expect(vaccines).toEqual([
        { vax_name: 'HPV (GARDASIL 9)', vax_type: 'HPV', vax_type_codes: ['HPV9'] },
        { vax_name: 'HPV (GARDASIL)', vax_type: 'HPV', vax_type_codes: ['HPV4'] },
        { vax_name: 'INFLUENZA (SEASONAL) (FLUZONE)', vax_type: 'INFLUENZA (SEASONAL)', vax_type_codes: ['FLU3'] },
        { vax_name: 'INFLUENZA (SEASONAL) (NO BRAND NAME)', vax_type: 'INFLUENZA (SEASONAL)', vax_type_codes: ['FLU3', 'FLUX'] },
        { vax_name: 'VARICELLA (VARIVAX)', vax_type: 'VARICELLA', vax_type_codes: ['VARCEL'] },
      ]);
      const meta = await store.meta();
      expect(meta).toMatchObject({ reports_through: '2002Q4', origin: 'build', has_ic025: true });
      expect(meta.sources.map((s) => s.name).sort()).toEqual(['2000', '2001', '2002'].flatMap((y) => ['DATA', 'SYMPTOMS', 'VAX'].map((k) => `${y}VAERS${k}.csv`)));
      expect(meta.sources.every((s) => /^[0-9a-f]{64}$/.test(s.sha256))).toBe(true);
      expect(meta.parameters).toMatchObject({ window_quarters: 4, ewma_lambda: 0.3, partial_window_quarters: ['2000Q1', '2000Q2', '2000Q3'] });
      expect(meta.program_version).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      store.close();
    }
  });

  it('gives the same rows with one worker; a `.parquet` name is a DuckDB file with every column all the same', async () => {
    const out = join(dir, 'one-worker.parquet');
    await buildStore({ vaers, out, workers: 1 });
    expect((await readFile(out)).subarray(8, 12).toString('latin1')).toBe('DUCK');
    const store = await Store.open(out);
    const again: QuarterlyRow[] = [];
    await store.forEachQuarterlyRow((r) => again.push(r));
    expect(await store.windows()).toEqual(windows);
    expect((await store.vaccines()).length).toBe(5);
    store.close();
    expect(again).toEqual(rows);
  });
});

describe('build: bad input gets a UserError naming the file; nothing is written', () => {
  async function expectUserError(folder: string, pattern: RegExp, out = join(dir, 'bad.duckdb')): Promise<void> {
    await expect(buildStore({ vaers: folder, out })).rejects.toSatisfy((e: unknown) => e instanceof UserError && pattern.test((e as Error).message));
    const left = (await readdir(dir)).filter((f) => f.startsWith('bad.duckdb') || f.includes('.tmp-'));
    expect(left).toEqual([]);
  }

  it('a missing file kind for a year', async () => {
    const folder = join(dir, 'missing-kind');
    await writeVaersFolder(folder, historyFixture().slice(0, 30));
    await rm(join(folder, '2000VAERSSYMPTOMS.csv'));
    await expectUserError(folder, /2000.*SYMPTOMS/);
  });

  it('a header without the needed columns', async () => {
    const folder = join(dir, 'bad-header');
    await writeVaersFolder(folder, historyFixture().slice(0, 30));
    await writeFile(join(folder, '2000VAERSDATA.csv'), 'VAERS_ID,STATE\r\n1000,CA\r\n');
    await expectUserError(folder, /2000VAERSDATA\.csv.*RECVDATE/);
  });

  it('a file that is not CSV', async () => {
    const folder = join(dir, 'binary');
    await writeVaersFolder(folder, historyFixture().slice(0, 30));
    await writeFile(join(folder, '2000VAERSVAX.csv'), Buffer.from([0, 159, 146, 150, 0, 0, 1, 2, 3, 0, 255]));
    await expectUserError(folder, /2000VAERSVAX\.csv/);
  });

  it('a folder without VAERS files, a missing folder, a missing output folder', async () => {
    const empty = join(dir, 'empty');
    await writeVaersFolder(empty, []);
    await expectUserError(empty, /empty/);
    await expectUserError(join(dir, 'no-such-folder'), /no-such-folder/);
    await expect(buildStore({ vaers, out: join(dir, 'no-such-dir', 'x.duckdb') })).rejects.toThrow(/output folder does not exist/);
  });

  it('a failing build leaves an existing store untouched', async () => {
    const out = join(dir, 'existing.duckdb');
    await buildStore({ vaers: join(dir, 'vaers'), out, workers: 1 });
    const before = await readFile(out);
    await expect(buildStore({ vaers: join(dir, 'bad-header'), out })).rejects.toBeInstanceOf(UserError);
    expect(Buffer.compare(await readFile(out), before)).toBe(0);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
