/**
 * Vaccine-type items on the real 2006 files: a store built with `types` (every report,
 * stratified E, VAX_TYPE codes as items), `serious@types` and `all` against an independent
 * computation from the raw files (test/helpers/raw-vaers.ts, plain CSV parsing without any
 * project code): for three type x event pairs of the 2006Q4 window, n, the margins
 * (n_vaccine = reports naming the type, n_event), N, the stratified E (sex x AGE_GROUP_6 x year)
 * and PRR from the crude 2x2 table. FLU3 x Guillain-Barre syndrome: n 48, PRR 7.10 at the type
 * level against n 25, PRR 4.23 for FLUZONE alone. Skipped with a message when
 * ../shared/data/vaers is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { QuarterlyRow, StoreMeta } from '../../../src/domain/store-schema.js';
import { isSerious, loadRawReports, pairStatistics, type RawReport } from '../../helpers/raw-vaers.js';
import { Store } from '../../helpers/store.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const vaers = path.resolve(SHARED_DATA, 'vaers');
const present = existsSync(path.join(vaers, '2006VAERSDATA.csv.gz'));
if (!present) console.warn(`vaccine-type items on the real 2006 files skipped: ${vaers} is absent`);

const PAIRS: Array<[string, string]> = [
  ['FLU3', 'Guillain-Barre syndrome'],
  ['MMR', 'Rash'],
  ['HPV4', 'Syncope'],
];

function close(actual: number | null | undefined, expected: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
}

describe.skipIf(!present)('vaccine-type items (types, serious@types) on the real 2006Q4 window against the raw files', () => {
  let dir: string;
  let raw: RawReport[];
  let meta: StoreMeta;
  const rows: QuarterlyRow[] = [];
  beforeAll(async () => {
    // The 2006Q4 window covers 2006Q1..2006Q4: a folder of links to the 2006 files.
    dir = mkdtempSync(path.join(tmpdir(), 'rs-types-real-'));
    const folder = path.join(dir, 'vaers');
    mkdirSync(folder);
    for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) symlinkSync(path.join(vaers, `2006VAERS${kind}.csv.gz`), path.join(folder, `2006VAERS${kind}.csv.gz`));
    await buildStore({ vaers: folder, out: path.join(dir, 'store.duckdb'), analyses: 'types,serious@types,all', workers: 1 });
    const store = await Store.open(path.join(dir, 'store.duckdb'));
    try {
      meta = await store.meta();
      await store.forEachQuarterlyRow((r) => { if (r.quarter === '2006Q4') rows.push(r); });
    } finally {
      store.close();
    }
    raw = (await loadRawReports(vaers, [2006])).reports;
  }, 300_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const row = (analysis: string, drug: string, event: string): QuarterlyRow | undefined =>
    rows.find((r) => r.analysis === analysis && r.drug === drug && r.event === event);

  function check(analysis: string, pairs: ReadonlyArray<readonly [string, string]>, keep?: (r: RawReport) => boolean): void {
    for (const [code, event] of pairs) {
      const expected = pairStatistics(raw, '2006Q4', code, event, { items: 'types', ages: 'age6', ...(keep ? { keep } : {}) });
      const stored = row(analysis, code, event);
      expect(stored, `${analysis}: ${code} x ${event} stored`).toBeDefined();
      expect([stored!.n, stored!.n_vaccine, stored!.n_event, stored!.n_reports], `${analysis}: ${code} x ${event}`)
        .toEqual([expected.n, expected.n_vaccine, expected.n_event, expected.N]);
      close(stored!.expected, expected.E_strat!);
      const { n, n_vaccine: nv, n_event: ne, N } = expected;
      close(stored!.prr, (n / nv) / ((ne - n) / (N - nv)));
    }
  }

  it('types: n, n_vaccine (reports naming the type), n_event, N, stratified E and PRR agree for three pairs', () => {
    check('types', PAIRS);
  });

  it('serious@types: the same over the serious reports, for every stored 2006Q4 pair of FLU3, MMR and HPV4', () => {
    const pairs = rows.filter((r) => r.analysis === 'serious@types' && ['FLU3', 'MMR', 'HPV4'].includes(r.drug)).map((r) => [r.drug, r.event] as const);
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    check('serious@types', pairs, isSerious);
  });

  it('FLU3 x Guillain-Barre syndrome: n 48, PRR 7.10 at the type level; FLUZONE alone n 25, PRR 4.23', () => {
    const flu3 = row('types', 'FLU3', 'Guillain-Barre syndrome')!;
    expect([flu3.n, flu3.prr!.toFixed(2)]).toEqual([48, '7.10']);
    const fluzone = row('all', 'INFLUENZA (SEASONAL) (FLUZONE)', 'Guillain-Barre syndrome')!;
    expect([fluzone.n, fluzone.prr!.toFixed(2)]).toEqual([25, '4.23']);
  });

  it('records each analysis\'s items in the metadata', () => {
    expect(meta.analyses!.map((a) => [a.name, a.items, a.strata])).toEqual([
      ['types', 'vax_type_code', 'sex,age6,year'], ['serious@types', 'vax_type_code', 'sex,age6,year'], ['all', 'vaccine', null],
    ]);
  });
});
