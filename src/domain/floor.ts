/**
 * The serving floor (spec 2.1; docs/design.md "Statistics, precisely"): a quarter enters a pair's
 * aggregate only when at least this many methods flag it (`n_methods_flagged >= SERVING_FLOOR`),
 * and the build stores a pair only when some window reaches it.
 */
export const SERVING_FLOOR = 2;
