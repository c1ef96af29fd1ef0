/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"): pairwise precision and recall on the measured round's candidate pairs and precision of its
 * random clusters (measured_round: both drawn on the rules frozen for it, rules_frozen, and read
 * blind), each with its Wilson 95% interval (k of n; n 0: not yet read, value and interval null),
 * the pairs weighted back to all candidate pairs (_weighted, point estimates; -1: not available),
 * Cohen's kappa of the measured round's blind second reading (_measured), of round 5's (_round_5)
 * and of the fresh set's (round 3's draw; -1: not available). Post
 * hoc (tuning data, not a measurement): round 5's pairs and random clusters, round 3's fresh pairs
 * and round 4's random clusters under today's rules (_round_5_post_hoc, _fresh_post_hoc, _round_4_post_hoc), measured-04 (_tuning_fresh), round 1's
 * measured part (_post_hoc); the fresh pairs under the linkage of their draw (_before: round 3's
 * rules) and round 1's under its draw's (_round_1_before). Written by scripts/linkage-measure.ts; do not edit by hand
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43-fresh.csv, the blind readings since round 3 (round 6's measured set; round 5's pairs and random clusters, tuning data since round 6; round 3's fresh pairs and round 4's random clusters, tuning data since round 5); labelled-43.csv, round 1 (docs/duplicates.md, \"The labelled set\")",
  "measured_round": 6,
  "rules_frozen": "24041f8",
  "pair_precision": {
    "k": 102,
    "n": 111,
    "value": 0.9189,
    "wilson_low": 0.8531,
    "wilson_high": 0.9568
  },
  "pair_recall": {
    "k": 102,
    "n": 106,
    "value": 0.9623,
    "wilson_low": 0.907,
    "wilson_high": 0.9852
  },
  "cluster_precision": {
    "k": 49,
    "n": 57,
    "value": 0.8596,
    "wilson_low": 0.7468,
    "wilson_high": 0.9271
  },
  "same_case_clusters_whole": {
    "k": 49,
    "n": 49,
    "value": 1,
    "wilson_low": 0.9273,
    "wilson_high": 1
  },
  "pair_precision_weighted": 0.9189,
  "pair_recall_weighted": 0.0774,
  "second_reading_pairs_measured": 50,
  "kappa_measured": 0.9244,
  "second_reading_pairs_round_5": 50,
  "kappa_round_5": 0.89,
  "pair_precision_round_5_post_hoc": {
    "k": 98,
    "n": 106,
    "value": 0.9245,
    "wilson_low": 0.8581,
    "wilson_high": 0.9613
  },
  "pair_recall_round_5_post_hoc": {
    "k": 98,
    "n": 100,
    "value": 0.98,
    "wilson_low": 0.93,
    "wilson_high": 0.9945
  },
  "cluster_precision_round_5_post_hoc": {
    "k": 48,
    "n": 51,
    "value": 0.9412,
    "wilson_low": 0.8408,
    "wilson_high": 0.9798
  },
  "same_case_clusters_whole_round_5_post_hoc": {
    "k": 48,
    "n": 48,
    "value": 1,
    "wilson_low": 0.9259,
    "wilson_high": 1
  },
  "second_reading_pairs": 60,
  "kappa": 0.7683,
  "pair_precision_fresh_post_hoc": {
    "k": 63,
    "n": 66,
    "value": 0.9545,
    "wilson_low": 0.8747,
    "wilson_high": 0.9844
  },
  "pair_recall_fresh_post_hoc": {
    "k": 63,
    "n": 68,
    "value": 0.9265,
    "wilson_low": 0.8391,
    "wilson_high": 0.9682
  },
  "cluster_precision_round_4_post_hoc": {
    "k": 50,
    "n": 53,
    "value": 0.9434,
    "wilson_low": 0.8463,
    "wilson_high": 0.9806
  },
  "same_case_clusters_whole_round_4_post_hoc": {
    "k": 50,
    "n": 50,
    "value": 1,
    "wilson_low": 0.9287,
    "wilson_high": 1
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
    "n": 59,
    "value": 0.9831,
    "wilson_low": 0.91,
    "wilson_high": 0.997
  },
  "pair_recall_post_hoc": {
    "k": 58,
    "n": 75,
    "value": 0.7733,
    "wilson_low": 0.6666,
    "wilson_high": 0.8534
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
