/**
 * Case numbers (SPLTTYPE, normalised by features.ts) as evidence of **different patients**
 * (issue 43; docs/duplicates.md "What separates real reports", `series`): a sender numbers each
 * patient of a batch, so two numbers of one sender written alike are two patients when they run
 * in one series, carry two letter suffixes of one number, or name patients of other ages or
 * vaccination dates. Split from patient-evidence.ts (round 7); differentPatients reads them.
 */
import type { LinkageFeatures } from './features.js';

/**
 * Whether two normalised SPLTTYPEs (features.ts) are two case numbers of one sender: both known,
 * different, neither a prefix of the other (a truncated copy of one number is the same number:
 * MPI2000049220 and MPI200004922), and written alike: the same runs of letters and digits in the
 * same order, the letter runs equal (WAES92080647 and WAES92080671; WAES0310USA03020 and
 * WAES0311USA00634; 893291034E and 893291056E; HQ2110212OCT1999 and HQ2110312OCT1999).
 */
export function oneSenderNumbers(x: string, y: string): boolean {
  if (x === '' || y === '' || x === y || x.startsWith(y) || y.startsWith(x)) return false;
  const shape = (s: string): string => (s.match(/[A-Z]+|[0-9]+/g) ?? []).map((run) => (/^\d/.test(run) ? '#' : run)).join('|');
  return shape(x) === shape(y);
}

/**
 * Whether two case numbers are one sender's number with two letter suffixes (960153781A and
 * 960153781B: a sender's two cases filed under one number, issue 43 round 4, one boy's two
 * episodes): the same but for their last letter, both ending in a letter after a digit.
 */
export function otherSuffix(x: string, y: string): boolean {
  return x.length === y.length && x.length >= 3 && x !== y && x.slice(0, -1) === y.slice(0, -1)
    && /[0-9][A-Z]$/.test(x) && /[0-9][A-Z]$/.test(y);
}

/**
 * Whether two case numbers are of one sender's **series** (a batch numbered one patient at a
 * time): two numbers of one sender (oneSenderNumbers) differing in one run of digits by at most
 * 1,000, or, compared as a whole (issue 43), differing anywhere while the two narratives share
 * half their words (`similarNarratives`: one template; WAES0310USA03020 and WAES0311USA00634, the
 * four women of one flu clinic). Two numbers of one sender with narratives written apart may be a
 * follow-up filed under a new number (WAES93090204 and WAES95129350, one woman's arteritis).
 */
export function sameSeries(x: string, y: string, similarNarratives = false): boolean {
  if (!oneSenderNumbers(x, y)) return false;
  if (similarNarratives) return true;
  const rx = x.match(/[A-Z]+|[0-9]+/g) ?? [];
  const ry = y.match(/[A-Z]+|[0-9]+/g) ?? [];
  let differing = 0;
  for (let k = 0; k < rx.length; k++) {
    if (rx[k] === ry[k]) continue;
    if (Math.abs(Number(rx[k]) - Number(ry[k])) > 1000) return false;
    differing++;
  }
  return differing === 1;
}

/**
 * Whether reports `a` and `b` are two patients numbered apart by one sender (issue 43 round 6: a
 * manufacturer's batch of one template, one case number per patient): two case numbers of one
 * sender (oneSenderNumbers), ages known in both, and either the vaccination dates (both known)
 * differ or the ages are a year or more apart. A sender's follow-up of one patient under a new
 * number keeps the patient's age and vaccination date.
 */
export function otherNumberedPatient(f: LinkageFeatures, a: number, b: number): boolean {
  if (!oneSenderNumbers(f.splttype[a], f.splttype[b]) || Number.isNaN(f.age[a]) || Number.isNaN(f.age[b])) return false;
  return (f.vaxDay[a] >= 0 && f.vaxDay[b] >= 0 && f.vaxDay[a] !== f.vaxDay[b]) || Math.abs(f.age[a] - f.age[b]) >= 1 - 1e-9;
}
