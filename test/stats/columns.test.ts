/**
 * The column table (src/domain/columns.ts) and what derives from it: the lists that others read
 * by position stay as they were (the store's column order: a Parquet store is loaded with
 * `SELECT *`; the worker protocol's stat order; the score CSV header), the series record keeps
 * its layout and derives its size from it, the spec 2.3 quarter object its fields, and a non-finite number
 * becomes null.
 */
import { describe, expect, it } from 'vitest';
import { COLUMNS, QUARTER_OBJECT_COLUMNS, SCORE_COLUMNS, SERVED_COLUMNS, STAT_COLUMNS, finiteOrNull } from '../../src/domain/columns.js';
import { QUARTERLY_COLUMNS, SCHEMA_SQL } from '../../src/domain/store-schema.js';
import { SERIES_FIELDS, SERIES_RECORD_BYTES, ENCODING_BYTES, seriesRecordLayout } from '../../src/serve/store/series-store.js';
import { QUARTER_SCHEMA } from '../../src/serve/signals/schemas.js';

describe('the column table', () => {
  it('store order and DuckDB types of `quarterly` (a Parquet store is loaded by position)', () => {
    expect(QUARTERLY_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')).toBe(
      'analysis VARCHAR, drug VARCHAR, event VARCHAR, quarter VARCHAR, n INTEGER, expected DOUBLE, n_vaccine INTEGER, n_event INTEGER, ' +
      'n_reports INTEGER, qn DOUBLE, ebgm DOUBLE, eb05 DOUBLE, eb50 DOUBLE, eb95 DOUBLE, prr DOUBLE, prr_lci DOUBLE, ' +
      'prr_uci DOUBLE, prr_chisq DOUBLE, ror DOUBLE, ror_lci DOUBLE, ror_uci DOUBLE, ic DOUBLE, ic025 DOUBLE, ' +
      'ic975 DOUBLE, n_methods_flagged INTEGER, is_signal_any BOOLEAN, ewma_eb05 DOUBLE, ' +
      'lag_n INTEGER, lag_excluded INTEGER, lag_median_days DOUBLE, lag_q1_days DOUBLE, lag_q3_days DOUBLE, lag_share_over_365 DOUBLE, ' +
      'legal_share DOUBLE, onset_n INTEGER, onset_median_days DOUBLE, onset_d_other_vaccines DOUBLE, onset_p_other_vaccines DOUBLE, ' +
      'onset_d_other_events DOUBLE, onset_p_other_events DOUBLE, completeness_mean DOUBLE, well_documented_share DOUBLE, ' +
      'serious_share DOUBLE, deaths INTEGER, onset_lag_n INTEGER, onset_lag_median_days DOUBLE, onset_lag_q1_days DOUBLE, ' +
      'onset_lag_q3_days DOUBLE, onset_n_other_vaccines INTEGER, onset_n_other_events INTEGER, n_cases INTEGER, template_share DOUBLE, ' +
      'co_vaccine VARCHAR, co_share DOUBLE, co_type_event INTEGER, co_type_reports INTEGER, co_own_event INTEGER, co_own_reports INTEGER, ' +
      'co_products VARCHAR, failure_n INTEGER, failure_lack_n INTEGER, failure_disease_n INTEGER, failure_late_n INTEGER, ' +
      'vaccine_last_vax_date INTEGER, vaccine_dated_n INTEGER, received_median_date INTEGER, received_iqr_days DOUBLE, related_events VARCHAR',
    );
    expect(SCHEMA_SQL).toContain(`CREATE TABLE quarterly (${QUARTERLY_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')});`);
    expect(new Set(COLUMNS.map((c) => c.name)).size).toBe(COLUMNS.length);
    for (const c of COLUMNS) expect(c.description.length, c.name).toBeGreaterThan(10);
  });

  it('the worker protocol carries the statistics as doubles in this order', () => {
    expect(STAT_COLUMNS).toEqual([
      'expected', 'qn', 'ebgm', 'eb05', 'eb50', 'eb95', 'prr', 'prr_lci', 'prr_uci', 'prr_chisq',
      'ror', 'ror_lci', 'ror_uci', 'ic', 'ic025', 'ic975',
    ]);
  });

  it('the score CSV header', () => {
    expect(SCORE_COLUMNS.join(',')).toBe(
      'vaccine,event,n,expected,n_vaccine,n_event,n_reports,qn,ebgm,eb05,eb50,eb95,prr,prr_lci,prr_uci,prr_chisq,' +
      'ror,ror_lci,ror_uci,ic,ic025,ic975,n_methods_flagged,is_signal_any',
    );
  });

  it('the series record (64 bytes): quarter u16 @0, n_methods_flagged i8 @2, is_signal_any u8 @3, n i32 @4, doubles @8..@56', () => {
    expect(SERIES_RECORD_BYTES).toBe(64);
    const layout = Object.fromEntries(SERIES_FIELDS.map((f) => [f.name, `${f.encoding}@${f.offset}`]));
    expect(layout).toEqual({
      quarter: 'u16@0', n_methods_flagged: 'i8@2', is_signal_any: 'u8@3', n: 'i32@4', eb05: 'f64@8', eb50: 'f64@16',
      eb95: 'f64@24', prr: 'f64@32', ror: 'f64@40', ic: 'f64@48', ic025: 'f64@56',
    });
    const bytes = SERIES_FIELDS.reduce((sum, f) => sum + ENCODING_BYTES[f.encoding], 0);
    expect(bytes).toBe(SERIES_RECORD_BYTES);
    // The server loads the record's columns plus ewma_eb05 for the aggregate.
    expect(SERVED_COLUMNS.map((c) => c.name).filter((name) => !SERIES_FIELDS.some((f) => f.name === name))).toEqual(['ewma_eb05']);
  });

  it('the series record size derives from its fields: the last end, rounded up to the largest encoding', () => {
    const f64 = (record: number) => ({ encoding: 'f64', record }) as const;
    const withExtra = [...SERVED_COLUMNS, { name: 'extra', served: f64(SERIES_RECORD_BYTES) }];
    expect(seriesRecordLayout(withExtra).bytes).toBe(SERIES_RECORD_BYTES + 8);
    expect(seriesRecordLayout(withExtra).fields.at(-1)).toEqual({ name: 'extra', encoding: 'f64', offset: 64, stride: 9, index: 8 });
    expect(seriesRecordLayout([{ name: 'q', served: { encoding: 'u16', record: 0 } }, { name: 'flag', served: { encoding: 'u8', record: 2 } }]).bytes).toBe(4);
    expect(seriesRecordLayout([{ name: 'n', served: { encoding: 'i32', record: 0 } }, { name: 'x', served: f64(16) }]).bytes).toBe(24);
    expect(seriesRecordLayout([{ name: 'ewma', served: { encoding: 'f64' } }])).toEqual({ fields: [], bytes: 0 });
    expect(() => seriesRecordLayout([{ name: 'x', served: f64(4) }])).toThrow('x (f64 @4) is misaligned');
    expect(() => seriesRecordLayout([{ name: 'a', served: f64(0) }, { name: 'b', served: { encoding: 'i32', record: 4 } }])).toThrow('b (i32 @4) is misaligned or overlaps');
  });

  it('spec 2.3 quarter object: fields in answer order, ic025 optional, every one in the record', () => {
    const names = QUARTER_OBJECT_COLUMNS.map((c) => c.name);
    expect(names).toEqual(['quarter', 'n', 'eb05', 'eb50', 'eb95', 'prr', 'ror', 'ic', 'ic025', 'n_methods_flagged', 'is_signal_any']);
    expect(Object.keys(QUARTER_SCHEMA.properties)).toEqual(names);
    expect(QUARTER_SCHEMA.required).toEqual(names.filter((n) => n !== 'ic025'));
    for (const name of names) expect(SERIES_FIELDS.some((f) => f.name === name), name).toBe(true);
  });

  it('finiteOrNull: NaN and infinities are null (docs/design.md), every finite number stays', () => {
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(finiteOrNull(x)).toBeNull();
    for (const x of [0, -0, 1.5, -2, Number.MAX_VALUE, Number.MIN_VALUE]) expect(finiteOrNull(x)).toBe(x);
  });
});
