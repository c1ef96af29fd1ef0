/**
 * Proportional reporting ratio with its 95% confidence interval (Evans, Waller and Davis 2001,
 * "Use of proportional reporting ratios (PRRs) for signal generation from spontaneous adverse
 * drug reaction reports", Pharmacoepidemiology and Drug Safety 10:483-486), and the Pearson
 * chi-square with Yates' continuity correction exactly as R's `chisq.test(correct = TRUE)`
 * computes it for a 2x2 table.
 *
 * 2x2 report table of a pair (docs/design.md): a = reports with vaccine and event, b = vaccine
 * without the event, c = event without the vaccine, d = neither.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/**
 * z for a two-sided 95% interval: the exact standard normal 97.5% quantile 1.959963984540054
 * (R's `qnorm(0.975)`), as docs/design.md fixes it; the reference ROR CI in docs/reference-data.md
 * (1.9007 to 7.6478 for CALCIUM/DYSPHAGIA) is only reproduced with the exact quantile
 * (1.96 gives an upper limit of 7.6479). The two differ by 2e-5 relative in the limits.
 */
export const Z95 = normalQuantile(0.975, 0, 1);

/** PRR and its 95% CI; each null when undefined (zero denominator or zero cell under a log). */
export interface PrrResult {
  prr: number | null;
  prr_lci: number | null;
  prr_uci: number | null;
}

/**
 * PRR `= (a/(a+b)) / (c/(c+d))`; CI `exp(ln PRR +- z sqrt(1/a - 1/(a+b) + 1/c - 1/(c+d)))`, z = {@link Z95}.
 * PRR is null when a+b = 0, c+d = 0 or c = 0; the CI is null also when a = 0.
 * Example (CALCIUM / DYSPHAGIA in caers): a=11, b=32, c=274, d=3039 -> PRR = (11/43)/(274/3313)
 * = 3.0931...
 */
export function prr(a: number, b: number, c: number, d: number): PrrResult {
  if (a + b <= 0 || c + d <= 0 || c <= 0) return { prr: null, prr_lci: null, prr_uci: null };
  const value = a / (a + b) / (c / (c + d));
  if (a <= 0) return { prr: value, prr_lci: null, prr_uci: null };
  const se = Math.sqrt(1 / a - 1 / (a + b) + 1 / c - 1 / (c + d));
  const log = Math.log(value);
  return { prr: value, prr_lci: Math.exp(log - Z95 * se), prr_uci: Math.exp(log + Z95 * se) };
}

/**
 * Yates-corrected chi-square of the 2x2 table, R's convention (`stats::chisq.test`):
 * expected `E_ij = row_i * col_j / N`, correction `YATES = min(0.5, |O - E|)` (the same for all
 * four cells of a 2x2), statistic `sum((|O - E| - YATES)^2 / E)`.
 * Null when a row or column total is 0 (an expected cell is 0; R returns NaN).
 */
export function yatesChiSquare(a: number, b: number, c: number, d: number): number | null {
  const total = a + b + c + d;
  const row1 = a + b, row2 = c + d, col1 = a + c, col2 = b + d;
  if (row1 <= 0 || row2 <= 0 || col1 <= 0 || col2 <= 0) return null;
  const ea = (row1 * col1) / total, eb = (row1 * col2) / total, ec = (row2 * col1) / total, ed = (row2 * col2) / total;
  const yates = Math.min(0.5, Math.abs(a - ea), Math.abs(b - eb), Math.abs(c - ec), Math.abs(d - ed));
  return yatesTerm(a, ea, yates) + yatesTerm(b, eb, yates) + yatesTerm(c, ec, yates) + yatesTerm(d, ed, yates);
}

function yatesTerm(observed: number, expected: number, yates: number): number {
  return (Math.abs(observed - expected) - yates) ** 2 / expected;
}
