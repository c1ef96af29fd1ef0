/**
 * Where the tests find the repository and the shared real data, defined once (a test file's own
 * depth in test/ never enters it): REPO_ROOT is the repository, SHARED_DATA the `../shared/data`
 * beside it (absent on a user's machine: the tests that need it skip with a message).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the parent of test/). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The shared real data beside the repository (`../shared/data`). */
export const SHARED_DATA = resolve(REPO_ROOT, '..', 'shared', 'data');
