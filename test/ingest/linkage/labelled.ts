/**
 * The labelled set of real candidate pairs (test/fixtures/linkage/labelled-pairs.csv; protocol in
 * docs/duplicates.md, "The labelled set") and the linkage's precision and recall on it.
 *
 * A pair is **predicted one case** when the linkage puts its two reports in one cluster (the same
 * representative). On the decided pairs of a part (labels `same` and `different`; `undecidable`
 * pairs are left out): precision = predicted-and-same / predicted, recall = predicted-and-same /
 * same. A pair whose report is not among the linked reports (another data set) is skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/** One labelled pair as the fixture lists it. */
export interface LabelledPair {
  a: number;
  b: number;
  stratum: string;
  part: 'tuning' | 'measured';
  label: 'same' | 'different' | 'undecidable';
  evidence: string;
}

/** The fixture's pairs (`root`: the repository). */
export function labelledPairs(root: string): LabelledPair[] {
  const rows = parse(readFileSync(join(root, 'test/fixtures/linkage/labelled-pairs.csv')), { columns: true }) as Array<Record<string, string>>;
  return rows.map((r) => ({
    a: Number(r.vaers_id_a), b: Number(r.vaers_id_b), stratum: r.stratum, part: r.part as LabelledPair['part'],
    label: r.label as LabelledPair['label'], evidence: r.evidence,
  }));
}

/** Precision and recall of one part (see the module header), with the counts they come from. */
export interface LabelledScore {
  part: string;
  decided: number;
  same: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
  /** The decided pairs the linkage got wrong: `a-b label`. */
  wrong: string[];
}

/**
 * The scores of `pairs` per part, for a linkage whose cluster representative of report row i is
 * `representative[i]`, rows found by VAERS_ID through `ids`.
 */
export function scoreLabelled(pairs: readonly LabelledPair[], ids: ArrayLike<number>, representative: ArrayLike<number>): LabelledScore[] {
  const row = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) row.set(ids[i], i);
  return (['tuning', 'measured'] as const).map((part) => {
    let decided = 0;
    let same = 0;
    let predicted = 0;
    let correct = 0;
    const wrong: string[] = [];
    for (const p of pairs) {
      if (p.part !== part || p.label === 'undecidable') continue;
      const x = row.get(p.a);
      const y = row.get(p.b);
      if (x === undefined || y === undefined) continue;
      decided++;
      const together = representative[x] === representative[y];
      if (p.label === 'same') same++;
      if (together) predicted++;
      if (together && p.label === 'same') correct++;
      if (together !== (p.label === 'same')) wrong.push(`${p.a}-${p.b} ${p.label}`);
    }
    return { part, decided, same, predicted, correct, precision: predicted === 0 ? 1 : correct / predicted, recall: same === 0 ? 1 : correct / same, wrong };
  });
}
