/**
 * The store's appender (src/ingest/store/appender.ts appendRows): rows appended a data chunk at a
 * time hold exactly the values given, null for an absent or non-finite value, across chunk
 * boundaries (2048 rows) and in a last partial chunk; a row that fails its check stops the append.
 */
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { appendRows, storedValue, type AppendColumns } from '../../../src/ingest/store/appender.js';

const COLUMNS: AppendColumns = [['name', 'VARCHAR'], ['n', 'INTEGER'], ['id', 'BIGINT'], ['x', 'DOUBLE'], ['ok', 'BOOLEAN']];

interface Row { name?: string | null; n?: number | null; id?: number; x?: number | null; ok?: boolean | null }

/** Row i of a made-up table: every fifth value null or absent, x with bits a decimal text would lose. */
function row(i: number): Row {
  return {
    name: i % 5 === 0 ? null : `r${i}, "é"`, n: i % 5 === 1 ? undefined : i - 3000, id: 2 ** 40 + i,
    x: i % 5 === 2 ? Number.NaN : i % 7 === 0 ? Number.POSITIVE_INFINITY : i / 3 + 1e-17 * i, ok: i % 5 === 3 ? null : i % 2 === 0,
  };
}

async function appended(rows: Row[], check?: (r: Row) => void): Promise<{ count: number; back: unknown[][] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run('CREATE TABLE t (name VARCHAR, n INTEGER, id BIGINT, x DOUBLE, ok BOOLEAN)');
    let count = -1;
    await appendRows(connection, 't', COLUMNS, rows, check ? { check } : {}).then((c) => { count = c; }, () => undefined);
    const back = (await connection.runAndReadAll('SELECT name, n, id, x, ok FROM t ORDER BY id')).getRows();
    return { count, back };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('appendRows', () => {
  it('5,000 rows (two full chunks and a partial one): each value as given, null for null, undefined and non-finite', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => row(i));
    const { count, back } = await appended(rows);
    expect(count).toBe(5000);
    expect(back).toHaveLength(5000);
    back.forEach((stored, i) => {
      const r = rows[i];
      expect(stored).toEqual([r.name ?? null, r.n ?? null, BigInt(2 ** 40 + i), Number.isFinite(r.x) ? r.x : null, r.ok ?? null]);
    });
    // Spot values, hand-worked: row 4 (n 4 - 3000, x 4/3 + 4e-17 as a double, ok true); row 0's name null.
    expect(back[4]).toEqual(['r4, "é"', -2996, 1099511627780n, 4 / 3 + 4e-17, true]);
    expect(back[0][0]).toBeNull();
    expect(back[7][3]).toBeNull(); // Infinity stored as null
  });

  it('no rows: nothing appended; a row failing its check stops the append', async () => {
    expect((await appended([])).count).toBe(0);
    const failed = await appended([row(1), row(2)], (r) => { if (r.id === 2 ** 40 + 2) throw new Error('bad row'); });
    expect(failed.count).toBe(-1);
  });

  it('storedValue: the value each column type stores', () => {
    expect([storedValue('VARCHAR', 12), storedValue('INTEGER', '7'), storedValue('BIGINT', 3), storedValue('DOUBLE', -0), storedValue('BOOLEAN', 0)]).toEqual(['12', 7, 3n, -0, false]);
    expect([storedValue('DOUBLE', Number.NaN), storedValue('VARCHAR', undefined), storedValue('INTEGER', Number.NEGATIVE_INFINITY)]).toEqual([null, null, null]);
    // The bounds of int32 and int64 are stored; one past them, a fraction or a non-number text is an error (not wrapped).
    expect([storedValue('INTEGER', 2 ** 31 - 1), storedValue('INTEGER', -(2 ** 31)), storedValue('BIGINT', '9223372036854775807')]).toEqual([2147483647, -2147483648, 9223372036854775807n]);
    for (const [type, value] of [['INTEGER', 2 ** 31], ['INTEGER', 3e9], ['INTEGER', 1.7], ['INTEGER', 'x'], ['BIGINT', 2 ** 64], ['BIGINT', '9223372036854775808'], ['BIGINT', 1.5]] as const) {
      expect(() => storedValue(type, value)).toThrow(RangeError);
    }
  });

  it('a value its column cannot hold, or a column declared with another type than the table holds: an error naming table and column, nothing stored', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE t (name VARCHAR, n INTEGER, id BIGINT, x DOUBLE, ok BOOLEAN)');
      await expect(appendRows(connection, 't', COLUMNS, [row(1), { ...row(2), n: 3e9 }])).rejects.toThrow('appendRows: table t, column n: not a 32-bit whole number: 3000000000');
      await expect(appendRows(connection, 't', [['name', 'VARCHAR'], ['n', 'DOUBLE'], ['id', 'BIGINT'], ['x', 'DOUBLE'], ['ok', 'BOOLEAN']], [row(1)])).rejects.toThrow('appendRows: table t, column n: declared DOUBLE, the table holds INTEGER');
      expect((await connection.runAndReadAll('SELECT count(*) FROM t')).getRows()).toEqual([[0n]]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
