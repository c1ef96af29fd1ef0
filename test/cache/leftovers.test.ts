/**
 * The temporary files a killed builder of the default store leaves (src/cache/default-store.ts
 * TEMP_RE, removed by the next start once their builder is gone): each name gives its builder's
 * pid; the store itself and files of other names are never taken for leftovers.
 */
import { describe, expect, it } from 'vitest';
import { TEMP_RE } from '../../src/cache/default-store.js';

const pidOf = (name: string): number | null => {
  const found = TEMP_RE.exec(name);
  return found ? Number(found[1] ?? found[2] ?? found[3] ?? found[4]) : null;
};

describe('a dead builder\'s temporary files', () => {
  it('the store\'s temporary file, its staging database, the build\'s scratch text file (each with WAL and DuckDB\'s spill folder) and its read\'s scratch folder name the builder', () => {
    const key = '0123456789abcdef';
    for (const tail of ['', '.wal', '.tmp', '.staging', '.staging.wal', '.staging.tmp', '.text', '.text.wal', '.text.tmp', '.read']) {
      expect(pidOf(`default-${key}.duckdb.tmp-4242${tail}`)).toBe(4242);
    }
    // The first analysis's store being written (its builder's pid names it), with its WAL and DuckDB's spill folder.
    for (const tail of ['', '.wal', '.tmp', '.staging', '.staging.tmp']) {
      expect(pidOf(`default-${key}.first-77.duckdb.tmp-4242${tail}`)).toBe(77);
    }
    expect(pidOf(`default-${key}.lock.draft-77`)).toBe(77);
  });

  it('the store and other names are not leftovers', () => {
    for (const name of ['default-0123456789abcdef.duckdb', 'default-0123456789abcdef.duckdb.tmp-12.texts', 'other.duckdb.tmp-12.text', 'default-0123456789abcdef.duckdb.text', 'default-0123456789abcdef.duckdb.tmp', 'default-0123456789abcdef.duckdb.tmp-12.tmp.tmp', 'default-0123456789abcdef.duckdb.tmp-12.reads', 'default-0123456789abcdef.duckdb.read']) {
      expect(pidOf(name)).toBeNull();
    }
  });
});
