/**
 * The uncensored recomputation (src/serve/evaluate/recompute.ts): hand-worked tallies of the fixture
 * store's six reports (test/serve/evaluate/fixture.ts), and, on a store built from the case-series
 * VAERS folder (test/serve/cases/fixture.ts), every row the store kept equal to the row recomputed from
 * its report tables, in a crude, a stratified and a VAX_TYPE analysis: a pair the store did not
 * keep is judged with the numbers the store would serve had it kept it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisRule, parseStrata } from '../../../src/domain/analysis-rules.js';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { recomputeRows, tallyAnalysis } from '../../../src/serve/evaluate/recompute.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { scoreWindow } from '../../../src/stats/window.js';
import { readFlagRows } from '../../../src/serve/store/evaluation.js';
import { readReportData } from '../../../src/serve/store/reports.js';
import { DTAP, HEPB, mixedCaseReports, ROTA, writeCaseFolder } from '../cases/fixture.js';
import { ENGERIX, FIXTURE_PRIOR, MMR_NO_BRAND, writeEvaluationStore } from './fixture.js';

const ANAPHYLAXIS = 'Anaphylactic reaction';

describe('recompute: hand-worked tallies of the fixture store', () => {
  let store: string;
  beforeAll(async () => {
    store = await writeEvaluationStore('full');
  });
  afterAll(async () => {
    await rm(dirname(store), { recursive: true, force: true });
  });

  it('ENGERIX-B x Anaphylactic reaction: reports 6 (1998Q1), 4 (2000Q1), 2 and 5 (2000Q2), every window with a report', async () => {
    const data = (await readReportData(store))!;
    const tallies = tallyAnalysis(data, analysisRule('all')!, null, [ENGERIX, MMR_NO_BRAND], [ANAPHYLAXIS, 'Febrile convulsion'], parseQuarter('2000Q4')!);
    const priors = new Map(Array.from({ length: 13 }, (_, i) => [1998 * 4 + i, FIXTURE_PRIOR] as const));
    const rows = recomputeRows(tallies, ENGERIX, ANAPHYLAXIS, priors);
    // Windows 1998Q1-1998Q4 hold report 6 alone; 1999 none; 2000Q1 reports 4 and 1 (MMR); from 2000Q2 also 2 and 5.
    expect(rows.map((r) => [r.quarter, r.n])).toEqual([
      ['1998Q1', 1], ['1998Q2', 1], ['1998Q3', 1], ['1998Q4', 1], ['2000Q1', 1], ['2000Q2', 3], ['2000Q3', 3], ['2000Q4', 3],
    ]);
    // 2000Q2: a = 3, b = 0 (no other ENGERIX-B report), c = 0 (no other anaphylaxis report), d = 1 (report 1); E = 3 x 3 / 4.
    const expected = scoreWindow({ n: [3], n_vaccine: [3], n_event: [3], n_reports: 4 }, { hyper: FIXTURE_PRIOR }).pairs[0];
    expect(expected.expected).toBe(2.25);
    const window = rows.find((r) => r.quarter === '2000Q2')!;
    expect(window).toEqual({
      drug: ENGERIX, event: ANAPHYLAXIS, quarter: '2000Q2', n: 3, eb05: expected.eb05, prr: null, prr_chisq: expect.closeTo(4 / 9, 12), ror_lci: null,
      ic025: expected.ic025, n_methods_flagged: 0,
    });
    // PRR null (c = 0), ROR null (b = 0); Yates: every |O - E| is 0.75, so the correction is 0.5: 0.25^2/2.25 + 2 x 0.25^2/0.75 + 0.25^2/0.25 = 4/9.
    expect(window.eb05!).toBeLessThan(2);
    expect(window.ic025!).toBeLessThan(0);
    // Without a recorded prior the build skipped the window: no EB05, the rest as before.
    const bare = recomputeRows(tallies, ENGERIX, ANAPHYLAXIS, new Map()).find((r) => r.quarter === '2000Q2')!;
    expect({ ...bare, eb05: window.eb05 }).toEqual(window);
    expect(bare.eb05).toBeNull();
    // Never reported together: no row; a name not tallied is an error.
    expect(recomputeRows(tallies, MMR_NO_BRAND, ANAPHYLAXIS, priors)).toEqual([]);
    expect(() => recomputeRows(tallies, 'NOT ASKED', ANAPHYLAXIS, priors)).toThrow('recomputeRows: NOT ASKED x Anaphylactic reaction was not tallied');
  });

  it('a subset analysis counts only its reports (serious: report 1, hospitalised), with stratified E', async () => {
    const data = (await readReportData(store))!;
    const tallies = tallyAnalysis(data, analysisRule('serious')!, parseStrata(), [MMR_NO_BRAND, ENGERIX], ['Febrile convulsion', ANAPHYLAXIS], parseQuarter('2000Q4')!);
    expect(tallies.stratified).toBe(true);
    expect(recomputeRows(tallies, MMR_NO_BRAND, 'Febrile convulsion', new Map()).map((r) => [r.quarter, r.n, r.eb05])).toEqual([
      ['2000Q1', 1, null], ['2000Q2', 1, null], ['2000Q3', 1, null], ['2000Q4', 1, null],
    ]);
    expect(recomputeRows(tallies, ENGERIX, ANAPHYLAXIS, new Map())).toEqual([]);
  });
});


describe('recompute: equal to what the build keeps', () => {
  let dir: string;
  let store: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-recompute-'));
    store = join(dir, 'built.duckdb');
    await buildStore({ vaers: await writeCaseFolder(join(dir, 'vaers'), {}, mixedCaseReports()), out: store, analyses: 'all,stratified,types', workers: 1 });
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['all', 'stratified', 'types'])('%s: every kept row recomputed from the report tables, to the last bit', async (analysis) => {
    const data = (await readReportData(store))!;
    const all = await readFlagRows(store, analysis, [...data.vaccines.name.values, ...data.vaccines.type.values], [...data.events.term.values]);
    expect(all.rows.length).toBeGreaterThan(0);
    const priors = new Map([...all.priors].map(([q, theta]) => [parseQuarter(q)!, theta]));
    const drugs = [...new Set(all.rows.map((r) => r.drug))];
    const events = [...new Set(all.rows.map((r) => r.event))];
    const tallies = tallyAnalysis(data, analysisRule(analysis)!, analysis === 'all' ? null : parseStrata(), drugs, events, parseQuarter('2001Q4')!);
    let compared = 0;
    for (const drug of drugs) {
      for (const event of events) {
        const stored = all.rows.filter((r) => r.drug === drug && r.event === event);
        if (stored.length === 0) continue;
        expect(recomputeRows(tallies, drug, event, priors)).toEqual(stored);
        compared += stored.length;
      }
    }
    // Kept: DTaP x Intussusception (the co-administered DTaP of a third of the RotaShield reports) and ENGERIX-B x Urticaria.
    const kept = [...new Set(all.rows.map((r) => `${r.drug} x ${r.event}`))].sort();
    expect(kept).toEqual(analysis === 'types' ? ['DTAP x Intussusception', 'HEP x Urticaria'] : [`${DTAP} x Intussusception`, `${HEPB} x Urticaria`]);
    expect(compared).toBe(12);
    // RotaShield x Intussusception is not kept (every intussusception report names it: PRR and ROR undefined, c = 0):
    // recomputed: its 30 reports (k = 0, 8, ..., 232, all of 2000) fall 10 each in January, May and September, so the
    // windows hold 10, 20, 30, 30, 20, 10 of them; no window reaches the floor of two methods.
    const rota = analysis === 'types' ? 'RV' : ROTA;
    const unkept = recomputeRows(tallyAnalysis(data, analysisRule(analysis)!, analysis === 'all' ? null : parseStrata(), [rota], ['Intussusception'], parseQuarter('2001Q4')!), rota, 'Intussusception', priors);
    expect(unkept.map((r) => [r.quarter, r.n])).toEqual([['2000Q1', 10], ['2000Q2', 20], ['2000Q3', 30], ['2000Q4', 30], ['2001Q1', 20], ['2001Q2', 10]]);
    expect(unkept.every((r) => r.prr === null && r.ror_lci === null && r.n_methods_flagged! < 2)).toBe(true);
  });
});
