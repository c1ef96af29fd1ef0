/**
 * Serving from memory (speed): the catalog read once from a store file (DuckDB or
 * Parquet form, no database kept open) gives the same pairs from either form, and
 * `format=series` from memory gives the store's own rows (spec 2.3), quarter by quarter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog, type Catalog } from '../../../src/serve/signals/catalog.js';
import { pairSeries, seriesQuarter } from '../../../src/serve/signals/series.js';
import { readServingData } from '../../../src/serve/store/serving.js';
import { Store, storeSeries } from '../../helpers/store.js';
import { FIXTURE_SERIES, writeFixtureStore } from './fixture.js';

describe('spec 2.1 / 2.3 from memory equals the store', () => {
  let store: Store;
  let fromFile: Catalog;
  let fromParquet: Catalog;
  let noIc025: { store: Store; catalog: Catalog };

  beforeAll(async () => {
    const path = await writeFixtureStore();
    store = await Store.open(path);
    fromFile = await loadCatalog(path);
    fromParquet = await loadCatalog(await writeFixtureStore({ parquet: true }));
    const barePath = await writeFixtureStore({ hasIc025: false });
    noIc025 = { store: await Store.open(barePath), catalog: await loadCatalog(barePath) };
  });
  afterAll(() => {
    store.close();
    noIc025.store.close();
  });

  it('the same pairs (2.1 aggregate) from the DuckDB file and the Parquet form', () => {
    expect(fromParquet.pairs).toEqual(fromFile.pairs);
    expect(fromFile.pairs.map((p) => `${p.vaccine} x ${p.event}`).sort())
      .toEqual(FIXTURE_SERIES.filter(([, , quarters]) => quarters.some((q) => q[3] >= 2)).map(([drug, event]) => `${drug} x ${event}`).sort());
    expect(fromFile.reportsThrough).toBe('2023Q4');
    expect(fromFile.pairJson).toEqual(fromFile.pairs.map((p) => JSON.stringify(p)));
  });

  it('spec 2.3: every pair\'s series from memory equals the store\'s own rows (quarters ascending, nulls as null)', async () => {
    for (const catalog of [fromFile, fromParquet]) {
      for (const [id, pair] of catalog.pairs.entries()) {
        const rows = await storeSeries(store, pair.vaccine, pair.event);
        expect(pairSeries(catalog, id), `${pair.vaccine} x ${pair.event}`).toEqual(rows.map((r) => seriesQuarter(r, true)));
      }
    }
  });

  it('spec 2.3: no ic025 key when the store has no ic025 column', async () => {
    const { store: bare, catalog } = noIc025;
    expect(catalog.hasIc025).toBe(false);
    for (const [id, pair] of catalog.pairs.entries()) {
      const quarters = pairSeries(catalog, id);
      expect(quarters.every((q) => !('ic025' in q))).toBe(true);
      expect(quarters).toEqual((await storeSeries(bare, pair.vaccine, pair.event)).map((r) => seriesQuarter(r, false)));
    }
  });

  it('reads every row of the fixture, grouped by pair with quarters ascending (also the unserved pair)', async () => {
    const data = await readServingData(await writeFixtureStore({ parquet: true }));
    const expected = FIXTURE_SERIES.reduce((sum, [, , quarters]) => sum + quarters.length, 0);
    expect(data.rows.quarter.length).toBe(expected);
    expect(data.drug.length).toBe(FIXTURE_SERIES.length);
    for (let p = 0; p < data.drug.length; p++) {
      const quarters = Array.from(data.rows.quarter.subarray(data.start[p], data.start[p + 1]));
      expect(quarters).toEqual([...quarters].sort((a, b) => a - b));
    }
  });

  it('a missing file or a file that is not a store is an Error naming it', async () => {
    await expect(readServingData('/nonexistent/store.duckdb')).rejects.toThrow('store not found: /nonexistent/store.duckdb');
    await expect(readServingData(new URL(import.meta.url).pathname)).rejects.toThrow(/not a reporting-signals store/);
  });
});
