/**
 * The signal methods the harness evaluates, each decided per quarterly window by the
 * one flags module (src/stats/flags.ts) or the serving floor (src/domain/floor.ts):
 *
 * - `gps` EB05 >= 2 (DuMouchel 1999), `prr` PRR >= 2 with chi-square >= 4 and n >= 3 (Evans
 *   2001), `ror` lower 95% bound of ROR > 1 with n >= 3 (van Puijenbroek 2002), `ic` IC025 > 0
 *   (Noren, Hopstadius and Bate 2013): the four flags of `flags()`;
 * - `floor`: `n_methods_flagged >= SERVING_FLOOR` (2), the rule the store and /signals serve.
 * The triage queue is an ordering, not a flag: it is judged against plain orderings of the same
 * windows (src/serve/evaluate/ranking.ts).
 *
 * A store may lack a flag's input (the Parquet form keeps no `prr_chisq` nor `ror_lci`). Such a
 * flag is recovered from the stored count `n_methods_flagged`: the flags with every input known
 * are evaluated; the rest `r` of the count belongs to the others. A flag that could not be set
 * even with its missing input at its most favourable value (`flags()` with +Infinity) is false;
 * when `r` is 0 every unknown flag is false; when `r` equals the number of possible ones they are
 * all true; otherwise the possible ones are undetermined (null).
 */
import { isFlagged, SERVING_FLOOR } from '../../domain/floor.js';
import { flags, type FlagInput, type Flags } from '../../stats/flags.js';
import type { FlagColumn, FlagRow } from '../store/evaluation.js';

/** Key of an evaluated method. */
export type MethodKey = 'gps' | 'prr' | 'ror' | 'ic' | 'floor';
/** The four flags of `flags()`. */
type FlagKey = Exclude<MethodKey, 'floor'>;

/** A method: its key, its name and its rule in words. */
export interface Method {
  key: MethodKey;
  name: string;
  rule: string;
}

/** The methods, in report order. */
export const METHODS: readonly Method[] = [
  { key: 'gps', name: 'GPS', rule: 'EB05 >= 2 (MGPS, DuMouchel 1999)' },
  { key: 'prr', name: 'PRR', rule: 'PRR >= 2, chi-square >= 4, n >= 3 (Evans 2001)' },
  { key: 'ror', name: 'ROR', rule: 'ROR lower 95% bound > 1, n >= 3 (van Puijenbroek 2002)' },
  { key: 'ic', name: 'IC', rule: 'IC025 > 0 (BCPNN, Noren 2013)' },
  { key: 'floor', name: `n_methods>=${SERVING_FLOOR}`, rule: `n_methods_flagged >= ${SERVING_FLOOR} (the serving floor)` },
];

/** The statistic columns each flag of `flags()` reads (besides `n`, always stored). */
const FLAG_INPUTS: { readonly [K in FlagKey]: readonly FlagColumn[] } = {
  gps: ['eb05'], prr: ['prr', 'prr_chisq'], ror: ['ror_lci'], ic: ['ic025'],
};
const FLAG_KEYS = Object.keys(FLAG_INPUTS) as FlagKey[];

/** Per method: flagged in this window (true/false), or null when the store cannot tell. */
export type WindowFlags = Record<MethodKey, boolean | null>;

/** The flags of `row` with the `missing` columns set to `value`. */
function flagsWith(row: FlagInput, missing: ReadonlySet<FlagColumn>, value: number | null): Flags {
  const input: FlagInput = { ...row };
  for (const c of missing) input[c] = value;
  return flags(input);
}

/**
 * The methods' verdicts on one window. `missing`: the flag columns the store does not keep
 * (read as null); the flags reading them are recovered from `n_methods_flagged` as the module
 * docstring says.
 */
export function windowFlags(row: FlagRow, missing: ReadonlySet<FlagColumn>): WindowFlags {
  const known = flagsWith(row, missing, null);
  const floor = row.n_methods_flagged === null ? null : isFlagged(row.n_methods_flagged);
  const unknown = FLAG_KEYS.filter((k) => FLAG_INPUTS[k].some((c) => missing.has(c)));
  const out = { gps: known.gps, prr: known.prr, ror: known.ror, ic: known.ic, floor } as WindowFlags;
  if (unknown.length === 0) return out;
  const favourable = flagsWith(row, missing, Number.POSITIVE_INFINITY);
  const possible = unknown.filter((k) => favourable[k]);
  const rest = row.n_methods_flagged === null ? null
    : row.n_methods_flagged - FLAG_KEYS.filter((k) => !unknown.includes(k) && known[k]).length;
  for (const k of unknown) {
    if (!possible.includes(k) || rest === 0) out[k] = false;
    else if (rest === possible.length) out[k] = true;
    else out[k] = null;
  }
  return out;
}
