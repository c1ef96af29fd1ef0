/**
 * On the real 1990-2006 files (data/vaers): precision and recall of the linkage on the labelled set
 * of real candidate pairs (test/fixtures/linkage/labelled-pairs.csv; protocol in docs/duplicates.md,
 * "The labelled set"; scoring in ./labelled.ts). The linkage never reads the labels. Targets on the
 * measured part (issue 32): precision >= 0.95 and recall >= 0.80 on the decided pairs. This first
 * set was labelled by the engineer who tuned the rules; issue 43's set (labelled-43.csv, read
 * blind; test/ingest/linkage/measured-page.test.ts) measures the linkage now, and this test keeps
 * the first set's figures as a regression record. Measured with issue 43's rules (2026-11-28):
 * precision 1.000 (2 of 2), recall 0.500 (2 of 4: 237713-237745, one girl reported by her mother
 * and by a nurse under two manufacturer numbers, and 257374-257638 stay apart; before issue 43,
 * 3 of 4). Skips with a message when data/vaers is absent.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { yearsIn } from './raw-exact-groups.js';
import { labelledPairs, scoreLabelled } from './labelled.js';

const folder = path.resolve('data/vaers');
const years = yearsIn(folder);
const present = years.includes(1990) && years.includes(2006);
if (!present) console.warn(`test/ingest/linkage/real-labelled: ${folder} lacks the 1990-2006 files; the labelled-set test is skipped`);

describe('the labelled set of real pairs', () => {
  const pairs = labelledPairs(path.resolve('.'));

  it('holds 282 pairs, each labelled with its evidence and labeller, split once into two parts', () => {
    expect(pairs.length).toBe(282);
    expect(new Set(pairs.map((p) => `${p.a}-${p.b}`)).size).toBe(282);
    expect(pairs.filter((p) => p.part === 'measured').length).toBe(140);
    for (const p of pairs) {
      expect(['same', 'different', 'undecidable']).toContain(p.label);
      expect(p.evidence.length).toBeGreaterThan(10);
    }
  });

  it.skipIf(!present)('is linked at precision 1.000 and recall 0.500 on its measured part', async () => {
    const { details } = await readVaers(folder, { narratives: true });
    const result = linkReports(details);
    const [tuning, measured] = scoreLabelled(pairs, details.id, result.representative);
    console.log(`labelled set: ${JSON.stringify(tuning)}\n${JSON.stringify(measured)}`);
    expect([measured.decided, measured.same]).toEqual([132, 4]);
    expect(measured.precision).toBeGreaterThanOrEqual(0.95);
    // Target 0.80 not met: 2 of 4 (see the module header).
    expect([measured.correct, measured.predicted]).toEqual([2, 2]);
    expect(measured.recall).toBe(0.5);
    expect(measured.wrong).toEqual(['257374-257638 same', '237713-237745 same']);
  }, 900_000);
});
