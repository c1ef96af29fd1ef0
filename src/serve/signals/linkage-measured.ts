/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the fresh set's measured pairs (read blind; packet
 * measured-04, tuned on in round 4, left out) and precision of round 4's random clusters (drawn on
 * the rules frozen for round 4, read blind), each with its Wilson 95% interval (k of n; n 0: not
 * yet read, value and interval null), and Cohen's kappa of the fresh set's second reading (-1: not
 * available); the fresh pairs under the linkage of their draw (_before: round 3's rules);
 * measured-04 post hoc (_tuning_fresh); round 1's measured part post hoc (tuning data since round
 * 3) and under the linkage of its draw (_round_1_before). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43-fresh.csv, the fresh measured set and round 4's random clusters; labelled-43.csv, round 1 (docs/duplicates.md, \"The labelled set\")",
  "pair_precision": {
    "k": 61,
    "n": 67,
    "value": 0.9104,
    "wilson_low": 0.8181,
    "wilson_high": 0.9583
  },
  "pair_recall": {
    "k": 61,
    "n": 68,
    "value": 0.8971,
    "wilson_low": 0.8024,
    "wilson_high": 0.9492
  },
  "cluster_precision": {
    "k": 50,
    "n": 56,
    "value": 0.8929,
    "wilson_low": 0.7853,
    "wilson_high": 0.95
  },
  "same_case_clusters_whole": {
    "k": 50,
    "n": 50,
    "value": 1,
    "wilson_low": 0.9287,
    "wilson_high": 1
  },
  "second_reading_pairs": 60,
  "kappa": 0.7683,
  "pair_precision_weighted": 0.9104,
  "pair_recall_weighted": 0.3688,
  "pair_precision_before": {
    "k": 65,
    "n": 98,
    "value": 0.6633,
    "wilson_low": 0.5651,
    "wilson_high": 0.7491
  },
  "pair_recall_before": {
    "k": 65,
    "n": 68,
    "value": 0.9559,
    "wilson_low": 0.8781,
    "wilson_high": 0.9849
  },
  "pair_precision_tuning_fresh": {
    "k": 9,
    "n": 9,
    "value": 1,
    "wilson_low": 0.7009,
    "wilson_high": 1
  },
  "pair_recall_tuning_fresh": {
    "k": 9,
    "n": 10,
    "value": 0.9,
    "wilson_low": 0.5958,
    "wilson_high": 0.9821
  },
  "pair_precision_post_hoc": {
    "k": 58,
    "n": 60,
    "value": 0.9667,
    "wilson_low": 0.8864,
    "wilson_high": 0.9908
  },
  "pair_recall_post_hoc": {
    "k": 58,
    "n": 75,
    "value": 0.7733,
    "wilson_low": 0.6666,
    "wilson_high": 0.8534
  },
  "cluster_precision_post_hoc": {
    "k": 26,
    "n": 27,
    "value": 0.963,
    "wilson_low": 0.8172,
    "wilson_high": 0.9934
  },
  "pair_precision_round_1_before": {
    "k": 71,
    "n": 102,
    "value": 0.6961,
    "wilson_low": 0.601,
    "wilson_high": 0.7769
  },
  "pair_recall_round_1_before": {
    "k": 71,
    "n": 75,
    "value": 0.9467,
    "wilson_low": 0.8707,
    "wilson_high": 0.9791
  },
  "cluster_precision_round_1_before": {
    "k": 29,
    "n": 49,
    "value": 0.5918,
    "wilson_low": 0.4525,
    "wilson_high": 0.7178
  },
  "second_reading_pairs_round_1": 123,
  "kappa_round_1": 0.7004,
  "kappa_round_1_measured_part": 0.6806
};
