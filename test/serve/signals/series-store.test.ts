/**
 * The series records (speed and memory): `format=series` (spec 2.3) read from an
 * unlinked temporary file equals the in-memory form and the store's own rows; a store whose
 * rows are not grouped by pair (not written by write.ts) is read by the general path with the
 * same result.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFromRows, loadCatalog, type Catalog } from '../../../src/serve/signals/catalog.js';
import { pairSeries, seriesQuarter } from '../../../src/serve/signals/series.js';
import { SERIES_RECORD_BYTES, SeriesStore } from '../../../src/serve/store/series-store.js';
import { readServingData } from '../../../src/serve/store/serving.js';
import { Store, storeSeries } from '../../helpers/store.js';
import { writeFixtureStore } from './fixture.js';

/** A copy of the DuckDB store at `path` whose quarterly rows are stored newest quarter first. */
async function shuffledCopy(path: string): Promise<string> {
  const out = join(path, '..', 'shuffled.duckdb');
  const instance = await DuckDBInstance.create(out);
  const connection = await instance.connect();
  await connection.run(`ATTACH '${path}' AS src (READ_ONLY)`);
  for (const table of ['meta', 'vaccines', 'windows']) await connection.run(`CREATE TABLE ${table} AS SELECT * FROM src.${table}`);
  await connection.run('CREATE TABLE quarterly AS SELECT * FROM src.quarterly ORDER BY quarter DESC, event DESC');
  connection.closeSync();
  instance.closeSync();
  return out;
}

describe('spec 2.3 series from the temporary file and from the general read', () => {
  let store: Store;
  let inMemory: Catalog;
  const onDisk: Catalog[] = [];
  let shuffled: Catalog;

  beforeAll(async () => {
    const path = await writeFixtureStore();
    store = await Store.open(path);
    inMemory = await loadCatalog(path);
    onDisk.push(catalogFromRows(await readServingData(path, { seriesInMemoryRows: 0 })));
    onDisk.push(catalogFromRows(await readServingData(await writeFixtureStore({ parquet: true }), { seriesInMemoryRows: 0 })));
    shuffled = catalogFromRows(await readServingData(await shuffledCopy(path), { seriesInMemoryRows: 0 }));
  });
  afterAll(() => {
    store.close();
    for (const catalog of [inMemory, ...onDisk, shuffled]) catalog.series.close();
  });

  it('a record store written past its row count throws; a closed file store refuses reads', () => {
    const series = SeriesStore.create(2, 0);
    expect(series.onDisk).toBe(true);
    const records = Buffer.alloc(2 * SERIES_RECORD_BYTES, 7);
    series.append(records);
    expect(series.read(1, 1)).toEqual(records.subarray(SERIES_RECORD_BYTES));
    expect(() => series.append(Buffer.alloc(SERIES_RECORD_BYTES))).toThrow('series store overflow');
    series.close();
    expect(() => series.read(0, 1)).toThrow('series store closed');
    expect(SeriesStore.create(2).onDisk).toBe(false);
  });

  it('spec 2.3: every pair\'s series read from the file equals the in-memory form and the store\'s own rows', async () => {
    for (const catalog of onDisk) {
      expect(catalog.series.onDisk).toBe(true);
      expect(catalog.pairs).toEqual(inMemory.pairs);
      for (const [id, pair] of catalog.pairs.entries()) {
        const expected = (await storeSeries(store, pair.vaccine, pair.event)).map((r) => seriesQuarter(r, true));
        expect(pairSeries(catalog, id), `${pair.vaccine} x ${pair.event}`).toEqual(expected);
        expect(pairSeries(inMemory, id)).toEqual(expected);
      }
    }
  });

  it('rows stored in any order (not grouped by pair): the same pairs (2.1) and series (2.3)', async () => {
    expect(shuffled.pairs).toEqual(inMemory.pairs);
    expect(shuffled.pairJson).toEqual(inMemory.pairJson);
    for (const [id, pair] of shuffled.pairs.entries()) {
      expect(pairSeries(shuffled, id), `${pair.vaccine} x ${pair.event}`).toEqual(pairSeries(inMemory, id));
    }
  });
});
