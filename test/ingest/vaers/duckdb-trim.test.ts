/**
 * duckdb-join.ts jsTrim: DuckDB trims a cell exactly as String.prototype.trim does, both where its
 * shortcut applies (first and last characters printable ASCII) and where it does not (white space of
 * ECMA-262 at either end, a line break inside, non-ASCII ends, blank and NULL cells).
 */
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { jsTrim } from '../../../src/ingest/vaers/duckdb-join.js';

const CELLS = ['', ' ', 'MA', ' MA ', 'a', '\u00a0x', 'x\u3000', '\ufeffBOM', 'a\nb', ' a\r\nb ', '\t\v\f', 'é', ' é ', 'x\u2028', '\u1680y\u205f',
  '~!', '"q"', 'a b', '\u200bz', 'z\u0085'];

describe('jsTrim', () => {
  it('trims in DuckDB as JavaScript trims', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE cells (k INTEGER, cell VARCHAR)');
      const appender = await connection.createAppender('cells');
      CELLS.forEach((cell, k) => {
        appender.appendInteger(k);
        appender.appendVarchar(cell);
        appender.endRow();
      });
      appender.appendInteger(CELLS.length);
      appender.appendNull();
      appender.endRow();
      appender.closeSync();
      const rows = (await connection.runAndReadAll(`SELECT k, ${jsTrim('cell')} FROM cells ORDER BY k`)).getRows();
      expect(rows.map((r) => r[1])).toEqual([...CELLS.map((c) => c.trim()), null]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
