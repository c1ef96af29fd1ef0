/**
 * The figures of issue 43's labelled set (test/fixtures/linkage/sample-43.csv, the items drawn by
 * scripts/linkage-sample.ts; test/fixtures/linkage/labelled-43.csv, their labels; protocol in
 * docs/duplicates.md, "The labelled set") for a linkage given by its cluster representatives.
 * Pure functions: scripts/linkage-measure.ts links the reports and writes the figures.
 *
 * - **Label of record** of an item: its `resolved` reading when there is one (a disagreement
 *   between the two readings resolved by a third reader), else its `first` reading.
 * - **Pairs** (measured part, decided labels only): predicted one case when the linkage puts both
 *   reports in one cluster; precision = predicted-and-same / predicted, recall =
 *   predicted-and-same / same.
 * - **Clusters** (the random clusters, all measured): each labelled cluster is cut by the
 *   linkage into the groups of its members it keeps together (two or more members); a group is
 *   right when its members lie in one same-case group of the label (`same_case`: every member;
 *   `different_patients`: `same_case_groups`), wrong when they do not; a cluster labelled
 *   undecidable, or a group whose members the label leaves unplaced (`?`), is left out.
 *   Precision = right groups / decided groups. "Before" is the clusters as drawn (each cluster
 *   one group).
 * - **Wilson** 95% intervals (Wilson 1927, "Probable inference, the law of succession, and
 *   statistical inference", JASA 22:209-212): (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) /
 *   (1 + z^2/n), z = 1.959964.
 * - **Cohen's kappa** (Cohen 1960, "A coefficient of agreement for nominal scales", Educational
 *   and Psychological Measurement 20:37-46) between the `first` and `second` readings of the
 *   doubly read pairs over the three labels: (p_o - p_e) / (1 - p_e).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { wilson as wilsonInterval } from '../../../src/stats/wilson.js';

/** The three labels a reader gives. */
export type Label = 'same_case' | 'different_patients' | 'undecidable';

/**
 * One drawn item (sample-43.csv, round 1; sample-43-fresh.csv, round 3; sample-43-clusters4.csv,
 * round 4; sample-43-round5.csv, round 5; sample-43-round6.csv, round 6; sample-43-round7.csv, round 7; sample-43-round8.csv, round 8; sample-43-round9.csv, round 9). Parts: round 1's `tuning` and `measured` (both tuning data since round 3: its
 * measured labels were seen before the rules were retuned, so its figures are post hoc); round
 * 3's `fresh` (drawn on the rules frozen for it, read blind, never tuned on: the measurement),
 * but for the 50 pairs of its packet measured-04, `fresh_tuning` (read and tuned on in round 4:
 * post hoc, FRESH_TUNING lists them); round 4's `clusters4` (random clusters drawn on the rules
 * frozen for round 4, read blind). Since round 5 the parts `fresh`, `fresh_tuning` and `clusters4`
 * are tuning data too (their labels were seen before the rules were retuned: post hoc); round 5's
 * `round5` (candidate pairs) and `clusters5` (random clusters), drawn on the rules frozen for round
 * 5 (sample-43-round5.csv) and read blind, were its measurement, and are tuning data since round
 * 6; round 6's `round6` and `clusters6` (sample-43-round6.csv), drawn on the rules frozen for
 * round 6 and read blind, were its measurement, and are tuning data since round 7; round 7's
 * `round7` and `clusters7` (sample-43-round7.csv), drawn on the rules frozen for round 7 and read
 * blind, were its measurement, and are tuning data since round 8; round 8's `round8` and
 * `clusters8` (sample-43-round8.csv), drawn on the rules frozen for round 8 and read blind, were its
 * measurement, and are tuning data since round 9; round 9's `round9` and `clusters9`
 * (sample-43-round9.csv), drawn on the rules frozen for round 9 and read blind, are the measurement.
 */
