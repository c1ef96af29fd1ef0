/**
 * Writing a signal store, atomically: everything goes to `<out>.tmp-<pid>` first and is
 * renamed onto `<out>` only when complete, so a failed build never leaves a half-written
 * store behind.
 */
import { rename, rm } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBAppender } from '@duckdb/node-api';
import { QUARTERLY_COLUMNS, SCHEMA_SQL, type QuarterlyRow, type StoreMeta, type VaccineRow, type WindowRow } from './schema.js';

/**
 * What a store holds. `quarterly` may be an async iterable so that big builds can stream.
 * `vaccines`, `windows` and `meta` may also be given as functions: they are called after every
 * quarterly row has been consumed, so a streaming producer can fill them in as it goes.
 */
export interface StoreContent {
  quarterly: Iterable<QuarterlyRow> | AsyncIterable<QuarterlyRow>;
  vaccines: Iterable<VaccineRow> | (() => Iterable<VaccineRow>);
  windows: Iterable<WindowRow> | (() => Iterable<WindowRow>);
  meta: StoreMeta | (() => StoreMeta);
}

function later<T extends object>(value: T | (() => T)): T {
  return typeof value === 'function' ? (value as () => T)() : value;
}

function appendNullable(appender: DuckDBAppender, type: string, value: unknown): void {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) {
    appender.appendNull();
  } else if (type === 'VARCHAR') appender.appendVarchar(String(value));
  else if (type === 'INTEGER') appender.appendInteger(Number(value));
  else if (type === 'DOUBLE') appender.appendDouble(Number(value));
  else appender.appendBoolean(Boolean(value));
}

/**
 * Writes a complete store to `outPath` (atomic: temporary file, then rename).
 * Non-finite numbers are stored as NULL (DESIGN.md: never Infinity or NaN).
 * @returns the number of quarterly rows written.
 * @throws Error when the database cannot be written (the temporary file is removed).
 */
export async function writeStore(outPath: string, content: StoreContent): Promise<number> {
  const tmpPath = `${outPath}.tmp-${process.pid}`;
  await rm(tmpPath, { force: true });
  await rm(`${tmpPath}.wal`, { force: true });
  const instance = await DuckDBInstance.create(tmpPath);
  const connection = await instance.connect();
  let rows = 0;
  try {
    await connection.run(SCHEMA_SQL);
    const quarterly = await connection.createAppender('quarterly');
    for await (const row of content.quarterly) {
      for (const [name, type] of QUARTERLY_COLUMNS) appendNullable(quarterly, type, row[name]);
      quarterly.endRow();
      rows++;
    }
    quarterly.closeSync();
    for (const v of later(content.vaccines)) {
      await connection.run('INSERT INTO vaccines VALUES ($1, $2, $3::VARCHAR[])', [v.vax_name, v.vax_type, JSON.stringify(v.vax_type_codes)]);
    }
    const windows = await connection.createAppender('windows');
    for (const w of later(content.windows)) {
      const values: Array<[string, unknown]> = [
        ['VARCHAR', w.quarter], ['DOUBLE', w.alpha1], ['DOUBLE', w.beta1], ['DOUBLE', w.alpha2], ['DOUBLE', w.beta2],
        ['DOUBLE', w.p], ['DOUBLE', w.neg_log_lik], ['BOOLEAN', w.converged], ['VARCHAR', w.at_bound],
        ['INTEGER', w.n_pairs], ['INTEGER', w.n_reports],
      ];
      for (const [type, value] of values) appendNullable(windows, type, value);
      windows.endRow();
    }
    windows.closeSync();
    for (const [key, value] of Object.entries(later(content.meta))) {
      await connection.run('INSERT INTO meta VALUES ($1, $2)', [key, JSON.stringify(value ?? null)]);
    }
    await connection.run('CREATE INDEX quarterly_pair ON quarterly (drug, event)');
    await connection.run('CHECKPOINT');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    await rm(tmpPath, { force: true });
    await rm(`${tmpPath}.wal`, { force: true });
    throw error;
  }
  connection.closeSync();
  instance.closeSync();
  await rm(`${tmpPath}.wal`, { force: true });
  await rename(tmpPath, outPath);
  return rows;
}
