/**
 * docs/duplicates.md's figures of the labelled set and the constant `GET /analyses` serves
 * (src/serve/signals/linkage-measured.ts) are what scripts/linkage-measure.ts computes from the fixtures
 * (test/fixtures/linkage/sample-43.csv, labelled-43.csv) and the linkage's recorded verdicts
 * (verdicts-43.json); and the measures themselves on hand-worked examples.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINKAGE_MEASURED } from '../../../src/serve/signals/linkage-measured.js';
import { clusterFigures, cohenKappa, importLabels, labelledSet, weightedFigures, wilson, type Item, type Reading } from './measure.js';
import { docsBlock, measuredFigures, renderDomainModule, renderPage, servedFigures } from './measured-render.js';

const root = process.cwd();
const verdicts = JSON.parse(readFileSync('test/fixtures/linkage/verdicts-43.json', 'utf8')) as Record<string, number>;

describe('the labelled set figures', () => {
  it('docs/duplicates.md and src/serve/signals/linkage-measured.ts equal the script\'s output', () => {
    const doc = readFileSync('docs/duplicates.md', 'utf8');
    const figures = measuredFigures(root, verdicts, verdicts.clusters);
    expect(docsBlock(doc)).toBe(renderPage(figures));
    expect(readFileSync('src/serve/signals/linkage-measured.ts', 'utf8')).toBe(renderDomainModule(figures));
    expect(LINKAGE_MEASURED).toEqual(servedFigures(figures));
  });

  it('Wilson interval: 3 of 4 gives 0.301-0.954; 0 of 0 is no information', () => {
    const w = wilson(3, 4);
    expect(w.value).toBe(0.75);
    expect(w.low).toBeCloseTo(0.3006, 3);
    expect(w.high).toBeCloseTo(0.9544, 3);
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0, value: 1, low: 0, high: 1 });
  });

  it('Cohen\'s kappa: 8 of 10 agreeing with marginals 6/4 in both readings is 7/12', () => {
    // first: s s s s s s d d d d; second: s s s s s d d d d s -> agree 8 of 10; p_e = .6*.6 + .4*.4 = .52; kappa = (.8 - .52) / .48 = 7/12
    const first = ['s', 's', 's', 's', 's', 's', 'd', 'd', 'd', 'd'];
    const second = ['s', 's', 's', 's', 's', 'd', 'd', 'd', 'd', 's'];
    expect(cohenKappa(first, second)).toBeCloseTo(7 / 12, 12);
  });

  it('a cluster cut by the linkage is judged by the label\'s same-case groups', () => {
    const items: Item[] = [{ item: 'C1', kind: 'cluster', ids: [1, 2, 3], stratum: 'cluster', part: 'measured', second: false }];
    const label = (groups: number[][]): Map<string, Reading> => new Map([['C1', { item: 'C1', reading: 'first', label: 'different_patients', phrases: '', groups, unplaced: [], by: '' }]]);
    // Linkage keeps 1 and 2 together, 3 apart; label: 1 and 2 one case, 3 another -> 1 right of 1.
    const cut = (id: number): number => (id === 3 ? 3 : 1);
    expect(clusterFigures(items, label([[1, 2], [3]]), cut).precision).toMatchObject({ k: 1, n: 1 });
    // The same cut, but 1 and 2 are different patients -> 0 right of 1; the whole cluster as drawn -> 0 of 1.
    expect(clusterFigures(items, label([[1], [2, 3]]), cut).precision).toMatchObject({ k: 0, n: 1 });
    expect(clusterFigures(items, label([[1], [2, 3]]), () => 0).precision).toMatchObject({ k: 0, n: 1 });
  });

  it('imports the readers\' label files: first, second and resolved readings; a bad row names its file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'));
    try {
      const items: Item[] = [
        { item: 'R001', kind: 'pair', ids: [10, 20], stratum: 'linked', part: 'fresh', second: true },
        { item: 'K01', kind: 'cluster', ids: [30, 31, 32], stratum: 'cluster', part: 'fresh', second: false },
      ];
      writeFileSync(join(dir, 'measured-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,same_case,"AGE 4 vs 4; ""fever 103"" both"\n');
      writeFileSync(join(dir, 'clusters-01.csv'), 'item_id,vaers_ids,label,deciding_phrases,same_case_groups\nK01,30 31 32,different_patients,AGE 1 vs 30,30 31 | 32\n');
      writeFileSync(join(dir, 'second-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,undecidable,no age\n');
      writeFileSync(join(dir, 'notes.txt'), 'not a label file');
      expect(importLabels(dir, items, (file) => `reader of ${file}`)).toBe([
        'item_id,vaers_ids,reading,label,deciding_phrases,same_case_groups,labelled_by',
        'K01,30 31 32,first,different_patients,AGE 1 vs 30,30 31 | 32,reader of clusters-01.csv',
        'R001,10 20,first,same_case,"AGE 4 vs 4; ""fever 103"" both",,reader of measured-01.csv',
        'R001,10 20,second,undecidable,no age,,reader of second-01.csv',
        '',
      ].join('\n'));
      writeFileSync(join(dir, 'second-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,,\nR001,10 20,same,x\n');
      expect(() => importLabels(dir, items, () => '')).toThrow(`${join(dir, 'second-01.csv')} line 3: label same is none of same_case, different_patients, undecidable`);
      writeFileSync(join(dir, 'second-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 21,same_case,x\n');
      expect(() => importLabels(dir, items, () => '')).toThrow('line 2: VAERS_IDs 10 21 are not item R001\'s (10 20)');
      writeFileSync(join(dir, 'second-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,same_case,\n');
      expect(() => importLabels(dir, items, () => '')).toThrow('line 2: label same_case without deciding phrases');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports from several folders (round 4: clusters-02a); an item read twice as one reading names both files', () => {
    const [one, two] = [mkdtempSync(join(tmpdir(), 'labels-')), mkdtempSync(join(tmpdir(), 'labels-'))];
    try {
      const items: Item[] = [
        { item: 'R001', kind: 'pair', ids: [10, 20], stratum: 'linked', part: 'fresh_tuning', second: true },
        { item: 'Q01', kind: 'cluster', ids: [40, 41], stratum: 'cluster', part: 'clusters4', second: false },
      ];
      writeFileSync(join(one, 'measured-04.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,same_case,AGE 4 vs 4\n');
      writeFileSync(join(two, 'clusters-02a.csv'), 'item_id,vaers_ids,label,deciding_phrases,same_case_groups\nQ01,40 41,same_case,SPLTTYPE WAES1 both,\n');
      expect(importLabels([one, two], items, (file) => `reader of ${file}`)).toBe([
        'item_id,vaers_ids,reading,label,deciding_phrases,same_case_groups,labelled_by',
        'R001,10 20,first,same_case,AGE 4 vs 4,,reader of measured-04.csv',
        'Q01,40 41,first,same_case,SPLTTYPE WAES1 both,,reader of clusters-02a.csv',
        '',
      ].join('\n'));
      writeFileSync(join(two, 'measured-01.csv'), 'item_id,vaers_ids,label,deciding_phrases\nR001,10 20,undecidable,no age\n');
      expect(() => importLabels([one, two], items, () => '')).toThrow(`${join(two, 'measured-01.csv')} line 2: item R001 has a first reading already (${join(one, 'measured-04.csv')} line 2)`);
    } finally {
      rmSync(one, { recursive: true, force: true });
      rmSync(two, { recursive: true, force: true });
    }
  });

  it('counts packet measured-04 of the fresh set as tuning data, the rest of it as measured, round 4\'s clusters apart', () => {
    const { items } = labelledSet(root);
    const tuned = readFileSync('test/fixtures/linkage/readings-43-fresh/measured-04.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]);
    expect(tuned).toHaveLength(50);
    expect(items.filter((it) => it.part === 'fresh_tuning').map((it) => it.item).sort()).toEqual([...tuned].sort());
    expect(items.filter((it) => it.part === 'fresh' && it.kind === 'pair')).toHaveLength(250);
    expect(items.filter((it) => it.part === 'clusters4' && it.kind === 'cluster')).toHaveLength(60);
  });

  /** A round's draw: `pairCount` pairs of part `pairs` and `count` clusters of part `clusters`, no pair of its reports an item read before (`later`: parts read after it, left out). */
  const expectFreshDraw = (pairs: Item['part'], clusters: Item['part'], later: ReadonlyArray<Item['part']>, count = 60, pairCount = 250): void => {
    const { items, readings } = labelledSet(root);
    const round = items.filter((it) => it.part === pairs || it.part === clusters);
    expect(round.filter((it) => it.kind === 'pair' && it.part === pairs)).toHaveLength(pairCount);
    expect(round.filter((it) => it.kind === 'cluster' && it.part === clusters)).toHaveLength(count);
    const key = (ids: number[]): string[] => ids.flatMap((x, k) => ids.slice(k + 1).map((y) => `${Math.min(x, y)}-${Math.max(x, y)}`));
    const read = new Set(items.filter((it) => !round.includes(it) && !later.includes(it.part) && readings.some((r) => r.item === it.item)).flatMap((it) => key(it.ids)));
    expect(round.flatMap((it) => key(it.ids)).filter((k) => read.has(k))).toEqual([]);
  };

  it('counts round 5\'s draw as a measured set: 250 pairs and 60 clusters, none labelled before (round 1\'s items, round 3\'s pairs, round 4\'s clusters)', () => {
    expectFreshDraw('round5', 'clusters5', ['round6', 'clusters6', 'round7', 'clusters7', 'round8', 'clusters8', 'round9', 'clusters9']);
  });

  it('counts round 6\'s draw as a measured set: 250 pairs and 60 clusters, none labelled in rounds 1-5 (round 5\'s all read)', () => {
    const { items, readings } = labelledSet(root);
    expect(items.filter((it) => it.part === 'round5' || it.part === 'clusters5').every((it) => readings.some((r) => r.item === it.item))).toBe(true);
    expectFreshDraw('round6', 'clusters6', ['round7', 'clusters7', 'round8', 'clusters8', 'round9', 'clusters9']);
  });

  it('counts round 7\'s draw as a measured set: 250 pairs and 80 clusters, none labelled in rounds 1-6 (round 6\'s all read), 50 pairs marked for the second reading', () => {
    const { items, readings } = labelledSet(root);
    expect(items.filter((it) => it.part === 'round6' || it.part === 'clusters6').every((it) => readings.some((r) => r.item === it.item))).toBe(true);
    expectFreshDraw('round7', 'clusters7', ['round8', 'clusters8', 'round9', 'clusters9'], 80);
    expect(items.filter((it) => it.part === 'round7' && it.second)).toHaveLength(50);
  });

  it('counts round 8\'s draw as a measured set: 200 pairs and 80 clusters, none labelled in rounds 1-7 (round 7\'s all read), 40 pairs marked for the second reading', () => {
    const { items, readings } = labelledSet(root);
    expect(items.filter((it) => it.part === 'round7' || it.part === 'clusters7').every((it) => readings.some((r) => r.item === it.item))).toBe(true);
    expectFreshDraw('round8', 'clusters8', ['round9', 'clusters9'], 80, 200);
    expect(items.filter((it) => it.part === 'round8' && it.second)).toHaveLength(40);
  });

  it('counts round 9\'s draw as the measured set: 200 pairs and 80 clusters, none labelled in rounds 1-8 (round 8\'s all read), 40 pairs marked for the second reading', () => {
    const { items, readings } = labelledSet(root);
    expect(items.filter((it) => it.part === 'round8' || it.part === 'clusters8').every((it) => readings.some((r) => r.item === it.item))).toBe(true);
    expectFreshDraw('round9', 'clusters9', [], 80, 200);
    expect(items.filter((it) => it.part === 'round9' && it.second)).toHaveLength(40);
  });

  it('weights each stratum\'s decided pairs back to its pool: precision 1/2, recall 1/11 on a hand-worked draw', () => {
    const pair = (item: string, ids: number[], stratum: string): Item => ({ item, kind: 'pair', ids, stratum, part: 'fresh', second: false });
    const items = [pair('R1', [1, 2], 'linked'), pair('R2', [3, 4], 'linked'), pair('R3', [5, 6], 'w40'), pair('R4', [7, 8], 'w40'), pair('R5', [9, 10], 'w40')];
    const read = (item: string, label: Reading['label']): [string, Reading] => [item, { item, reading: 'first', label, phrases: 'x', groups: [], unplaced: [], by: '' }];
    const labels = new Map([read('R1', 'same_case'), read('R2', 'different_patients'), read('R3', 'same_case'), read('R4', 'different_patients'), read('R5', 'undecidable')]);
    // linked: pool 100, 2 decided -> 50 each: 50 same and linked, 50 different and linked; w40: pool 1000, 2 decided -> 500 each: 500 same, not linked
    const together = (a: number): boolean => a <= 4;
    const w = weightedFigures(items, labels, 'fresh', [{ stratum: 'linked', pool: 100, drawn: 2 }, { stratum: 'w40', pool: 1000, drawn: 3 }], together);
    expect(w.sameCasePairs).toBe(550);
    expect(w.precision).toBe(0.5);
    expect(w.recall).toBeCloseTo(1 / 11, 12);
  });
});
