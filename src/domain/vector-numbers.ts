/**
 * The numbers of one INTEGER or DOUBLE column of a DuckDB result chunk as a typed array, for the
 * serving read (src/serve/store/serving.ts), which reads every quarterly row of a store once at
 * start-up, and for the build's read of the report details (src/ingest/vaers/duckdb-details.ts).
 *
 * @duckdb/node-api (1.5.6-r.1) holds the values of such a vector in a typed array over
 * DuckDB's memory (the `items` field of `DuckDBIntegerVector` and `DuckDBDoubleVector`), but
 * its public API hands them out one at a time (`getItem`, which also consults the validity
 * mask). Copying the columns through `getItem` made the load of the embedded default store
 * (218,137 rows) 30 to 90 ms slower, about 10 to 15 percent, so `vectorNumbers` returns that
 * array itself when the vector has one of the expected type and length, and copies through
 * the public `getItem` (`copyNumbers`) otherwise: an upgrade that renames or drops the field
 * costs time, not correctness. The serving queries coalesce every number column, so no value
 * is null and the array's values are the column's values; a NULL row's entry in the array is
 * unspecified, so a caller with a nullable column (the build's details read the age, NULL on the
 * rows it reads otherwise: src/ingest/vaers/duckdb-details.ts) reads only its non-null rows.
 */
import { DuckDBDoubleVector, DuckDBIntegerVector, type DuckDBVector } from '@duckdb/node-api';

/**
 * The values of `vector` (`rowCount` rows) copied through the public API into an Int32Array
 * (INTEGER) or a Float64Array (any other type, as `Number(value)`; null reads as 0).
 */
export function copyNumbers(vector: DuckDBVector, rowCount: number): Int32Array | Float64Array {
  const out = vector instanceof DuckDBIntegerVector ? new Int32Array(rowCount) : new Float64Array(rowCount);
  for (let i = 0; i < rowCount; i++) out[i] = Number(vector.getItem(i));
  return out;
}

/**
 * The numbers of a column without nulls: the vector's own typed array (not a copy: read it
 * before the next chunk is fetched) when it exposes one of `rowCount` entries, else
 * `copyNumbers`.
 */
export function vectorNumbers(vector: DuckDBVector, rowCount: number): Int32Array | Float64Array {
  if (vector instanceof DuckDBDoubleVector || vector instanceof DuckDBIntegerVector) {
    const items: unknown = Reflect.get(vector, 'items');
    if ((items instanceof Float64Array || items instanceof Int32Array) && items.length === rowCount) return items;
  }
  return copyNumbers(vector, rowCount);
}
