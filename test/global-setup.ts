/**
 * Vitest global setup: the real default store, built once per test run (not once per
 * test file) into the cache exactly as `serve` without `--store` builds it (src/cache/: keyed by
 * data/vaers and the build's code, so a later run with the same code loads it at once; CI's
 * second suite under another Node.js reuses it). Tests read its path with
 * `inject('defaultStorePath')` (test/helpers/default-store.ts); null when data/vaers is absent
 * (or `RS_TEST_NO_DEFAULT_STORE=1`, for a quick targeted run that needs no default store), and
 * those tests skip with a message.
 *
 * The command-line tests run the compiled CLI (dist/cli.js, `CLI` in test/helpers/paths.ts), as a user's `npx
 * reporting-signals` does: this setup first compiles dist/ when it is older than src/ (`scripts/build.mjs
 * --if-stale`, a no-op under `npm test`, which compiles first), so a bare `npx vitest run` never tests a stale
 * build. (Through tsx each child process, its build child and its worker threads compiled the sources anew.)
 *
 * The run's scratch files: every test file makes its folders with `mkdtemp(tmpdir(), ...)`; this
 * setup points TMPDIR (which `os.tmpdir()` reads, here and in the forked test processes, which
 * inherit the environment) at one folder of its own and removes that folder when the run ends, so
 * repeated runs leave nothing behind in /tmp.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { defaultStorePath } from '../src/cache/default-store.js';
import { DEFAULT_VAERS_DIR } from '../src/cache/key.js';
import { REPO_ROOT } from './helpers/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The default store's path in the cache, or null when data/vaers is absent. */
    defaultStorePath: string | null;
  }
}

/** The default store's path, looked up (or built) by the first call of {@link setup} and found by the later ones. */
let defaultStore: Promise<string> | undefined;

/** Points TMPDIR at a folder of the run's own; compiles dist/ when stale; builds (or finds) the default store and provides its path. Returns the teardown that removes the folder. */
export default async function setup(project: TestProject): Promise<() => void> {
  // Vitest runs this for the root and once per project (vitest.config.ts: the shared and the isolated files), one
  // after another: the first call makes the run's folder, the others find it (a folder made inside it would give
  // Chromium a socket path over its limit).
  const first = process.env.RS_TEST_SCRATCH === undefined || !existsSync(process.env.RS_TEST_SCRATCH);
  const scratch = !first ? process.env.RS_TEST_SCRATCH! : mkdtempSync(join(tmpdir(), 'reporting-signals-test-'));
  process.env.RS_TEST_SCRATCH = scratch;
  process.env.TMPDIR = scratch;
  const teardown = (): void => { if (first) rmSync(scratch, { recursive: true, force: true }); };
  if (first) execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // dist/ now holds these sources compiled: the worker threads of the tests' builds and searches load their
  // compiled entries (src/ingest/mining/worker-boot.mjs) rather than compile them again each. Not under watch,
  // where the sources change after this setup.
  if (!project.vitest.config.watch) process.env.REPORTING_SIGNALS_COMPILED_WORKERS = '1';
  else delete process.env.REPORTING_SIGNALS_COMPILED_WORKERS;
  if (!existsSync(join(DEFAULT_VAERS_DIR, '2006VAERSDATA.csv.gz')) || process.env.RS_TEST_NO_DEFAULT_STORE === '1') {
    if (first) process.stderr.write(`global setup: no default store (${DEFAULT_VAERS_DIR} absent or RS_TEST_NO_DEFAULT_STORE=1): the tests of the real default store skip\n`);
    project.provide('defaultStorePath', null);
    return teardown;
  }
  const started = Date.now();
  defaultStore ??= defaultStorePath((message) => process.stderr.write(`global setup: ${message}\n`));
  const path = await defaultStore;
  if (first) process.stderr.write(`global setup: default store ${path} ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  project.provide('defaultStorePath', path);
  return teardown;
}
