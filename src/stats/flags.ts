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
  const gps = input.eb05 !== null && input.eb05 >= GPS_THRESHOLD;
  const prr = input.prr !== null && input.prr_chisq !== null && input.prr >= 2 && input.prr_chisq >= 4 && input.n >= 3;
  const ror = input.ror_lci !== null && input.ror_lci > 1 && input.n >= 3;
  const ic = input.ic025 !== null && input.ic025 > 0;
  const count = Number(gps) + Number(prr) + Number(ror) + Number(ic);
  return { gps, prr, ror, ic, n_methods_flagged: count, is_signal_any: count >= 1 };
}
