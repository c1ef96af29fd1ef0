/**
 * Evidence that two reports tell of **other vaccinations** (issue 43; docs/duplicates.md "What
 * separates real reports", `vaccination` and `doses`): lots naming other vials, no vaccine kind in
 * common, other vaccines on other days, one vaccine's other dose number or limb. Split from
 * patient-evidence.ts (round 7), whose differentPatients reads them.
 */
import { jaccard } from './compare.js';
import type { LinkageFeatures } from './features.js';

/** Whether two arrays are equal value for value. */
export function equal(x: ArrayLike<number>, y: ArrayLike<number>): boolean {
  if (x.length !== y.length) return false;
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}

/**
 * Whether two normalised lots are one lot (issue 43: compared exactly, so lots one character
 * apart are two vials, as the DTaP lots of two infants of one clinic): equal once leading zeros
 * are dropped (0925880 and 925880), or one a prefix of the other of four characters or more
 * (X0481 and X04812: a fill number appended), or (round 5) one within the other of six characters
 * or more (21A012AA and AC21A012AA: a prefix written before it).
 */
export function lotsAlike(s: string, t: string): boolean {
  const [x, y] = [s.replace(/^0+/, ''), t.replace(/^0+/, '')];
  return x === y || (Math.min(x.length, y.length) >= 4 && (x.startsWith(y) || y.startsWith(x)))
    || (Math.min(x.length, y.length) >= 6 && (x.includes(y) || y.includes(x)));
}

/**
 * Whether two strings are one edit apart (one character replaced, inserted or dropped): a lot
 * copied by hand (UO378AA and U0378AA, 594AZ and 594A2, U1307CA and U13071CA). Issue 43, round
 * 4: 15 same-case pairs of the labelled set naming one visit (sameVisit) were kept apart by such
 * a lot; lotsDisagree forgives it only for such a pair (two infants of one clinic vaccinated on
 * other days may carry lots one character apart, 3F41027 and 3F41007).
 */
export function oneEditApart(x: string, y: string): boolean {
  if (Math.abs(x.length - y.length) > 1 || x === y) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (x.length === y.length) return x.slice(i + 1) === y.slice(i + 1);
  return x.length > y.length ? x.slice(i + 1) === y.slice(i) : x.slice(i) === y.slice(i + 1);
}

/**
 * Whether the lots of reports `a` and `b`, known in both, name other vials: some lot of the
 * report with fewer lots (either, when as many) has no lot alike (lotsAlike) in the other (a
 * manufacturer's copy may name its own vaccine's lot alone, never another lot).
 */
export function lotsDisagree(f: LinkageFeatures, a: number, b: number, typos = false): boolean {
  const x = f.lots[a];
  const y = f.lots[b];
  if (x.length === 0 || y.length === 0) return false;
  const same = (s: string, t: string): boolean => lotsAlike(s, t) || (typos && Math.min(s.length, t.length) >= 4 && oneEditApart(s, t));
  const alike = (k: number, others: Int32Array): boolean => others.some((l) => same(f.lotNames[k], f.lotNames[l]));
  if (x.length === y.length) return x.some((k) => !alike(k, y)) || y.some((k) => !alike(k, x));
  const [fewer, more] = x.length < y.length ? [x, y] : [y, x];
  return fewer.some((k) => !alike(k, more));
}

/**
 * Whether reports `a` and `b` describe two vaccinations (so two patients of one clinic, as the
 * case-identity rule's dates within 3 days let through): their lots name other vials
 * (lotsDisagree); or no kind of vaccine in common (features.ts vaccineKinds: PNEUMOVAX against
 * DTaP, IPV and MMR); or they name other vaccines, and either their vaccination dates are known and
 * different, or both name their lots and come from one kind of sender (both or neither with a
 * SPLTTYPE: a manufacturer's copy of a direct report may name its own vaccine only). One
 * vaccination reported twice names its vaccines and lots alike (a lot missing in one report, or
 * a typo, is no evidence); as many lots in each, all alike, are one vaccination whatever names
 * the vaccines were given (round 5: COMVAX against its parts).
 */
export function otherVaccination(f: LinkageFeatures, a: number, b: number): boolean {
  if (lotsDisagree(f, a, b)) return true;
  // The same lots, as many in each (round 5): one vaccination, whatever names the vaccines were given (COMVAX and its parts).
  if (f.lots[a].length > 0 && f.lots[a].length === f.lots[b].length) return false;
  if (f.vaccineKinds[a].length > 0 && f.vaccineKinds[b].length > 0 && jaccard(f.vaccineKinds[a], f.vaccineKinds[b]) === 0) return true;
  if (equal(f.vaccines[a], f.vaccines[b])) return false;
  const datesDiffer = f.vaxDay[a] >= 0 && f.vaxDay[b] >= 0 && f.vaxDay[a] !== f.vaxDay[b] && f.vaxImputed[a] === 0 && f.vaxImputed[b] === 0;
  const oneSender = (f.splttype[a] === '') === (f.splttype[b] === '');
  return datesDiffer || (oneSender && f.lots[a].length > 0 && f.lots[b].length > 0);
}

/**
 * How many vaccines reports `a` and `b` both give (one kind) with dose numbers known in both and
 * none in common (features.ts doses: VAX_DOSE 1-9), plus how many with sides known in both and
 * none in common (features.ts sites: VAX_SITE LA, RA, LL, RL, LG, RG; issue 43 round 7). Twins
 * vaccinated together get one vaccine's other dose (Recombivax HB dose 1 and 2; MMR dose 0 and 1,
 * Prevnar 2 and 3) or the same vaccines in the other limbs (IPOL right arm and left arm, MMR left
 * and right); one child's form written twice copies both. A man's anthrax dose 3 in the right arm
 * and dose 1 in the left are two visits.
 */
export function otherDosesOrSites(f: LinkageFeatures, a: number, b: number): number {
  return differingValues(f.doses[a], f.doses[b], 10) + differingValues(f.sites[a], f.sites[b], 8);
}

/** Of the keys name * radix + value of two sorted lists, the number of names in both lists with no value in common. */
function differingValues(x: Int32Array, y: Int32Array, radix: number): number {
  if (x.length === 0 || y.length === 0) return 0;
  const valuesOf = (keys: Int32Array): Map<number, number[]> => {
    const m = new Map<number, number[]>();
    for (const k of keys) {
      const name = Math.floor(k / radix);
      m.set(name, [...(m.get(name) ?? []), k]);
    }
    return m;
  };
  const [vx, vy] = [valuesOf(x), valuesOf(y)];
  let differing = 0;
  for (const [name, keys] of vx) {
    const other = vy.get(name);
    if (other !== undefined && !keys.some((k) => other.includes(k))) differing++;
  }
  return differing;
}
