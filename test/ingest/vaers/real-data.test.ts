import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatQuarter } from '../../../src/domain/quarter.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const shared = SHARED_DATA;
const present = existsSync(resolve(shared, 'vaers')) && existsSync(resolve(shared, 'vaers-modern-layout'));
if (!present) console.warn(`test/ingest/vaers/real-data: ${shared} is absent; real-data tests skipped`);

/** "distinct IDs in DATA" per year, from ../shared/data/vaers/SOURCES.md ("Consistency check per year"). */
const DISTINCT_IDS: Record<number, number> = {
  1990: 2106, 1991: 9936, 1992: 10691, 1993: 10149, 1994: 10184, 1995: 9986, 1996: 10776, 1997: 11009, 1998: 9978,
  1999: 12249, 2000: 13950, 2001: 13387, 2002: 14030, 2003: 16766, 2004: 15330, 2005: 15587, 2006: 17332,
};

describe.skipIf(!present)('readVaers on the real files in ../shared/data (SOURCES.md)', () => {
  it('reads all of vaers/ (1990-2006, 2014 release): 203,446 DATA records, per-year ids as in SOURCES.md', async () => {
    const data = await readVaers(resolve(shared, 'vaers'));
    expect(data.reportsRead).toBe(203_446);
    expect(data.sources).toHaveLength(51);
    expect(data.sources.find((s) => s.name === '1999VAERSDATA.csv.gz')).toEqual({
      name: '1999VAERSDATA.csv.gz', bytes: 1_101_301, sha256: 'ccfbbe5ee47426cccb279e93c4db718d87ba35e56542c9384e242bb813508c40', // SOURCES.md "sha256 of .gz"
    });
    // SOURCES.md: every DATA id has a VAX row and a SYMPTOMS row, and no orphans. One report,
    // VAERS_ID 132112, has a SYMPTOMS row whose five terms are all empty: it names no event.
    expect(data.skipped).toEqual([
      { reason: SKIP.NO_EVENT, count: 1, examples: ['VAERS_ID 132112 (1999VAERSDATA.csv.gz line 11293)'] },
    ]);
    const perYear: Record<number, number> = {};
    for (const r of data.reports) {
      const year = Number(formatQuarter(r.quarter).slice(0, 4));
      perYear[year] = (perYear[year] ?? 0) + 1;
    }
    perYear[1999] += 1; // the report skipped above (RECVDATE 12/06/1999)
    expect(perYear).toEqual(DISTINCT_IDS);
    expect(new Set(data.reports.map((r) => r.id)).size).toBe(data.reports.length);
    // SOURCES.md: 1990 starts on 1990-07-02 (Q3); the last quarter is 2006Q4.
    const quarters = data.reports.map((r) => r.quarter);
    expect(formatQuarter(quarters.reduce((a, b) => Math.min(a, b)))).toBe('1990Q3');
    expect(formatQuarter(quarters.reduce((a, b) => Math.max(a, b)))).toBe('2006Q4');
    expect(data.reports.every((r) => r.vaccines.length > 0 && r.events.length > 0)).toBe(true);
    expect(data.vaccines.every((v) => v === v.trim() && v !== '')).toBe(true);
  });

  it('reads vaers-modern-layout/ (35 columns, VAX_DOSE_SERIES, 7-digit ids): 12,123 DATA records', async () => {
    const data = await readVaers(resolve(shared, 'vaers-modern-layout'));
    expect(data.reportsRead).toBe(12_123);
    expect(data.reports.find((r) => r.id === 117862)).toMatchObject({ quarter: 1999 * 4 });
    const r = data.reports.find((x) => x.id === 117862)!;
    expect(r.vaccines.map((i) => data.vaccines[i])).toEqual(['INFLUENZA (SEASONAL) (FLUZONE)']);
    expect(r.events.map((i) => data.events[i])).toEqual(['Guillain-Barre syndrome', 'Myasthenic syndrome', 'Paralysis']);
    expect(data.sources.map((s) => s.sha256)).toEqual([
      '1dfc402f2528917d573746d9b2e20ec27f110be72cd534fa4ad85e60e15eb197',
      '5c1c6ddebe43fe5d9318d49664e55e4645430cd080265f9970e6b865e5ab2e14',
      '1497ed9950b9a6734821ad034e0cb334b85354c7c64e54bb5790eda47e23302b',
    ]);
  });
});
