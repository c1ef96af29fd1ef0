/**
 * The pandas and R examples of docs/api.md (the export), run as written against a server on the
 * default store (the port of the page replaced by the test server's): each prints the pairs and
 * quarterly rows of the stratified analysis and the reports naming RotaShield and
 * Intussusception, which must be the listing's `pairs` and `rows` and /cases's `n_reports`.
 * Each runs where the machine has the interpreter (python3 with pandas; Rscript), else it is
 * skipped with a message saying what is missing. Skips without the default store.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultServer } from '../helpers/default-app.js';
import { hasDefaultStore } from '../helpers/default-store.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** The block of docs/api.md under `<!-- example: ID -->` (the line above its fence), as written. */
function example(id: string): string {
  const lines = readFileSync(path.join(REPO_ROOT, 'docs/api.md'), 'utf8').split('\n');
  const at = lines.indexOf(`<!-- example: ${id} -->`);
  if (at < 0 || !lines[at + 1].startsWith('```')) throw new Error(`docs/api.md: no block marked "example: ${id}"`);
  const end = lines.findIndex((l, i) => i > at + 1 && l === '```');
  return `${lines.slice(at + 2, end).join('\n')}\n`;
}

/** The first of `candidates` that runs `probe` with exit 0, or null. */
function interpreter(candidates: string[], probe: string[]): string | null {
  return candidates.find((c) => spawnSync(c, probe, { stdio: 'ignore' }).status === 0) ?? null;
}

const execFileAsync = promisify(execFile);
const python = interpreter(['python3', '/usr/bin/python3'], ['-c', 'import pandas']);
const rscript = interpreter(['Rscript'], ['-e', 'invisible(read.csv)']);
if (!python) console.warn('test/http/export-examples: no python3 with pandas on this machine; the pandas example of docs/api.md is not run (apt-get install python3-pandas)');
if (!rscript) console.warn('test/http/export-examples: no Rscript on this machine; the R example of docs/api.md is not run (apt-get install r-base-core)');
const hasStore = hasDefaultStore('the pandas and R examples of docs/api.md');

describe.skipIf(!hasStore || (!python && !rscript))('the export examples of docs/api.md', () => {
  let app: FastifyInstance;
  let base: string;
  let expected: string;
  let dir: string;
  beforeAll(async () => {
    ({ app, base } = await defaultServer());
    const deadline = Date.now() + 240_000;
    while ((await app.inject({ url: '/readyz' })).statusCode !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    const stratified = (await app.inject({ url: '/analyses' })).json().analyses.find((a: { name: string }) => a.name === 'stratified');
    const cases = (await app.inject({ url: '/cases?vaccine=ROTAVIRUS+(ROTASHIELD)&event=Intussusception&limit=1' })).json();
    expected = `${stratified.pairs} ${stratified.rows} ${cases.n_reports}`;
    dir = mkdtempSync(path.join(tmpdir(), 'rs-export-examples-'));
  }, 300_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the example with `command` (the script written to a file; asynchronously: the server answers in this process) and returns its last line. */
  async function run(command: string, id: string, file: string): Promise<string> {
    const script = path.join(dir, file);
    writeFileSync(script, example(id).replaceAll('http://127.0.0.1:8080', base));
    const { stdout } = await execFileAsync(command, [script], { encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 20 });
    return stdout.trim().split('\n').at(-1)!.trim();
  }

  it.skipIf(!python)('pandas: prints the stratified pairs, its quarterly rows and the reports of RotaShield x Intussusception', async () => {
    expect(await run(python!, 'pandas', 'example.py')).toBe(expected);
  }, 300_000);

  it.skipIf(!rscript)('R: prints the same three numbers', async () => {
    expect(await run(rscript!, 'r', 'example.R')).toBe(expected);
  }, 300_000);
});
