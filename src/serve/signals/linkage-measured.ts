/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the measured round's candidate pairs and precision of its
 * random clusters (measured_round: both drawn on the rules frozen for it, rules_frozen, and read
 * blind), each with its Wilson 95% interval (k of n; n 0: not yet read, value and interval null),
 * the pairs weighted back to all candidate pairs (_weighted, point estimates; -1: not available),
 * Cohen's kappa of the measured round's blind second reading (_measured), of round 6's (_round_6),
 * of round 5's (_round_5) and of the fresh set's (round 3's draw; -1: not available). Post
 * hoc (tuning data, not a measurement): round 6's and round 5's pairs and random clusters, round 3's fresh pairs
 * and round 4's random clusters under today's rules (_round_6_post_hoc, _round_5_post_hoc, _fresh_post_hoc, _round_4_post_hoc), measured-04 (_tuning_fresh), round 1's
 * measured part (_post_hoc); the fresh pairs under the linkage of their draw (_before: round 3's
 * rules) and round 1's under its draw's (_round_1_before). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43-fresh.csv, the blind readings since round 3 (round 7's measured set; round 6's pairs and random clusters, tuning data since round 7; round 5's, since round 6; round 3's fresh pairs and round 4's random clusters, tuning data since round 5); labelled-43.csv, round 1 (docs/duplicates.md, \"The labelled set\")",
  "measured_round": 7,
  "rules_frozen": "e2e2057",
  "pair_precision": {
    "k": 112,
    "n": 118,
    "value": 0.9492,
    "wilson_low": 0.8935,
    "wilson_high": 0.9765
  },
  "pair_recall": {
    "k": 112,
    "n": 119,
    "value": 0.9412,
    "wilson_low": 0.8835,
    "wilson_high": 0.9712
  },
  "cluster_precision": {
    "k": 65,
    "n": 74,
    "value": 0.8784,
    "wilson_low": 0.7847,
    "wilson_high": 0.9347
  },
  "same_case_clusters_whole": {
    "k": 65,
    "n": 65,
    "value": 1,
    "wilson_low": 0.9442,
    "wilson_high": 1
  },
  "pair_precision_weighted": 0.9492,
  "pair_recall_weighted": 0.1458,
  "second_reading_pairs_measured": 50,
  "kappa_measured": 0.8512,
  "second_reading_pairs_round_6": 50,
  "kappa_round_6": 0.9244,
  "pair_precision_round_6_post_hoc": {
    "k": 95,
    "n": 98,
    "value": 0.9694,
    "wilson_low": 0.9138,
    "wilson_high": 0.9895
  },
  "pair_recall_round_6_post_hoc": {
    "k": 95,
    "n": 106,
    "value": 0.8962,
    "wilson_low": 0.8237,
    "wilson_high": 0.9411
  },
  "cluster_precision_round_6_post_hoc": {
    "k": 46,
    "n": 48,
    "value": 0.9583,
    "wilson_low": 0.8602,
    "wilson_high": 0.9885
  },
  "same_case_clusters_whole_round_6_post_hoc": {
    "k": 46,
    "n": 49,
    "value": 0.9388,
    "wilson_low": 0.8348,
    "wilson_high": 0.979
  },
  "second_reading_pairs_round_5": 50,
  "kappa_round_5": 0.89,
  "pair_precision_round_5_post_hoc": {
    "k": 93,
    "n": 97,
    "value": 0.9588,
    "wilson_low": 0.8987,
    "wilson_high": 0.9838
  },
  "pair_recall_round_5_post_hoc": {
    "k": 93,
    "n": 100,
    "value": 0.93,
    "wilson_low": 0.8625,
    "wilson_high": 0.9657
  },
  "cluster_precision_round_5_post_hoc": {
    "k": 45,
    "n": 45,
    "value": 1,
    "wilson_low": 0.9213,
    "wilson_high": 1
  },
  "same_case_clusters_whole_round_5_post_hoc": {
    "k": 45,
    "n": 48,
    "value": 0.9375,
    "wilson_low": 0.8316,
    "wilson_high": 0.9785
  },
  "second_reading_pairs": 60,
  "kappa": 0.7683,
  "pair_precision_fresh_post_hoc": {
    "k": 59,
    "n": 61,
    "value": 0.9672,
    "wilson_low": 0.8881,
    "wilson_high": 0.991
  },
  "pair_recall_fresh_post_hoc": {
    "k": 59,
    "n": 68,
    "value": 0.8676,
    "wilson_low": 0.7672,
    "wilson_high": 0.9288
  },
  "cluster_precision_round_4_post_hoc": {
    "k": 48,
    "n": 50,
    "value": 0.96,
    "wilson_low": 0.8654,
    "wilson_high": 0.989
  },
  "same_case_clusters_whole_round_4_post_hoc": {
    "k": 48,
    "n": 50,
    "value": 0.96,
    "wilson_low": 0.8654,
    "wilson_high": 0.989
  },
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
    "k": 8,
    "n": 8,
    "value": 1,
    "wilson_low": 0.6756,
    "wilson_high": 1
  },
  "pair_recall_tuning_fresh": {
    "k": 8,
    "n": 10,
    "value": 0.8,
    "wilson_low": 0.4902,
    "wilson_high": 0.9433
  },
  "pair_precision_post_hoc": {
    "k": 56,
    "n": 56,
    "value": 1,
    "wilson_low": 0.9358,
    "wilson_high": 1
  },
  "pair_recall_post_hoc": {
    "k": 56,
    "n": 75,
    "value": 0.7467,
    "wilson_low": 0.6379,
    "wilson_high": 0.8314
  },
  "cluster_precision_post_hoc": {
    "k": 27,
    "n": 28,
    "value": 0.9643,
    "wilson_low": 0.8229,
    "wilson_high": 0.9937
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
