/**
 * Signal flags of one pair (docs/design.md "Statistics, precisely"): GPS `eb05 >= GPS_THRESHOLD` (2, src/domain/floor.ts); PRR
 * `prr >= 2 and chisq >= 4 and n >= 3` (Evans 2001); ROR `lower CI > 1 and n >= 3`; IC
 * `ic025 > 0`. A null statistic never flags.
 */
import { GPS_THRESHOLD } from '../domain/floor.js';

/** The statistics the flags read; null where undefined. */
export interface FlagInput {
  n: number;
  eb05: number | null;
  prr: number | null;
  prr_chisq: number | null;
  ror_lci: number | null;
  ic025: number | null;
}

/** The four flags, their count (0..4) and whether any is set. */
export interface Flags {
  gps: boolean;
  prr: boolean;
  ror: boolean;
  ic: boolean;
  n_methods_flagged: number;
  is_signal_any: boolean;
}

/** Evaluate the four flags of one pair. */
export function flags(input: FlagInput): Flags {
  return flagsFrom({
    gps: input.eb05 !== null && input.eb05 >= GPS_THRESHOLD,
    prr: prrFlag(input.n, input.prr, input.prr_chisq),
    ror: rorFlag(input.n, input.ror_lci),
    ic: input.ic025 !== null && input.ic025 > IC_THRESHOLD,
  });
}

/** The IC flag: `ic025 > IC_THRESHOLD` (0: the credibility interval lies above log2(1)). */
export const IC_THRESHOLD = 0;

/** The PRR flag (Evans 2001): `prr >= 2`, Yates chi-square `>= 4`, `n >= 3`; null never flags. */
export function prrFlag(n: number, prr: number | null, chisq: number | null): boolean {
  return prr !== null && chisq !== null && prr >= 2 && chisq >= 4 && n >= 3;
}

/** The ROR flag: lower 95% limit `> 1` and `n >= 3`; null never flags. */
export function rorFlag(n: number, rorLci: number | null): boolean {
  return rorLci !== null && rorLci > 1 && n >= 3;
}

/**
 * The flags from the four methods' decisions (the GPS and IC decisions may come from a CDF test
 * instead of the quantile: src/stats/window.ts `windowFlags`): their count and whether any is set.
 */
export function flagsFrom(methods: { gps: boolean; prr: boolean; ror: boolean; ic: boolean }): Flags {
  const count = Number(methods.gps) + Number(methods.prr) + Number(methods.ror) + Number(methods.ic);
  // Fields written out, not spread: this runs for every pair of every window of the fit pass.
  return { gps: methods.gps, prr: methods.prr, ror: methods.ror, ic: methods.ic, n_methods_flagged: count, is_signal_any: count >= 1 };
}
