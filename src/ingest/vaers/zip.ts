/**
 * Thin promise wrapper over yauzl for the official VAERS zips (per-year `2006VAERSData.zip`,
 * all-years `AllVAERSDataCSVS.zip`): list the members, then stream any member, in any order,
 * without unpacking to disk. Zip64 archives (members over 4 GiB) are supported by yauzl.
 * Every failure becomes a `UserError` naming the zip (and the member where it applies).
 *
 * Members compressed with Deflate64 (method 9, which Windows uses for large members and yauzl
 * cannot inflate) are streamed through Info-ZIP's `unzip -p` (Debian package `unzip`, built
 * with Deflate64 support) when it is installed; without it the error says how to proceed.
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { UserError } from '../../domain/user-error.js';

/** One member of an open zip. `uncompressedSize` in bytes, as the central directory states. */
export interface ZipMember {
  /** Member path inside the zip, e.g. `AllVAERSDataCSVS/1999VAERSDATA.csv`. */
  path: string;
  uncompressedSize: number;
  entry: yauzl.Entry;
}

/** An open zip archive; call `close()` when done (also after an error). */
export interface OpenZip {
  members: ZipMember[];
  /** Decompressed byte stream of one member. Rejects with a UserError naming zip and member. */
  open(member: ZipMember): Promise<Readable>;
  close(): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Zip compression method 9: Deflate64 ("enhanced deflate"). */
const DEFLATE64 = 9;

/**
 * Streams one member through `unzip -p` (Info-ZIP), for Deflate64 members. The member name is
 * passed with unzip's wildcard characters escaped. Rejects with a UserError when `unzip` is not
 * installed; a failure while streaming (non-zero exit) errors the stream with a UserError.
 */
function streamWithUnzip(file: string, label: string, member: ZipMember): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const pattern = member.path.replace(/[[\]*?\\]/g, (c) => `\\${c}`);
    const child = spawn('unzip', ['-p', '-qq', file, pattern], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = new PassThrough();
    let stderr = '';
    let started = false;
    let spawnFailed = false;
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT'
        ? 'the member is compressed with Deflate64 and the `unzip` program (Debian package unzip) is not installed to inflate it'
        : describe(error);
      spawnFailed = !started;
      if (!started) reject(new UserError(`${label}: cannot read member ${member.path} (${why}); unpack the zip and point the build at the folder of CSV files`));
      else out.destroy(new UserError(`${label}: cannot read member ${member.path} (${why})`));
    });
    child.on('spawn', () => { started = true; resolve(out); });
    child.stdout.pipe(out, { end: false });
    child.on('close', (code) => {
      if (spawnFailed) return;
      if (code === 0) out.end();
      else out.destroy(new UserError(`${label}: cannot read member ${member.path} (unzip exited with ${code}: ${stderr.trim().slice(0, 200)})`));
    });
  });
}

/**
 * Opens `file` (path on disk, shown as `label` in messages) and reads its central directory.
 * @throws UserError when the file is not a readable zip archive.
 */
export function openZip(file: string, label: string): Promise<OpenZip> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) => {
      if (err || !zip) {
        reject(new UserError(`${label}: not a valid zip file (${describe(err)})`));
        return;
      }
      const members: ZipMember[] = [];
      let failed = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) {
          members.push({ path: entry.fileName, uncompressedSize: entry.uncompressedSize, entry });
        }
        zip.readEntry();
      });
      zip.on('error', (e: unknown) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(new UserError(`${label}: not a valid zip file (${describe(e)})`));
      });
      zip.on('end', () => {
        if (failed) return;
        resolve({
          members,
          close: () => zip.close(),
          open: (member) =>
            new Promise<Readable>((res, rej) => {
              const method = member.entry.compressionMethod;
              if (method === DEFLATE64) {
                streamWithUnzip(file, label, member).then(res, rej);
                return;
              }
              if (method !== 0 && method !== 8) {
                rej(new UserError(
                  `${label}: member ${member.path} is compressed with method ${method}, which this reader cannot stream; ` +
                    'unpack the zip (unzip, 7-Zip) and point the build at the folder of CSV files',
                ));
                return;
              }
              zip.openReadStream(member.entry, (e, stream) => {
                if (e || !stream) rej(new UserError(`${label}: cannot read member ${member.path} (${describe(e)})`));
                else res(stream);
              });
            }),
        });
      });
      zip.readEntry();
    });
  });
}
