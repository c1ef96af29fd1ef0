/**
 * Calendar quarters, the time unit of the whole service (spec 2.1: "Quarter strings have the
 * form `<year>Q<1-4>`").
 *
 * A quarter is carried internally as an integer index `year * 4 + (q - 1)` so that consecutive
 * quarters differ by 1 and windows are plain integer ranges; it is shown as `2021Q3`.
 */

/** Integer index of a quarter: `year * 4 + (quarter - 1)`. */
export type QuarterIndex = number;

const QUARTER_RE = /^(\d{4})-?Q([1-4])$/i;

/** JSON schema pattern of a served quarter string (spec 2.1: `<year>Q<1-4>`). */
export const QUARTER_PATTERN = '^[0-9]{4}Q[1-4]$';

/**
 * JSON schema pattern of a quarter a user writes (query parameters, CLI options, reference files):
 * `<year>Q<1-4>`, the `Q` in either case (`2006Q4`, `2006q4`). One spelling set for every route
 * and command; answers always write the served form (QUARTER_PATTERN).
 */
export const QUARTER_INPUT_PATTERN = '^[0-9]{4}[Qq][1-4]$';

const QUARTER_INPUT_RE = new RegExp(QUARTER_INPUT_PATTERN);

/**
 * Parses a quarter a user wrote (QUARTER_INPUT_PATTERN: `2006Q4` or `2006q4`, nothing around it).
 * @returns the index, or `null` when the text is not such a quarter.
 */
export function parseQuarterInput(text: string): QuarterIndex | null {
  return QUARTER_INPUT_RE.test(text) ? parseQuarter(text) : null;
}

/**
 * Parses `2021Q3` or `2021-Q3` (case-insensitive `q`) into a quarter index.
 * @returns the index, or `null` when the text is not a quarter.
 */
export function parseQuarter(text: string): QuarterIndex | null {
  const m = QUARTER_RE.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 4 + (Number(m[2]) - 1);
}

/** Formats a quarter index as `<year>Q<1-4>` (the year in four digits), e.g. `8087` -> `2021Q4`, `0` -> `0000Q1`. */
export function formatQuarter(index: QuarterIndex): string {
  const year = Math.floor(index / 4);
  return `${String(year).padStart(4, '0')}Q${index - year * 4 + 1}`;
}

/** Quarter index of a calendar date given as year and month (1-12). */
export function quarterOf(year: number, month: number): QuarterIndex {
  return year * 4 + Math.floor((month - 1) / 3);
}

/** Quarters in a window: the window of quarter q covers q-3..q (docs/design.md "Statistics, precisely"). */
export const WINDOW_QUARTERS = 4;

/**
 * Whether a pair first flagged in quarter `first` is recent as of quarter `latest`: first flagged
 * within the last window (`latest - WINDOW_QUARTERS + 1 <= first <= latest`). One rule, called
 * `emerging` in /signals (spec 2.1, `latest` = reports_through) and `new` in /triage (`latest` =
 * the queue's window); false when either quarter is unknown.
 */
export function isRecent(first: QuarterIndex | null, latest: QuarterIndex | null): boolean {
  return first !== null && latest !== null && first <= latest && first >= latest - WINDOW_QUARTERS + 1;
}

/** First quarter of the COVID-19 era used by spec 2.1 (`peak_in_covid_era`): 2021Q1. */
export const COVID_ERA_FIRST: QuarterIndex = 2021 * 4;
/** Last quarter of the COVID-19 era used by spec 2.1: 2022Q4. */
export const COVID_ERA_LAST: QuarterIndex = 2022 * 4 + 3;
