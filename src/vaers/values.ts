/**
 * Cell values of the official VAERS files: the report id and the received date.
 * Source: VAERS data use guide (vaers.hhs.gov); `/work/shared/data/vaers/SOURCES.md` ("Format and
 * encoding"): dates are `MM/DD/YYYY`, `VAERS_ID` is zero-padded to a release-dependent width.
 */
import { quarterOf, type QuarterIndex } from '../spec/quarter.js';

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
 * Quarter of a `RECVDATE` cell in `MM/DD/YYYY` (one-digit month and day accepted).
 * The date must exist on the calendar (`02/30/1999` does not; `02/29` is accepted only in leap
 * years) and the year must lie in 1900..2999.
 * @returns the quarter index (`year * 4 + quarter - 1`, see src/quarter.ts), or `null` when the
 *   cell is empty or not such a date.
 */
export function recvdateQuarter(cell: string): QuarterIndex | null {
  const m = DATE_RE.exec(cell);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
  if (day > maxDay) return null;
  return quarterOf(year, month);
}
