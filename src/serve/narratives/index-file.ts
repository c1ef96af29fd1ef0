/**
 * The narrative index (index.ts) kept on disk beside its store, so that a later start loads it
 * instead of reading every narrative from the store and building the index again (issue 41: a
 * cached start within seconds; on 1990-2006 the build takes 2.4-8 s of the 10 s that start took).
 *
 * File: `<store>.narratives`, written after an index is built from the store (a temporary file in
 * the same folder, renamed when complete; a folder that cannot be written just leaves no file).
 * Layout: the magic `RSNIDX02`, a little-endian uint32 with the byte length of a JSON header
 * `{key, arrays: [{name, bytes}], sha256}`, then the arrays of `NarrativeIndex.share()` in the
 * header's order, each starting at a multiple of 8 bytes. `sha256` is over the arrays' bytes.
 *
 * The key names what the index was built from and by: the store file (device, inode, size and
 * modification time: a rebuilt or replaced store is a new file), the narrative fields in order,
 * and the digest of this folder's source code (the tokenizer, words.ts, decides the vocabulary; read
 * from `src/` whichever tree runs). A file
 * of another key, a damaged one (digest, sizes) or one of another format is not used: the index is
 * built from the store as before and the file replaced. The caller also checks that the index's
 * VAERS_IDs are the store's reports, in order (src/serve/cases/service.ts).
 *
 * Read back, the texts, the postings and the word positions are not copied into memory: the file
 * stays open and they are read from it when asked (file-range.ts); the digest is still checked
 * over every byte (in chunks, at load). Format 02 added the word positions (positions.ts); a file
 * of format 01 is another format (and another key), so it is rebuilt.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import type { FileRange } from './file-range.js';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NARRATIVE_FIELDS } from '../../domain/report-columns.js';
import { NarrativeIndex, type SharedNarrativeIndex } from './index.js';

const MAGIC = Buffer.from('RSNIDX02', 'latin1');
/** Upper bound of the JSON header's length (it names nine arrays). */
const MAX_HEADER_BYTES = 1 << 16;

/** The arrays of a SharedNarrativeIndex in file order, with their element types. */
const ARRAYS = [
  ['ids', Int32Array], ['byId', Int32Array], ['texts.bytes', Uint8Array], ['texts.ends', Uint32Array],
  ['vocabulary', Uint8Array], ['start', Int32Array], ['postings', Int32Array], ['positions.bytes', Uint8Array], ['positions.blocks', Uint32Array],
] as const;

type IndexArray = Int32Array | Uint32Array | Uint8Array;

/** The arrays left in the file when it is read back (read on demand: file-range.ts). */
const IN_FILE: ReadonlySet<string> = new Set(['texts.bytes', 'postings', 'positions.bytes']);
/** Bytes read at a time while the digest of an array left in the file is checked. */
const DIGEST_CHUNK = 4 << 20;

interface Header {
  key: string;
  arrays: Array<{ name: string; bytes: number }>;
  sha256: string;
}

/** The file that holds the narrative index of the store at `storePath`. */
export function indexFileOf(storePath: string): string {
  return `${storePath}.narratives`;
}

let codeDigest: string | null = null;

/** This folder in the source tree (`src/serve/narratives/`), whether the program runs from `dist/` or under tsx. */
const SOURCE_FOLDER = fileURLToPath(new URL('../../../src/serve/narratives/', import.meta.url));

/**
 * SHA-256 of the source files of this folder, hex: read from `src/` whichever tree runs (as the
 * default store's key, src/cache/key.ts), so a test run under tsx and `npm start` from `dist/`
 * share one index file; the running folder when no source tree is beside it.
 */
function narrativesCodeDigest(): string {
  if (codeDigest === null) {
    const folder = existsSync(SOURCE_FOLDER) ? SOURCE_FOLDER : dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256');
    for (const name of readdirSync(folder).sort()) {
      if (!/\.(ts|js|mjs)$/.test(name)) continue;
      hash.update(name).update('\0').update(readFileSync(join(folder, name))).update('\0');
    }
    codeDigest = hash.digest('hex');
  }
  return codeDigest;
}

/**
 * The key of the index of the store at `storePath` as it is now (see the module header).
 * @throws Error (from fs.statSync) when the store file is absent.
 */
export function indexKey(storePath: string): string {
  const s = statSync(storePath, { bigint: true });
  return createHash('sha256')
    .update(JSON.stringify({ store: [String(s.dev), String(s.ino), String(s.size), String(s.mtimeNs)], fields: NARRATIVE_FIELDS, code: narrativesCodeDigest() }))
    .digest('hex');
}

/** The arrays of an index in file order. @throws Error when its texts, postings or positions are not in memory (an index read back from its file). */
function arraysOf(shared: SharedNarrativeIndex): IndexArray[] {
  const { texts, postings, positions } = shared;
  if (texts.bytes === null || postings === null || positions.bytes === null) throw new Error('saveIndexFile: the index was read back from a file; it is saved already');
  return [shared.ids, shared.byId, texts.bytes, texts.ends, shared.vocabulary, shared.start, postings, positions.bytes, positions.blocks];
}

function bytesOf(array: IndexArray): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

const padTo8 = (n: number): number => (8 - (n % 8)) % 8;

/**
 * Writes `index` (built in memory) to `file` under `key` (a temporary file renamed when complete).
 * Never throws: a folder that cannot be written leaves no file (and no temporary one), and resolves false.
 */
export async function saveIndexFile(file: string, key: string, index: NarrativeIndex): Promise<boolean> {
  const saved = await saveAndReopen(file, key, index);
  saved?.close();
  return saved !== null;
}

