/** `reporting-signals score`: reading, counting, output CSV and JSON, errors. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHyper, runScore } from '../../src/commands/score.js';
import { SCORE_COLUMNS } from '../../src/domain/columns.js';
import { UserError } from '../../src/domain/user-error.js';
import { SHARED_DATA, sharedDataPresent } from '../helpers/paths.js';

const caers = path.resolve(SHARED_DATA, 'oracle', 'caers.csv');
const dir = mkdtempSync(path.join(tmpdir(), 'score-test-'));

function fixture(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Run score, capturing stdout; returns the parsed JSON line and the output rows. */
async function score(reports: string, extra: { hyper?: string; idColumn?: string; stratumColumn?: string[] } = {}): Promise<{ json: Record<string, unknown>; rows: Record<string, string>[]; text: string }> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.csv`);
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    await runScore({ reports, idColumn: extra.idColumn ?? 'report', vaccineColumn: 'vaccine', eventColumn: 'event', out, hyper: extra.hyper, stratumColumn: extra.stratumColumn });
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

describe('score command', () => {
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

  it.skipIf(!sharedDataPresent(caers, 'score on caers'))('caers: 17,189 rows; REUMOFAN PLUS / WEIGHT INCREASED with the published hyperparameters (docs/reference-data.md)', async () => {
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

  it('--stratum-column: E = sum over strata of n_vaccine,s * n_event,s / N_s, worked by hand; MGPS and IC use it, PRR and ROR stay crude', async () => {
    // Stratum F: r1 {A; FEVER}, r2 {A; RASH}, r3 {B; FEVER} (N 3). Stratum M: r4 {A; FEVER}, r5 {B; RASH} (N 2).
    const table = ['report,vaccine,event,sex,age', 'r1,A,FEVER,F,1', 'r2,A,RASH,F,1', 'r3,B,FEVER,F,1', 'r4,A,FEVER,M,1', 'r5,B,RASH,M,1'].join('\n');
    const file = fixture('strata.csv', table);
    const hyper = '0.5,0.2,3,2.5,0.2';
    const crude = await score(file, { hyper });
    const { rows } = await score(file, { hyper, stratumColumn: ['sex'] });
    expect(rows.map((r) => `${r.vaccine}|${r.event}`)).toEqual(['A|FEVER', 'A|RASH', 'B|FEVER', 'B|RASH']);
    // A x FEVER: F 2*2/3 + M 1*1/2 = 11/6 (crude 3*3/5 = 1.8); A x RASH: F 2*1/3 + M 1*1/2 = 7/6;
    // B x FEVER: F 1*2/3 + M 1*1/2 = 7/6; B x RASH: F 1*1/3 + M 1*1/2 = 5/6.
    expect(rows.map((r) => Number(r.expected))).toEqual([4 / 3 + 1 / 2, 2 / 3 + 1 / 2, 2 / 3 + 1 / 2, 1 / 3 + 1 / 2]);
    expect(Number(crude.rows[0].expected)).toBe(1.8);
    // IC = log2((n + 0.5) / (E + 0.5)) with the stratified E: n 2, E 11/6 -> log2(15/14).
    expect(Number(rows[0].ic)).toBeCloseTo(Math.log2(2.5 / (11 / 6 + 0.5)), 14);
    // PRR and ROR keep the crude report table: a 2, b 1, c 1, d 1 -> ROR 2 in both runs.
    expect([rows[0].ror, rows[0].prr]).toEqual([crude.rows[0].ror, crude.rows[0].prr]);
    expect(Number(rows[0].ror)).toBe(2);
    // EB05 follows E: a larger E lowers the posterior for the same n.
    expect(Number(rows[0].eb05)).toBeLessThan(Number(crude.rows[0].eb05));
    // Two columns make a tuple: sex x age, here the same strata as sex alone.
    expect((await score(file, { hyper, stratumColumn: ['sex', 'age'] })).rows.map((r) => r.expected)).toEqual(rows.map((r) => r.expected));
    // One stratum holding every report gives the crude E.
    expect((await score(file, { hyper, stratumColumn: ['age'] })).rows.map((r) => Number(r.expected))).toEqual(crude.rows.map((r) => Number(r.expected)));
  });

  it('--stratum-column: a report whose rows disagree on the stratum, or an unknown column, is a clear error', async () => {
    const file = fixture('bad-strata.csv', ['report,vaccine,event,sex', 'r1,A,FEVER,F', 'r1,A,RASH,M'].join('\n'));
    await expect(score(file, { stratumColumn: ['sex'] })).rejects.toThrow(/bad-strata\.csv: line 3: report r1 has stratum "M" but "F" on line 2/);
    await expect(score(file, { stratumColumn: ['age'] })).rejects.toThrow(/no column "age" in the header/);
  });
});
