/**
 * Query-string parsing shared by the query resources (`/signals`, src/serve/signals/parameters.ts, and
 * `/cases`, src/serve/cases/params.ts): one reader of the raw query string and one rule for values.
 *
 * - The raw query string is read here, not by Fastify, so that repeated parameters are seen and
 *   `+` decodes to a space (spec 4.1); `%XX` is the byte. Values are trimmed; an empty value
 *   (`vaccine=`) counts as absent.
 * - A repeated or unknown parameter is a 400 Error naming the allowed ones.
 * - Numbers: an optional leading sign (`+5`, `%2B5`; `-0` is 0), see INTEGER_RE and NUMBER_RE.
 * Every function returns a value (the 400 Error fields on bad input), never throws.
 */
import type { ParamError } from './error-object.js';

/** Spec 4.1 / 8: largest `limit` of a page (both resources). */
export const LIMIT_MAX = 500;
/** Spec 8: minimum length of an event substring or query that is not an exact name or abbreviation. */
export const MIN_QUERY_LENGTH = 3;

/** One query parameter: its JSON schema (type, enum, bounds, default) and meaning. */
export interface ParameterSpec {
  name: string;
  description: string;
  schema: { type: 'string' | 'integer' | 'number'; enum?: readonly string[]; minimum?: number; maximum?: number; pattern?: string; default?: string | number };
}

/**
 * One rule for the numeric parameters (limit, offset, min_eb05, min_n): the value is trimmed,
 * may carry one leading `+` or `-` (a literal `+` must be sent as `%2B`, since `+` in a query
 * string is a space, which the trim removes: `limit=+5` and `limit=%2B5` both mean 5), and
 * `-0` is 0. Integers are decimal digits; numbers are decimal with an optional exponent.
 */
const INTEGER_RE = /^[+-]?\d+$/;
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The value of a numeric text that matches `re`, `-0` read as 0; NaN when it does not match. */
function readNumber(re: RegExp, text: string): number {
  return re.test(text) ? Number(text) + 0 : NaN;
}

/** A decimal number by the one number rule (optional sign and exponent, `-0` is 0); NaN when `text` is not one. */
export function readDecimal(text: string): number {
  return readNumber(NUMBER_RE, text);
}

/** Quotes a user value for an error message, shortened so that errors stay small. */
export function quoteValue(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
}

/**
 * An integer parameter by the one number rule, within `min..max`.
 * @returns the number, or the 400 Error fields (with `usage`) naming the parameter and its bounds.
 */
export function integerValue(name: string, text: string, min: number, max: number, usage: string): number | ParamError {
  const n = readNumber(INTEGER_RE, text);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const bounds = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    return { error: `${name} must be an integer ${bounds} (got ${quoteValue(text)})`, usage };
  }
  return n;
}

/**
 * The values of a raw query string (`+` a space, `%XX` the byte, trimmed), or the 400 Error
 * fields of the first unknown parameter (`unknown(name)`, by default one with `allowed`: the
 * names) or repeated one (an empty value counts as given). Read them with `presentValue`.
 */
export function queryValues(
  search: string, names: readonly string[], usage: string,
  unknown: (name: string) => ParamError = (name) => ({ error: `unknown parameter ${quoteValue(name)}`, allowed: names, usage }),
): Map<string, string> | ParamError {
  const values = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(search)) {
    if (!names.includes(name)) return unknown(name);
    if (values.has(name)) return { error: `parameter ${name} is given more than once; give it at most once`, usage };
    values.set(name, value.trim());
  }
  return values;
}

/** A parameter's value, undefined when absent or empty (`vaccine=` counts as absent). */
export function presentValue(values: ReadonlyMap<string, string>, name: string): string | undefined {
  const v = values.get(name);
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The vaccine of `vaccine` and its alias `drug` (spec 4.1: identical when both are given).
 * @returns the value (undefined when neither is given), or the 400 Error fields.
 */
export function vaccineValue(values: ReadonlyMap<string, string>, usage: string): string | undefined | ParamError {
  const vaccine = presentValue(values, 'vaccine');
  const drug = presentValue(values, 'drug');
  if (vaccine !== undefined && drug !== undefined && vaccine !== drug) {
    return { error: `vaccine and drug are the same parameter and must be identical when both are given (got ${quoteValue(vaccine)} and ${quoteValue(drug)})`, usage };
  }
  return vaccine ?? drug;
}
