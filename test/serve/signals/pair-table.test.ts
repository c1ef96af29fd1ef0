/**
 * The Pair table (src/serve/signals/pair.ts) and what derives from it: the field list (JSON keys and CSV
 * header) in the spec's order, the JSON schema (types, nulls, bounds, patterns, required), and
 * the Pairs the aggregate computes, whose keys and value types follow the table.
 */
import { describe, expect, it } from 'vitest';
import { PAIR_COLUMNS, PAIR_FIELDS, type Pair } from '../../../src/serve/signals/pair.js';
import { QUARTER_PATTERN } from '../../../src/domain/quarter.js';
import { PairAccumulator } from '../../../src/serve/signals/aggregate.js';
import { PAIR_SCHEMA } from '../../../src/serve/signals/schemas.js';

/** A Pair from three quarterly rows: two flagged (2020Q4, 2021Q2), one not. */
function samplePair(): Pair {
  const acc = new PairAccumulator();
  acc.addValues(2020 * 4 + 3, 5, 2.5, 2.1, 2, true);
  acc.addValues(2021 * 4 + 1, 7, 3.5, 2.8, 3, true);
  acc.addValues(2021 * 4 + 2, 1, null, 2.8, 0, false);
  const pair = acc.result('FLU (FLUZONE)', 'FLU', 'Pyrexia', 2021 * 4 + 2);
  if (!pair) throw new Error('no pair');
  return pair;
}

describe('the Pair table', () => {
  it('spec 2.1 fields in table order: the JSON keys and the CSV header', () => {
    expect(PAIR_FIELDS.join(',')).toBe(
      'vaccine,drug,vax_name,vax_type,event,n,eb05,eb05_peak_pre2021,eb05_peak_pre2021_quarter,eb05_peak_quarter,' +
      'peak_in_covid_era,background_note,ewma_eb05,n_methods_max,quarters_flagged,first_quarter,latest_quarter,emerging',
    );
    expect(new Set(PAIR_FIELDS).size).toBe(PAIR_COLUMNS.length);
    for (const c of PAIR_COLUMNS) expect(c.description.length, c.name).toBeGreaterThan(10);
  });

  it('the JSON schema derives from the table: types, nulls, bounds, patterns and required fields', () => {
    expect(Object.keys(PAIR_SCHEMA.properties)).toEqual(PAIR_FIELDS);
    expect(PAIR_SCHEMA.required).toEqual(['vaccine', 'drug', 'vax_name', 'vax_type', 'event', 'n', 'emerging']);
    const props = PAIR_SCHEMA.properties as Record<string, Record<string, unknown>>;
    expect(props.n).toEqual({ type: 'integer', minimum: 0, description: PAIR_COLUMNS[5].description });
    expect(props.eb05.type).toEqual(['number', 'null']);
    expect(props.eb05_peak_quarter).toMatchObject({ type: ['string', 'null'], pattern: QUARTER_PATTERN });
    expect(props.first_quarter).toMatchObject({ type: 'string', pattern: QUARTER_PATTERN });
    expect(props.n_methods_max).toMatchObject({ minimum: 0, maximum: 4 });
    expect(Object.keys(props.n_methods_max)).toEqual(['type', 'minimum', 'maximum', 'description']);
  });

  it('a computed Pair has the table\'s keys in order, each value of its type (null only where nullable)', () => {
    const pair = samplePair();
    expect(Object.keys(pair)).toEqual(PAIR_FIELDS);
    for (const c of PAIR_COLUMNS) {
      const value = pair[c.name];
      if (value === null) {
        expect(c.nullable, c.name).toBe(true);
        continue;
      }
      expect(typeof value, c.name).toBe(c.type === 'integer' ? 'number' : c.type);
      if (c.type === 'integer') expect(Number.isInteger(value), c.name).toBe(true);
      if ('pattern' in c) expect(String(value), c.name).toMatch(new RegExp(c.pattern));
    }
    expect(pair).toMatchObject({ n: 12, eb05: 3.5, n_methods_max: 3, quarters_flagged: 2, first_quarter: '2020Q4', latest_quarter: '2021Q2', emerging: true });
  });
});
