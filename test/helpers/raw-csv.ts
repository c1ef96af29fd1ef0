/**
 * The raw VAERS CSV files as the tests' independent oracles read them (test/helpers/raw-vaers.ts, the real-data
 * tests): a gzipped Windows-1252 CSV (iconv-lite), parsed by csv-parse with the header row as keys, empty lines
 * skipped and short rows kept. No project code under src/: these readers check the project's.
 *
 * Parsed once per test run, not once per test file: about ten files read the 51 files of 1990-2006, and parsing them
 * takes 16.7 s of one core where reading back a V8-serialized copy takes 2.7 s (this machine, 2026-11-29). The first
 * reader of a file writes its records to the run's scratch folder (`os.tmpdir()`, which test/global-setup.ts points
 * at a folder of the run's own and removes when the run ends), under a temporary name renamed into place; the later
 * ones read that. {@link cachedForRun} is that memo, keyed by what decides the result (here the SHA-256 of the file's
 * bytes, so that data/vaers and ../shared/data/vaers, which hold the same files, share their records).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';

/** A CSV record: header name -> cell (a short row lacks the last columns). */
export type RawRecord = Record<string, string>;

/**
 * `compute()`, or its result of an earlier call in this test run with the same `what` and `key` (any JSON value that
 * decides the result), read from the run's scratch folder. The result must survive V8 serialization (plain objects,
 * arrays, Maps, Sets, strings, numbers). Two test files computing it at once both write it; the renames leave one.
 */
export function cachedForRun<T>(what: string, key: unknown, compute: () => T): T {
  const dir = path.join(tmpdir(), 'reporting-signals-test-cache');
  const file = path.join(dir, `${what}-${createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 24)}.v8`);
  try {
    return deserialize(readFileSync(file)) as T;
  } catch {
    // Not cached yet in this run.
  }
  const value = compute();
  mkdirSync(dir, { recursive: true });
  const draft = `${file}.tmp-${process.pid}`;
  writeFileSync(draft, serialize(value));
  renameSync(draft, file);
  return value;
}

/** The SHA-256 of a file's bytes (hex): a {@link cachedForRun} key for what is read from it. */
export function fileDigest(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The records of one gzipped Windows-1252 VAERS CSV, in file order (see the module header). */
export function rawCsvRecords(file: string): RawRecord[] {
  return cachedForRun('raw-csv', fileDigest(file), () =>
    parse(iconv.decode(gunzipSync(readFileSync(file)), 'win1252'), { columns: true, skip_empty_lines: true, relax_column_count: true }) as RawRecord[]);
}
