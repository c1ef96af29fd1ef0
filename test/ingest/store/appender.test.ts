/**
 * The store's appender (src/ingest/store/appender.ts appendRows): rows appended a data chunk at a
 * time hold exactly the values given, null for an absent or non-finite value, across chunk
 * boundaries (2048 rows) and in a last partial chunk; a row that fails its check stops the append.
 * appendBatches stores the same values from batches of columns (constants, strided doubles, value
 * arrays) whose boundaries do not fall on the chunks'.
 */
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { appendBatches, appendRows, storedValue, type AppendColumns, type ColumnBatch } from '../../../src/ingest/store/appender.js';

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

  it('appendBatches: the same values as appendRows from batches of columns; a null in one chunk leaves the next chunk\'s values valid', async () => {
    // 5,000 rows in batches of 700 (a batch crosses each chunk boundary), x and n from one
    // row-major table of doubles (stride 2), ok from 0/1 numbers, name from an array, a constant id offset.
    const rows = Array.from({ length: 5000 }, (_, i) => row(i));
    // Rows 0..2047 (the first chunk) have nulls in x; the second chunk's n has none (rows 2048..4095 set).
    rows.forEach((r, i) => { if (i >= 2048 && i < 4096) r.n = i; });
    const batches: ColumnBatch[] = [];
    for (let from = 0; from < rows.length; from += 700) {
      const part = rows.slice(from, from + 700);
      const table = new Float64Array(part.length * 2);
      part.forEach((r, j) => { table[2 * j] = r.n ?? Number.NaN; table[2 * j + 1] = r.x ?? Number.NaN; });
      batches.push({
        rows: part.length,
        columns: [
          { kind: 'values', values: part.map((r) => r.name) },
          { kind: 'numbers', values: table, at: 0, stride: 2 },
          { kind: 'values', values: part.map((r) => r.id) },
          { kind: 'numbers', values: table, at: 1, stride: 2 },
          { kind: 'numbers', values: Float64Array.from(part, (r) => (r.ok === null || r.ok === undefined ? Number.NaN : r.ok ? 1 : 0)), at: 0, stride: 1 },
        ],
      });
    }
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE t (name VARCHAR, n INTEGER, id BIGINT, x DOUBLE, ok BOOLEAN)');
      expect(await appendBatches(connection, 't', COLUMNS, batches)).toBe(5000);
      const back = (await connection.runAndReadAll('SELECT name, n, id, x, ok FROM t ORDER BY id')).getRows();
      expect(back).toHaveLength(5000);
      back.forEach((stored, i) => {
        const r = rows[i];
        expect(stored).toEqual([r.name ?? null, r.n ?? null, BigInt(2 ** 40 + i), Number.isFinite(r.x) ? r.x : null, r.ok ?? null]);
      });
      expect(back[2049][1]).toBe(2049); // the chunk after one with nulls in n: valid again
      expect(back[4][3]).toBe(4 / 3 + 4e-17);
      // A constant column, and a value an INTEGER cannot hold: an error naming table and column.
      await connection.run('CREATE TABLE c (name VARCHAR, n INTEGER, id BIGINT, x DOUBLE, ok BOOLEAN)');
      const constant: ColumnBatch = { rows: 3, columns: [{ kind: 'constant', value: 'k' }, { kind: 'constant', value: 7 }, { kind: 'values', values: [1, 2, 3] }, { kind: 'constant', value: null }, { kind: 'constant', value: true }] };
      expect(await appendBatches(connection, 'c', COLUMNS, [constant])).toBe(3);
      expect((await connection.runAndReadAll('SELECT * FROM c ORDER BY id')).getRows()).toEqual([['k', 7, 1n, null, true], ['k', 7, 2n, null, true], ['k', 7, 3n, null, true]]);
      const bad: ColumnBatch = { ...constant, columns: [constant.columns[0], { kind: 'numbers', values: [1, 2.5, 3], at: 0, stride: 1 }, ...constant.columns.slice(2)] };
      await expect(appendBatches(connection, 'c', COLUMNS, [bad])).rejects.toThrow('appendRows: table c, column n: not a 32-bit whole number: 2.5');
      await expect(appendBatches(connection, 'c', COLUMNS, [{ rows: 1, columns: constant.columns.slice(1) }])).rejects.toThrow('appendBatches: table c has 5 columns, a batch gives 4');
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
