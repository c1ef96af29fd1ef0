/**
 * The figures of issue 43's labelled set as docs/duplicates.md and `GET /analyses` show them
 * (scripts/linkage-measure.ts writes both; test/ingest/linkage/measured-page.test.ts checks them),
 * computed by test/ingest/linkage/measure.ts from the fixtures and the linkage's recorded verdicts
 * (test/fixtures/linkage/verdicts-43.json: per labelled VAERS_ID, its cluster's representative).
 */
import { clusterFigures, drawStrata, labelledSet, labelsOfRecord, pairFigures, secondReading, weightedFigures, type ClusterFigures, type Item, type PairFigures, type Proportion } from './measure.js';

/** The round measured (its items read blind, the rules frozen before they were drawn) and the commit of those rules. */
export const MEASURED_ROUND = { round: 9, rules: '67ffa82' } as const;

/** Per labelled VAERS_ID, the VAERS_ID of its cluster's representative under the linkage measured; `clusters`: the clusters of two or more reports of the default store. */
export type Verdicts = Record<string, number>;

/** Everything the page and the served constant show. */
export interface MeasuredFigures {
  /** Labelled items per part, stratum and label of record (`unlabelled` when no reading yet). */
  counts: Array<{ part: string; stratum: string; same_case: number; different_patients: number; undecidable: number; unlabelled: number }>;
  /**
   * Pairs: `round9`, round 9's candidate pairs (read blind, drawn on the rules frozen for round 9:
   * the measurement); `round8`, round 8's (tuning data since round 9, post hoc); `round7`, round 7's (tuning data since round 8, post hoc); `round6`, round 6's (tuning data since round 7, post hoc); `round5`, round 5's (tuning data since round 6, post hoc); `fresh`, round 3's fresh pairs (packet measured-04 left out) under today's
   * rules (tuning data since round 5, post hoc); `freshBefore`, those pairs under the linkage of
   * their draw (round 3's rules, f07a070: the `linked` stratum); `freshTuning`, measured-04's pairs
   * under today's rules (tuning data since round 4, post hoc); `postHoc`, round 1's measured part
   * under today's rules (tuning data since round 3); `before`, that part under the linkage of its
   * draw; `tuning`, round 1's tuning part.
   */
  pairs: { round9: PairFigures; round8: PairFigures; round7: PairFigures; round6: PairFigures; round5: PairFigures; fresh: PairFigures; freshBefore: PairFigures; freshTuning: PairFigures; before: PairFigures; postHoc: PairFigures; tuning: PairFigures };
  /**
   * Random clusters: `round9` (drawn from the clusters of the rules frozen for round 9, read blind:
   * the measurement), `round8` (round 8's, cut by today's rules: post hoc since round 9), `round7` (round 7's, cut by today's rules: post hoc since round 8), `round6` (round 6's, cut by today's rules: post hoc since round 7), `round5` (round 5's, cut by today's rules: post hoc since round 6), `round4` (round 4's, cut by today's rules: post hoc since round 5), `fresh`
   * (round 3's, never read), `postHoc` (round 1's, cut by today's rules), `before` (round 1's as drawn).
   */
  clusters: { round9: ClusterFigures; round8: ClusterFigures; round7: ClusterFigures; round6: ClusterFigures; round5: ClusterFigures; round4: ClusterFigures; fresh: ClusterFigures; before: ClusterFigures; postHoc: ClusterFigures };
  /** Round 9's pairwise figures weighted back to all candidate pairs (measure.ts weightedFigures, its draw's strata). */
  weighted: ReturnType<typeof weightedFigures>;
  /** Second readings: round 9's doubly read pairs (40 of its pairs drawn at random, read blind by another reader), round 8's (40 of its pairs; tuning data since round 9), round 7's (50 of its pairs; tuning data since round 8), round 6's (a blind sample of its pairs; tuning data since round 7), round 5's (50 of its pairs), round 3's (measured-04's among them: a second reading tunes nothing), round 1's (all), round 1's measured part. */
  secondRound9: ReturnType<typeof secondReading>;
  secondRound8: ReturnType<typeof secondReading>;
  secondRound7: ReturnType<typeof secondReading>;
  secondRound6: ReturnType<typeof secondReading>;
  secondRound5: ReturnType<typeof secondReading>;
  secondFresh: ReturnType<typeof secondReading>;
  second: ReturnType<typeof secondReading>;
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
  // "Before": the pairs the linkage of each draw linked (its `linked` stratum): round 1's (issue 32's rules), the fresh set's (round 3's, f07a070).
  const linkedAt = (parts: ReadonlyArray<Item['part']>): ((a: number, b: number) => boolean) => {
    const drawn = new Set(items.filter((it) => it.stratum === 'linked' && parts.includes(it.part)).map((it) => it.ids.join('-')));
    return (a, b) => drawn.has(`${Math.min(a, b)}-${Math.max(a, b)}`);
  };
  const before = linkedAt(['tuning', 'measured']);
  const groupOf = (id: number): number => verdicts[id] ?? -id;
  return {
    counts: [...counts.values()].sort((x, y) => x.part.localeCompare(y.part) || x.stratum.localeCompare(y.stratum)),
    pairs: {
      round9: pairFigures(items, labels, 'round9', now), round8: pairFigures(items, labels, 'round8', now), round7: pairFigures(items, labels, 'round7', now), round6: pairFigures(items, labels, 'round6', now), round5: pairFigures(items, labels, 'round5', now), fresh: pairFigures(items, labels, 'fresh', now), freshBefore: pairFigures(items, labels, 'fresh', linkedAt(['fresh', 'fresh_tuning'])),
      freshTuning: pairFigures(items, labels, 'fresh_tuning', now),
      before: pairFigures(items, labels, 'measured', before), postHoc: pairFigures(items, labels, 'measured', now), tuning: pairFigures(items, labels, 'tuning', now),
    },
    clusters: {
      round9: clusterFigures(items, labels, groupOf, 'clusters9'), round8: clusterFigures(items, labels, groupOf, 'clusters8'), round7: clusterFigures(items, labels, groupOf, 'clusters7'), round6: clusterFigures(items, labels, groupOf, 'clusters6'), round5: clusterFigures(items, labels, groupOf, 'clusters5'), round4: clusterFigures(items, labels, groupOf, 'clusters4'), fresh: clusterFigures(items, labels, groupOf, 'fresh'),
      before: clusterFigures(items, labels, () => 0, 'measured'), postHoc: clusterFigures(items, labels, groupOf, 'measured'),
    },
    weighted: weightedFigures(items, labels, 'round9', drawStrata(root), now),
    secondRound9: secondReading(items, readings, 'round9'),
    secondRound8: secondReading(items, readings, 'round8'),
    secondRound7: secondReading(items, readings, 'round7'),
    secondRound6: secondReading(items, readings, 'round6'),
    secondRound5: secondReading(items, readings, 'round5'),
    secondFresh: secondReading(items, readings, ['fresh', 'fresh_tuning']),
    second: secondReading(items, readings, ['tuning', 'measured']),
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
    `| figure | measured, read blind: round 9's pairs and random clusters, rules frozen for round 9 (${MEASURED_ROUND.rules}) | round 8's pairs and random clusters, post hoc (tuning data since round 9) | round 7's pairs and random clusters, post hoc (tuning data since round 8) | round 6's pairs and random clusters, post hoc (tuning data since round 7) | round 5's pairs and random clusters, post hoc (tuning data since round 6) | round 3's fresh pairs (measured-04 left out) and round 4's random clusters, post hoc (tuning data since round 5) | those fresh pairs under the linkage of their draw (round 3's rules) | measured-04, post hoc (tuning data since round 4) | round 1's measured part, post hoc (tuning data since round 3) | that part under the linkage of its draw |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| pairwise precision | ${show(m.pairs.round9.precision)} | ${show(m.pairs.round8.precision)} | ${show(m.pairs.round7.precision)} | ${show(m.pairs.round6.precision)} | ${show(m.pairs.round5.precision)} | ${show(m.pairs.fresh.precision)} | ${show(m.pairs.freshBefore.precision)} | ${show(m.pairs.freshTuning.precision)} | ${show(m.pairs.postHoc.precision)} | ${show(m.pairs.before.precision)} |`,
    `| pairwise recall | ${show(m.pairs.round9.recall)} | ${show(m.pairs.round8.recall)} | ${show(m.pairs.round7.recall)} | ${show(m.pairs.round6.recall)} | ${show(m.pairs.round5.recall)} | ${show(m.pairs.fresh.recall)} | ${show(m.pairs.freshBefore.recall)} | ${show(m.pairs.freshTuning.recall)} | ${show(m.pairs.postHoc.recall)} | ${show(m.pairs.before.recall)} |`,
    `| precision of the random clusters | ${show(m.clusters.round9.precision)} | ${show(m.clusters.round8.precision)} | ${show(m.clusters.round7.precision)} | ${show(m.clusters.round6.precision)} | ${show(m.clusters.round5.precision)} | ${show(m.clusters.round4.precision)} | - | - | ${show(m.clusters.postHoc.precision)} | ${show(m.clusters.before.precision)} |`,
    `| same-case random clusters still whole | ${show(m.clusters.round9.sameWhole)} | ${show(m.clusters.round8.sameWhole)} | ${show(m.clusters.round7.sameWhole)} | ${show(m.clusters.round6.sameWhole)} | ${show(m.clusters.round5.sameWhole)} | ${show(m.clusters.round4.sameWhole)} | - | - | ${show(m.clusters.postHoc.sameWhole)} | ${show(m.clusters.before.sameWhole)} |`,
    '',
    m.weighted.sameCasePairs === 0 && Number.isNaN(m.weighted.precision) ? 'Round 9\'s measured pairs weighted back to all candidate pairs: not yet read.'
      : `Round 9's measured pairs weighted back to all candidate pairs (each stratum's decided pairs standing for its pool; point estimates): about ${Math.round(m.weighted.sameCasePairs)} same-case candidate pairs, pairwise precision ${f3(m.weighted.precision)}, recall ${f3(m.weighted.recall)}.`,
    `Round 1's tuning part (post hoc): pairwise precision ${show(m.pairs.tuning.precision)}, recall ${show(m.pairs.tuning.recall)}.`,
    `Random clusters: round 9's ${m.clusters.round9.clusters} drawn, ${m.clusters.round9.decidedClusters} decided; round 8's ${m.clusters.round8.clusters} drawn, ${m.clusters.round8.decidedClusters} decided (post hoc); round 7's ${m.clusters.round7.clusters} drawn, ${m.clusters.round7.decidedClusters} decided (post hoc); round 6's ${m.clusters.round6.clusters} drawn, ${m.clusters.round6.decidedClusters} decided (post hoc); round 5's ${m.clusters.round5.clusters} drawn, ${m.clusters.round5.decidedClusters} decided (post hoc); round 4's ${m.clusters.round4.clusters} drawn, ${m.clusters.round4.decidedClusters} decided (post hoc); round 3's ${m.clusters.fresh.clusters} drawn (on round 3's rules), ${m.clusters.fresh.decidedClusters} decided; round 1's ${m.clusters.postHoc.clusters} drawn, ${m.clusters.postHoc.decidedClusters} decided. Clusters of two or more reports in the default store now: ${m.default_store_clusters}.`,
    `Second reading, round 9 (measured): ${m.secondRound9.pairs} pairs read twice by another blind reader, agreement ${f3(m.secondRound9.agreement)}, Cohen's kappa ${f3(m.secondRound9.kappa)}; disagreements (first/second): ${m.secondRound9.disagreements.join('; ') || 'none'}.`,
    `Second reading, round 8 (tuning data since round 9): ${m.secondRound8.pairs} pairs read twice by another blind reader, agreement ${f3(m.secondRound8.agreement)}, Cohen's kappa ${f3(m.secondRound8.kappa)}; disagreements (first/second): ${m.secondRound8.disagreements.join('; ') || 'none'}.`,
    `Second reading, round 7 (tuning data since round 8): ${m.secondRound7.pairs} pairs read twice by another blind reader, agreement ${f3(m.secondRound7.agreement)}, Cohen's kappa ${f3(m.secondRound7.kappa)}; disagreements (first/second; each resolved by a blind third reader): ${m.secondRound7.disagreements.join('; ') || 'none'}.`,
    `Second reading, round 6 (tuning data since round 7): ${m.secondRound6.pairs} pairs read twice by another blind reader, agreement ${f3(m.secondRound6.agreement)}, Cohen's kappa ${f3(m.secondRound6.kappa)}; disagreements (first/second; each resolved by a blind third reader): ${m.secondRound6.disagreements.join('; ') || 'none'}.`,
    `Second reading, round 5 (tuning data since round 6): ${m.secondRound5.pairs} pairs read twice by another blind reader, agreement ${f3(m.secondRound5.agreement)}, Cohen's kappa ${f3(m.secondRound5.kappa)}; disagreements (first/second; each resolved by a blind third reader): ${m.secondRound5.disagreements.join('; ') || 'none'}.`,
    `Second reading, fresh set (round 3's draw): ${m.secondFresh.pairs} pairs read twice, agreement ${f3(m.secondFresh.agreement)}, Cohen's kappa ${f3(m.secondFresh.kappa)}; disagreements (first/second): ${m.secondFresh.disagreements.join('; ') || 'none'}.`,
    `Second reading, round 1: ${m.second.pairs} pairs read twice (${m.secondMeasured.pairs} of the measured part), agreement ${f3(m.second.agreement)}, Cohen's kappa ${f3(m.second.kappa)} (measured part: agreement ${f3(m.secondMeasured.agreement)}, kappa ${f3(m.secondMeasured.kappa)}); disagreements (first/second): ${m.second.disagreements.join('; ') || 'none'}.`,
    `Round 9's measured pairs the linkage gets wrong: ${m.pairs.round9.wrong.join('; ') || 'none'}. Round 9's cluster groups wrong: ${m.clusters.round9.wrong.join('; ') || 'none'}.`,
    `Post hoc (tuning data since round 9): round 8's pairs wrong now: ${m.pairs.round8.wrong.join('; ') || 'none'}. Round 8's cluster groups wrong now: ${m.clusters.round8.wrong.join('; ') || 'none'}.`,
    `Post hoc (tuning data since round 8): round 7's pairs wrong now: ${m.pairs.round7.wrong.join('; ') || 'none'}. Round 7's cluster groups wrong now: ${m.clusters.round7.wrong.join('; ') || 'none'}.`,
    `Post hoc (tuning data since round 7): round 6's pairs wrong now: ${m.pairs.round6.wrong.join('; ') || 'none'}. Round 6's cluster groups wrong now: ${m.clusters.round6.wrong.join('; ') || 'none'}.`,
    `Post hoc (tuning data since round 6): round 5's pairs wrong now: ${m.pairs.round5.wrong.join('; ') || 'none'}. Round 5's cluster groups wrong now: ${m.clusters.round5.wrong.join('; ') || 'none'}.`,
    `Post hoc (tuning data): fresh pairs wrong now: ${m.pairs.fresh.wrong.join('; ') || 'none'}. Round 4's cluster groups wrong now: ${m.clusters.round4.wrong.join('; ') || 'none'}. Measured-04's pairs wrong now: ${m.pairs.freshTuning.wrong.join('; ') || 'none'}.`,
    `Round 1's measured pairs wrong now: ${m.pairs.postHoc.wrong.join('; ') || 'none'}. Round 1's cluster groups wrong now: ${m.clusters.postHoc.wrong.join('; ') || 'none'}.`,
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
  // n 0 (nothing read yet): no value and no interval (null), never a precision of 1.
  const p = (x: Proportion): Record<string, number | null> => (x.n === 0
    ? { k: 0, n: 0, value: null, wilson_low: null, wilson_high: null }
    : { k: x.k, n: x.n, value: round(x.value), wilson_low: round(x.low), wilson_high: round(x.high) });
  return {
    labelled_set: 'test/fixtures/linkage/labelled-43-fresh.csv, the blind readings since round 3 (round 9\'s measured set; round 8\'s pairs and random clusters, tuning data since round 9; round 7\'s, since round 8; round 6\'s, since round 7; round 5\'s, since round 6; round 3\'s fresh pairs and round 4\'s random clusters, tuning data since round 5); labelled-43.csv, round 1 (docs/duplicates.md, "The labelled set")',
    measured_round: MEASURED_ROUND.round, rules_frozen: MEASURED_ROUND.rules,
    pair_precision: p(m.pairs.round9.precision), pair_recall: p(m.pairs.round9.recall), cluster_precision: p(m.clusters.round9.precision), same_case_clusters_whole: p(m.clusters.round9.sameWhole),
    pair_precision_weighted: round(m.weighted.precision), pair_recall_weighted: round(m.weighted.recall),
    second_reading_pairs_measured: m.secondRound9.pairs, kappa_measured: round(m.secondRound9.kappa),
    second_reading_pairs_round_8: m.secondRound8.pairs, kappa_round_8: round(m.secondRound8.kappa),
    pair_precision_round_8_post_hoc: p(m.pairs.round8.precision), pair_recall_round_8_post_hoc: p(m.pairs.round8.recall),
    cluster_precision_round_8_post_hoc: p(m.clusters.round8.precision), same_case_clusters_whole_round_8_post_hoc: p(m.clusters.round8.sameWhole),
    second_reading_pairs_round_7: m.secondRound7.pairs, kappa_round_7: round(m.secondRound7.kappa),
    pair_precision_round_7_post_hoc: p(m.pairs.round7.precision), pair_recall_round_7_post_hoc: p(m.pairs.round7.recall),
    cluster_precision_round_7_post_hoc: p(m.clusters.round7.precision), same_case_clusters_whole_round_7_post_hoc: p(m.clusters.round7.sameWhole),
    second_reading_pairs_round_6: m.secondRound6.pairs, kappa_round_6: round(m.secondRound6.kappa),
    pair_precision_round_6_post_hoc: p(m.pairs.round6.precision), pair_recall_round_6_post_hoc: p(m.pairs.round6.recall),
    cluster_precision_round_6_post_hoc: p(m.clusters.round6.precision), same_case_clusters_whole_round_6_post_hoc: p(m.clusters.round6.sameWhole),
    second_reading_pairs_round_5: m.secondRound5.pairs, kappa_round_5: round(m.secondRound5.kappa),
    pair_precision_round_5_post_hoc: p(m.pairs.round5.precision), pair_recall_round_5_post_hoc: p(m.pairs.round5.recall),
    cluster_precision_round_5_post_hoc: p(m.clusters.round5.precision), same_case_clusters_whole_round_5_post_hoc: p(m.clusters.round5.sameWhole),
    second_reading_pairs: m.secondFresh.pairs, kappa: round(m.secondFresh.kappa),
    pair_precision_fresh_post_hoc: p(m.pairs.fresh.precision), pair_recall_fresh_post_hoc: p(m.pairs.fresh.recall),
    cluster_precision_round_4_post_hoc: p(m.clusters.round4.precision), same_case_clusters_whole_round_4_post_hoc: p(m.clusters.round4.sameWhole),
    pair_precision_before: p(m.pairs.freshBefore.precision), pair_recall_before: p(m.pairs.freshBefore.recall),
    pair_precision_tuning_fresh: p(m.pairs.freshTuning.precision), pair_recall_tuning_fresh: p(m.pairs.freshTuning.recall),
    pair_precision_post_hoc: p(m.pairs.postHoc.precision), pair_recall_post_hoc: p(m.pairs.postHoc.recall), cluster_precision_post_hoc: p(m.clusters.postHoc.precision),
    pair_precision_round_1_before: p(m.pairs.before.precision), pair_recall_round_1_before: p(m.pairs.before.recall), cluster_precision_round_1_before: p(m.clusters.before.precision),
    second_reading_pairs_round_1: m.second.pairs, kappa_round_1: round(m.second.kappa), kappa_round_1_measured_part: round(m.secondMeasured.kappa),
  };
}
const round = (x: number): number => (Number.isFinite(x) ? Math.round(x * 10000) / 10000 : -1);

/** src/serve/signals/linkage-measured.ts as the script writes it. */
export function renderDomainModule(m: MeasuredFigures): string {
  return `/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the measured round's candidate pairs and precision of its
 * random clusters (measured_round: both drawn on the rules frozen for it, rules_frozen, and read
 * blind), each with its Wilson 95% interval (k of n; n 0: not yet read, value and interval null),
 * the pairs weighted back to all candidate pairs (_weighted, point estimates; -1: not available),
 * Cohen's kappa of the measured round's blind second reading (_measured), of round 8's (_round_8), of round 7's (_round_7),
 * of round 6's (_round_6), of round 5's (_round_5) and of the fresh set's (round 3's draw; -1: not available). Post
 * hoc (tuning data, not a measurement): round 8's, round 7's, round 6's and round 5's pairs and random clusters, round 3's fresh pairs
 * and round 4's random clusters under today's rules (_round_8_post_hoc, _round_7_post_hoc, _round_6_post_hoc, _round_5_post_hoc, _fresh_post_hoc, _round_4_post_hoc), measured-04 (_tuning_fresh), round 1's
 * measured part (_post_hoc); the fresh pairs under the linkage of their draw (_before: round 3's
 * rules) and round 1's under its draw's (_round_1_before). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by \`GET /analyses\` as
 * \`linkage.measured\`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = ${JSON.stringify(servedFigures(m), null, 2)};
`;
}
