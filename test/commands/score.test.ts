/** `reporting-signals score` (issue 2 section 3): reading, counting, output CSV and JSON, errors. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHyper, runScore } from '../../src/commands/score.js';
import { SCORE_COLUMNS } from '../../src/spec/columns.js';
import { UserError } from '../../src/errors.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const caers = path.resolve(repoRoot, '..', 'shared', 'data', 'oracle', 'caers.csv');
const dir = mkdtempSync(path.join(tmpdir(), 'score-test-'));

function fixture(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Run score, capturing stdout; returns the parsed JSON line and the output rows. */
async function score(reports: string, extra: { hyper?: string; idColumn?: string } = {}): Promise<{ json: Record<string, unknown>; rows: Record<string, string>[]; text: string }> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.csv`);
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    await runScore({ reports, idColumn: extra.idColumn ?? 'report', vaccineColumn: 'vaccine', eventColumn: 'event', out, hyper: extra.hyper });
  } finally {
    spy.mockRestore();
  }
  const text = readFileSync(out, 'utf8');
  return { json: JSON.parse(stdout), rows: parse(text, { columns: true }), text };
}

afterEach(() => vi.restoreAllMocks());

// Five reports; r1 repeats a row (counts once). N = 5 reports.
const small = ['report,vaccine,event,extra', 'r1,VAX A,FEVER,x', 'r1,VAX A,FEVER,x', 'r1,VAX A,RASH,x', 'r2,VAX A,FEVER,x',
  'r3,VAX B,FEVER,x', 'r4,VAX B,"HEADACHE, SEVERE",x', 'r5,VAX A,RASH,x'].join('\n');

describe('score command (issue 2 section 3)', () => {
  it('writes one row per pair with the documented columns; duplicate rows count once; JSON on stdout', async () => {
    const { json, rows, text } = await score(fixture('small.csv', small), { hyper: '0.5,0.2,3,2.5,0.2' });
    expect(text.split('\n')[0]).toBe(SCORE_COLUMNS.join(','));
    expect(rows.map((r) => `${r.vaccine}|${r.event}`)).toEqual(['VAX A|FEVER', 'VAX A|RASH', 'VAX B|FEVER', 'VAX B|HEADACHE, SEVERE']);
    // VAX A: reports r1, r2, r5 (3); FEVER: r1, r2, r3 (3); pair n = 2 (r1 once, r2); E = 3 * 3 / 5 = 1.8
    expect(rows[0]).toMatchObject({ n: '2', n_vaccine: '3', n_event: '3', n_reports: '5', expected: '1.8' });
    // 2x2 of VAX A / FEVER: a = 2, b = 1, c = 1, d = 1: ROR = 2 * 1 / (1 * 1) = 2, PRR = (2/3)/(1/2) = 4/3
    expect(Number(rows[0].ror)).toBe(2);
    expect(Number(rows[0].prr)).toBeCloseTo(4 / 3, 15);
    // VAX B / HEADACHE, SEVERE: c = 0 so PRR and ROR are undefined -> empty cells
    expect(rows[3]).toMatchObject({ prr: '', prr_lci: '', ror: '', ror_uci: '' });
    expect(['true', 'false']).toContain(rows[0].is_signal_any);
    expect(json).toEqual({ alpha1: 0.5, beta1: 0.2, alpha2: 3, beta2: 2.5, p: 0.2, neg_log_lik: expect.any(Number), fitted: false });
    expect(Object.keys(json)).toEqual(['alpha1', 'beta1', 'alpha2', 'beta2', 'p', 'neg_log_lik', 'fitted']);
  });

  it('full double precision in the CSV (String of the number)', async () => {
    const { rows } = await score(fixture('precision.csv', small), { hyper: '0.5,0.2,3,2.5,0.2' });
    expect(rows[0].prr).toBe(String(2 / 3 / (1 / 2)));
  });

  it('without --hyper the hyperparameters are fitted (fitted true)', async () => {
    const { json } = await score(fixture('fit.csv', small));
    expect(json.fitted).toBe(true);
    expect(Number.isFinite(json.neg_log_lik)).toBe(true);
  });

  it('clear errors: missing file, missing column (names it and lists the header), empty table, bad --hyper', async () => {
    await expect(score(path.join(dir, 'nope.csv'))).rejects.toThrow(UserError);
    await expect(score(path.join(dir, 'nope.csv'))).rejects.toThrow(/nope\.csv: cannot read/);
    await expect(score(fixture('cols.csv', small), { idColumn: 'id' })).rejects.toThrow(/no column "id" in the header \(columns: report, vaccine, event, extra\)/);
    await expect(score(fixture('empty.csv', 'report,vaccine,event\n'))).rejects.toThrow(/empty\.csv: empty table/);
    await expect(score(fixture('blank.csv', ''))).rejects.toThrow(/blank\.csv: empty table/);
    await expect(score(fixture('ragged.csv', 'report,vaccine,event\nr1,A\n'))).rejects.toThrow(/ragged\.csv: line 2/);
    expect(() => parseHyper('1,2,3')).toThrow(/five numbers/);
    expect(() => parseHyper('1,2,3,4,1.5')).toThrow(/p = 1.5/);
  });

  it.skipIf(!existsSync(caers))('caers: 17,189 rows; REUMOFAN PLUS / WEIGHT INCREASED with the published hyperparameters (REFERENCE.md)', async () => {
    const out = path.join(dir, 'caers-out.csv');
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    await runScore({ reports: caers, idColumn: 'id', vaccineColumn: 'var1', eventColumn: 'var2', out, hyper: '3.25596685,0.39998994,2.02376139,1.90614108,0.06530755' });
    vi.restoreAllMocks();
    const rows: Record<string, string>[] = parse(readFileSync(out, 'utf8'), { columns: true });
    expect(rows.length).toBe(17189);
    const reumofan = rows.find((r) => r.vaccine === 'REUMOFAN PLUS' && r.event === 'WEIGHT INCREASED')!;
    expect(reumofan.n).toBe('16');
    expect(Math.abs(Number(reumofan.ebgm) - 23.26)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(JSON.parse(stdout).neg_log_lik - 4162.456)).toBeLessThan(5e-4);
  });
});