/**
 * Writes `index` (built in memory) to `file` under `key` as {@link saveIndexFile}, and answers the
 * same index reading its texts, postings and positions from the file just written (opened before the rename,
 * so it is that file whatever is renamed onto the path later), as {@link loadIndexFile} would give
 * it without reading the file back; null when the file could not be written (nothing left behind).
 */
export async function saveAndReopen(file: string, key: string, index: NarrativeIndex): Promise<NarrativeIndex | null> {
  const shared = index.share();
  const arrays = arraysOf(shared);
  const hash = createHash('sha256');
  for (const a of arrays) hash.update(bytesOf(a));
  const header: Header = { key, arrays: arrays.map((a, i) => ({ name: ARRAYS[i][0], bytes: a.byteLength })), sha256: hash.digest('hex') };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(MAGIC.length + 4 + json.length + padTo8(MAGIC.length + 4 + json.length));
  MAGIC.copy(head, 0);
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, MAGIC.length + 4);
  const temp = `${file}.tmp-${process.pid}-${Date.now()}`;
  let fd: number | null = null;
  try {
    const handle = await open(temp, 'wx');
    const offsets: number[] = [];
    try {
      let position = head.length;
      await handle.write(head);
      for (const a of arrays) {
        offsets.push(position);
        await handle.write(bytesOf(a));
        const pad = padTo8(a.byteLength);
        if (pad > 0) await handle.write(Buffer.alloc(pad));
        position += a.byteLength + pad;
      }
    } finally {
      await handle.close();
    }
    fd = openSync(temp, 'r');
    await rename(temp, file);
    const range = (i: number): FileRange => ({ fd: fd as number, path: file, offset: offsets[i], bytes: arrays[i].byteLength });
    const reopened = NarrativeIndex.fromStored({
      ...shared, texts: { bytes: null, file: range(2), ends: shared.texts.ends }, postings: null, postingsFile: range(6),
      positions: { bytes: null, file: range(7), blocks: shared.positions.blocks },
    });
    if (!reopened) throw new Error('unreachable: the index just written does not fit its own shape');
    return reopened;
  } catch {
    if (fd !== null) closeSync(fd);
    await rm(temp, { force: true }).catch(() => undefined);
    return null;
  }
}

/** Reads exactly `into.length` bytes at `position`; false when the file ends first. */
function readFully(fd: number, into: Uint8Array, position: number): boolean {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/** Feeds bytes `position`..`position + bytes` of the file to `hash`, DIGEST_CHUNK at a time; false when the file ends first. */
function hashRange(fd: number, position: number, bytes: number, hash: ReturnType<typeof createHash>): boolean {
  const chunk = Buffer.allocUnsafe(Math.min(bytes, DIGEST_CHUNK));
  for (let done = 0; done < bytes; done += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, bytes - done));
    if (!readFully(fd, part, position + done)) return false;
    hash.update(part);
  }
  return true;
}

/**
 * The index held in `file` when it was written under `key` and is whole (magic, sizes and
 * digest check); else null (absent, another key, damaged). Never throws for a bad file. Its ids,
 * offsets, vocabulary and postings' runs are read into shared memory; its texts and postings
 * stay in the file, held open and read when asked (file-range.ts) until the index's `close()`.
 */
export function loadIndexFile(file: string, key: string): NarrativeIndex | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  let index: NarrativeIndex | null = null;
  try {
    const start = Buffer.alloc(MAGIC.length + 4);
    if (!readFully(fd, start, 0) || !start.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const length = start.readUInt32LE(MAGIC.length);
    if (length > MAX_HEADER_BYTES) return null;
    const json = Buffer.alloc(length);
    if (!readFully(fd, json, start.length)) return null;
    const header = JSON.parse(json.toString('utf8')) as Header;
    if (header.key !== key || !Array.isArray(header.arrays) || header.arrays.length !== ARRAYS.length) return null;
    let position = start.length + length + padTo8(start.length + length);
    const hash = createHash('sha256');
    const arrays: Array<IndexArray | FileRange> = [];
    for (const [i, [name, Type]] of ARRAYS.entries()) {
      const { name: stored, bytes } = header.arrays[i];
      if (stored !== name || !Number.isSafeInteger(bytes) || bytes < 0 || bytes % Type.BYTES_PER_ELEMENT !== 0) return null;
      if (IN_FILE.has(name)) {
        if (!hashRange(fd, position, bytes, hash)) return null;
        arrays.push({ fd, path: file, offset: position, bytes });
      } else {
        const buffer = new SharedArrayBuffer(bytes);
        const view = new Uint8Array(buffer);
        if (!readFully(fd, view, position)) return null;
        hash.update(view);
        arrays.push(new (Type as unknown as new (shared: SharedArrayBuffer) => IndexArray)(buffer));
      }
      position += bytes + padTo8(bytes);
    }
    if (hash.digest('hex') !== header.sha256) return null;
    const [ids, byId, bytes, ends, vocabulary, starts, postings, positions, blocks] = arrays;
    const shared: SharedNarrativeIndex = {
      ids: ids as Int32Array, byId: byId as Int32Array, texts: { bytes: null, file: bytes as FileRange, ends: ends as Uint32Array },
      vocabulary: vocabulary as Uint8Array, start: starts as Int32Array, postings: null, postingsFile: postings as FileRange,
      positions: { bytes: null, file: positions as FileRange, blocks: blocks as Uint32Array },
    };
    index = NarrativeIndex.fromStored(shared);
    return index;
  } catch {
    return null;
  } finally {
    // Held open by the index it read (closed by its close()); else closed now.
    if (index === null) closeSync(fd);
  }
}
