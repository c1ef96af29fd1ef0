/**
 * The timing breakdowns of a case series, from the day counts of src/domain/report-days.ts:
 * - the lag from vaccination to receipt: reports per lag interval, and the median, quartiles and
 *   share over a year of the known lags (late reports mark litigation or stimulated reporting:
 *   Goodman and Nordin 2006, Pediatrics 117(2):387-390);
 * - the time to onset of a vaccine x event pair against the same event after other vaccines:
 *   reports per onset day 0..60 in both, their medians and the two-sample Kolmogorov-Smirnov
 *   test (src/stats/ks.ts, SciPy's `ks_2samp` method auto) of the two samples of onset days
 *   within 0..60 (Van Holle, Zeinoun, Bauchau and Verstraeten 2012, Pharmacoepidemiology and
 *   Drug Safety 21(6):603-610). Counts of reports, never rates.
 */
import { LATE_DAYS, lagDaysOf, ONSET_MAX_DAYS, onsetDaysOf, quantileSorted } from '../../domain/report-days.js';
import { ks2sampCounts } from '../../stats/ks.js';
import type { ReportData } from '../store/reports.js';
import { runAll, type Steps } from './slices.js';

/** Reports read between two yields of the steps below (src/serve/cases/slices.ts). */
export const STEP_REPORTS = 1024;

/** Lag intervals in days from VAX_DATE to RECVDATE, in order (bounds inclusive); `unknown`: VAX_DATE blank or not a real date, or after RECVDATE. */
export const LAG_INTERVALS = ['0-7', '8-30', '31-90', '91-365', '366-730', '731-1825', '>1825', 'unknown'] as const;

/** The upper bound (days, inclusive) of each bounded lag interval, in LAG_INTERVALS order. */
const LAG_UPPER = [7, 30, 90, 365, 730, 1825];

/** The lag interval of a lag in days (null: unknown). */
export function lagInterval(days: number | null): (typeof LAG_INTERVALS)[number] {
  if (days === null) return 'unknown';
  const k = LAG_UPPER.findIndex((upper) => days <= upper);
  return LAG_INTERVALS[k < 0 ? LAG_UPPER.length : k];
}

/** Summary of the known lags (days from VAX_DATE to RECVDATE) of a case series; the quantiles are linear interpolation (type 7), null without a known lag. */
export interface LagSummary {
  /** Reports with a known lag. */
  n: number;
  median_days: number | null;
  q1_days: number | null;
  q3_days: number | null;
  /** Share (0..1) of the known lags over LATE_DAYS days; null without a known lag. */
  share_over_365: number | null;
}

/**
 * Every report's day counts, computed once per ReportData (CasesService.open computes them at
 * load) from its date strings: `lag[r]` the lag in days (src/domain/report-days.ts lagDaysOf),
 * `onset[r]` the onset in days when within 0..ONSET_MAX_DAYS (onsetDaysOf); -1 for unknown (or,
 * for the onset, beyond ONSET_MAX_DAYS). A case series then reads two typed arrays instead of
 * parsing two or three ISO dates per report and query (4 + 1 bytes per report).
 */
export interface DayCounts {
  lag: Int32Array;
  onset: Int8Array;
}

const dayCountsOf = new WeakMap<ReportData, DayCounts>();

/** The day counts of `data`'s reports ({@link DayCounts}), computed on the first call for that ReportData and kept with it. */
export function reportDayCounts(data: ReportData): DayCounts {
  let counts = dayCountsOf.get(data);
  if (!counts) {
    counts = { lag: new Int32Array(data.count), onset: new Int8Array(data.count) };
    for (let r = 0; r < data.count; r++) {
      counts.lag[r] = lagDaysOf(data.vaxDate[r], data.received[r]) ?? -1;
      const d = onsetDaysOf(data.numdays[r], data.vaxDate[r], data.onsetDate[r]);
      counts.onset[r] = d === null || d > ONSET_MAX_DAYS ? -1 : d;
    }
    dayCountsOf.set(data, counts);
  }
  return counts;
}

/** The lag of report `r` in days, or null (src/domain/report-days.ts lagDaysOf). */
export function reportLagDays(data: ReportData, r: number): number | null {
  const days = reportDayCounts(data).lag[r];
  return days < 0 ? null : days;
}

/** The lag breakdown of reports: reports per LAG_INTERVALS interval and the summary of the known lags. */
export function lagBreakdown(data: ReportData, reports: Int32Array): { lag_interval: Record<string, number>; lag: LagSummary } {
  return runAll(lagSteps(data, reports));
}