export interface Item {
  item: string;
  kind: 'pair' | 'cluster';
  ids: number[];
  stratum: string;
  part: 'tuning' | 'measured' | 'fresh' | 'fresh_tuning' | 'clusters4' | 'round5' | 'clusters5' | 'round6' | 'clusters6' | 'round7' | 'clusters7' | 'round8' | 'clusters8' | 'round9' | 'clusters9';
  second: boolean;
}

/** The item lists and label files of the labelled set (test/fixtures/linkage). */
export const SAMPLES = ['sample-43.csv', 'sample-43-fresh.csv', 'sample-43-clusters4.csv', 'sample-43-round5.csv', 'sample-43-round6.csv', 'sample-43-round7.csv', 'sample-43-round8.csv', 'sample-43-round9.csv'] as const;
export const LABELS = ['labelled-43.csv', 'labelled-43-fresh.csv'] as const;
/** The readings whose items are tuning data since round 4 (packet measured-04 of the fresh set, read in round 3 and tuned on). */
export const FRESH_TUNING = 'readings-43-fresh/measured-04.csv';

/** One reading of one item (labelled-43.csv). */
export interface Reading {
  item: string;
  reading: 'first' | 'second' | 'resolved';
  label: Label;
  phrases: string;
  /** Same-case groups of a cluster's members (`?` groups: unplaced), empty when not given. */
  groups: number[][];
  unplaced: number[];
  by: string;
}

/** The items and readings of the fixtures under `root` (the repository); a label file not yet written holds no reading. */
export function labelledSet(root: string): { items: Item[]; readings: Reading[] } {
  const csv = (name: string): Array<Record<string, string>> => {
    const path = join(root, 'test/fixtures/linkage', name);
    return existsSync(path) ? parse(readFileSync(path), { columns: true }) as Array<Record<string, string>> : [];
  };
  const tuned = new Set(csv(FRESH_TUNING).map((r) => r.item_id));
  const partOf = (name: string, r: Record<string, string>): Item['part'] => (name === 'sample-43-fresh.csv' ? (tuned.has(r.item_id) ? 'fresh_tuning' : 'fresh')
    : name === 'sample-43-clusters4.csv' ? 'clusters4' : name === 'sample-43-round5.csv' ? (r.kind === 'pair' ? 'round5' : 'clusters5')
      : name === 'sample-43-round6.csv' ? (r.kind === 'pair' ? 'round6' : 'clusters6')
        : name === 'sample-43-round7.csv' ? (r.kind === 'pair' ? 'round7' : 'clusters7')
          : name === 'sample-43-round8.csv' ? (r.kind === 'pair' ? 'round8' : 'clusters8')
            : name === 'sample-43-round9.csv' ? (r.kind === 'pair' ? 'round9' : 'clusters9') : r.part as Item['part']);
  const items = SAMPLES.flatMap((name) => csv(name).map((r): Item => ({
    item: r.item_id, kind: r.kind as Item['kind'], ids: r.vaers_ids.split(' ').map(Number), stratum: r.stratum,
    part: partOf(name, r), second: r.second_reading === 'true',
  })));
  const readings = LABELS.flatMap((name) => csv(name)).map((r): Reading => {
    const groups: number[][] = [];
    const unplaced: number[] = [];
    for (const g of (r.same_case_groups ?? '').split('|').map((x) => x.trim()).filter((x) => x !== '')) {
      const ids = g.split(/\s+/).filter((x) => x !== '?').map(Number);
      if (g.includes('?')) unplaced.push(...ids); else groups.push(ids);
    }
    return { item: r.item_id, reading: r.reading as Reading['reading'], label: r.label as Label, phrases: r.deciding_phrases, groups, unplaced, by: r.labelled_by };
  });
  return { items, readings };
}

/** A proportion with its Wilson 95% interval. */
export interface Proportion {
  k: number;
  n: number;
  value: number;
  low: number;
  high: number;
}

