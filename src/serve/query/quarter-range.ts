/**
 * Bounds of the quarter parameters (issue 35): a `quarter`, `from` or `to` outside the quarters
 * the store holds is a 400 Error object naming the range, never an empty 200 (a typo such as
 * `9999Q4` must not look like an empty queue). Used by /triage (`quarter`, the analysis's
 * quarterly rows) and /cases (`from`, `to`, the quarters of the report tables).
 */
import type { ParamError } from './error-object.js';
import { quoteValue } from './parameters.js';

/**
 * The 400 Error fields when quarter `value` (`YYYYQn`, of parameter `name`) lies outside
 * `range` (first and last quarter, `YYYYQn`; null when there are none), else null. `what` says
 * whose quarters they are (`the reports of this store`); `usage` is the resource's usage line.
 */
export function quarterOutside(name: string, value: string, range: { first: string; last: string } | null, what: string, usage: string): ParamError | null {
  const quarter = value.toUpperCase();
  if (range === null) return { error: `${name} ${quoteValue(value)}: ${what} hold no quarter`, usage };
  if (quarter >= range.first && quarter <= range.last) return null;
  return { error: `${name} ${quoteValue(value)} is outside ${what}: ${range.first} to ${range.last}`, usage };
}
