/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the measured part and precision of the random clusters,
 * each with its Wilson 95% interval (k of n), before and now, and Cohen's kappa of the second
 * reading (-1: not available). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43.csv (docs/duplicates.md, \"The labelled set\")",
  "pair_precision": {
    "k": 50,
    "n": 58,
    "value": 0.8621,
    "wilson_low": 0.7507,
    "wilson_high": 0.9284
  },
  "pair_recall": {
    "k": 50,
    "n": 75,
    "value": 0.6667,
    "wilson_low": 0.5542,
    "wilson_high": 0.7629
  },
  "cluster_precision": {
    "k": 19,
    "n": 21,
    "value": 0.9048,
    "wilson_low": 0.7109,
    "wilson_high": 0.9735
  },
  "same_case_clusters_whole": {
    "k": 18,
    "n": 29,
    "value": 0.6207,
    "wilson_low": 0.44,
    "wilson_high": 0.7731
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
  "second_reading_pairs": 123,
  "kappa": 0.7004,
  "kappa_measured_part": 0.6806
};
