/**
 * The evaluation's counting on the fixture store (test/serve/evaluate/fixture.ts), every expectation
 * worked by hand from its rows: a positive flagged two quarters before it emerged, pairs the store
 * did not keep recomputed from the report tables, per-window counts, an artefact scored apart,
 * never-reported pairs, bad reference rows, both store forms.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodSummary, PairResult } from '../../../src/serve/evaluate/evaluate.js';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { runEvaluation, type Evaluation } from '../../../src/serve/evaluate/run.js';
import { Z95 } from '../../../src/stats/prr.js';
import { UserError } from '../../../src/domain/user-error.js';
import { ENGERIX, FIXTURE_REFERENCE, FLUZONE, MMR_II, MMR_NO_BRAND, ROTASHIELD, writeEvaluationStore } from './fixture.js';

const reference = parseReferenceSet(FIXTURE_REFERENCE, 'fixture.csv');
let duckdb: string;
let parquet: string;
let noReports: string;

beforeAll(async () => {
  [duckdb, parquet, noReports] = await Promise.all([
    writeEvaluationStore('full'), writeEvaluationStore('served'), writeEvaluationStore('full', { reports: false }),
  ]);
});
afterAll(async () => {
  for (const path of [duckdb, parquet, noReports]) await rm(dirname(path), { recursive: true, force: true });
});

/** `id/method` -> [status, first_flagged, time_to_signal] of one analysis. */
function verdicts(evaluation: Evaluation, analysis: string): Record<string, [string, string | null, number | null]> {
  return Object.fromEntries(evaluation.pairs.filter((p) => p.analysis === analysis)
    .map((p: PairResult) => [`${p.id}/${p.method}`, [p.status, p.first_flagged, p.time_to_signal]]));
}

/** `method` -> [TP, FP, FN, TN, undetermined +, undetermined -, not reported +, not reported -]. */
function counts(evaluation: Evaluation, analysis: string): Record<string, number[]> {
  return Object.fromEntries(evaluation.methods.filter((m) => m.analysis === analysis).map((m: MethodSummary) => [m.method,
    [m.tp, m.fp, m.fn, m.tn, m.undetermined_positive, m.undetermined_negative, m.not_reported_positive, m.not_reported_negative]]));
}

/** The hand-worked verdicts of analysis `all` through 2000Q4 (DuckDB form). */
const ALL_2000Q4: Record<string, [string, string | null, number | null]> = {
  // Emerged 1999Q3: ROR, IC and the floor flag 1999Q1 (2 quarters before), GPS and PRR at 1999Q3.
  'rota-intussusception/gps': ['flagged', '1999Q3', 0], 'rota-intussusception/prr': ['flagged', '1999Q3', 0],
  'rota-intussusception/ror': ['flagged', '1999Q1', -2], 'rota-intussusception/ic': ['flagged', '1999Q1', -2],
  'rota-intussusception/floor': ['flagged', '1999Q1', -2],
  // MMR II flags; MMR (NO BRAND NAME), recomputed with 1 report a window, never does (IC: never set by MMR II).
  'mmr-febrile/gps': ['flagged', '2000Q2', null], 'mmr-febrile/prr': ['flagged', '2000Q2', null],
  'mmr-febrile/ror': ['flagged', '1999Q4', null], 'mmr-febrile/ic': ['not_flagged', null, null],
  'mmr-febrile/floor': ['flagged', '2000Q2', null],
  // Reported but not stored: recomputed, 3 reports at most in a window, nothing flags.
  'hepb-anaphylaxis/gps': ['not_flagged', null, null], 'hepb-anaphylaxis/prr': ['not_flagged', null, null],
  'hepb-anaphylaxis/ror': ['not_flagged', null, null], 'hepb-anaphylaxis/ic': ['not_flagged', null, null],
  'hepb-anaphylaxis/floor': ['not_flagged', null, null],
  'yf-pyrexia/gps': ['not_reported', null, null], 'yf-pyrexia/prr': ['not_reported', null, null],
  'yf-pyrexia/ror': ['not_reported', null, null], 'yf-pyrexia/ic': ['not_reported', null, null], 'yf-pyrexia/floor': ['not_reported', null, null],
  'mmr-autism/gps': ['not_flagged', null, null], 'mmr-autism/prr': ['flagged', '2000Q1', null], 'mmr-autism/ror': ['flagged', '2000Q1', null],
  'mmr-autism/ic': ['not_flagged', null, null], 'mmr-autism/floor': ['flagged', '2000Q1', null],
  'flu-palsy/gps': ['not_flagged', null, null], 'flu-palsy/prr': ['not_flagged', null, null], 'flu-palsy/ror': ['not_flagged', null, null],
  'flu-palsy/ic': ['not_flagged', null, null], 'flu-palsy/floor': ['not_flagged', null, null],
  // Its one report is of 2001Q1, after 2000Q4.
  'hepb-ms/gps': ['not_reported', null, null], 'hepb-ms/prr': ['not_reported', null, null], 'hepb-ms/ror': ['not_reported', null, null],
  'hepb-ms/ic': ['not_reported', null, null], 'hepb-ms/floor': ['not_reported', null, null],
};

