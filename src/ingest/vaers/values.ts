/**
 * Cell values of the official VAERS files: the report id, dates and decimal numbers.
 * Source: VAERS data use guide (vaers.hhs.gov); the source notes of `../shared/data/vaers` ("Format and
 * encoding"): dates are `MM/DD/YYYY`, `VAERS_ID` is zero-padded to a release-dependent width.
 */
import { quarterOf, type QuarterIndex } from '../../domain/quarter.js';

const ID_RE = /^\s*(\d{1,15})\s*$/;
const DATE_RE = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Reads a `VAERS_ID` cell as an integer: `"025001"` and `"0025001"` are both `25001`.
 * @returns the id, or `null` when the cell is not a non-negative integer (empty, letters, sign).
 */
export function parseVaersId(cell: string): number | null {
  const m = ID_RE.exec(cell);
  return m ? Number(m[1]) : null;
}

/**
 * A calendar date as the integer `yyyymmdd` (`19991019` for 10/19/1999): compact, and it sorts
 * as the date does. `0` is never a date (the report-detail columns use it for "unknown").
 */
export type DateNumber = number;

/**
 * Reads a VAERS date cell in `MM/DD/YYYY` (one-digit month and day accepted; `RECVDATE`,
 * `VAX_DATE`, `ONSET_DATE`). The date must exist on the calendar (`02/30/1999` does not;
 * `02/29` only in leap years) and the year must lie in 1900..2999.
 * @returns the date as `yyyymmdd`, or `null` when the cell is empty or not such a date.
 */
export function parseVaersDate(cell: string): DateNumber | null {
  const m = DATE_RE.exec(cell);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
  if (day > maxDay) return null;
  return year * 10000 + month * 100 + day;
}

/** `yyyymmdd` -> ISO `YYYY-MM-DD` (`19991019` -> `1999-10-19`). */
export function isoDate(date: DateNumber): string {
  const text = String(date);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

/** Quarter index of a `yyyymmdd` date (src/domain/quarter.ts). */
export function dateQuarter(date: DateNumber): QuarterIndex {
  return quarterOf(Math.floor(date / 10000), Math.floor(date / 100) % 100);
}

/**
 * Quarter of a `RECVDATE` cell (a date as `parseVaersDate` reads it).
 * @returns the quarter index (`year * 4 + quarter - 1`, see src/domain/quarter.ts), or `null` when the
 *   cell is empty or not such a date.
 */
export function recvdateQuarter(cell: string): QuarterIndex | null {
  const date = parseVaersDate(cell);
  return date === null ? null : dateQuarter(date);
}

const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * Reads a decimal cell (`NUMDAYS`).
 * @returns the number, or `null` when the cell is blank or not a plain decimal number (letters,
 *   `1e3`, `0x10`, two dots).
 */
export function parseDecimal(cell: string): number | null {
  const text = cell.trim();
  return DECIMAL_RE.test(text) ? Number(text) : null;
}
