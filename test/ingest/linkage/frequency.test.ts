/**
 * The frequency adjustment (src/ingest/linkage/frequency.ts) on five hand-written reports, the expected
 * bits worked by hand: log2(u / p_v) per agreed value, p_v the value's share of the reports
 * knowing the field; the partial event level only ever lowers the weight.
 */
import { describe, expect, it } from 'vitest';
import { COMPARED_FIELDS, RADIX } from '../../../src/ingest/linkage/compare.js';
import { linkageFeatures } from '../../../src/ingest/linkage/features.js';
import { frequencyAdjustment, valueShares } from '../../../src/ingest/linkage/frequency.js';
import { columnsOf, type FixtureReport } from './fixtures.js';

const flu = (lot: string | null = null): FixtureReport['vaccines'][number] => ({ name: 'FLU3', lot });
const reports: FixtureReport[] = [
  { id: 1, vaxDate: 20041015, vaccines: [flu('AB12'), { name: 'PNC', lot: 'CD34' }], events: ['Pyrexia', 'Rash'] },
  { id: 2, vaxDate: 20041015, vaccines: [flu('AB12'), { name: 'PNC', lot: 'CD34' }], events: ['Pyrexia', 'Crying'] },
  { id: 3, vaxDate: 20041015, vaccines: [flu('CD34')], events: ['Pyrexia'] },
  { id: 4, vaxDate: 20041101, vaccines: [flu()], events: ['Pyrexia', 'Guillain-Barre syndrome'] },
  { id: 5, vaxDate: 20041101, vaccines: [flu('EF56')], events: ['Guillain-Barre syndrome', 'Paraesthesia'] },
];
const f = linkageFeatures(columnsOf(reports));
const shares = valueShares(f);
const field = (name: string): number => COMPARED_FIELDS.findIndex((c) => c.name === name);
const u = RADIX.map((r) => new Array<number>(r).fill(0.5));
u[field('vax_date')][3] = 0.25;
u[field('lots')][2] = 0.1;
u[field('events')][2] = 0.2;
const levels = (set: Record<string, number>): number[] => COMPARED_FIELDS.map((c) => set[c.name] ?? 0);

describe('frequencyAdjustment', () => {
  it('lowers the weight of a common date, lot and event: 2004-10-15 is 3 of 5 dates, lot AB12 2 of 4 reports with lots, Pyrexia 4 of 5', () => {
    // log2(0.25 / 0.6) + log2(0.1 / 0.5) + log2(0.2 / 0.8) = -1.263 - 2.322 - 2
    const bits = frequencyAdjustment(f, shares, u, 0, 1, levels({ vax_date: 3, lots: 2, events: 2 }));
    expect(bits).toBeCloseTo(Math.log2(0.25 / 0.6) + Math.log2(0.1 / 0.5) - 2, 10);
    expect(bits).toBeCloseTo(-5.585, 3);
  });

  it('raises it for a rarer date (2 of 5) when u is below the share, and never for a partial event agreement on a rare term', () => {
    expect(frequencyAdjustment(f, shares, u, 3, 4, levels({ vax_date: 3 }))).toBeCloseTo(Math.log2(0.25 / 0.4), 10);
    // Guillain-Barre syndrome: 2 of 5 reports, log2(0.2 / 0.4) = -1; with u 0.5 it would be +0.32, and is 0.
    expect(frequencyAdjustment(f, shares, u, 3, 4, levels({ events: 2 }))).toBeCloseTo(-1, 10);
    u[field('events')][2] = 0.5;
    expect(frequencyAdjustment(f, shares, u, 3, 4, levels({ events: 2 }))).toBe(0);
    u[field('events')][2] = 0.2;
  });

  it('is 0 when no adjusted field agrees at its adjusted level', () => {
    expect(frequencyAdjustment(f, shares, u, 0, 2, levels({ vax_date: 2, lots: 1, events: 1 }))).toBe(0);
  });
});
