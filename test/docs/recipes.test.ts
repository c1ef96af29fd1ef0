/**
 * Every shell recipe of README.md and docs/*.md is run as written by some test (issue 28: "every
 * recipe in every page is still run verbatim by a test"; issue 36: "recipes that run as written").
 * The blocks are read by test/helpers/recipes.ts:
 * - every fence has a language; `sh`, `bash` and `shell` fences are recipes, the rest is output;
 * - an unmarked recipe holds only `curl` lines and comments: here each line runs through bash, as
 *   written but for the port (`127.0.0.1:8080` -> the test server's), against a server on the real
 *   default store with /pipeline pointed at a fake ClinicalTrials.gov (test/golden/harness.ts); it
 *   must exit 0 with the status its comment starts with (`# 400 ...`), else 200;
 * - a recipe marked `<!-- recipe: ID -->` is run by the test that calls `recipe(PAGE, 'ID')`: this
 *   file checks that exactly one test file does, and runs the README's first commands and the
 *   `score` example itself;
 * - a recipe marked `<!-- recipe: not run -->` says why on the page, right under the block.
 * The server tests skip with a message without the default store. `npm start` (then the README's
 * curl lines against it), the `import` and the `score` examples run in a fresh clone of the
 * repository (test/helpers/fresh-clone.ts: `git clone`, node_modules linked for `npm ci`), on the
 * files it ships (data/samples).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STORE, hasDefaultStore } from '../helpers/default-store.js';
import { curlLines, docBlocks, docPages, recipe, recipes, SHELL_LANGS, type DocBlock } from '../helpers/recipes.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { startGoldenHarness, type GoldenHarness } from '../golden/harness.js';
import { buildInClone, freshClone, removeFreshClone } from '../helpers/fresh-clone.js';

/** Every recipe of every page. */
const ALL = docPages().flatMap((page) => recipes(page));
/** The recipes run here against the server: unmarked, curl lines only. */
const CURL_BLOCKS = ALL.filter((b) => b.marker === null);

/** Test sources (to find who calls `recipe(PAGE, 'ID')`). */
function testSources(dir = 'test'): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testSources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []);
}

/** Runs `script` with bash (`-o pipefail`): exit code, standard output and error. */
function bash(script: string, options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('close', (code) => { clearTimeout(timer); done({ code, stdout, stderr }); });
  });
}

