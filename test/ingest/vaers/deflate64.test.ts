/**
 * Official zips whose members are compressed with Deflate64 (zip method 9, used by Windows for
 * large members): read through Info-ZIP `unzip -p` (the official zips are read exactly as a
 * user downloads them, without unpacking them by hand). The test makes such a zip with
 * 7-Zip (Debian p7zip-full); it skips with a message when 7z or unzip is missing.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { sampleYear, tempDir, writeFiles } from './fixtures.js';

function has(tool: string, args: string[]): boolean {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tools = has('7z', ['i']) && has('unzip', ['-v']);
if (!tools) console.warn('skipping Deflate64 zip tests: needs 7z (Debian p7zip-full) and unzip');

/** Writes `files` into a fresh folder and zips them with 7-Zip's Deflate64 into `zipPath`. */
async function makeDeflate64Zip(zipPath: string, files: Record<string, Buffer>): Promise<void> {
  const staging = await tempDir('vaers-d64-');
  await writeFiles(staging, files);
  execFileSync('7z', ['a', '-tzip', '-mm=Deflate64', '-bd', '-bso0', zipPath, ...Object.keys(files)], { cwd: staging });
}

/** Compression methods of the members of a zip, by name (read with yauzl). */
function methods(zipPath: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Record<string, number> = {};
      zip.on('entry', (entry: yauzl.Entry) => { out[entry.fileName] = entry.compressionMethod; zip.readEntry(); });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe.skipIf(!tools)('readVaers: Deflate64 members of an official zip', () => {
  const savedPath = process.env.PATH;
  afterEach(() => { process.env.PATH = savedPath; });

  it('reads a Deflate64 AllVAERSDataCSVS.zip exactly like the same files unpacked', async () => {
    const files = { ...sampleYear(2005, 'modern', 500), ...sampleYear(2006, 'modern', 900) };
    const zipped = await tempDir();
    await makeDeflate64Zip(join(zipped, 'AllVAERSDataCSVS.zip'), files);
    expect(Object.values(await methods(join(zipped, 'AllVAERSDataCSVS.zip')))).toEqual([9, 9, 9, 9, 9, 9]);
    const plain = await tempDir();
    await writeFiles(plain, files);

    const fromZip = await readVaers(zipped);
    const fromFiles = await readVaers(plain);
    expect(fromZip.reports).toEqual(fromFiles.reports);
    expect(fromZip.vaccines).toEqual(fromFiles.vaccines);
    expect(fromZip.events).toEqual(fromFiles.events);
    expect(fromZip.reportsRead).toBe(6);
  });

  it('without the unzip program: a clear error naming the zip and member, no stack trace', async () => {
    const dir = await tempDir();
    await makeDeflate64Zip(join(dir, '2006VAERSData.zip'), sampleYear(2006, 'old', 100));
    const empty = join(dir, 'no-tools');
    await mkdir(empty);
    process.env.PATH = empty;
    await expect(readVaers(dir)).rejects.toThrow(
      /2006VAERSData\.zip: cannot read member 2006VAERS(DATA|VAX|SYMPTOMS)\.csv \(the member is compressed with Deflate64 and the `unzip` program \(Debian package unzip\) is not installed/,
    );
  });
});
