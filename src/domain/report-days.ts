/**
 * The day counts of a report, defined once for whoever needs them (the case series' lag and
 * onset breakdowns, src/serve/cases/timing.ts): the lag from vaccination to receipt and the time to
 * onset, in whole days, from the ISO dates the store keeps (src/domain/report-columns.ts
 * `vax_date`, `onset_date`, `received`) and NUMDAYS.
 *
 * - Lag (days to receipt): RECVDATE - VAX_DATE. Unknown (null) when VAX_DATE is blank or not a
 *   real date, or when the difference is negative (a vaccination after receipt is an entry
 *   error). Late reports (litigation, stimulated reporting) arrive years after vaccination:
 *   Goodman and Nordin 2006, "Vaccine adverse event reporting system reporting source: a
 *   possible source of bias in longitudinal studies", Pediatrics 117(2):387-390.
 * - Onset (days to onset): NUMDAYS when it is a whole number >= 0; else ONSET_DATE - VAX_DATE
 *   when both dates are real and the difference is >= 0; else unknown (null). As Van Holle et al.
 *   2012 (Pharmacoepidemiology and Drug Safety 21(6):603-610) use the VAERS onset interval.
 *
 * Ground floor: this file imports nothing outside src/domain.
 */

/**
 * A delay to receipt above this many days is "late": the case series' `share_over_365` (vaccination
 * to receipt) and the triage caution `late_reports` (the median delay from onset to receipt).
 * One year: VAERS asks for reports of events after vaccination, and almost all spontaneous
 * reports arrive within months of onset; a median over a year means most of the pair's reports
 * arrived a year or more after the event, the pattern of reports gathered for litigation
 * (Goodman and Nordin 2006, Pediatrics 117(2):387-390: litigation-associated reports arrive
 * years after onset). Triage counts from onset, not vaccination, so a late-onset effect (zoster
 * after varicella vaccine) is not read as a late report.
 */
export const LATE_DAYS = 365;

/** Onsets of 0 to this many days are kept for the time-to-onset comparisons (Van Holle et al. 2012: the VAERS risk window of most events). */
export const ONSET_MAX_DAYS = 60;

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The day number (whole days since 1970-01-01, UTC) of a date, the one day count of the code: the
 * build holds dates as `yyyymmdd` integers (0 or less: unknown; src/ingest/vaers/values.ts), the
 * store and the served side as ISO strings `YYYY-MM-DD`; both come here. Null for null, an unknown
 * `yyyymmdd` or a string of another shape. Examples: dayNumber(19700102) = 1;
 * dayNumber('1970-01-02') = 1.
 */
export function dayNumber(date: string | number | null): number | null {
  if (typeof date === 'number') return date > 0 ? Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100) / DAY_MS : null;
  const m = date === null ? null : ISO_DATE.exec(date);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS : null;
}

/** Whole days from ISO date `from` to ISO date `to` (negative when `to` is earlier); null when either is missing. Example: daysBetween('2000-01-01', '2000-03-01') = 60. */
export function daysBetween(from: string | null, to: string | null): number | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null ? null : b - a;
}

/** Lag in days from vaccination (`vaxDate`, ISO or null) to receipt (`received`, ISO); null when unknown or negative. */
export function lagDaysOf(vaxDate: string | null, received: string): number | null {
  const days = daysBetween(vaxDate, received);
  return days === null || days < 0 ? null : days;
}

/**
 * The onset rule, whatever form the dates come in: `numdays` (NUMDAYS; NaN when blank) when a
 * whole number >= 0, else `datesDays` (ONSET_DATE - VAX_DATE in days, null when either is
 * unknown) when >= 0, else null. The case series (onsetDaysOf) and the build's triage evidence
 * (src/ingest/mining/evidence.ts onsetDays) both apply it, so a report has the same onset in both.
 * Example: onsetDaysFrom(3, null) = 3; onsetDaysFrom(-2, 5) = 5; onsetDaysFrom(NaN, -1) = null.
 */
export function onsetDaysFrom(numdays: number, datesDays: number | null): number | null {
  if (Number.isInteger(numdays) && numdays >= 0) return numdays;
  return datesDays === null || datesDays < 0 ? null : datesDays;
}

/**
 * Days from vaccination to onset from the ISO dates the store keeps: the rule of
 * {@link onsetDaysFrom} with ONSET_DATE - VAX_DATE.
 */
export function onsetDaysOf(numdays: number, vaxDate: string | null, onsetDate: string | null): number | null {
  return onsetDaysFrom(numdays, daysBetween(vaxDate, onsetDate));
}

/**
 * The p-quantile (0 <= p <= 1) of ascending `sorted` values by linear interpolation between
 * order statistics (Hyndman and Fan 1996 definition 7; R's `quantile` type 7 and NumPy's
 * default): h = (n - 1) p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]). Null when empty.
 * Example: quantileSorted([1, 2, 3, 10], 0.25) = 1.75; quantileSorted([1, 2, 3, 10], 0.5) = 2.5.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 >= n ? sorted[n - 1] : sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}
