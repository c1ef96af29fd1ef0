/**
 * A fresh clone of the repository for the recipe tests (issue 36: "every recipe runs as written on
 * a fresh clone"): `git clone` of the repository under test into a temporary folder, so the
 * recipes see exactly what a newcomer's clone holds (committed files only: no dist/, no
 * artifacts, no sample.duckdb), with node_modules linked to the repository's in place of `npm ci`
 * (the same lock file; installing again would cost minutes of the CI budget and reach the
 * registry). One clone per test file, made on first use; `removeFreshClone` deletes it (each file
 * using it calls that in its afterAll: the files share their worker's modules, vitest.config.ts).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

let clone: string | null = null;

/** The clone's folder (cloned on the first call): HEAD of the repository, node_modules linked. */
export function freshClone(): string {
  if (clone) return clone;
  const parent = mkdtempSync(path.join(tmpdir(), 'rs-fresh-clone-'));
  const dir = path.join(parent, 'reporting-signals');
  execFileSync('git', ['clone', '--quiet', REPO_ROOT, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  clone = dir;
  return dir;
}

/** Builds dist/ in the clone when it has none yet (`npm run build`, as the recipes' pages say). */
export function buildInClone(dir: string): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
}

/**
 * Copies the repository's dist/ (and its stamp) into the clone, for a test whose subject is not the
 * first compile (the weekly refresh): `npm start` in the clone then compiles only when the stamp's
 * digest differs from the clone's sources (scripts/build.mjs `--if-stale`: uncommitted edits in the
 * worktree), as in CI, where `npm test` has just built dist/ from the same commit. A second compile
 * of the same sources costs about a second (esbuild; tsc took about 20 s of CPU). The README's `npm start` (test/docs/recipes.test.ts)
 * still compiles in its own clone.
 */
export function seedDist(dir: string): void {
  const dist = path.join(REPO_ROOT, 'dist');
  if (existsSync(path.join(dist, '.build-stamp.json'))) cpSync(dist, path.join(dir, 'dist'), { recursive: true });
}

/** Removes the clone (its parent folder). */
export function removeFreshClone(): void {
  if (clone) rmSync(path.dirname(clone), { recursive: true, force: true });
  clone = null;
}
