/**
 * The ranking comparison (src/serve/evaluate/ranking.ts) on two hand-made windows, every rank and share
 * worked by hand from src/serve/triage/rank.ts's score (log2 EB05 + 0.25 per method, +1 when new,
 * the bonus weighted by min(1, max(0, EB05 - 1)), so in full from EB05 2; artefact cautions last):
 * - 2000Q1: RotaShield x Intussusception (EB05 2, PRR 6, IC025 0.8, 3 methods, first flagged
 *   2000Q1: new; score 1 + 0.75 + 1 = 2.75), MMR II x Autism (EB05 2.5, PRR 4, IC025 0.3,
 *   legal share 0.8: cautioned) and 24 fillers (EB05 2.2, PRR 2.1, IC025 0.85, 4 methods, not new:
 *   score 1.137 + 1 = 2.137). Rota is 1st in the queue, 26th by EB05 (after Autism and the fillers),
 *   1st by PRR, 25th by IC025.
 * - 2000Q2: Rota (still new: 2.75), Autism, FLUZONE x Hypertension (EB05 4, 4 methods: 3) and
 *   LYMErix x Arthritis (EB05 5, a median of 780 days from onset to receipt: late reports,
 *   cautioned). Queue: Hypertension, Rota, then the cautioned Arthritis (3.32) and Autism (2.32);
 *   EB05: Arthritis, Hypertension, Autism, Rota; PRR: Rota, Autism, Arthritis (3), Hypertension
 *   (2.5); IC025: Arthritis (1), Rota, Hypertension, Autism.
 */
import { describe, expect, it } from 'vitest';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { compareRankings, plainOrder, type RankingWindow } from '../../../src/serve/evaluate/ranking.js';
import type { TriageRow } from '../../../src/serve/store/triage-rows.js';
import { PLAIN_EVIDENCE } from '../triage/fixture.js';

const ROTA = 'ROTAVIRUS (ROTASHIELD)';
const MMR = 'MEASLES + MUMPS + RUBELLA (MMR II)';
const FLU = 'INFLUENZA (SEASONAL) (FLUZONE)';
const LYME = 'LYME (LYMERIX)';

function row(vaccine: string, event: string, eb05: number, prr: number, ic025: number, nmf: number, first: string, evidence: Partial<TriageRow> = {}): TriageRow {
  return { vaccine, event, n: 10, eb05, prr, ic025, n_methods_flagged: nmf, first_flagged: first, ...PLAIN_EVIDENCE, ...evidence };
}

const rota = row(ROTA, 'Intussusception', 2, 6, 0.8, 3, '2000Q1');
const autism = row(MMR, 'Autism', 2.5, 4, 0.3, 4, '1999Q1', { legal_share: 0.8 });
const fillers = Array.from({ length: 24 }, (_, k) => row('FILLER', `E${String(k + 1).padStart(2, '0')}`, 2.2, 2.1, 0.85, 4, '1998Q1'));
const WINDOWS: RankingWindow[] = [
  { quarter: '2000Q1', rows: [...fillers, autism, rota], at_bound: '' },
  { quarter: '2000Q2', rows: [rota, autism, row(FLU, 'Hypertension', 4, 2.5, 0.5, 4, '1998Q1'), row(LYME, 'Arthritis', 5, 3, 1, 4, '1998Q1', { lag_median_days: 800, onset_lag_n: 10, onset_lag_median_days: 780, onset_lag_q1_days: 700, onset_lag_q3_days: 900 })], at_bound: '' },
];

const reference = parseReferenceSet([
  'id,vaccine,event,class,emerged,source',
  'rota,ROTAVIRUS (ROTASHIELD),Intussusception,positive,2000Q1,MMWR',
  'flu-hypertension,FLU3,Hypertension,negative,,Eumaeus',
  'mmr-autism,MMR,Autism,artefact,,Goodman and Nordin',
].join('\n'), 'ranking.csv');
const items = new Map<string, string[]>([['rota', [ROTA]], ['flu-hypertension', [FLU]], ['mmr-autism', [MMR]]]);

