/**
 * An interrupted CLI build (SIGINT, SIGTERM) removes its own temporary files before it exits
 * (src/commands/build.ts removeBuildTemporaries): every `<out>.tmp-<pid>*` of its pid beside the
 * output (the store's temporary file, staging database, scratch text file, their WALs and DuckDB's
 * spill folders, the read's scratch folder with its transcoded CSVs and spill), and nothing else.
 */
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeBuildTemporaries } from '../../src/commands/build.js';

describe('an interrupted build\'s temporary files', () => {
  it('are removed, files and spill folders alike; the store, another build\'s files and other names stay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rs-interrupted-'));
    const ours = ['sig.duckdb.tmp-4242', 'sig.duckdb.tmp-4242.wal', 'sig.duckdb.tmp-4242.staging', 'sig.duckdb.tmp-4242.text', 'sig.duckdb.tmp-4242.text.wal'];
    const kept = ['sig.duckdb', 'sig.duckdb.tmp-42420', 'sig.duckdb.tmp-424.text', 'other.duckdb.tmp-4242.text', 'sig.duckdbx.tmp-4242'];
    for (const name of [...ours, ...kept]) await writeFile(join(dir, name), 'x');
    for (const folder of ['sig.duckdb.tmp-4242.tmp', 'sig.duckdb.tmp-4242.text.tmp', 'sig.duckdb.tmp-4242.read', 'sig.duckdb.tmp-4242.read/spill']) {
      await mkdir(join(dir, folder));
      await writeFile(join(dir, folder, 'duckdb_temp_storage-0.tmp'), 'x');
    }
    removeBuildTemporaries(join(dir, 'sig.duckdb'), 4242);
    expect((await readdir(dir)).sort()).toEqual([...kept].sort());
    // A folder that cannot be read: nothing to remove, no error.
    expect(() => removeBuildTemporaries(join(dir, 'absent', 'sig.duckdb'), 4242)).not.toThrow();
  });
});
