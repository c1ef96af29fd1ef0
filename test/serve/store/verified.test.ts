/**
 * The integrity check done once per file (src/serve/store/verified.ts, issue 46's cached start):
 * a store read whole once is not read whole again at the next load, and any write to the file
 * since (even of the same bytes, in place) makes the next load read it whole again, so a block
 * corrupted in place is still caught at load. On a small store built by the real build from the
 * case-series fixture (test/serve/cases/fixture.ts).
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, open, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { verifyTables, withStore } from '../../../src/serve/store/serving.js';
import { fileSignature, verifiedStampOf, verifyTablesOnce } from '../../../src/serve/store/verified.js';
import { writeCaseFolder } from '../cases/fixture.js';

let dir: string;
let store: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-verified-'));
  const vaers = await writeCaseFolder(join(dir, 'vaers'));
  store = join(dir, 'store.duckdb');
  await buildStore({ vaers, out: store, analyses: 'all', workers: 1, narratives: true });
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** verifyTablesOnce on the store at `path`: whether the full read ran. */
const once = (path: string): Promise<boolean> => withStore(path, (connection) => verifyTablesOnce(connection, path));

/** Writes `bytes` at `offset` of the file at `path`, in place (the same inode). */
async function writeAt(path: string, offset: number, bytes: Buffer): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.write(bytes, 0, bytes.length, offset);
  } finally {
    await handle.close();
  }
}

/** The 4 KB at `offset` of the file at `path`. */
async function bytesAt(path: string, offset: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    await handle.read(buffer, 0, 4096, offset);
    return buffer;
  } finally {
    await handle.close();
  }
}

describe('the integrity check runs once per store file', () => {
  it('read whole at the first load, stamped, skipped at the next; the stamp is the file signature', async () => {
    const copy = join(dir, 'first.duckdb');
    await copyFile(store, copy);
    expect(await once(copy)).toBe(true);
    expect(await readFile(verifiedStampOf(copy), 'utf8')).toBe(await fileSignature(copy));
    expect(await once(copy)).toBe(false);
    expect(await once(copy)).toBe(false);
  }, 60_000);

  it('a write in place, even of the same bytes, or a touch back to the old times, makes the next load read it whole again', async () => {
    const copy = join(dir, 'rewritten.duckdb');
    await copyFile(store, copy);
    expect(await once(copy)).toBe(true);
    await writeAt(copy, 8192, await bytesAt(copy, 8192));
    expect(await once(copy)).toBe(true);
    expect(await once(copy)).toBe(false);
    // Setting the modification time back does not hide a change: the status-change time moves.
    const { atime, mtime } = await stat(copy);
    await writeAt(copy, 8192, await bytesAt(copy, 8192));
    await utimes(copy, atime, mtime);
    expect(await once(copy)).toBe(true);
  }, 60_000);

  it('a block corrupted in place after the stamp is caught at the next load, and the stamp removed', async () => {
    const size = (await stat(store)).size;
    // An offset whose corruption the full read catches, not the opening (the store's catalog), and
    // not nothing (free space or padding).
    let caught: number | null = null;
    for (let offset = 12_288; offset < size && caught === null; offset += 32_768) {
      const probe = join(dir, `probe-${offset}.duckdb`);
      await copyFile(store, probe);
      await writeAt(probe, offset, randomBytes(4096));
      const failed = await withStore(probe, (connection) => verifyTables(connection, probe)).then(() => false, (error: Error) => /cannot be read whole/.test(error.message));
      await rm(probe, { force: true });
      if (failed) caught = offset;
    }
    expect(caught).not.toBeNull();
    const copy = join(dir, 'corrupted.duckdb');
    await copyFile(store, copy);
    expect(await once(copy)).toBe(true);
    await writeAt(copy, caught!, randomBytes(4096));
    await expect(once(copy)).rejects.toThrow(/cannot be read whole/);
    await expect(stat(verifiedStampOf(copy))).rejects.toThrow(/ENOENT/);
  }, 120_000);
});
