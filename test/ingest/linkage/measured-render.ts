/**
 * The figures of issue 43's labelled set as docs/duplicates.md and `GET /analyses` show them
 * (scripts/linkage-measure.ts writes both; test/ingest/linkage/measured-page.test.ts checks them),
 * computed by test/ingest/linkage/measure.ts from the fixtures and the linkage's recorded verdicts
 * (test/fixtures/linkage/verdicts-43.json: per labelled VAERS_ID, its cluster's representative).
 */
import { clusterFigures, labelledSet, labelsOfRecord, pairFigures, secondReading, type ClusterFigures, type PairFigures, type Proportion } from './measure.js';

/** Per labelled VAERS_ID, the VAERS_ID of its cluster's representative under the linkage measured; `clusters`: the clusters of two or more reports of the default store. */
export type Verdicts = Record<string, number>;

/** Everything the page and the served constant show. */
export interface MeasuredFigures {
  /** Labelled items per part, stratum and label of record (`unlabelled` when no reading yet). */
  counts: Array<{ part: string; stratum: string; same_case: number; different_patients: number; undecidable: number; unlabelled: number }>;
  pairs: { before: PairFigures; now: PairFigures; tuning: PairFigures };
  clusters: { before: ClusterFigures; now: ClusterFigures };
  second: ReturnType<typeof secondReading>;
  /** The same over the measured part's pairs alone (first reading by the blind reader). */
  secondMeasured: ReturnType<typeof secondReading>;
  /** Clusters of two or more reports the linkage makes of the default store. */
  default_store_clusters: number;
}

/** The figures (see MeasuredFigures) for the fixtures under `root`, the linkage's `verdicts` and its cluster count. */
export function measuredFigures(root: string, verdicts: Verdicts, clusters: number): MeasuredFigures {
  const { items, readings } = labelledSet(root);
  const labels = labelsOfRecord(readings);
  const counts = new Map<string, MeasuredFigures['counts'][number]>();
  for (const it of items) {
    const key = `${it.part}|${it.stratum}`;
    const row = counts.get(key) ?? { part: it.part, stratum: it.stratum, same_case: 0, different_patients: 0, undecidable: 0, unlabelled: 0 };
    const label = labels.get(it.item)?.label;
    row[label ?? 'unlabelled']++;
    counts.set(key, row);
  }
  const now = (a: number, b: number): boolean => verdicts[a] !== undefined && verdicts[a] === verdicts[b];
  const drawnLinked = new Set(items.filter((it) => it.stratum === 'linked').map((it) => it.ids.join('-')));
  const before = (a: number, b: number): boolean => drawnLinked.has(`${Math.min(a, b)}-${Math.max(a, b)}`);
  return {
    counts: [...counts.values()].sort((x, y) => x.part.localeCompare(y.part) || x.stratum.localeCompare(y.stratum)),
    pairs: { before: pairFigures(items, labels, 'measured', before), now: pairFigures(items, labels, 'measured', now), tuning: pairFigures(items, labels, 'tuning', now) },
    clusters: { before: clusterFigures(items, labels, () => 0), now: clusterFigures(items, labels, (id) => verdicts[id] ?? -id) },
    second: secondReading(items, readings),
    secondMeasured: secondReading(items, readings, 'measured'),
    default_store_clusters: clusters,
  };
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const show = (p: Proportion): string => (p.n === 0 ? 'n/a (0 of 0)' : `${f3(p.value)} (${p.k} of ${p.n}; Wilson 95% ${f3(p.low)}-${f3(p.high)})`);

/** The figures block of docs/duplicates.md. */
export function renderPage(m: MeasuredFigures): string {
  const lines = [
    '| part | stratum | same case | different patients | undecidable | not yet read |',
    '|---|---|---|---|---|---|',
    ...m.counts.map((c) => `| ${c.part} | ${c.stratum} | ${c.same_case} | ${c.different_patients} | ${c.undecidable} | ${c.unlabelled} |`),
    '',
    '| figure | before (the linkage of the draw) | now |',
    '|---|---|---|',
    `| pairwise precision, measured part | ${show(m.pairs.before.precision)} | ${show(m.pairs.now.precision)} |`,
    `| pairwise recall, measured part | ${show(m.pairs.before.recall)} | ${show(m.pairs.now.recall)} |`,
    `| precision of the random clusters | ${show(m.clusters.before.precision)} | ${show(m.clusters.now.precision)} |`,
    `| same-case random clusters still whole | ${show(m.clusters.before.sameWhole)} | ${show(m.clusters.now.sameWhole)} |`,
    `| pairwise precision, tuning part | | ${show(m.pairs.tuning.precision)} |`,
    `| pairwise recall, tuning part | | ${show(m.pairs.tuning.recall)} |`,
    '',
    `Random clusters: ${m.clusters.now.clusters} drawn, ${m.clusters.now.decidedClusters} decided. Clusters of two or more reports in the default store now: ${m.default_store_clusters}.`,
    `Second reading: ${m.second.pairs} pairs read twice (${m.secondMeasured.pairs} of the measured part), agreement ${f3(m.second.agreement)}, Cohen's kappa ${f3(m.second.kappa)} (measured part: agreement ${f3(m.secondMeasured.agreement)}, kappa ${f3(m.secondMeasured.kappa)}); disagreements (first/second): ${m.second.disagreements.join('; ') || 'none'}.`,
    `Measured pairs the linkage gets wrong now: ${m.pairs.now.wrong.join('; ') || 'none'}. Cluster groups wrong now: ${m.clusters.now.wrong.join('; ') || 'none'}.`,
  ];
  return lines.join('\n');
}

const START = '<!-- linkage-measured:start -->';
const END = '<!-- linkage-measured:end -->';

/** `doc` with its block between the markers replaced by `block` (markers appended when absent). */
export function spliceDocs(doc: string, block: string): string {
  const inner = `${START}\n${block}\n${END}`;
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < 0) return `${doc.trimEnd()}\n\n${inner}\n`;
  return `${doc.slice(0, from)}${inner}${doc.slice(to + END.length)}`;
}

