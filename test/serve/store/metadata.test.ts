/**
 * The store's JSON metadata is checked, not cast (src/serve/store/metadata.ts): a store whose metadata
 * has the wrong shape is refused with an Error naming the store file and the key; a file that is
 * not a DuckDB store by its content (a Parquet store of an earlier version, anything else) is refused.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { decodeStoreMeta, decodeVaccineRows } from '../../../src/serve/store/metadata.js';
import { legacyParquetMessage, sqlString } from '../../../src/domain/store-format.js';
import { Store } from '../../helpers/store.js';
import type { StoreMeta } from '../../../src/domain/store-schema.js';
import { readServingData } from '../../../src/serve/store/serving.js';
import { writeFixtureStore } from '../signals/fixture.js';

const META: StoreMeta = {
  reports_through: '2023Q4', sources: [{ name: 'a.csv', sha256: 'ab', bytes: 3 }], parameters: { window_quarters: 4 }, program_version: 'test',
  built_at: '2024-01-01T00:00:00Z', origin: 'build', has_ic025: true, extra: { rows: 1 },
};

/** Runs statements on a store file (DuckDB) or in memory. */
async function run(path: string, ...statements: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const sql of statements) await connection.run(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('decoding the metadata JSON', () => {
  it('a well-formed value reads back as it is (unknown keys kept, a null extra read as absent)', () => {
    expect(decodeStoreMeta(JSON.parse(JSON.stringify(META)), 'x')).toEqual(META);
    expect(decodeStoreMeta({ ...META, reports_through: null, extra: null, newer_key: [1] }, 'x')).toEqual({
      ...Object.fromEntries(Object.entries(META).filter(([k]) => k !== 'extra')), reports_through: null, newer_key: [1],
    });
    expect(decodeVaccineRows([{ vax_name: 'A (B)', vax_type: 'A', vax_type_codes: null }], 'x')).toEqual([{ vax_name: 'A (B)', vax_type: 'A', vax_type_codes: [] }]);
  });

  it('a value of the wrong shape is an Error naming the store, the key and the field', () => {
    const at = 'store.parquet: metadata key reporting_signals.meta';
    expect(() => decodeStoreMeta({ ...META, has_ic025: 'yes' }, at)).toThrow(`invalid store metadata: ${at}: has_ic025: expected a boolean, got "yes"`);
    const { origin: _origin, ...noOrigin } = META;
    expect(() => decodeStoreMeta(noOrigin, at)).toThrow(`${at}: origin: expected "build" or "import", got nothing (missing)`);
    expect(() => decodeStoreMeta({ ...META, reports_through: '2023-Q4' }, at)).toThrow(`${at}: reports_through: expected a quarter <year>Q<1-4> or null`);
    expect(() => decodeStoreMeta({ ...META, sources: [{ name: 'a.csv', sha256: 5 }] }, at)).toThrow(`${at}: sources[0].sha256: expected a string, got 5`);
    expect(() => decodeStoreMeta([], at)).toThrow(`${at}: expected an object, got []`);
    expect(() => decodeVaccineRows([{ vax_name: 'A', vax_type: 'A', vax_type_codes: [1] }], 'v')).toThrow('v: [0].vax_type_codes[0]: expected a string, got 1');
  });
});

describe('a store with malformed metadata is refused, naming the file and the key', () => {
  it('DuckDB store: a meta value of the wrong type, or not JSON', async () => {
    const path = await writeFixtureStore();
    await run(path, `UPDATE meta SET value = '"yes"' WHERE key = 'has_ic025'`);
    await expect(readServingData(path)).rejects.toThrow(`invalid store metadata: ${path}: meta table: has_ic025: expected a boolean, got "yes"`);
    const store = await Store.open(path);
    try {
      await expect(store.meta()).rejects.toThrow(`${path}: meta table: has_ic025: expected a boolean`);
    } finally {
      store.close();
    }
    await run(path, `UPDATE meta SET value = '{oops' WHERE key = 'has_ic025'`);
    await expect(readServingData(path)).rejects.toThrow(`invalid store metadata: ${path}: meta table: key has_ic025: not JSON`);
  });

  it('a store is read by its content, never its name: a Parquet store of an earlier version is refused with how to rebuild it; a foreign file is not a store', async () => {
    const good = await writeFixtureStore();
    const legacy = join(good, '..', 'legacy.duckdb');
    await run(':memory:', `COPY (SELECT 1 AS a) TO ${sqlString(legacy)} (FORMAT parquet)`);
    await expect(readServingData(legacy)).rejects.toThrow(legacyParquetMessage(legacy));
    await expect(Store.open(legacy)).rejects.toThrow('is a Parquet store written by an earlier version of reporting-signals');
    const text = join(good, '..', 'text.parquet');
    await writeFile(text, 'hello, not a store at all');
    await expect(readServingData(text)).rejects.toThrow(`not a reporting-signals store (not a DuckDB database file): ${text}`);
  });
});