/** `k` of `n` with its Wilson 95% interval (value 1, interval [0, 1] when n is 0). */
export function wilson(k: number, n: number): Proportion {
  const w = wilsonInterval(k, n); // src/stats/wilson.ts: null estimate and bounds when n is 0
  return { k, n, value: w.estimate ?? 1, low: w.lower ?? 0, high: w.upper ?? 1 };
}

/** Cohen's kappa of two readings of the same items (labels per item, in order). */
export function cohenKappa(x: readonly string[], y: readonly string[]): number {
  const n = x.length;
  if (n === 0) return NaN;
  const labels = [...new Set([...x, ...y])];
  let agree = 0;
  for (let i = 0; i < n; i++) if (x[i] === y[i]) agree++;
  const po = agree / n;
  const pe = labels.reduce((s, l) => s + (x.filter((v) => v === l).length / n) * (y.filter((v) => v === l).length / n), 0);
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}

/** The label of record of each item (see the module header). */
export function labelsOfRecord(readings: readonly Reading[]): Map<string, Reading> {
  const out = new Map<string, Reading>();
  for (const r of readings) {
    if (r.reading === 'second') continue;
    const had = out.get(r.item);
    if (!had || r.reading === 'resolved') out.set(r.item, r);
  }
  return out;
}

/** Pairwise figures of one part. */
export interface PairFigures {
  decided: number;
  same: number;
  precision: Proportion;
  recall: Proportion;
  /** Decided pairs the linkage gets wrong: `item a-b label`. */
  wrong: string[];
}

/** Pairwise precision and recall over the pairs of `part` (see the module header). `together(a, b)`: whether the linkage puts the two VAERS_IDs in one cluster. */
export function pairFigures(items: readonly Item[], labels: ReadonlyMap<string, Reading>, part: Item['part'], together: (a: number, b: number) => boolean): PairFigures {
  let decided = 0;
  let same = 0;
  let predicted = 0;
  let correct = 0;
  const wrong: string[] = [];
  for (const it of items) {
    const label = labels.get(it.item)?.label;
    if (it.kind !== 'pair' || it.part !== part || label === undefined || label === 'undecidable') continue;
    decided++;
    const linked = together(it.ids[0], it.ids[1]);
    if (label === 'same_case') same++;
    if (linked) predicted++;
    if (linked && label === 'same_case') correct++;
    if (linked !== (label === 'same_case')) wrong.push(`${it.item} ${it.ids.join('-')} ${label}`);
  }
  return { decided, same, precision: wilson(correct, predicted), recall: wilson(correct, same), wrong };
}

/** Cluster figures: the decided groups and the right ones, over the labelled clusters. */
export interface ClusterFigures {
  clusters: number;
  decidedClusters: number;
  precision: Proportion;
  /** The clusters labelled same_case that the linkage still keeps whole (k of n). */
  sameWhole: Proportion;
  /** The groups judged wrong: `item ids`. */
  wrong: string[];
}

/**
 * Precision of the random clusters for a linkage (see the module header): `groupOf(id)` is the
 * cluster key of a VAERS_ID under that linkage.
 */
export function clusterFigures(items: readonly Item[], labels: ReadonlyMap<string, Reading>, groupOf: (id: number) => number, part?: Item['part']): ClusterFigures {
  let decidedClusters = 0;
  let decided = 0;
  let right = 0;
  const wrong: string[] = [];
  let clusters = 0;
  let same = 0;
  let whole = 0;
  for (const it of items) {
    if (it.kind !== 'cluster' || (part !== undefined && it.part !== part)) continue;
    clusters++;
    const label = labels.get(it.item);
    if (!label || label.label === 'undecidable') continue;
    if (label.label === 'same_case') {
      same++;
      if (it.ids.every((id) => groupOf(id) === groupOf(it.ids[0]))) whole++;
    }
    const sameGroups = label.label === 'same_case' ? [it.ids] : label.groups;
    if (label.label === 'different_patients' && sameGroups.length === 0 && label.unplaced.length === 0) {
      // Different patients with no groups given: each member its own case.
      sameGroups.push(...it.ids.map((id) => [id]));
    }
    decidedClusters++;
    const byKey = new Map<number, number[]>();
    for (const id of it.ids) byKey.set(groupOf(id), [...(byKey.get(groupOf(id)) ?? []), id]);
    for (const members of byKey.values()) {
      if (members.length < 2) continue;
      if (members.some((id) => label.unplaced.includes(id))) continue;
      decided++;
      const one = sameGroups.some((g) => members.every((id) => g.includes(id)));
      if (one) right++; else wrong.push(`${it.item} ${members.join(' ')}`);
    }
  }
  return { clusters, decidedClusters, precision: wilson(right, decided), sameWhole: wilson(whole, same), wrong };
}

