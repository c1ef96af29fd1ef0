/**
 * The linkage of the real 1990-2006 files (data/vaers), read and linked once for all the tests here
 * (each of them once read the files and linked them itself; the linkage reads the text through
 * LinkageTextReader, as the build's linkage thread does, so that its features and evidence, template
 * shares counted, are at hand). Skips with a message when data/vaers is absent.
 *
 * Exact groups: the exact duplicate groups counted independently from the raw CSV files
 * (test/ingest/linkage/raw-exact-groups.ts: 434 groups, 1,083 reports beyond the first of each) are
 * found whole by linkReports (all members of a group share a representative), but for the groups
 * the different-patient evidence splits (src/ingest/linkage/patient-evidence.ts: manufacturers'
 * batches numbered one patient at a time, group narratives, templates; such exact groups are
 * batches of different patients, docs/duplicates.md "What separates real reports"): each group not
 * found whole must hold a pair, among its members and their clusters' members, that
 * differentPatients names (with the linkage's own features and evidence).
 *
 * The stream (src/ingest/linkage/link.ts streamPairs, issue 41; planted duplicates in
 * stream.test.ts): holding only the pairs whose link weight reaches the threshold gives the
 * clusters, links and figures of the linkage holding every candidate pair (`lowerBound: -Infinity`),
 * on the real reports of 1999 (12,248 reports, 414,209 candidate pairs, 1,375 held, 26 links: the RotaShield
 * year), read from links to those files: the linkage holding all ten million candidate pairs of the
 * seventeen years took 50 s of the suite for the same check, and 1998-2000 (1.5 million candidate
 * pairs) 15 s where 1999 takes 5 s.
 *
 * The labelled set: precision and recall of the linkage on the labelled set of real candidate
 * pairs (test/fixtures/linkage/labelled-pairs.csv; protocol in docs/duplicates.md, "The labelled
 * set"; scoring in ./labelled.ts). The linkage never reads the labels. Targets on the measured part
 * (issue 32): precision >= 0.95 and recall >= 0.80 on the decided pairs. This first set was
 * labelled by the engineer who tuned the rules; issue 43's set (labelled-43.csv, read blind;
 * test/ingest/linkage/measured-page.test.ts) measures the linkage now, and this test keeps the first
 * set's figures as a regression record. Measured with issue 43's rules (2026-11-28): precision 1.000
 * (2 of 2), recall 0.500 (2 of 4: 237713-237745, one girl reported by her mother and by a nurse
 * under two manufacturer numbers, and 257374-257638 stay apart; before issue 43, 3 of 4).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkageFeatures, type LinkageFeatures } from '../../../src/ingest/linkage/features.js';
import { linkReports } from '../../../src/ingest/linkage/link.js';
import { LinkageTextReader } from '../../../src/ingest/linkage/linkage-text.js';
import { differentPatients, type PatientEvidence } from '../../../src/ingest/linkage/patient-evidence.js';
import type { LinkageResult } from '../../../src/ingest/linkage/types.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import type { ReportDetails } from '../../../src/ingest/vaers/report-details.js';
import { labelledPairs, scoreLabelled } from './labelled.js';
import { exactGroups, readRawReports, yearsIn } from './raw-exact-groups.js';
import { expectSameLinkage } from './same-linkage.js';

const folder = path.resolve('data/vaers');
const years = yearsIn(folder);
const present = years.includes(1990) && years.includes(2006);
if (!present) console.warn(`test/ingest/linkage/real-linkage: ${folder} lacks the 1990-2006 files; the real-data linkage tests are skipped`);

/** The linkage text of `details` read whole (linkage-text.ts), for LinkageOptions.text: read once per linkage (it adds its template shares to the evidence). */
function textOf(details: ReportDetails): LinkageTextReader {
  const text = new LinkageTextReader(details.count);
  text.read(0, { narrative: details.narrative, otherMeds: details.otherMeds, history: details.history, priorVax: details.priorVax });
  return text;
}

describe('the labelled set of real pairs', () => {
  it('holds 282 pairs, each labelled with its evidence and labeller, split once into two parts', () => {
    const pairs = labelledPairs(path.resolve('.'));
    expect(pairs.length).toBe(282);
    expect(new Set(pairs.map((p) => `${p.a}-${p.b}`)).size).toBe(282);
    expect(pairs.filter((p) => p.part === 'measured').length).toBe(140);
    for (const p of pairs) {
      expect(['same', 'different', 'undecidable']).toContain(p.label);
      expect(p.evidence.length).toBeGreaterThan(10);
    }
  });
});