/** Positives rota, mmr-febrile, hepb-anaphylaxis, yf-pyrexia (not reported); negatives flu-palsy, hepb-ms (not reported); mmr-autism is an artefact. */
const ALL_COUNTS = {
  gps: [2, 0, 1, 1, 0, 0, 1, 1], prr: [2, 0, 1, 1, 0, 0, 1, 1], ror: [2, 0, 1, 1, 0, 0, 1, 1],
  ic: [1, 0, 2, 1, 0, 0, 1, 1], floor: [2, 0, 1, 1, 0, 0, 1, 1],
};

describe('evaluate on the fixture store (DuckDB form: every column)', () => {
  let evaluation: Evaluation;
  beforeAll(async () => {
    evaluation = await runEvaluation({ store: duckdb, reference, through: '2000Q4' });
  });

  it('evaluates every analysis of the store, every pair and method', () => {
    expect(evaluation.analyses).toEqual(['all', 'serious']);
    expect([evaluation.positives, evaluation.negatives, evaluation.artefacts, evaluation.dated, evaluation.through]).toEqual([4, 2, 1, 1, '2000Q4']);
    expect(evaluation.pairs).toHaveLength(2 * 7 * 5);
  });

  it('per pair: flagged, first flagged window, time to signal (negative when flagged before emerged)', () => {
    expect(verdicts(evaluation, 'all')).toEqual(ALL_2000Q4);
  });

  it('expands a vaccine as /signals does (name, type, code, case-insensitive) and keeps the products', () => {
    const products = Object.fromEntries(evaluation.pairs.filter((p) => p.method === 'gps' && p.analysis === 'all').map((p) => [p.id, p.products]));
    expect(products).toEqual({
      'rota-intussusception': [ROTASHIELD], 'mmr-febrile': [MMR_II, MMR_NO_BRAND], 'hepb-anaphylaxis': [ENGERIX], 'yf-pyrexia': [],
      'mmr-autism': [MMR_II, MMR_NO_BRAND], 'flu-palsy': [FLUZONE], 'hepb-ms': [ENGERIX],
    });
    expect(evaluation.notes).toContain('yf-pyrexia: vaccine "YELLOW FEVER" names no vaccine of the store (not reported)');
  });

  it('per window: the windows with a report, those each method flags, which pairs were recomputed', () => {
    const of = (id: string, method: string): PairResult => evaluation.pairs.find((p) => p.analysis === 'all' && p.id === id && p.method === method)!;
    // RotaShield: stored rows 1998Q4, 1999Q1, 1999Q3; GPS flags 1999Q3, ROR 1999Q1 and 1999Q3.
    expect([of('rota-intussusception', 'gps'), of('rota-intussusception', 'ror')].map((p) => [p.windows, p.windows_flagged, p.recomputed])).toEqual([[3, 1, false], [3, 2, false]]);
    // MMR: MMR II's 1999Q4 and 2000Q2 with MMR (NO BRAND NAME)'s recomputed 2000Q1-2000Q4: 5 windows, GPS flags 2000Q2.
    expect([of('mmr-febrile', 'gps').windows, of('mmr-febrile', 'gps').windows_flagged, of('mmr-febrile', 'gps').recomputed]).toEqual([5, 1, true]);
    // ENGERIX-B x anaphylaxis: windows 1998Q1-1998Q4 (report 6) and 2000Q1-2000Q4.
    expect([of('hepb-anaphylaxis', 'ic').windows, of('hepb-anaphylaxis', 'ic').windows_flagged]).toEqual([8, 0]);
    const gps = evaluation.methods.find((m) => m.analysis === 'all' && m.method === 'gps')!;
    // Positives' windows: 3 + 5 + 8, GPS flags 1 + 1; the negative's one window (FLUZONE 2000Q3) is not flagged.
    expect([gps.window_sensitivity.x, gps.window_sensitivity.n, gps.window_specificity.x, gps.window_specificity.n]).toEqual([2, 16, 1, 1]);
    const prr = evaluation.methods.find((m) => m.analysis === 'all' && m.method === 'prr')!;
    expect([gps.artefacts_flagged.x, gps.artefacts_flagged.n, prr.artefacts_flagged.x, prr.artefacts_flagged.n]).toEqual([0, 1, 1, 1]);
  });

  it('per method: TP, FP, FN, TN, not reported apart, Wilson intervals, median time to signal', () => {
    expect(counts(evaluation, 'all')).toEqual(ALL_COUNTS);
    const floor = evaluation.methods.find((m) => m.analysis === 'all' && m.method === 'floor')!;
    expect(floor.sensitivity).toEqual({ x: 2, n: 3, estimate: 2 / 3, lower: expect.closeTo(0.20765960080204765, 12), upper: expect.closeTo(0.9385080552796037, 12) });
    // Wilson for 1/1: lower 1 / (1 + z^2).
    expect(floor.specificity).toMatchObject({ x: 1, n: 1, estimate: 1, lower: expect.closeTo(1 / (1 + Z95 ** 2), 12), upper: 1 });
    expect(floor.ppv).toMatchObject({ x: 2, n: 2 });
    const tts = Object.fromEntries(evaluation.methods.filter((m) => m.analysis === 'all').map((m) => [m.method, [m.median_time_to_signal, m.n_time_to_signal]]));
    expect(tts).toEqual({ gps: [0, 1], prr: [0, 1], ror: [-2, 1], ic: [-2, 1], floor: [-2, 1] });
  });

  it('a subset analysis: its own rows and reports (MMR (NO BRAND NAME) recomputed from report 1; specificity undefined)', () => {
    const row = [1, 0, 1, 0, 0, 0, 2, 2];
    expect(counts(evaluation, 'serious')).toEqual({ gps: row, prr: row, ror: row, ic: row, floor: row });
    const gps = evaluation.methods.find((m) => m.analysis === 'serious' && m.method === 'gps')!;
    expect(gps.specificity).toEqual({ x: 0, n: 0, estimate: null, lower: null, upper: null });
  });
});