/** Kappa of the doubly read items (of the parts `part`, or all) and their disagreements (`item ids first/second`). */
export function secondReading(items: readonly Item[], readings: readonly Reading[], part?: Item['part'] | ReadonlyArray<Item['part']>): { pairs: number; kappa: number; agreement: number; disagreements: string[] } {
  const first = new Map(readings.filter((r) => r.reading === 'first').map((r) => [r.item, r]));
  const second = new Map(readings.filter((r) => r.reading === 'second').map((r) => [r.item, r]));
  const x: string[] = [];
  const y: string[] = [];
  const disagreements: string[] = [];
  for (const it of items) {
    const a = first.get(it.item);
    const b = second.get(it.item);
    if (!a || !b || (part !== undefined && !(typeof part === 'string' ? [part] : part).includes(it.part))) continue;
    x.push(a.label);
    y.push(b.label);
    if (a.label !== b.label) disagreements.push(`${it.item} ${it.ids.join('-')} ${a.label}/${b.label}`);
  }
  return { pairs: x.length, kappa: cohenKappa(x, y), agreement: x.length === 0 ? NaN : (x.length - disagreements.length) / x.length, disagreements };
}

/** The readings a label file holds: `first` (measured-NN.csv, clusters-NN.csv, clusters-NNa.csv), `second` (second-NN.csv), `resolved` (resolved*.csv). */
function readingOfFile(name: string): Reading['reading'] | undefined {
  if (/^(?:measured-\d+|clusters-\d+[a-z]?)\.csv$/.test(name)) return 'first';
  if (/^second-\d+\.csv$/.test(name)) return 'second';
  if (/^resolved.*\.csv$/.test(name)) return 'resolved';
  return undefined;
}

/**
 * The readers' label files of the folders `dirs` (the packets' templates filled: `item_id,vaers_ids,label,
 * deciding_phrases[,same_case_groups]`) as rows of labelled-43-fresh.csv (`item_id,vaers_ids,
 * reading,label,deciding_phrases,same_case_groups,labelled_by`; `by`: who read, per file name).
 * Rows left empty (no label yet) are skipped. Throws, naming the file and line, on an item not
 * in `items`, VAERS_IDs other than the item's, a label not among the three, a label without
 * deciding phrases, a group naming a VAERS_ID outside the cluster, or an item read twice as the
 * same reading (two files, or two folders, holding one packet).
 */