describe.skipIf(!present)('linkage on the real 1990-2006 reports', () => {
  let details: ReportDetails;
  let result: LinkageResult;
  let f: LinkageFeatures;
  let evidence: PatientEvidence;
  beforeAll(async () => {
    ({ details } = await readVaers(folder, { narratives: true }));
    const text = textOf(details);
    result = linkReports(details, { text });
    // the linkage's own features and evidence, with the template shares it counted from its candidate pairs
    f = linkageFeatures(details, text.values);
    evidence = text.evidence;
  }, 900_000);

  it('finds every exact duplicate group of the raw files whole, but batches the different-patient evidence splits', () => {
    const raw = readRawReports(folder, years);
    const groups = exactGroups(raw);
    expect(groups.length).toBe(434);
    expect(groups.reduce((s, g) => s + g.length - 1, 0)).toBe(1083);
    const rowOf = new Map(Array.from(details.id, (id, i) => [id, i]));
    const membersOf = new Map<number, number[]>();
    result.representative.forEach((r, i) => { if (r !== i || membersOf.has(r)) membersOf.set(r, [...(membersOf.get(r) ?? [r]), i]); });
    /**
     * Why a group is not one case: a reason of differentPatients for some pair of its members and
     * their clusters' members (complete linkage cuts a member whose cluster-mate the other member
     * cannot be, docs/duplicates.md step 7), else ''.
     */
    const reasonIn = (g: number[]): string => {
      const rows = [...new Set(g.flatMap((id) => membersOf.get(result.representative[rowOf.get(id)!]) ?? [rowOf.get(id)!]))];
      for (let x = 0; x < rows.length; x++) {
        for (let y = x + 1; y < rows.length; y++) {
          const reason = differentPatients(f, evidence, Math.min(rows[x], rows[y]), Math.max(rows[x], rows[y]));
          if (reason !== '') return reason;
        }
      }
      return '';
    };
    const split = groups.filter((g) => new Set(g.map((id) => result.representative[rowOf.get(id)!])).size !== 1);
    const reasons = new Map<string, number>();
    for (const g of split) {
      const reason = reasonIn(g);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      expect(reason, `exact group ${g.join(' ')} split without evidence`).not.toBe('');
    }
    console.log(`exact groups found whole: ${groups.length - split.length} of ${groups.length}; split by evidence: ${JSON.stringify(Object.fromEntries(reasons))}`);
    expect(result.summary.reports).toBe(details.count);
    // The looser key without the calculated age (458 groups, 1,110 reports beyond the first):
    // a group not found whole has members whose CAGE_YR + CAGE_MO (the age when AGE_YRS is blank)
    // differ by more than a year, or different-patient evidence.
    const loose = exactGroups(raw, false);
    expect([loose.length, loose.reduce((s, g) => s + g.length - 1, 0)]).toEqual([458, 1110]);
    for (const g of loose.filter((l) => new Set(l.map((id) => result.representative[rowOf.get(id)!])).size !== 1)) {
      const ages = g.map((id) => loose.cage.get(id)!);
      expect(Math.max(...ages) - Math.min(...ages) > 1 || reasonIn(g) !== '', g.join(' ')).toBe(true);
    }
  }, 900_000);

  it('streamed, gives the clusters, links and figures of the linkage holding every candidate pair (1999)', async () => {
    // Hand-checked on the seventeen years: about 10 million candidate pairs, under 1% held, a few thousand kept.
    expect(result.summary.candidate_pairs).toBeGreaterThan(100 * result.heldPairs!);
    const dir = mkdtempSync(path.join(tmpdir(), 'rs-real-linkage-'));
    try {
      const links = path.join(dir, 'vaers');
      mkdirSync(links);
      for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) symlinkSync(path.join(folder, `1999VAERS${kind}.csv.gz`), path.join(links, `1999VAERS${kind}.csv.gz`));
      const { details: part } = await readVaers(links, { narratives: true });
      expect(part.count).toBe(12_248);
      const streamed = linkReports(part, { text: textOf(part) });
      expect(streamed.summary.candidate_pairs).toBeGreaterThan(100 * streamed.heldPairs!);
      expect(streamed.summary.links).toBe(26); // a comparison of clusters, not of empty ones
      expectSameLinkage(streamed, linkReports(part, { lowerBound: -Infinity, text: textOf(part) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('is linked at precision 1.000 and recall 0.500 on the labelled set\'s measured part', () => {
    const [tuning, measured] = scoreLabelled(labelledPairs(path.resolve('.')), details.id, result.representative);
    console.log(`labelled set: ${JSON.stringify(tuning)}\n${JSON.stringify(measured)}`);
    expect([measured.decided, measured.same]).toEqual([132, 4]);
    expect(measured.precision).toBeGreaterThanOrEqual(0.95);
    // Target 0.80 not met: 2 of 4 (see the module header).
    expect([measured.correct, measured.predicted]).toEqual([2, 2]);
    expect(measured.recall).toBe(0.5);
    expect(measured.wrong).toEqual(['257374-257638 same', '237713-237745 same']);
  });
});
