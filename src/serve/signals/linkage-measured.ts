/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall and precision of the random clusters on the fresh measured
 * set (drawn on the rules frozen for it, read blind), each with its Wilson 95% interval (k of n;
 * n 0: not yet read, value and interval null), and Cohen's kappa of its second reading (-1: not available); the same on
 * round 1's measured part post hoc (tuning data since round 3) and under the linkage of its draw
 * (_before). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43-fresh.csv, the fresh measured set; labelled-43.csv, round 1 (docs/duplicates.md, \"The labelled set\")",
  "pair_precision": {
    "k": 0,
    "n": 0,
    "value": null,
    "wilson_low": null,
    "wilson_high": null
  },
  "pair_recall": {
    "k": 0,
    "n": 0,
    "value": null,
    "wilson_low": null,
    "wilson_high": null
  },
  "cluster_precision": {
    "k": 0,
    "n": 0,
    "value": null,
    "wilson_low": null,
    "wilson_high": null
  },
  "same_case_clusters_whole": {
    "k": 0,
    "n": 0,
    "value": null,
    "wilson_low": null,
    "wilson_high": null
  },
  "second_reading_pairs": 0,
  "kappa": -1,
  "pair_precision_weighted": -1,
  "pair_recall_weighted": -1,
  "pair_precision_post_hoc": {
    "k": 58,
    "n": 63,
    "value": 0.9206,
    "wilson_low": 0.8273,
    "wilson_high": 0.9656
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
    "n": 28,
    "value": 0.9286,
    "wilson_low": 0.7735,
    "wilson_high": 0.9802
  },
  "pair_precision_before": {
    "k": 71,
    "n": 102,
    "value": 0.6961,
    "wilson_low": 0.601,
    "wilson_high": 0.7769
  },
  "pair_recall_before": {
    "k": 71,
    "n": 75,
    "value": 0.9467,
    "wilson_low": 0.8707,
    "wilson_high": 0.9791
  },
  "cluster_precision_before": {
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
