/**
 * Where the tests find the repository and the shared real data, defined once (a test file's own
 * depth in test/ never enters it): REPO_ROOT is the repository, SHARED_DATA the `../shared/data`
 * beside it (absent on a user's machine: the tests that need it skip with a message), or the folder
 * `RS_SHARED_DATA` names: a worktree kept elsewhere (/work/wt/NAME, whose `..` holds no shared/)
 * points there so that the tests of the shared data run in it as they do in CI.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the parent of test/). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * The compiled command line, `dist/cli.js` (the package's `bin`): the tests run it as `node CLI ARGS`. Compiled from
 * src/ before the tests by `npm test`, and by test/global-setup.ts when stale.
 */
export const CLI = resolve(REPO_ROOT, 'dist', 'cli.js');

/** The shared real data: `RS_SHARED_DATA` when set, else beside the repository (`../shared/data`). */
export const SHARED_DATA = process.env.RS_SHARED_DATA ? resolve(process.env.RS_SHARED_DATA) : resolve(REPO_ROOT, '..', 'shared', 'data');

/** Whether `path` (in the shared data) exists; when not, prints that `what` is skipped and why. */
export function sharedDataPresent(path: string, what: string): boolean {
  if (existsSync(path)) return true;
  console.warn(`${what} skipped: ${path} is absent (the shared data: ../shared/data beside the repository, or RS_SHARED_DATA)`);
  return false;
}
