/**
 * Value-specific (term-frequency) weights of the linkage: agreement on a common value says less
 * than agreement on a rare one (Winkler 1989, "Frequency-based matching in Fellegi-Sunter model
 * of record linkage", Proc. Section on Survey Research Methods, ASA; as splink's term-frequency
 * adjustments). A mass-campaign vaccination date, the commonest vaccine set, a lot given to a
 * whole state, Pyrexia: two different patients share these often.
 *
 * For two reports agreeing on the value v of a field whose share among the reports knowing the
 * field is p_v, the non-match probability of that agreement is p_v^2 / u (u: the level's
 * probability among random pairs, estimate.ts) and its match probability p_v, so the weight
 * log2(m / u) becomes log2(m / u) + log2(u / p_v): the **adjustment** log2(u / p_v), in bits,
 * negative for a value commoner than the level's average. Applied to:
 *
 * - `age` exact: p of the age (to 0.01 year: the 2-, 4- and 6-month-olds of the infant schedule
 *   are common ages);
 * - `vax_date` exact: p of the vaccination date;
 * - `vaccines` same set: p of the report's set of VAX_NAMEs;
 * - `lots` a lot in common: p of the rarest lot the two share;
 * - `events` same set: p of the set of MedDRA terms; `events` some or half in common: p of the
 *   rarest term the two share, the adjustment then only ever lowering the weight (those levels'
 *   u mixes many values and sizes of overlap, so a rare term does not raise it).
 *
 * p_v is a share of reports (count of reports with v / reports knowing the field), at least
 * 1 / that count.
 */
import { COMPARED_FIELDS } from './compare.js';
import type { LinkageFeatures } from './features.js';

/** Per report, the shares p_v (0..1) of its values (see the module header); NaN when the field is unknown. */
export interface ValueShares {
  /** Share of reports with the report's age (to 0.01 year) among reports with one. */
  age: Float64Array;
  /** Share of reports with the report's VAX_DATE among reports with one. */
  vaxDay: Float64Array;
  /** Share of reports with the report's exact set of VAX_NAMEs. */
  vaccineSet: Float64Array;
  /** Share of reports with the report's exact set of MedDRA terms (NaN: no term). */
  eventSet: Float64Array;
  /** Per MedDRA term string number: share of reports naming it. */
  term: Map<number, number>;
  /** Per lot (index into LinkageFeatures.lotNames): share of reports with a lot naming it. */
  lot: Float64Array;
}

const FIELD = Object.fromEntries(COMPARED_FIELDS.map((c, k) => [c.name, k])) as Record<string, number>;

/** Per report, the share of its key among the reports with a key (`key` undefined: unknown -> NaN). */
function sharesOf(n: number, key: (i: number) => string | number | undefined): Float64Array {
  const counts = new Map<string | number, number>();
  let known = 0;
  for (let i = 0; i < n; i++) {
    const k = key(i);
    if (k === undefined) continue;
    known++;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const out = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    const k = key(i);
    if (k !== undefined) out[i] = counts.get(k)! / known;
  }
  return out;
}

/** The value shares of every report of `f` (see ValueShares). */
export function valueShares(f: LinkageFeatures): ValueShares {
  const n = f.count;
  const term = new Map<number, number>();
  let withEvents = 0;
  const lotCounts = new Float64Array(f.lotNames.length);
  let withLots = 0;
  for (let i = 0; i < n; i++) {
    if (f.events[i].length > 0) withEvents++;
    for (const t of f.events[i]) term.set(t, (term.get(t) ?? 0) + 1);
    if (f.lots[i].length > 0) withLots++;
    for (const l of f.lots[i]) lotCounts[l]++;
  }
  for (const [t, c] of term) term.set(t, c / withEvents);
  return {
    age: sharesOf(n, (i) => (Number.isNaN(f.age[i]) ? undefined : Math.round(f.age[i] * 100))),
    vaxDay: sharesOf(n, (i) => (f.vaxDay[i] >= 0 ? f.vaxDay[i] : undefined)),
    vaccineSet: sharesOf(n, (i) => f.vaccines[i].join()),
    eventSet: sharesOf(n, (i) => (f.events[i].length > 0 ? f.events[i].join() : undefined)),
    term,
    lot: lotCounts.map((c) => c / Math.max(1, withLots)),
  };
}

/** The smallest share (by `share`) of a value both sorted distinct arrays hold (Infinity: none). */
function rarestShared(x: ArrayLike<number>, y: ArrayLike<number>, share: (v: number) => number): number {
  let i = 0;
  let j = 0;
  let rarest = Infinity;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) { rarest = Math.min(rarest, share(x[i])); i++; j++; } else if (x[i] < y[j]) i++; else j++;
  }
  return rarest;
}

/**
 * The frequency adjustment, in bits, of reports `a` and `b` compared at per-field `levels`
 * (compare.ts levelsOf), `u` being estimate.ts's u per field and level (see the module header).
 */
export function frequencyAdjustment(f: LinkageFeatures, shares: ValueShares, u: readonly number[][], a: number, b: number, levels: readonly number[]): number {
  const bits = (k: number, p: number): number => (Number.isFinite(p) && p > 0 ? Math.log2(u[k][levels[k]] / p) : 0);
  let adjustment = 0;
  if (levels[FIELD.age] === 3) adjustment += bits(FIELD.age, shares.age[a]);
  if (levels[FIELD.vax_date] === 3) adjustment += bits(FIELD.vax_date, shares.vaxDay[a]);
  if (levels[FIELD.vaccines] === 3) adjustment += bits(FIELD.vaccines, shares.vaccineSet[a]);
  if (levels[FIELD.lots] === 2) adjustment += bits(FIELD.lots, rarestShared(f.lots[a], f.lots[b], (l) => shares.lot[l]));
  const events = levels[FIELD.events];
  if (events === 4) adjustment += bits(FIELD.events, shares.eventSet[a]);
  else if (events >= 2) adjustment += Math.min(0, bits(FIELD.events, rarestShared(f.events[a], f.events[b], (t) => shares.term.get(t) ?? NaN)));
  return adjustment;
}
