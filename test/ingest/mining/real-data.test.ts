import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../../src/ingest/mining/summary.js';
import { vaxType } from '../../../src/domain/vaccine-type.js';
import { Store } from '../../helpers/store.js';
import type { QuarterlyRow } from '../../../src/domain/store-schema.js';
import { DEFAULT_STORE, hasDefaultStore } from '../../helpers/default-store.js';
import { SHARED_DATA, sharedDataPresent } from '../../helpers/paths.js';

const modern = resolve(SHARED_DATA, 'vaers-modern-layout');

describe.skipIf(!sharedDataPresent(modern, 'the build on the current layout'))('build on the real 1999 files in the current layout (../shared/data/vaers-modern-layout)', () => {
  let dir: string;
  let summary: BuildSummary;
  const rows: QuarterlyRow[] = [];
  let store: Store;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-build-real-'));
    summary = await buildStore({ vaers: modern, out: join(dir, 'store.duckdb') });
    store = await Store.open(join(dir, 'store.duckdb'));
    await store.forEachQuarterlyRow((r) => rows.push(r));
  }, 300_000);
  afterAll(async () => {
    store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every report (SOURCES.md: 12,123 DATA records) into 4 quarters and 4 windows', () => {
    expect(summary.reportsRead).toBe(12123);
    expect(summary.quarters).toBe(4);
    expect(summary.analyses[0].windows).toBe(4);
    expect(summary.reportsThrough).toBe('1999Q4');
    expect(summary.analyses[0].rows).toBe(rows.length);
    expect(summary.analyses[0].pairs).toBe(new Set(rows.map((r) => `${r.drug}|${r.event}`)).size);
  });

  it('stores only well-formed rows: EB05 <= EB50 <= EB95, flags in 0..4, a flagged quarter per pair, no NaN', () => {
    const peak = new Map<string, number>();
    for (const r of rows) {
      expect(r.n).toBeGreaterThanOrEqual(1);
      expect(r.n_methods_flagged).toBeGreaterThanOrEqual(0);
      expect(r.n_methods_flagged).toBeLessThanOrEqual(4);
      expect(r.eb05!).toBeLessThanOrEqual(r.eb50!);
      expect(r.eb50!).toBeLessThanOrEqual(r.eb95!);
      expect(r.expected).toBeCloseTo((r.n_vaccine! * r.n_event!) / r.n_reports!, 9);
      for (const value of Object.values(r)) if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
      const key = `${r.drug}|${r.event}`;
      peak.set(key, Math.max(peak.get(key) ?? 0, r.n_methods_flagged));
    }
    expect([...peak.values()].every((m) => m >= 2)).toBe(true);
  });

  it('derives vax_type for every real VAX_NAME by the spec 2.1 rule and keeps the VAX_TYPE codes', async () => {
    const vaccines = await store.vaccines();
    expect(vaccines.length).toBeGreaterThan(50);
    for (const v of vaccines) {
      expect(v.vax_type).toBe(vaxType(v.vax_name));
      expect(v.vax_type_codes.length).toBeGreaterThan(0);
    }
    expect(vaccines.find((v) => v.vax_name === 'INFLUENZA (SEASONAL) (FLUZONE)')?.vax_type).toBe('INFLUENZA (SEASONAL)');
  });
});

describe.skipIf(!hasDefaultStore('default store fit test'))('the default store (built from data/vaers by the global setup)', () => {
  it('fits the 1999Q3 window as openEBGM does (docs/design.md: negLL 15713.0380, alpha1 0.1309, beta1 0.2788, alpha2 2.1150, beta2 1.9574, p 0.1480)', async () => {
    const store = await Store.open(DEFAULT_STORE!);
    try {
      const w = (await store.windows()).find((x) => x.quarter === '1999Q3')!;
      expect(w.neg_log_lik).toBeLessThanOrEqual(15713.0380 + 1e-3);
      expect(w.alpha1).toBeCloseTo(0.1309, 3);
      expect(w.beta1).toBeCloseTo(0.2788, 3);
      expect(w.alpha2).toBeCloseTo(2.1150, 3);
      expect(w.beta2).toBeCloseTo(1.9574, 3);
      expect(w.p).toBeCloseTo(0.1480, 3);
      const meta = await store.meta();
      expect(meta).toMatchObject({ reports_through: '2006Q4', origin: 'build', has_ic025: true });
      expect(meta.sources).toHaveLength(51);
    } finally {
      store.close();
    }
  });
});
