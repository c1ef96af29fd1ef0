/**
 * `evaluate` on the real default store (VAERS 1990-2006) with the committed reference set: every
 * command of docs/evaluation.md run verbatim, that page's table equal to what the
 * first one prints, and facts of the data (every pair reported in `all`, so every event is spelt
 * as VAERS spells it and every vaccine names products; RotaShield flagged before the MMWR report).
 * Skips with a message when the default store is absent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVALUATION_FILES } from '../../../src/commands/evaluate.js';
import { hasDefaultStore } from '../../helpers/default-store.js';
import { recipe } from '../../helpers/recipes.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const hasStore = hasDefaultStore('evaluate real-data tests');

/** The Evaluation page (docs/evaluation.md), whole. */
async function section(): Promise<string> {
  return readFile(join(repoRoot, 'docs', 'evaluation.md'), 'utf8');
}

/** Runs one shell command line in the repository root. */
function sh(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', line], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe.skipIf(!hasStore)('evaluate on the default store with data/reference/vaers-1990-2006.csv', () => {
  it('runs the commands of docs/evaluation.md verbatim; its table is the first one\'s output', async () => {
    const text = await section();
    const block = recipe('docs/evaluation.md', 'evaluate').split('\n').filter((l) => l.trim() !== '');
    expect(block).toHaveLength(2);
    const runs = [];
    for (const line of block) runs.push(await sh(line));
    expect(runs.map((r) => [r.code, r.stderr.split('\n').filter((l) => !l.startsWith('evaluate: wrote')).join('')])).toEqual([[0, ''], [0, '']]);
    const rows = (s: string): string[] => s.split('\n').filter((l) => l.startsWith('|'));
    expect(rows(text)).toEqual(rows(runs[0].stdout));
    expect(rows(runs[0].stdout)).toHaveLength(2 + 7 * 5);
    expect(runs[0].stdout).toContain('15 positive and 7 negative reference pairs');
    expect(runs[0].stdout).not.toContain('names no vaccine of the store');

    const out = '/tmp/reporting-signals-evaluation';
    for (const name of EVALUATION_FILES) expect(existsSync(join(out, name))).toBe(true);
    const pairs = JSON.parse(await readFile(join(out, 'pairs.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(pairs).toHaveLength(22 * 2 * 5);
    // Through 2006Q4 every reference pair has reports in `all` (not reported 0/0): its event is spelt
    // as VAERS spells it and its vaccine names products. Through 2000Q4 five are not reported yet:
    // the smallpox pairs (vaccine used from 2003), HPV4 (licensed 2006), meningococcal x anaphylaxis
    // and `Type 1 diabetes mellitus` (5 reports in all, after 2000).
    for (const row of rows(runs[0].stdout).filter((r) => r.startsWith('| all |'))) expect(row.split(' | ')[7]).toBe('0/0');
    const late = [...new Set(pairs.filter((p) => p.analysis === 'all' && p.not_reported).map((p) => p.id))];
    expect(late.sort()).toEqual(['hpv4-syncope', 'meningococcal-anaphylaxis', 'mmr-type1-diabetes', 'smallpox-myocarditis', 'smallpox-pericarditis']);
    // RotaShield x Intussusception: the 1999Q1 window (1998Q2-1999Q1) already reaches the floor, two quarters before MMWR (1999Q3).
    expect(pairs.find((p) => p.id === 'rotashield-intussusception' && p.analysis === 'all' && p.method === 'floor'))
      .toMatchObject({ flagged: true, first_flagged: '1999Q1', time_to_signal: -2, products: ['ROTAVIRUS (ROTASHIELD)'] });
    const svg = await readFile(join(out, 'evaluation.svg'), 'utf8');
    expect(svg.match(/<g class="mark" /g)?.length).toBeLessThanOrEqual(2 * 5);
  }, 120_000);
});