describe('compareRankings: the triage queue against plain orderings', () => {
  const result = compareRankings({ analysis: 'all', pairs: reference.pairs, items, windows: WINDOWS, vaxTypeOf: (v) => v });

  it('ranks a dated positive in every window under every ordering, with its first window in the top 10, 20 and 50', () => {
    expect(result.positives.map((p) => [p.ordering, p.ranks.map((r) => r.rank), p.first_top10, p.first_top20, p.first_top50, p.quarters_to_top20])).toEqual([
      ['triage', [1, 2], '2000Q1', '2000Q1', '2000Q1', 0],
      ['eb05', [26, 4], '2000Q2', '2000Q2', '2000Q1', 1],
      ['prr', [1, 1], '2000Q1', '2000Q1', '2000Q1', 0],
      ['ic025', [25, 2], '2000Q2', '2000Q2', '2000Q1', 1],
    ]);
  });

  it('counts the top 20 of every window: positives, negatives, artefacts, artefact cautions', () => {
    expect(result.windows.map((w) => [w.quarter, w.ordering, w.candidates, w.top, w.positives, w.negatives, w.artefacts, w.cautioned])).toEqual([
      // 2000Q1: the queue's top 20 is Rota and 19 fillers; EB05's Autism and 19 fillers; PRR's Rota, Autism and 18; IC025's 20 fillers.
      ['2000Q1', 'triage', 26, 20, 1, 0, 0, 0], ['2000Q1', 'eb05', 26, 20, 0, 0, 1, 1],
      ['2000Q1', 'prr', 26, 20, 1, 0, 1, 1], ['2000Q1', 'ic025', 26, 20, 0, 0, 0, 0],
      // 2000Q2: four candidates, all in the top: Autism an artefact, Hypertension a negative, Arthritis and Autism cautioned.
      ['2000Q2', 'triage', 4, 4, 1, 1, 1, 2], ['2000Q2', 'eb05', 4, 4, 1, 1, 1, 2],
      ['2000Q2', 'prr', 4, 4, 1, 1, 1, 2], ['2000Q2', 'ic025', 4, 4, 1, 1, 1, 2],
    ]);
  });

  it('summarises each ordering: dated positives in the top 20, median quarters to it, pooled shares of the 24 slots', () => {
    expect(result.summary.map((s) => [s.ordering, s.entered_top20, s.dated_positives, s.median_quarters_to_top20, s.slots, s.negative_share, s.artefact_share, s.cautioned_share])).toEqual([
      ['triage', 1, 1, 0, 24, 1 / 24, 1 / 24, 2 / 24],
      ['eb05', 1, 1, 1, 24, 1 / 24, 2 / 24, 3 / 24],
      ['prr', 1, 1, 0, 24, 1 / 24, 2 / 24, 3 / 24],
      ['ic025', 1, 1, 1, 24, 1 / 24, 1 / 24, 2 / 24],
    ]);
  });

  it('a pair absent from a window has no rank there; no window, no first entry', () => {
    const none = compareRankings({ analysis: 'all', pairs: reference.pairs, items, windows: [{ quarter: '2000Q3', rows: fillers, at_bound: null }], vaxTypeOf: (v) => v });
    expect(none.positives.map((p) => [p.ranks, p.first_top50])).toEqual(Array(4).fill([[{ quarter: '2000Q3', rank: null }], null]));
    expect(none.summary[0]).toMatchObject({ entered_top20: 0, median_quarters_to_top20: null, slots: 20, artefact_share: 0 });
  });

  it('plainOrder: descending, a missing statistic last, ties by vaccine then event', () => {
    const pairs = [{ vaccine: 'B', event: 'x', v: 1 }, { vaccine: 'A', event: 'y', v: null }, { vaccine: 'A', event: 'x', v: 1 }, { vaccine: 'C', event: 'x', v: 3 }];
    expect(plainOrder(pairs, (p) => p.v).map((p) => `${p.vaccine}${p.event}`)).toEqual(['Cx', 'Ax', 'Bx', 'Ay']);
  });
});
