/**
 * Arrays of the narrative index read from its file on demand (issue 41: serving the full store
 * within 1.5 GB). The texts (0.9 GB at 2.1 million reports), the postings (0.4 GB) and the word
 * positions stay in the index file beside the store (index-file.ts); the process keeps the file
 * open (one descriptor, opened when the file was checked, so a file renamed onto the path later is
 * never read) and reads a field, a word's posting list or a run of positions with one positioned
 * read (pread) when asked. The
 * operating system's page cache keeps what is read often; it is not the process's memory.
 *
 * A descriptor is a number of the whole process, so a worker thread (search-worker.ts) reads
 * through the same one. It is closed when the generation serving the store closes
 * (src/serve/generation/generation.ts), after the searches running on it have ended.
 */
import { closeSync, readSync } from 'node:fs';
import { StoreReadError } from '../query/store-read-error.js';

/** Where an array of the index lies in its file, held open: descriptor, byte offset and length. */
export interface FileRange {
  /** The open descriptor (read only). */
  fd: number;
  /** The file's path, for messages. */
  path: string;
  /** Byte offset of the array in the file. */
  offset: number;
  /** Byte length of the array. */
  bytes: number;
}

/**
 * Reads bytes `start`..`end` of the array at `range` into `into` (its first end - start bytes).
 * @throws StoreReadError when the file ends first (truncated since it was checked) or cannot be
 * read (the server answers 503 with the Error object, as for the store's own storage failures).
 */
export function readRangeInto(range: FileRange, start: number, end: number, into: Uint8Array): void {
  if (start < 0 || end > range.bytes || start > end) throw new RangeError(`readRange: bytes ${start}..${end} outside 0..${range.bytes} of ${range.path}`);
  const length = end - start;
  let done = 0;
  try {
    while (done < length) {
      const n = readSync(range.fd, into, done, length - done, range.offset + start + done);
      if (n === 0) break;
      done += n;
    }
  } catch (error) {
    throw new StoreReadError(`the narrative index ${range.path} could not be read: ${(error as Error).message}`, { cause: error });
  }
  if (done < length) {
    throw new StoreReadError(`the narrative index ${range.path} could not be read: ${length} bytes asked at offset ${range.offset + start}, ${done} read (the file was truncated)`);
  }
}

/** Bytes `start`..`end` of the array at `range`, in a new Buffer. @throws StoreReadError as {@link readRangeInto}. */
export function readRange(range: FileRange, start: number, end: number): Buffer {
  const into = Buffer.allocUnsafe(end - start);
  readRangeInto(range, start, end, into);
  return into;
}

/** Closes the descriptor of an index file (idempotent per descriptor owner: call once). Never throws. */
export function closeFile(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
