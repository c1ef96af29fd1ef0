/**
 * Spec 2.1 pair aggregate, field by field, on the hand-made fixture store (quarters 2019Q1 to
 * 2023Q4; every expected number below is worked by hand from test/serve/signals/fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIR_FIELDS, type Pair } from '../../../src/serve/signals/pair.js';
import { NOTE_COVID_ERA_PEAK, NOTE_COVID_VACCINE, PairAccumulator } from '../../../src/serve/signals/aggregate.js';
import { loadCatalog, type Catalog } from '../../../src/serve/signals/catalog.js';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { GARDASIL9, MODERNA, PFIZER, SHINGRIX, TENIVAC, ZOSTAVAX, writeFixtureStore } from './fixture.js';

let catalog: Catalog;
const pair = (vaccine: string, event: string): Pair | undefined => catalog.pairs.find((p) => p.vaccine === vaccine && p.event === event);

beforeAll(async () => {
  catalog = await loadCatalog(await writeFixtureStore());
});
afterAll(() => catalog.series.close());

describe('spec 2.1 pair aggregate (floor n_methods_flagged >= 2)', () => {
  it('a COVID19 product: n, eb05, peaks, notes, EWMA, counts and quarters over flagged quarters', () => {
    expect(pair(PFIZER, 'Myocarditis')).toEqual({
      vaccine: PFIZER, drug: PFIZER, vax_name: PFIZER, vax_type: 'COVID19', event: 'Myocarditis',
      n: 85, // 10 + 20 + 30 + 25: 2020Q4 (0 methods) and 2022Q1 (1 method) stay out
      eb05: 5, eb05_peak_pre2021: 0.5, eb05_peak_pre2021_quarter: '2020Q4',
      eb05_peak_quarter: '2021Q3', // 5.0 in 2021Q3 and 2021Q4: the earliest quarter wins
      peak_in_covid_era: false, // vax_type is COVID19
      background_note: NOTE_COVID_VACCINE,
      ewma_eb05: 3.46, n_methods_max: 4, quarters_flagged: 4, first_quarter: '2021Q1', latest_quarter: '2021Q4', emerging: false,
    });
  });

  it('eb05_peak_pre2021 is null when the pair has no quarter before 2021Q1', () => {
    const p = pair(MODERNA, 'Myocarditis')!;
    expect([p.eb05_peak_pre2021, p.eb05_peak_pre2021_quarter, p.eb05, p.n]).toEqual([null, null, 4, 20]);
  });

  it('eb05 is null when no flagged quarter has an EB05; so are eb05_peak_quarter and ewma_eb05', () => {
    const p = pair(MODERNA, 'Pyrexia')!;
    expect([p.eb05, p.eb05_peak_quarter, p.ewma_eb05, p.n, p.peak_in_covid_era]).toEqual([null, null, null, 90, false]);
  });

  it('a non-COVID vaccine peaking in 2022Q2 (an unflagged quarter): peak_in_covid_era and the second note', () => {
    expect(pair(SHINGRIX, 'Herpes zoster')).toMatchObject({
      vax_type: 'ZOSTER', n: 16, eb05: 6, // flagged peak 2021Q4; the 7.0 of 2022Q2 has 1 method
      eb05_peak_quarter: '2022Q2', eb05_peak_pre2021: 2.5, eb05_peak_pre2021_quarter: '2019Q2', // tie with 2020Q1
      peak_in_covid_era: true, background_note: NOTE_COVID_ERA_PEAK,
      ewma_eb05: 3.55, // peak over flagged quarters, not the 4.585 of unflagged 2022Q2
      n_methods_max: 3, quarters_flagged: 3, first_quarter: '2019Q2', latest_quarter: '2021Q4',
    });
  });

  it('eb05_peak_quarter may differ from the quarter of eb05 when an unflagged quarter is higher; no note before 2021', () => {
    expect(pair(ZOSTAVAX, 'Herpes zoster')).toMatchObject({
      eb05: 3, eb05_peak_quarter: '2019Q3', eb05_peak_pre2021: 9, eb05_peak_pre2021_quarter: '2019Q3',
      peak_in_covid_era: false, background_note: null, ewma_eb05: 7.2, quarters_flagged: 1, n: 6,
      first_quarter: '2020Q2', latest_quarter: '2020Q2',
    });
  });

  it('emerging: first_quarter within the last four quarters of the data (2023Q1..2023Q4)', () => {
    expect(pair(TENIVAC, 'Injection site pain')!.emerging).toBe(true);
    expect(pair(TENIVAC, 'Pain')!.emerging).toBe(true); // 2023Q1: the boundary
    expect(pair(TENIVAC, 'Erythema')!.emerging).toBe(false); // 2022Q4
  });

  it('a pair with no quarter at the floor is not served', () => {
    expect(pair(GARDASIL9, 'Headache')).toBeUndefined();
    expect(catalog.pairs).toHaveLength(12);
  });

  it('pair rows carry exactly the fields of 2.1, in the table order (no ebgm, prr, ror, ic, ic025, n_unique)', () => {
    for (const p of catalog.pairs) expect(Object.keys(p)).toEqual(PAIR_FIELDS);
    expect(PAIR_FIELDS).not.toContain('ebgm');
    for (const f of ['prr', 'ror', 'ic', 'ic025', 'n_unique']) expect(PAIR_FIELDS).not.toContain(f);
  });

  it('reports_through and has_ic025 come from the store metadata', () => {
    expect(catalog.reportsThrough).toBe('2023Q4');
    expect(catalog.hasIc025).toBe(true);
  });
});

describe('PairAccumulator (spec 2.1) in isolation', () => {
  const row = (quarter: string, eb05: number | null, nmf: number, n = 1, ewma: number | null = eb05) => ({
    quarter: parseQuarter(quarter)!, n, eb05, ewma_eb05: ewma, n_methods_flagged: nmf, is_signal_any: nmf >= 1,
  });

  it('rows in any order give the same pair; ties go to the earliest quarter', () => {
    const a = new PairAccumulator();
    for (const r of [row('2022Q1', 4, 2), row('2020Q1', 4, 1), row('2021Q2', 4, 3)]) a.add(r);
    const p = a.result('X (Y)', 'X', 'E', parseQuarter('2022Q4'));
    expect([p!.eb05_peak_quarter, p!.eb05_peak_pre2021_quarter, p!.first_quarter, p!.latest_quarter]).toEqual(['2020Q1', '2020Q1', '2021Q2', '2022Q1']);
    expect(p!.peak_in_covid_era).toBe(false); // the full-series peak (earliest) is 2020Q1
  });

  it('quarters_flagged counts is_signal_any only among flagged quarters', () => {
    const a = new PairAccumulator();
    for (const r of [row('2019Q1', 1, 1), row('2019Q2', 1, 1), row('2019Q3', 2, 2)]) a.add(r);
    expect(a.result('V', 'V', 'E', null)!.quarters_flagged).toBe(1);
  });

  it('emerging is false when the data has no latest quarter', () => {
    const a = new PairAccumulator();
    a.add(row('2019Q1', 2, 2));
    expect(a.result('V', 'V', 'E', null)!.emerging).toBe(false);
  });
});