describe('evaluate: other forms, quarters and options', () => {
  it('a store without prr_chisq and ror_lci (NULL): PRR and ROR recovered from n_methods_flagged, an ambiguous window undetermined', async () => {
    const evaluation = await runEvaluation({ store: parquet, reference, through: '2000Q4', analyses: ['all'] });
    // 1999Q4 of MMR II: n_methods_flagged 1, GPS and IC unset, PRR 2.5 and n 5: PRR or ROR, undecided.
    expect(verdicts(evaluation, 'all')).toEqual({ ...ALL_2000Q4, 'mmr-febrile/ror': ['flagged', '2000Q2', null] });
    expect(counts(evaluation, 'all')).toEqual(ALL_COUNTS);
    expect(evaluation.notes).toContain('all: the store keeps no prr_chisq, ror_lci; the flags reading them are recovered from n_methods_flagged where it decides them, else undetermined.');
  });

  it('default through: the store\'s latest quarter (2001Q1: the multiple sclerosis report is then recomputed)', async () => {
    const evaluation = await runEvaluation({ store: duckdb, reference, analyses: ['all'] });
    expect(evaluation.through).toBe('2001Q1');
    const v = verdicts(evaluation, 'all');
    // One report in the window 2001Q1 (reports 2, 5 and 3): nothing flags.
    expect([v['hepb-ms/floor'], v['hepb-ms/gps'], v['hepb-ms/ic']]).toEqual([['not_flagged', null, null], ['not_flagged', null, null], ['not_flagged', null, null]]);
  });

  it('--through 2000Q2: a stored pair without a window through it is not reported', async () => {
    const v = verdicts(await runEvaluation({ store: duckdb, reference, through: '2000q2', analyses: ['all'] }), 'all');
    expect(v['flu-palsy/floor']).toEqual(['not_reported', null, null]);
    expect(v['mmr-autism/prr']).toEqual(['flagged', '2000Q1', null]);
    expect(v['rota-intussusception/floor']).toEqual(['flagged', '1999Q1', -2]);
  });

  it('without report tables a pair without rows counts as not reported, and a note says so', async () => {
    const evaluation = await runEvaluation({ store: noReports, reference, through: '2000Q4', analyses: ['all'] });
    const v = verdicts(evaluation, 'all');
    expect([v['mmr-febrile/gps'], v['hepb-anaphylaxis/floor']]).toEqual([['flagged', '2000Q2', null], ['not_reported', null, null]]);
    expect(counts(evaluation, 'all').gps).toEqual([2, 0, 0, 1, 0, 0, 2, 1]);
    expect(evaluation.notes.some((n) => n.startsWith('The store has no report tables'))).toBe(true);
  });

  it('errors: an unknown analysis, a bad quarter, a missing store', async () => {
    await expect(runEvaluation({ store: duckdb, reference, analyses: ['all', 'elderly'] }))
      .rejects.toThrow(new UserError(`--analyses: "elderly" not in the store ${duckdb} (it has all, serious)`));
    await expect(runEvaluation({ store: duckdb, reference, through: '2000-13' })).rejects.toThrow('--through must be a quarter YYYYQn such as 2006Q4 (got "2000-13")');
    await expect(runEvaluation({ store: duckdb, reference, analyses: ['all'], rankings: ['serious'] }))
      .rejects.toThrow(new UserError('--rankings: "serious" not among the analyses evaluated (all)'));
    await expect(runEvaluation({ store: '/nonexistent/store.duckdb', reference })).rejects.toThrow('store not found: /nonexistent/store.duckdb');
  });
});
