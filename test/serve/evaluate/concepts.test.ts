/**
 * Concepts as the unit of the evaluation (issue 47), worked by hand: a concept of two terms and an
 * event-group item is flagged in a window when any of them is, so its synonyms count once; the
 * classes scored apart (refuted, administration, artefact) never enter TP/FP/FN/TN; the `@groups`
 * twin of an analysis is found by name.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePairs, summarise } from '../../../src/serve/evaluate/evaluate.js';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { groupsTwin } from '../../../src/serve/evaluate/run.js';
import type { FlagRow } from '../../../src/serve/store/evaluation.js';

const DTP = 'DTP (NO BRAND NAME)';
const MNQ = 'MENINGOCOCCAL CONJUGATE (MENACTRA)';

/** A window row; the flags follow src/stats/flags.ts (GPS eb05 >= 2; PRR >= 2 with chi-square >= 4, n >= 3; ROR lower bound > 1, n >= 3; IC025 > 0). */
function row(drug: string, event: string, quarter: string, flags: { gps?: boolean; prr?: boolean; ror?: boolean; ic?: boolean }): FlagRow {
  const count = [flags.gps, flags.prr, flags.ror, flags.ic].filter(Boolean).length;
  return {
    drug, event, quarter, n: 5, eb05: flags.gps ? 2.5 : 1, prr: flags.prr ? 3 : 1, prr_chisq: flags.prr ? 9 : 0.5,
    ror_lci: flags.ror ? 1.5 : 0.5, ic025: flags.ic ? 0.4 : -0.5, n_methods_flagged: count,
  };
}

const REFERENCE = parseReferenceSet([
  'id,vaccine,event,terms,group,class,emerged,source',
  'dtp-crying,DTP,Inconsolable crying,Crying|Screaming,Crying (group),positive,1990Q1,IOM 1991',
  'men-gbs,MNQ,Guillain-Barre syndrome,,,refuted,,ACIP 2010',
  'dtp-autism,DTP,Autism,,,negative,,x',
].join('\n'), 'concepts.csv');

const ROWS: FlagRow[] = [
  // Crying: GPS in 1990Q2 only; Screaming: PRR and ROR in 1990Q3 only; both reported in 1990Q2.
  row(DTP, 'Crying', '1990Q2', { gps: true }),
  row(DTP, 'Screaming', '1990Q2', {}),
  row(DTP, 'Screaming', '1990Q3', { prr: true, ror: true }),
  // GBS after Menactra: flagged by ROR and IC (refuted: scored apart).
  row(MNQ, 'Guillain-Barre syndrome', '1990Q4', { ror: true, ic: true }),
  // DTP x Autism: nothing flags (a true negative).
  row(DTP, 'Autism', '1990Q3', {}),
];

/** The group item's rows: IC alone in 1990Q4, a window where no term of the concept is reported. */
const GROUP: FlagRow[] = [row(DTP, 'Crying (group)', '1990Q4', { ic: true })];

function evaluate(withGroup: boolean) {
  return evaluatePairs({
    analysis: 'all', through: 1990 * 4 + 3, pairs: REFERENCE.pairs,
    products: new Map([['dtp-crying', [DTP]], ['men-gbs', [MNQ]], ['dtp-autism', [DTP]]]),
    rows: ROWS, missing: new Set(), recompute: () => [],
    groupRows: withGroup ? (item, group) => (item === DTP && group === 'Crying (group)' ? { rows: GROUP, recomputed: false } : null) : undefined,
  });
}

describe('a concept is flagged when any of its terms or its group item is', () => {
  it('merges the windows of its terms: first flag per method, windows counted once', () => {
    const result = Object.fromEntries(evaluate(false).filter((r) => r.id === 'dtp-crying').map((r) => [r.method, [r.status, r.first_flagged, r.time_to_signal, r.windows, r.windows_flagged]]));
    // Windows with a report: 1990Q2 (both terms) and 1990Q3 (Screaming): 2, not 3.
    expect(result).toEqual({
      gps: ['flagged', '1990Q2', 1, 2, 1], prr: ['flagged', '1990Q3', 2, 2, 1], ror: ['flagged', '1990Q3', 2, 2, 1],
      ic: ['not_flagged', null, null, 2, 0], floor: ['flagged', '1990Q3', 2, 2, 1],
    });
  });

  it('adds its group item: IC flags the concept in 1990Q4 through the group alone', () => {
    const ic = evaluate(true).find((r) => r.id === 'dtp-crying' && r.method === 'ic')!;
    expect([ic.status, ic.first_flagged, ic.time_to_signal, ic.windows, ic.windows_flagged]).toEqual(['flagged', '1990Q4', 3, 3, 1]);
    expect([ic.terms, ic.group]).toEqual([['Crying', 'Screaming'], 'Crying (group)']);
  });

  it('one positive, not two: TP counts the concept once; a flagged refuted signal is not a false positive', () => {
    const ror = summarise(evaluate(true)).find((m) => m.method === 'ror')!;
    expect([ror.tp, ror.fn, ror.fp, ror.tn]).toEqual([1, 0, 0, 1]);
    expect([ror.refuted_flagged.x, ror.refuted_flagged.n]).toEqual([1, 1]);
    expect([ror.administration_flagged.n, ror.artefacts_flagged.n]).toEqual([0, 0]);
    // Per window: the positive's 3 windows, 1 flagged by ROR; the negative's 1 window, not flagged.
    expect([ror.window_sensitivity.x, ror.window_sensitivity.n, ror.window_specificity.x, ror.window_specificity.n]).toEqual([1, 3, 1, 1]);
  });
});

describe('groupsTwin', () => {
  const analyses = [
    { name: 'all', items: 'vaccine' }, { name: 'stratified', items: 'vaccine' }, { name: 'types', items: 'vax_type_code' },
    { name: 'groups', items: 'event_group' }, { name: 'serious@groups', items: 'event_group' },
  ];
  it('finds X@groups for X, and groups (= stratified@groups) for stratified', () => {
    expect(['all', 'stratified', 'serious', 'types'].map((a) => groupsTwin(a, analyses))).toEqual([undefined, 'groups', 'serious@groups', undefined]);
  });
});
