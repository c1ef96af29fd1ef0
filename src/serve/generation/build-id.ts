/**
 * Spec 4.1 / 9 header `X-REPORTS-Build`: `api-<12 hex> src-<deployed revision>`.
 * - `api-`: the first 12 hex digits of a SHA-256 over the files of the running program (the
 *   folder this module was loaded from, `dist/` or `src/`: relative paths and contents, in
 *   sorted order), computed once at start; with a store loaded, of a SHA-256 over that digest
 *   and the store's build id (so that a store swap changes the header).
 * - `src-`: the first line of the `VERSION` file at the repository root, written at deploy;
 *   `dev` when the file is absent or empty. Characters outside printable ASCII become `_` so
 *   that the header is always valid.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the running program (dist or src; this file is its serve/generation/build-id). */
const PROGRAM_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** Repository root (the parent of dist or src). */
const REPO_ROOT = dirname(PROGRAM_DIR);

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

/** SHA-256 hex digest over the program files under `dir` (relative path + NUL + content each). */
export function programDigest(dir: string = PROGRAM_DIR): string {
  const hash = createHash('sha256');
  for (const file of listFiles(dir)) {
    hash.update(relative(dir, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** First line of `<root>/VERSION`, sanitised for a header; `dev` when absent or empty. */
export function deployedRevision(root: string = REPO_ROOT): string {
  let text: string;
  try {
    text = readFileSync(join(root, 'VERSION'), 'utf8');
  } catch {
    return 'dev';
  }
  const line = (text.split(/\r?\n/)[0] ?? '').trim().replace(/[^\x21-\x7e]/g, '_');
  return line === '' ? 'dev' : line;
}

let program: string | undefined;
let revision: string | undefined;

/**
 * The `X-REPORTS-Build` value (the program digest and revision are computed once per process).
 * With `storeId` (the served store's build id, identity.ts storeBuildId) the 12 hex digits are those of a
 * SHA-256 over the program digest and the store id, so that the header identifies the program
 * and the store it serves (a store swap changes it) in the spec's form; without, those of the program digest.
 */
export function buildId(storeId?: string): string {
  program ??= programDigest();
  revision ??= deployedRevision();
  const digest = storeId === undefined ? program : createHash('sha256').update(`${program}\0${storeId}`).digest('hex');
  return `api-${digest.slice(0, 12)} src-${revision}`;
}