/** The block of docs/duplicates.md between the markers ('' when absent). */
export function docsBlock(doc: string): string {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  return from < 0 || to < 0 ? '' : doc.slice(from + START.length + 1, to - 1);
}

/** The figures served by `GET /analyses` (`linkage.measured`): proportions with their intervals, rounded to 4 places. */
export function servedFigures(m: MeasuredFigures): Record<string, unknown> {
  const p = (x: Proportion): Record<string, number> => ({ k: x.k, n: x.n, value: round(x.value), wilson_low: round(x.low), wilson_high: round(x.high) });
  return {
    labelled_set: 'test/fixtures/linkage/labelled-43.csv (docs/duplicates.md, "The labelled set")',
    pair_precision: p(m.pairs.now.precision), pair_recall: p(m.pairs.now.recall), cluster_precision: p(m.clusters.now.precision), same_case_clusters_whole: p(m.clusters.now.sameWhole),
    pair_precision_before: p(m.pairs.before.precision), pair_recall_before: p(m.pairs.before.recall), cluster_precision_before: p(m.clusters.before.precision),
    second_reading_pairs: m.second.pairs, kappa: round(m.second.kappa), kappa_measured_part: round(m.secondMeasured.kappa),
  };
}
const round = (x: number): number => (Number.isFinite(x) ? Math.round(x * 10000) / 10000 : -1);

/** src/serve/signals/linkage-measured.ts as the script writes it. */
export function renderDomainModule(m: MeasuredFigures): string {
  return `/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the measured part and precision of the random clusters,
 * each with its Wilson 95% interval (k of n), before and now, and Cohen's kappa of the second
 * reading (-1: not available). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by \`GET /analyses\` as
 * \`linkage.measured\`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = ${JSON.stringify(servedFigures(m), null, 2)};
`;
}
