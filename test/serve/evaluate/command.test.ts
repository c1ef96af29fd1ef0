/**
 * `reporting-signals evaluate` as a user runs it, on the fixture store: the Markdown
 * table, the files of `--out` (the chart: one ROC mark per method and analysis, one time-to-signal
 * mark per flagged positive with `emerged`), and the CLI's errors.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUATION_FILES } from '../../../src/commands/evaluate.js';
import { METHODS } from '../../../src/serve/evaluate/methods.js';
import { METHOD_COLUMNS, PAIR_COLUMNS } from '../../../src/serve/evaluate/render.js';
import { FIXTURE_REFERENCE, writeEvaluationStore } from './fixture.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

/** Runs `reporting-signals evaluate ARGS` from the sources; exit code, standard output and error. */
export function evaluateCli(args: string[], cwd = repoRoot): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src', 'cli.ts'), 'evaluate', ...args], {
      cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let dir: string;
let store: string;
let reference: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-evaluate-cli-'));
  store = await writeEvaluationStore('served');
  reference = join(dir, 'reference.csv');
  await writeFile(reference, FIXTURE_REFERENCE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(dirname(store), { recursive: true, force: true });
});

describe('reporting-signals evaluate', () => {
  it('prints the Markdown table, reports the skipped rows and writes the five files', async () => {
    const out = join(dir, 'out');
    const { code, stdout, stderr } = await evaluateCli(['--store', store, '--reference', reference, '--analyses', 'all', '--through', '2000Q4', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain('4 positive and 3 negative reference pairs');
    expect(stdout).toContain('| all | n_methods>=2 | 2 | 1 | 1 | 1 | 0/0 | 1/1 | 0.667 [0.208, 0.939] | 0.500 [0.095, 0.905] | 0.667 [0.208, 0.939] | -2 (1) |');
    expect(stdout).toContain('| all | GPS | 2 | 0 | 0 | 2 | 1/0 | 1/1 | 1.000 [0.342, 1.000] | 1.000 [0.342, 1.000] | 1.000 [0.342, 1.000] | 0 (1) |');
    expect(stdout).toContain('- time-to-onset test (triage issue): not in the store yet, future work');
    expect(stderr).toContain(`evaluate: ${reference}:10: skipped: unknown class "probable" (expected positive or negative)`);
    expect(stderr).toContain(`evaluate: ${reference}:12: skipped: missing source`);

    const pairs = JSON.parse(await readFile(join(out, 'pairs.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(pairs).toHaveLength(7 * METHODS.length);
    expect(Object.keys(pairs[0])).toEqual([...PAIR_COLUMNS]);
    expect(pairs.find((p) => p.id === 'rota-intussusception' && p.method === 'ror')).toMatchObject({ flagged: true, first_flagged: '1999Q1', time_to_signal: -2, not_reported: false });
    const methods = JSON.parse(await readFile(join(out, 'methods.json'), 'utf8')) as { summaries: Array<Record<string, unknown>> };
    expect(methods.summaries.map((m) => m.method)).toEqual(METHODS.map((m) => m.key));
    const methodsCsv = await readFile(join(out, 'methods.csv'), 'utf8');
    expect(methodsCsv.split('\r\n')[0]).toBe(METHOD_COLUMNS.join(','));
    // The hand-worked floor row (Wilson bounds from Python, the same formula): 2/3 and 1/2.
    const floorRow = methodsCsv.split('\r\n')[5].split(',');
    expect(floorRow.slice(0, 10)).toEqual(['all', 'floor', '2', '1', '1', '1', '0', '0', '1', '1']);
    const expected = [2 / 3, 0.20765960080204765, 0.9385080552796037, 0.5, 0.09453120573423074, 0.9054687942657693, 2 / 3, 0.20765960080204765, 0.9385080552796037, -2, 1];
    floorRow.slice(10).forEach((value, i) => expect(Number(value)).toBeCloseTo(expected[i], 12));
    const pairsCsv = (await readFile(join(out, 'pairs.csv'), 'utf8')).split('\r\n');
    expect(pairsCsv[0]).toBe(PAIR_COLUMNS.join(','));
    expect(pairsCsv).toContain('mmr-febrile,all,ic,MMR,Febrile convulsion,positive,false,,,false,not_flagged,,MEASLES + MUMPS + RUBELLA (MMR II); MEASLES + MUMPS + RUBELLA (NO BRAND NAME)');

    const svg = await readFile(join(out, EVALUATION_FILES[4]), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const marks = [...svg.matchAll(/<g class="mark" data-analysis="([^"]+)" data-method="(\w+)">/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(marks).toEqual(METHODS.map((m) => `all/${m.key}`));
    const tts = [...svg.matchAll(/<g class="tts" data-analysis="([^"]+)" data-method="(\w+)">/g)].map((m) => m[2]);
    expect(tts).toEqual(METHODS.map((m) => m.key));
    expect(svg).toContain('rota-intussusception, all ROR: first flagged 1999Q1, -2 quarters from 1999Q3');
  });

  it('errors: unreadable or invalid reference, unknown analysis, bad quarter, missing store, no --reference', async () => {
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, 'id,vaccine,event,class,emerged,source\nx,MMR,Autism,maybe,,IOM\n');
    const runs = await Promise.all([
      evaluateCli(['--store', store, '--reference', join(dir, 'absent.csv')]),
      evaluateCli(['--store', store, '--reference', bad]),
      evaluateCli(['--store', store, '--reference', reference, '--analyses', 'all,death']),
      evaluateCli(['--store', store, '--reference', reference, '--through', 'Q4']),
      evaluateCli(['--store', join(dir, 'absent.parquet'), '--reference', reference]),
      evaluateCli(['--store', store]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(runs.map((r) => r.stderr.trim())).toEqual([
      `reporting-signals: cannot read the reference set ${join(dir, 'absent.csv')}: ENOENT`,
      `reporting-signals: ${bad}: no valid reference pair (line 2: unknown class "maybe" (expected positive or negative))`,
      `reporting-signals: --analyses: "death" not in the store ${store} (it has all, serious)`,
      'reporting-signals: --through must be a quarter YYYYQn such as 2006Q4 (got "Q4")',
      `reporting-signals: store not found: ${join(dir, 'absent.parquet')}`,
      "error: required option '--reference <file>' not specified",
    ]);
    expect(runs.every((r) => r.stdout === '')).toBe(true);
  });
});