export function importLabels(dirs: string | readonly string[], items: readonly Item[], by: (file: string) => string): string {
  const itemOf = new Map(items.map((it) => [it.item, it]));
  const rows: string[][] = [];
  const read = new Map<string, string>();
  const files = (typeof dirs === 'string' ? [dirs] : dirs).flatMap((dir) => readdirSync(dir).sort().map((name) => [dir, name] as const));
  for (const [dir, name] of files) {
    const reading = readingOfFile(name);
    if (reading === undefined) continue;
    const records = parse(readFileSync(join(dir, name)), { columns: true, info: true, skip_empty_lines: true, relax_column_count: true }) as Array<{ record: Record<string, string>; info: { lines: number } }>;
    for (const { record: r, info } of records) {
      const where = `${join(dir, name)} line ${info.lines}`;
      const label = (r.label ?? '').trim();
      if (label === '') continue;
      const it = itemOf.get((r.item_id ?? '').trim());
      if (!it) throw new Error(`${where}: item ${r.item_id} is not in the drawn set`);
      if ((r.vaers_ids ?? '').trim().split(/\s+/).map(Number).join(' ') !== it.ids.join(' ')) throw new Error(`${where}: VAERS_IDs ${r.vaers_ids} are not item ${it.item}'s (${it.ids.join(' ')})`);
      if (!['same_case', 'different_patients', 'undecidable'].includes(label)) throw new Error(`${where}: label ${label} is none of same_case, different_patients, undecidable`);
      const phrases = (r.deciding_phrases ?? '').trim();
      if (phrases === '') throw new Error(`${where}: label ${label} without deciding phrases`);
      const groups = (r.same_case_groups ?? '').trim();
      const named = groups.split(/[\s|]+/).filter((x) => x !== '' && x !== '?').map(Number);
      if (named.some((id) => !it.ids.includes(id))) throw new Error(`${where}: same_case_groups ${groups} names a VAERS_ID outside item ${it.item}`);
      const had = read.get(`${it.item} ${reading}`);
      if (had !== undefined) throw new Error(`${where}: item ${it.item} has a ${reading} reading already (${had})`);
      read.set(`${it.item} ${reading}`, where);
      rows.push([it.item, it.ids.join(' '), reading, label, phrases, groups, by(name)]);
    }
  }
  const cell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return `item_id,vaers_ids,reading,label,deciding_phrases,same_case_groups,labelled_by\n${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`;
}

/** One stratum of a draw: its pool of candidate pairs and the pairs drawn from it (`<sample>-strata.csv`). */
export interface Stratum {
  stratum: string;
  pool: number;
  drawn: number;
}

/** The strata of a draw (`file`: sample-43-fresh-strata.csv, round 3's; sample-43-round5-strata.csv, round 5's; sample-43-round6-strata.csv, round 6's; sample-43-round7-strata.csv, round 7's; sample-43-round8-strata.csv, round 8's; sample-43-round9-strata.csv, round 9's) under `root`, empty when absent. */
export function drawStrata(root: string, file = 'sample-43-round9-strata.csv'): Stratum[] {
  const path = join(root, 'test/fixtures/linkage', file);
  if (!existsSync(path)) return [];
  return (parse(readFileSync(path), { columns: true }) as Array<Record<string, string>>).map((r) => ({ stratum: r.stratum, pool: Number(r.pool), drawn: Number(r.drawn) }));
}

/**
 * Design-weighted pairwise figures of one part over all candidate pairs (the stratified draw
 * undone: each decided pair of stratum s stands for pool_s / decided_s candidate pairs, the
 * undecided taken as missing at random within their stratum; Horvitz-Thompson ratio estimates,
 * Cochran 1977, "Sampling techniques", ch. 5): the estimated same-case candidate pairs, precision
 * and recall. Point estimates (no interval); NaN when nothing is decided.
 */
export function weightedFigures(items: readonly Item[], labels: ReadonlyMap<string, Reading>, part: Item['part'], strata: readonly Stratum[],
  together: (a: number, b: number) => boolean): { sameCasePairs: number; precision: number; recall: number } {
  let same = 0;
  let predicted = 0;
  let correct = 0;
  for (const { stratum, pool } of strata) {
    const decided = items.filter((it) => it.kind === 'pair' && it.part === part && it.stratum === stratum && [undefined, 'undecidable'].indexOf(labels.get(it.item)?.label) < 0);
    if (decided.length === 0) continue;
    const w = pool / decided.length;
    for (const it of decided) {
      const isSame = labels.get(it.item)!.label === 'same_case';
      const linked = together(it.ids[0], it.ids[1]);
      if (isSame) same += w;
      if (linked) predicted += w;
      if (linked && isSame) correct += w;
    }
  }
  return { sameCasePairs: same, precision: predicted === 0 ? NaN : correct / predicted, recall: same === 0 ? NaN : correct / same };
}
