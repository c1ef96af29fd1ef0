/**
 * On the real 1990-2006 files (data/vaers): the exact duplicate groups counted independently from
 * the raw CSV files (test/ingest/linkage/raw-exact-groups.ts: 434 groups, 1,083 reports beyond the first
 * of each) are each found whole by linkReports (all members of a group share a representative).
 * Skips with a message when data/vaers is absent.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { exactGroups, yearsIn } from './raw-exact-groups.js';

const folder = path.resolve('data/vaers');
const years = yearsIn(folder);
const present = years.includes(1990) && years.includes(2006);
if (!present) console.warn(`test/ingest/linkage/real-exact-groups: ${folder} lacks the 1990-2006 files; the real-data linkage test is skipped`);

describe.skipIf(!present)('linkage on the real 1990-2006 reports', () => {
  it('finds every exact duplicate group of the raw files whole', async () => {
    const groups = exactGroups(folder, years);
    expect(groups.length).toBe(434);
    expect(groups.reduce((s, g) => s + g.length - 1, 0)).toBe(1083);
    const { details } = await readVaers(folder, { narratives: true });
    const result = linkReports(details);
    const rowOf = new Map(Array.from(details.id, (id, i) => [id, i]));
    const split = groups.filter((g) => new Set(g.map((id) => result.representative[rowOf.get(id)!])).size !== 1);
    expect(split.map((g) => g.join(' '))).toEqual([]);
    expect(result.summary.reports).toBe(details.count);
    // The looser key without the calculated age (458 groups, 1,110 reports beyond the first):
    // every group is found whole, but for reports whose CAGE_YR + CAGE_MO (the age when AGE_YRS
    // is blank) differ by more than a year, which the case-identity rule keeps apart.
    const loose = exactGroups(folder, years, false);
    expect([loose.length, loose.reduce((s, g) => s + g.length - 1, 0)]).toEqual([458, 1110]);
    const looseSplit = loose.filter((g) => new Set(g.map((id) => result.representative[rowOf.get(id)!])).size !== 1);
    for (const g of looseSplit) {
      const ages = g.map((id) => loose.cage.get(id)!);
      console.log(`exact group without the calculated age, not one cluster: ${g.join(' ')} (CAGE ages ${ages.join(', ')})`);
      expect(Math.max(...ages) - Math.min(...ages), g.join(' ')).toBeGreaterThan(1);
    }
    // a cluster holding every member whose calculated age agrees with the first's
    for (const g of loose) {
      const first = loose.cage.get(g[0])!;
      const same = g.filter((id) => Object.is(loose.cage.get(id), first) || Math.abs(loose.cage.get(id)! - first) <= 1);
      expect(new Set(same.map((id) => result.representative[rowOf.get(id)!])).size, same.join(' ')).toBe(1);
    }
  }, 900_000);
});
