/**
 * What "flagged" means, defined once (docs/glossary.md "flagged"; spec 2.1; docs/design.md
 * "Statistics, precisely"). A method flags a pair's window by its own threshold (src/stats/flags.ts:
 * GPS `eb05 >= GPS_THRESHOLD`, PRR, ROR, IC); a pair's window is **flagged** when at least
 * SERVING_FLOOR methods flag it. One rule for /signals' aggregate (only flagged quarters enter it),
 * the pairs the build keeps (some window flagged), /triage's queue (the window's flagged pairs),
 * /vaccines' flagged_pairs and the evaluation's `floor` method. (On the default store every window
 * row with EB05 >= 2 is flagged by at least two methods, so the GPS flag alone adds nothing.)
 */

/** The GPS flag: EB05 >= GPS_THRESHOLD (DuMouchel 1999; the FDA and CDC screening threshold). */
export const GPS_THRESHOLD = 2;

/** A pair's window is flagged when `n_methods_flagged >= SERVING_FLOOR` (spec 2.1: the serving floor). */
export const SERVING_FLOOR = 2;

/** Whether a pair's window is flagged (`n_methods_flagged >= SERVING_FLOOR`; null: not computed, not flagged). */
export function isFlagged(nMethodsFlagged: number | null): boolean {
  return nMethodsFlagged !== null && nMethodsFlagged >= SERVING_FLOOR;
}