/** A port free on 127.0.0.1 at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('the recipes of README.md and docs/*.md', () => {
  it('every fence has a language; every recipe is curl lines, or marked with the test that runs it, or says why it is not run', () => {
    expect(ALL.length).toBeGreaterThan(15);
    const problems: string[] = [];
    for (const page of docPages()) {
      for (const b of docBlocks(page)) if (b.lang === '') problems.push(`${page}:${b.line}: a fence without a language (text for output)`);
    }
    for (const b of ALL) {
      const where = `${b.page}:${b.line}`;
      if (b.marker === null) {
        const other = b.text.replace(/\\\n/g, ' ').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#') && !/^curl\s/.test(l));
        if (other.length > 0) problems.push(`${where}: an unmarked recipe runs more than curl: ${other.join(' / ')}`);
      } else if (b.marker === 'not run') {
        if (!b.after.startsWith('Not run by the tests:')) problems.push(`${where}: "not run" without "Not run by the tests: <why>" under the block`);
      } else {
        const call = `recipe('${b.page}', '${b.marker}')`;
        const callers = testSources().filter((f) => readFileSync(path.join(REPO_ROOT, f), 'utf8').includes(call));
        if (callers.length !== 1) problems.push(`${where}: ${callers.length} test files call ${call} (want 1)`);
      }
    }
    expect(problems).toEqual([]);
    // The rules catch what they should, on blocks written here.
    const fake: DocBlock = { page: 'x.md', line: 1, lang: 'sh', marker: null, text: 'curl a\nnpm start\n', after: '' };
    expect(SHELL_LANGS.has(fake.lang)).toBe(true);
    expect(curlLines("curl 'http://127.0.0.1:8080/a' \\\n  -H 'x: y'\n# note\nnpm start\n")).toEqual(["curl 'http://127.0.0.1:8080/a'    -H 'x: y'"]);
  });

  it('the curl recipes cover the resources of the tour and the API pages', () => {
    const urls = CURL_BLOCKS.flatMap((b) => curlLines(b.text));
    for (const resource of ['/triage', '/signals', '/analyses', '/vaccines', '/cases', '/reports/', '/pipeline']) {
      expect(urls.some((l) => l.includes(`127.0.0.1:8080${resource}`)), resource).toBe(true);
    }
  });
});

describe.skipIf(!hasDefaultStore('the curl recipes of the documentation'))('every curl recipe against a server on the default store', () => {
  let harness: GoldenHarness;
  let app: FastifyInstance;
  let base: string;
  let bin: string;
  beforeAll(async () => {
    harness = await startGoldenHarness(DEFAULT_STORE!);
    app = harness.app;
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    // The pages run against a ready server ("with npm start running"): every analysis loaded.
    const deadline = Date.now() + 240_000;
    while ((await app.inject({ url: '/readyz' })).statusCode !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    // curl as written, plus the status on standard error (a wrapper first on PATH).
    bin = mkdtempSync(path.join(tmpdir(), 'rs-recipes-bin-'));
    const real = (await bash('command -v curl')).stdout.trim();
    writeFileSync(path.join(bin, 'curl'), `#!/bin/sh\nexec "${real}" -w '%{stderr}recipe-status %{http_code}\\n' "$@"\n`);
    chmodSync(path.join(bin, 'curl'), 0o755);
  }, 300_000);
  afterAll(async () => {
    await harness?.close();
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  const lines = CURL_BLOCKS.flatMap((b) => curlLines(b.text).map((line) => ({ where: `${b.page}:${b.line}`, line })));
  it.each(lines)('$where: $line', async ({ line }) => {
    const expected = Number(/#\s*(\d{3})\b/.exec(line)?.[1] ?? 200);
    const run = await bash(line.replaceAll('http://127.0.0.1:8080', base), { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    const status = [...run.stderr.matchAll(/recipe-status (\d{3})/g)].map((m) => Number(m[1]));
    expect({ code: run.code, status }).toEqual({ code: 0, status: [expected] });
    expect(run.stdout.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('the README\'s first commands', () => {
  const block = recipe('README.md', 'first-commands');
  const commands = block.split('\n').filter((l) => l.trim() !== '').map((l) => l.replace(/\s+#.*$/, '').trim());

  it('are `npm ci && npm start` and `npm test`; CI runs `npm ci` and `npm test` as written; `npm test` type-checks, lints, builds (when dist/ is older than the sources) and runs the tests', () => {
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const ci = readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^\s*npm test$/m);
    const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // The type-check and the lint run side by side (npm-run-all2's run-p: one core each, about 23 and 21 s with empty
    // caches); either failing fails `npm test`. It compiles only when dist/ is older than the sources, like `npm start`: in CI `npm ci` has just
    // built it (prepare), and the second suite (another Node.js) finds it current.
    expect(scripts.test).toBe('run-p --print-label typecheck lint && node scripts/build.mjs --if-stale && vitest run');
    expect(scripts.start).toBe('node dist/cli.js serve');
    // `npm start` compiles only when dist/ is older than the sources (issue 46); `npm ci` builds it once (prepare).
    expect(scripts.prestart).toBe('node scripts/build.mjs --if-stale');
    expect(scripts.prepare).toBe('node scripts/build.mjs --if-stale --prepare');
    expect(scripts.build).toBe('node scripts/build.mjs');
  });

  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child?.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* ended */ }
  });

  /**
   * `npm start` as written, in a fresh clone of the repository (test/helpers/fresh-clone.ts: its own
   * dist/, so the tests that read this worktree's dist/ are not disturbed; node_modules linked for
   * `npm ci`): it builds, then serves the default store from the cache (the same key: the same
   * sources and data/vaers) on $PORT until /readyz is 200; then every curl line of the README runs
   * as written against it (the port replaced), each answering 200.
   */
  it.skipIf(!hasDefaultStore('npm start in a fresh clone of the repository'))('`npm start` in a fresh clone builds and serves the default store: /readyz 200, then every curl line of the README answers 200', async () => {
    const copy = freshClone();
    const port = await freePort();
    const start = commands[0].replace(/^npm ci && /, '');
    expect(start).toBe('npm start');
    child = spawn('bash', ['-c', start], { cwd: copy, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore', detached: true });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 280_000;
    let ready = 0;
    while (Date.now() < deadline) {
      ready = await fetch(`${url}/readyz`).then((r) => r.status, () => 0);
      if (ready === 200) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(ready).toBe(200);
    // A second start does not recompile: the stamp matches the sources, dist/ is left as it is.
    const stamp = statSync(path.join(copy, 'dist', 'cli.js')).mtimeMs;
    const again = await bash('npm run prestart', { cwd: copy });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/build: dist\/ is current \(\d+ source files checked in \d+ ms\), not recompiled/);
    expect(statSync(path.join(copy, 'dist', 'cli.js')).mtimeMs).toBe(stamp);
    const lines = recipes('README.md').filter((b) => b.marker === null).flatMap((b) => curlLines(b.text));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const run = await bash(`${line.replaceAll('http://127.0.0.1:8080', url)} -s -o /dev/null -w '%{http_code}'`, { cwd: copy });
      expect({ line, code: run.code, status: run.stdout }).toEqual({ line, code: 0, status: '200' });
    }
  }, 420_000);
});

