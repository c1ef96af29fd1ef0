/**
 * `reporting-signals evaluate` as a user runs it, on the fixture store: the Markdown
 * tables, the files of `--out` (the chart: one ROC mark per method and analysis, one time-to-signal
 * mark per flagged positive with `emerged`; the ranking files and chart), and the CLI's errors.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUATION_FILES } from '../../../src/commands/evaluate.js';
import { METHODS } from '../../../src/serve/evaluate/methods.js';
import { METHOD_COLUMNS, PAIR_COLUMNS } from '../../../src/serve/evaluate/render.js';
import { RANKING_COLUMNS, TOP_COLUMNS } from '../../../src/serve/evaluate/render-ranking.js';
import { FIXTURE_REFERENCE, writeEvaluationStore } from './fixture.js';
import { cli } from '../../commands/cli.js';

/** `reporting-signals evaluate ARGS` (test/commands/cli.ts): exit code, standard output and error. */
const evaluateCli = (args: string[]): ReturnType<typeof cli> => cli(['evaluate', ...args]);

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
  it('prints the Markdown tables, reports the skipped rows and writes the ten files', async () => {
    const out = join(dir, 'out');
    const { code, stdout, stderr } = await evaluateCli(['--store', store, '--reference', reference, '--analyses', 'all', '--through', '2000Q4', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain('reference concepts: 4 positive (1 dated), 2 negative, 0 refuted, 0 administration and 1 artefact (7 vaccine x term pairs)');
    // Floor per window: of the positives' 3 + 5 + 8 windows, RotaShield's 1999Q1 and 1999Q3 and MMR II's 2000Q2 (3/16).
    expect(stdout).toContain('| all | n_methods>=2 | 2 | 0 | 1 | 1 | 1/1 | 0.667 [0.208, 0.939] | 1.000 [0.207, 1.000] | 1.000 [0.342, 1.000] | 0.188 [0.066, 0.430] | 1.000 [0.207, 1.000] | 1.000 [0.207, 1.000] | - | - | -2 (1) |');
    // PRR: MMR II's 1999Q4 window is undetermined in this form (no chi-square), so 2 of 15 decided windows.
    expect(stdout).toContain('| all | PRR | 2 | 0 | 1 | 1 | 1/1 | 0.667 [0.208, 0.939] | 1.000 [0.207, 1.000] | 1.000 [0.342, 1.000] | 0.133 [0.037, 0.379] | 1.000 [0.207, 1.000] | 1.000 [0.207, 1.000] | - | - | 0 (1) |');
    expect(stdout).toContain('| all | rota-intussusception | 1999Q3 | 1999Q1 / 1999Q1 / 1999Q1 (-2) | 1999Q1 / 1999Q1 / 1999Q1 (-2) | 1999Q1 / 1999Q1 / 1999Q1 (-2) | 1999Q1 / 1999Q1 / 1999Q1 (-2) |');
    expect(stdout).not.toMatch(/future work|not in the store yet/);
    expect(stderr).toContain(`evaluate: ${reference}:10: skipped: unknown class "probable" (expected positive, negative, refuted, administration, artefact)`);
    expect(stderr).toContain(`evaluate: ${reference}:12: skipped: missing source`);

    const pairs = JSON.parse(await readFile(join(out, 'pairs.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(pairs).toHaveLength(7 * METHODS.length);
    expect(Object.keys(pairs[0])).toEqual([...PAIR_COLUMNS]);
    expect(pairs.find((p) => p.id === 'rota-intussusception' && p.method === 'ror')).toMatchObject({ flagged: true, first_flagged: '1999Q1', time_to_signal: -2, not_reported: false });
    const methods = JSON.parse(await readFile(join(out, 'methods.json'), 'utf8')) as { summaries: Array<Record<string, unknown>> };
    expect(methods.summaries.map((m) => m.method)).toEqual(METHODS.map((m) => m.key));
    const methodsCsv = await readFile(join(out, 'methods.csv'), 'utf8');
    expect(methodsCsv.split('\r\n')[0]).toBe(METHOD_COLUMNS.join(','));
    // The hand-worked floor row (Wilson bounds from Python, the same formula): 2/3, 1/1 (lower 1 / (1 + z^2)), 2/2, 3/16, 1/1, 1/1, none, none.
    const floorRow = methodsCsv.split('\r\n')[5].split(',');
    expect(floorRow.slice(0, 10)).toEqual(['all', 'floor', '2', '0', '1', '1', '0', '0', '1', '1']);
    const one = 0.20654931437723745;
    const expected = [2 / 3, 0.20765960080204765, 0.9385080552796037, 1, one, 1, 1, 0.3423802275066532, 1, 3 / 16, 0.06591599071428139, 0.43008880961974144, 1, one, 1, 1, one, 1, 0, 0, 0, 0, 0, 0, -2, 1];
    // (refuted and administration flagged: no such concept, empty cells)
    floorRow.slice(10).forEach((value, i) => expect(Number(value)).toBeCloseTo(expected[i], 12));
    const pairsCsv = (await readFile(join(out, 'pairs.csv'), 'utf8')).split('\r\n');
    expect(pairsCsv[0]).toBe(PAIR_COLUMNS.join(','));
    // MMR (NO BRAND NAME) recomputed: 5 windows in all, none flagged by IC.
    expect(pairsCsv).toContain('mmr-febrile,all,ic,MMR,Febrile convulsion,Febrile convulsion,,positive,false,,,false,not_flagged,,5,0,0,true,MEASLES + MUMPS + RUBELLA (MMR II); MEASLES + MUMPS + RUBELLA (NO BRAND NAME)');
    expect((await readFile(join(out, 'ranking.csv'), 'utf8')).split('\r\n')[0]).toBe(RANKING_COLUMNS.join(','));
    expect((await readFile(join(out, 'top20.csv'), 'utf8')).split('\r\n')[0]).toBe(TOP_COLUMNS.join(','));
    expect((await readFile(join(out, 'ranks.csv'), 'utf8')).split('\r\n')).toContain('all,rota-intussusception,triage,1999Q1,1');
    expect((await readFile(join(out, 'ranking.svg'), 'utf8')).match(/<g class="first-top" data-ordering="(\w+)">/g)).toHaveLength(4);

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
      evaluateCli(['--store', store, '--reference', reference, '--analyses', 'all', '--rankings', 'serious']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(runs.map((r) => r.stderr.trim())).toEqual([
      `reporting-signals: cannot read the reference set ${join(dir, 'absent.csv')}: ENOENT`,
      `reporting-signals: ${bad}: no valid reference pair (line 2: unknown class "maybe" (expected positive, negative, refuted, administration, artefact))`,
      `reporting-signals: --analyses: "death" not in the store ${store} (it has all, serious)`,
      'reporting-signals: --through must be a quarter YYYYQn such as 2006Q4 (got "Q4")',
      `reporting-signals: store not found: ${join(dir, 'absent.parquet')}`,
      "error: required option '--reference <file>' not specified",
      'reporting-signals: --rankings: "serious" not among the analyses evaluated (all)',
    ]);
    expect(runs.every((r) => r.stdout === '')).toBe(true);
  });
});
