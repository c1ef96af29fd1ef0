#!/usr/bin/env node
/**
 * `npm run build` and the staleness check of `npm start` and `npm ci` (issue 46: "a start that
 * starts": `npm start` used to delete dist/ and recompile at every start, 26 s on a loaded 2-core
 * machine before the port opened).
 *
 * - `node scripts/build.mjs`: always builds: removes dist/ (and first its stamp), transpiles src/
 *   with esbuild (see `build` below), makes dist/cli.js executable, then writes the stamp dist/.build-stamp.json
 *   last, so an interrupted or failed build leaves no stamp and counts as stale.
 * - `node scripts/build.mjs --if-stale`: builds only when dist/ is not current: the stamp is
 *   missing or its digest differs from the sources' digest now. The digest is SHA-256 over the
 *   path and bytes of every file the compiler reads or that decides its output (src/**,
 *   tsconfig.json, package.json, package-lock.json): about 2 MB read, a few milliseconds; content,
 *   not modification times, so a checkout that only touches files does not rebuild. Prints one
 *   line saying which it did. `npm start` (prestart) and `npm ci` (prepare) run this form.
 * - `--if-stale` without the compiler installed (`npm ci --omit=dev`) and a stale or
 *   missing dist/ says so and exits 1 under `npm start`; under `npm ci` (`--prepare`) it only says
 *   so (a production install that ships dist/ is not an error).
 * The digest is computed before the compiler runs, so a source edited during the build leaves the
 * stamp of the sources it started from: the next start rebuilds.
 */
/* global process, performance */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The stamp: `{digest, files, built_at}` of the sources dist/ was compiled from. */
export const STAMP = path.join(ROOT, 'dist', '.build-stamp.json');
/** Files outside src/ that decide the compiler's output. */
const EXTRA = ['tsconfig.json', 'package.json', 'package-lock.json'];

/** Every file below `dir`, relative to ROOT, sorted. */
function filesBelow(dir) {
  const out = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesBelow(rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** The sources' digest now: `{digest, files}`. */
export function sourceDigest() {
  const files = [...filesBelow('src'), ...EXTRA.filter((f) => existsSync(path.join(ROOT, f)))];
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(ROOT, file))).update('\0');
  return { digest: hash.digest('hex'), files: files.length };
}

/** The stamp's digest, or null when there is none (never built, or an interrupted build). */
function stampDigest() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).digest ?? null;
  } catch {
    return null;
  }
}

/** esbuild's JavaScript API, or null when it is not installed (a production install, `npm ci --omit=dev`). */
function esbuildApi() {
  try {
    return createRequire(path.join(ROOT, 'package.json'))('esbuild');
  } catch {
    return null;
  }
}

/**
 * Removes dist/, compiles, writes the stamp (temporary file renamed). The compiler is esbuild: each file of src/
 * transpiled on its own to an ES module beside its source map (types removed, nothing bundled; tsconfig.json's
 * target ES2022 and its class-field semantics), in about a second where tsc took about 30 s of one core. It checks
 * no types: `npm run typecheck` does (`npm test` runs it first), with `isolatedModules` (tsconfig.json), the
 * setting under which a file transpiled alone means what tsc makes of it.
 */
function build(source) {
  const esbuild = esbuildApi();
  if (esbuild === null) throw new Error('the compiler (esbuild) is not installed: run `npm ci` (with the dev dependencies) first');
  rmSync(STAMP, { force: true });
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const entryPoints = filesBelow('src').filter((file) => file.endsWith('.ts')).map((file) => path.join(ROOT, file));
  esbuild.buildSync({
    entryPoints,
    outbase: path.join(ROOT, 'src'),
    outdir: path.join(ROOT, 'dist'),
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });
  chmodSync(path.join(ROOT, 'dist', 'cli.js'), 0o755);
  const draft = `${STAMP}.tmp-${process.pid}`;
  writeFileSync(draft, `${JSON.stringify({ ...source, built_at: new Date().toISOString() })}\n`);
  renameSync(draft, STAMP);
}

function main(args) {
  const ifStale = args.includes('--if-stale');
  const prepare = args.includes('--prepare');
  const started = performance.now();
  const source = sourceDigest();
  if (ifStale && stampDigest() === source.digest && existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
    process.stderr.write(`build: dist/ is current (${source.files} source files checked in ${Math.round(performance.now() - started)} ms), not recompiled\n`);
    return 0;
  }
  if (ifStale && prepare && esbuildApi() === null) {
    process.stderr.write('build: no compiler (esbuild; a production install): dist/ left as it is\n');
    return 0;
  }
  if (ifStale) process.stderr.write(`build: dist/ is ${stampDigest() === null ? 'not built yet' : 'older than the sources'}: compiling (once; later starts skip this)\n`);
  try {
    build(source);
  } catch (error) {
    process.stderr.write(`build: ${error.message.split('\n')[0]}\n`);
    return 1;
  }
  if (ifStale) process.stderr.write(`build: compiled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
