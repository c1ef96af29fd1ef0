/**
 * Reporting odds ratio with its 95% confidence interval (van Puijenbroek et al. 2002, "A
 * comparison of measures of disproportionality for signal detection in spontaneous reporting
 * systems for adverse drug reactions", Pharmacoepidemiology and Drug Safety 11:3-10).
 * Cells a, b, c, d as in ./prr.ts.
 */
import { Z95 } from './prr.js';

/** ROR and its 95% CI; each null when undefined. */
export interface RorResult {
  ror: number | null;
  ror_lci: number | null;
  ror_uci: number | null;
}

/**
 * ROR `= a d / (b c)`; CI `exp(ln ROR +- z sqrt(1/a + 1/b + 1/c + 1/d))`, z = {@link Z95} (1.95996).
 * ROR is null when b = 0 or c = 0; the CI is null when any cell is 0 (ROR = 0 when only a or d
 * is 0 has no log-scale interval).
 * Example (CALCIUM / DYSPHAGIA in caers, docs/reference-data.md): a=11, b=32, c=274, d=3039 ->
 * ROR = 33429/8768 = 3.8126, 95% CI 1.9007 to 7.6478.
 */
export function ror(a: number, b: number, c: number, d: number): RorResult {
  if (b <= 0 || c <= 0) return { ror: null, ror_lci: null, ror_uci: null };
  const value = (a * d) / (b * c);
  if (a <= 0 || d <= 0) return { ror: value, ror_lci: null, ror_uci: null };
  const se = Math.sqrt(1 / a + 1 / b + 1 / c + 1 / d);
  const log = Math.log(value);
  return { ror: value, ror_lci: Math.exp(log - Z95 * se), ror_uci: Math.exp(log + Z95 * se) };
}
