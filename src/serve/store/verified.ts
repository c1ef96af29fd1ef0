/**
 * The integrity check of a store at load, done once per file (issue 46: a cached start within
 * 3 s; the full read of `verifyTables` cost 0.3 s of wall and 0.5 s of CPU on the default store at
 * every start, and about a second per 100 MB of store).
 *
 * After `verifyTables` has read every block of the store at `path` (DuckDB checks each block's
 * checksum when it reads it), a stamp `<path>.verified` is written beside it (a temporary file
 * renamed when complete; a folder that cannot be written just leaves none, and the next load
 * verifies again). A later load skips the full read when the stamp names the file as it is now:
 * - its device, inode, size, modification time and status-change time (ns): any write to the file,
 *   any `touch`, a copy or a rename onto the path changes one of them (the status-change time
 *   cannot be set back by a program: every write and every `utimes` moves it to now);
 * - the SHA-256 of its first and last 256 KiB and of 256 KiB at each eighth of the file
 *   (DuckDB's headers and a sample of its blocks: about 2 MB read).
 * What the stamp does not catch is a change below the file system (a disk's bit rot): such a block
 * still fails DuckDB's checksum when a request first reads it, and that request answers 503, the
 * server reports itself not ready and a default store is rebuilt (src/serve/generation/generation.ts
 * `read`, docs/operations.md), as before this check existed for the blocks not read at load.
 */
import { createHash } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { verifyTables } from './store-db.js';

/** Bytes hashed at each sampled place. */
const SAMPLE_BYTES = 256 * 1024;
/** Places sampled between the first and the last block (each eighth of the file). */
const SAMPLES = 8;
/** Version of the stamp's content: a change makes every stamp stale. */
const STAMP_FORMAT = 1;

/** The stamp file beside the store at `path`. */
export function verifiedStampOf(path: string): string {
  return `${path}.verified`;
}

/**
 * The signature of the file at `path` as it is now (see the module header), one string.
 * @throws Error (from fs) when the file cannot be read.
 */
export async function fileSignature(path: string): Promise<string> {
  const s = await stat(path, { bigint: true });
  const size = Number(s.size);
  const hash = createHash('sha256');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const places = new Set([0, Math.max(0, size - SAMPLE_BYTES)]);
    for (let k = 1; k < SAMPLES; k++) places.add(Math.floor((size * k) / SAMPLES));
    for (const at of [...places].sort((a, b) => a - b)) {
      const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, at);
      hash.update(`${at}\0`).update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return JSON.stringify({ format: STAMP_FORMAT, dev: String(s.dev), ino: String(s.ino), size: String(s.size), mtime: String(s.mtimeNs), ctime: String(s.ctimeNs), sha256: hash.digest('hex') });
}

/** Whether the stamp beside `path` names the file as it is now. */
async function stamped(path: string): Promise<boolean> {
  const [recorded, now] = await Promise.all([readFile(verifiedStampOf(path), 'utf8').catch(() => null), fileSignature(path).catch(() => null)]);
  return recorded !== null && now !== null && recorded === now;
}

/** Writes the stamp of `path` (`signature`, taken before the full read); never throws. */
async function writeStamp(path: string, signature: string): Promise<void> {
  const stamp = verifiedStampOf(path);
  const temp = `${stamp}.tmp-${process.pid}-${Date.now()}`;
  try {
    await writeFile(temp, signature, { flag: 'wx' });
    await rename(temp, stamp);
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/**
 * Checks every block of the store at `path` (attached as `store` on `connection`) once: nothing
 * to do when the stamp beside it names the file as it is now; else `verifyTables`, then the stamp
 * written (a failure removes any stamp). Resolves to whether the full read ran.
 * @throws Error naming the file and the table when a block is corrupt or unreadable (verifyTables).
 */
export async function verifyTablesOnce(connection: DuckDBConnection, path: string): Promise<boolean> {
  if (await stamped(path)) return false;
  const before = await fileSignature(path).catch(() => null);
  try {
    await verifyTables(connection, path);
  } catch (error) {
    await rm(verifiedStampOf(path), { force: true }).catch(() => undefined);
    throw error;
  }
  // Stamped only when the file did not change during the read.
  if (before !== null && before === (await fileSignature(path).catch(() => null))) await writeStamp(path, before);
  return true;
}
