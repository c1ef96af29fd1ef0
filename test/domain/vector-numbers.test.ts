/**
 * The typed accessor of the serving read (src/domain/vector-numbers.ts): the vector's own array
 * and the copy through the public API give the same numbers, for INTEGER and DOUBLE columns.
 */
import { DuckDBInstance, type DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyNumbers, vectorNumbers } from '../../src/domain/vector-numbers.js';

let instance: DuckDBInstance;
const chunks: DuckDBDataChunk[] = [];
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const result = await connection.stream(`SELECT i::INTEGER AS int_column, (i * 0.5 - 7)::DOUBLE AS double_column, 'NaN'::DOUBLE AS nan_column, i::BIGINT AS bigint_column
    FROM range(5000) t(i)`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    chunks.push(chunk);
  }
  connection.closeSync();
});
afterAll(() => instance.closeSync());

describe('vectorNumbers: the numbers of a DuckDB column as a typed array', () => {
  it('equals the copy through the public getItem, column by column, chunk by chunk', () => {
    expect(chunks.length).toBeGreaterThan(1);
    let row = 0;
    for (const chunk of chunks) {
      const ints = vectorNumbers(chunk.getColumnVector(0), chunk.rowCount);
      expect(ints).toBeInstanceOf(Int32Array);
      expect(Array.from(ints)).toEqual(Array.from({ length: chunk.rowCount }, (_, i) => row + i));
      for (let k = 0; k < 4; k++) {
        const vector = chunk.getColumnVector(k);
        expect(Array.from(vectorNumbers(vector, chunk.rowCount)), `column ${k}`).toEqual(Array.from(copyNumbers(vector, chunk.rowCount)));
      }
      expect(vectorNumbers(chunk.getColumnVector(1), chunk.rowCount)).toBeInstanceOf(Float64Array);
      expect(vectorNumbers(chunk.getColumnVector(2), chunk.rowCount).every(Number.isNaN)).toBe(true);
      row += chunk.rowCount;
    }
  });

  it('another type (BIGINT) is copied through the public API', () => {
    const chunk = chunks[0];
    expect(vectorNumbers(chunk.getColumnVector(3), chunk.rowCount)).toBeInstanceOf(Float64Array);
  });

  it('on the installed @duckdb/node-api it reads the vector\'s own array (after an upgrade that drops it: still correct, slower; re-measure)', () => {
    const chunk = chunks[0];
    const vector = chunk.getColumnVector(1);
    expect(vectorNumbers(vector, chunk.rowCount)).toBe(Reflect.get(vector, 'items'));
  });
});