describe('the score example of docs/operations.md', () => {
  it('runs as written in a fresh clone, on the file the repository ships, and prints the documented hyperparameters', async () => {
    const block = recipe('docs/operations.md', 'score-caers');
    const dir = freshClone();
    if (!existsSync(path.join(dir, 'dist', 'cli.js'))) buildInClone(dir);
    try {
      const run = await bash(block, { cwd: dir, timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, number | boolean>;
      const documented = /^# (\{.*\})$/m.exec(block)![1];
      for (const [key, value] of documented.slice(1, -1).split(',').map((kv) => kv.split(':'))) {
        const name = JSON.parse(key) as string;
        if (value.endsWith('...')) expect(String(printed[name]).startsWith(value.slice(0, -3)), `${name} ${printed[name]}`).toBe(true);
        else expect(printed[name]).toEqual(JSON.parse(value));
      }
      expect(readFileSync(path.join(dir, 'vaers-1999-scores.csv'), 'utf8').split('\n').length).toBeGreaterThan(8_000);
    } finally {
      rmSync(path.join(dir, 'vaers-1999-scores.csv'), { force: true });
    }
  }, 450_000);
});

describe('the import example of docs/operations.md', () => {
  let child: ChildProcess | null = null;
  let dir: string | null = null;
  afterAll(() => {
    if (child?.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* ended */ }
    if (dir) rmSync(path.join(dir, 'sample.duckdb'), { force: true });
  });

  /**
   * The three lines as written, in a fresh clone (so sample.duckdb is written there): import, serve
   * on $PORT (the default 8080 in the page), and the curl line once /readyz is 200, on the test's port. The pairs served are those of the sample
   * with a quarter flagged by two methods, each `n` the sum of those quarters' `observed` (spec 2.1).
   */
  it('imports data/samples/rotavirus-intussusception.csv, serves it, and /signals answers its flagged pairs', async () => {
    const lines = recipe('docs/operations.md', 'import-sample').split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(3);
    dir = freshClone();
    if (!existsSync(path.join(dir, 'dist', 'cli.js'))) buildInClone(dir);
    const imported = await bash(lines[0], { cwd: dir, timeoutMs: 120_000 });
    expect(imported.code, imported.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'sample.duckdb'))).toBe(true);

    const port = await freePort();
    child = spawn('bash', ['-c', lines[1]], { cwd: dir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore', detached: true });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 100_000;
    let ready = 0;
    while (Date.now() < deadline && ready !== 200) {
      ready = await fetch(`${url}/readyz`).then((r) => r.status, () => 0);
      if (ready !== 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready).toBe(200);
    const run = await bash(lines[2].replaceAll('http://127.0.0.1:8080', url));
    expect(run.code, run.stderr).toBe(0);
    const served = (JSON.parse(run.stdout) as Array<{ vaccine: string; event: string; n: number }>).map((p) => [p.vaccine, p.event, p.n]);

    const [header, ...rows] = readFileSync(path.join(REPO_ROOT, 'data/samples/rotavirus-intussusception.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    const col = (name: string): number => header.indexOf(name);
    const expected = new Map<string, number>();
    for (const r of rows) {
      if (Number(r[col('n_methods_flagged')]) >= 2) expected.set(r[col('drug_name')], (expected.get(r[col('drug_name')]) ?? 0) + Number(r[col('observed')]));
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(served.sort()).toEqual([...expected].map(([vaccine, n]) => [vaccine, 'Intussusception', n]).sort());
  }, 480_000);
});

afterAll(() => removeFreshClone());