/** {@link lagBreakdown} in steps (a yield every STEP_REPORTS reports). */
export function* lagSteps(data: ReportData, reports: Int32Array): Steps<{ lag_interval: Record<string, number>; lag: LagSummary }> {
  // Counted per interval position (LAG_INTERVALS order; the last is `unknown`), named after.
  const counts = new Float64Array(LAG_INTERVALS.length);
  const known: number[] = [];
  for (let i = 0; i < reports.length; i++) {
    if (i % STEP_REPORTS === STEP_REPORTS - 1) yield;
    const days = reportLagDays(data, reports[i]);
    if (days === null) {
      counts[LAG_INTERVALS.length - 1]++;
      continue;
    }
    let k = 0;
    while (k < LAG_UPPER.length && days > LAG_UPPER[k]) k++;
    counts[k]++;
    known.push(days);
  }
  const intervals: Record<string, number> = Object.fromEntries(LAG_INTERVALS.map((name, k) => [name, counts[k]]));
  const sorted = Float64Array.from(known).sort();
  return {
    lag_interval: intervals,
    lag: {
      n: sorted.length, median_days: quantileSorted(sorted, 0.5), q1_days: quantileSorted(sorted, 0.25), q3_days: quantileSorted(sorted, 0.75),
      share_over_365: sorted.length === 0 ? null : known.filter((d) => d > LATE_DAYS).length / sorted.length,
    },
  };
}

/** The onset days 0..ONSET_MAX_DAYS of one group of reports. */
export interface OnsetSample {
  /** Reports with an onset within 0..ONSET_MAX_DAYS days. */
  n: number;
  median_days: number | null;
  /** Reports per onset day: `days[d]` for d = 0..ONSET_MAX_DAYS. */
  days: number[];
}

/** The time to onset of a pair's reports against the same event's reports after other vaccines. */
export interface OnsetComparison {
  max_days: number;
  /** The case series' reports (the vaccine and the event). */
  pair: OnsetSample;
  /** Reports naming a matched event and no matched vaccine, in the same quarters, analysis and text. */
  other_vaccines: OnsetSample;
  /** Two-sample two-sided KS test of the two samples; null when either is empty. */
  ks: { d: number; p: number; method: 'exact' | 'asymp' } | null;
}

/** The onset days within 0..ONSET_MAX_DAYS of reports, per day (a yield every STEP_REPORTS reports). */
function* onsetSample(data: ReportData, reports: Int32Array): Steps<OnsetSample> {
  const days = new Array<number>(ONSET_MAX_DAYS + 1).fill(0);
  let n = 0;
  const { onset } = reportDayCounts(data);
  for (let i = 0; i < reports.length; i++) {
    if (i % STEP_REPORTS === STEP_REPORTS - 1) yield;
    const d = onset[reports[i]];
    if (d < 0) continue;
    days[d]++;
    n++;
  }
  return { n, median_days: medianOfCounts(days, n), days };
}

/**
 * The median of a sample of whole numbers given as counts per value (`counts[v]` times v, n in
 * all), as quantileSorted(sorted sample, 0.5) computes it (type 7: the two middle values
 * interpolated), without the sorted sample; null when n is 0.
 */
function medianOfCounts(counts: readonly number[], n: number): number | null {
  if (n === 0) return null;
  const h = (n - 1) * 0.5;
  const lo = Math.floor(h);
  // The k-th smallest value (0-based): the first v whose cumulative count exceeds k.
  const at = (k: number): number => {
    let seen = 0;
    let v = 0;
    while ((seen += counts[v]) <= k) v++;
    return v;
  };
  if (lo + 1 >= n) return at(n - 1);
  const low = at(lo);
  return low + (h - lo) * (at(lo + 1) - low);
}

/** The onset comparison of a pair's reports (`pair`) against the event's reports after other vaccines (`others`). */
export function onsetComparison(data: ReportData, pair: Int32Array, others: Int32Array): OnsetComparison {
  return runAll(onsetSteps(data, pair, others));
}

/** {@link onsetComparison} in steps. */
export function* onsetSteps(data: ReportData, pair: Int32Array, others: Int32Array): Steps<OnsetComparison> {
  const a = yield* onsetSample(data, pair);
  const b = yield* onsetSample(data, others);
  const ks = ks2sampCounts(a.days, b.days);
  return { max_days: ONSET_MAX_DAYS, pair: a, other_vaccines: b, ks: ks && { d: ks.d, p: ks.p, method: ks.method } };
}
