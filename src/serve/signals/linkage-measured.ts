/**
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
 * (test/ingest/linkage/measured-page.test.ts checks it). Served by `GET /analyses` as
 * `linkage.measured`.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {
  "labelled_set": "test/fixtures/linkage/labelled-43-fresh.csv, the blind readings since round 3 (round 9's measured set; round 8's pairs and random clusters, tuning data since round 9; round 7's, since round 8; round 6's, since round 7; round 5's, since round 6; round 3's fresh pairs and round 4's random clusters, tuning data since round 5); labelled-43.csv, round 1 (docs/duplicates.md, \"The labelled set\")",
  "measured_round": 9,
  "rules_frozen": "67ffa82",
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
  "pair_precision_weighted": -1,
  "pair_recall_weighted": -1,
  "second_reading_pairs_measured": 0,
  "kappa_measured": -1,
  "second_reading_pairs_round_8": 40,
  "kappa_round_8": 1,
  "pair_precision_round_8_post_hoc": {
    "k": 91,
    "n": 92,
    "value": 0.9891,
    "wilson_low": 0.941,
    "wilson_high": 0.9981
  },
  "pair_recall_round_8_post_hoc": {
    "k": 91,
    "n": 93,
    "value": 0.9785,
    "wilson_low": 0.9249,
    "wilson_high": 0.9941
  },
  "cluster_precision_round_8_post_hoc": {
    "k": 70,
    "n": 71,
    "value": 0.9859,
    "wilson_low": 0.9244,
    "wilson_high": 0.9975
  },
  "same_case_clusters_whole_round_8_post_hoc": {
    "k": 70,
    "n": 70,
    "value": 1,
    "wilson_low": 0.948,
    "wilson_high": 1
  },
  "second_reading_pairs_round_7": 50,
  "kappa_round_7": 0.8512,
  "pair_precision_round_7_post_hoc": {
    "k": 105,
    "n": 105,
    "value": 1,
    "wilson_low": 0.9647,
    "wilson_high": 1
  },
  "pair_recall_round_7_post_hoc": {
    "k": 105,
    "n": 119,
    "value": 0.8824,
    "wilson_low": 0.8122,
    "wilson_high": 0.9286
  },
  "cluster_precision_round_7_post_hoc": {
    "k": 58,
    "n": 61,
    "value": 0.9508,
    "wilson_low": 0.8651,
    "wilson_high": 0.9831
  },
  "same_case_clusters_whole_round_7_post_hoc": {
    "k": 58,
    "n": 65,
    "value": 0.8923,
    "wilson_low": 0.794,
    "wilson_high": 0.9468
  },
  "second_reading_pairs_round_6": 50,
  "kappa_round_6": 0.9244,
  "pair_precision_round_6_post_hoc": {
    "k": 88,
    "n": 89,
    "value": 0.9888,
    "wilson_low": 0.9391,
    "wilson_high": 0.998
  },
  "pair_recall_round_6_post_hoc": {
    "k": 88,
    "n": 106,
    "value": 0.8302,
    "wilson_low": 0.7475,
    "wilson_high": 0.8898
  },
  "cluster_precision_round_6_post_hoc": {
    "k": 43,
    "n": 44,
    "value": 0.9773,
    "wilson_low": 0.8819,
    "wilson_high": 0.996
  },
  "same_case_clusters_whole_round_6_post_hoc": {
    "k": 43,
    "n": 49,
    "value": 0.8776,
    "wilson_low": 0.7576,
    "wilson_high": 0.9427
  },
  "second_reading_pairs_round_5": 50,
  "kappa_round_5": 0.89,
  "pair_precision_round_5_post_hoc": {
    "k": 83,
    "n": 84,
    "value": 0.9881,
    "wilson_low": 0.9356,
    "wilson_high": 0.9979
  },
  "pair_recall_round_5_post_hoc": {
    "k": 83,
    "n": 100,
    "value": 0.83,
    "wilson_low": 0.7445,
    "wilson_high": 0.8911
  },
  "cluster_precision_round_5_post_hoc": {
    "k": 42,
    "n": 42,
    "value": 1,
    "wilson_low": 0.9162,
    "wilson_high": 1
  },
  "same_case_clusters_whole_round_5_post_hoc": {
    "k": 42,
    "n": 48,
    "value": 0.875,
    "wilson_low": 0.753,
    "wilson_high": 0.9414
  },
  "second_reading_pairs": 60,
  "kappa": 0.7683,
  "pair_precision_fresh_post_hoc": {
    "k": 56,
    "n": 57,
    "value": 0.9825,
    "wilson_low": 0.9071,
    "wilson_high": 0.9969
  },
  "pair_recall_fresh_post_hoc": {
    "k": 56,
    "n": 68,
    "value": 0.8235,
    "wilson_low": 0.7164,
    "wilson_high": 0.8961
  },
  "cluster_precision_round_4_post_hoc": {
    "k": 44,
    "n": 45,
    "value": 0.9778,
    "wilson_low": 0.8843,
    "wilson_high": 0.9961
  },
  "same_case_clusters_whole_round_4_post_hoc": {
    "k": 44,
    "n": 50,
    "value": 0.88,
    "wilson_low": 0.762,
    "wilson_high": 0.9438
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
    "k": 52,
    "n": 52,
    "value": 1,
    "wilson_low": 0.9312,
    "wilson_high": 1
  },
  "pair_recall_post_hoc": {
    "k": 52,
    "n": 75,
    "value": 0.6933,
    "wilson_low": 0.5817,
    "wilson_high": 0.7861
  },
  "cluster_precision_post_hoc": {
    "k": 25,
    "n": 25,
    "value": 1,
    "wilson_low": 0.8668,
    "wilson_high": 1
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
