/**
 * How much individual evidence supports a link (issue 43, round 7, declared post hoc in
 * docs/duplicates.md): a pair whose agreement rests on what a clinic day or a sender's batch shares
 * (the day, vaccines, lots, age, state) and not on what the reports themselves say is a **thin**
 * link, accepted only at THIN_WEIGHT bits or more instead of the threshold (link.ts). Two kinds:
 * - two **direct reports** (no SPLTTYPE in either: a clinic's or a parent's forms) whose
 *   narratives share less than a fifth of their words (word-set Jaccard < 0.2) and whose events
 *   less than a third (Jaccard < 1/3): three smallpox vaccinees of one military lot and day (20 and
 *   21-year-old men, onsets days apart, each with his own course), two 4-year-olds of one clinic;
 * - two **case numbers of one sender** (case-numbers.ts oneSenderNumbers: WAES0511USA02337 and
 *   WAES0512USA02511) whose narratives share less than half their words: a manufacturer numbers
 *   each patient of a batch, and its follow-up of one patient under a new number repeats the text
 *   (two 71-year-old women with other histories; a "5 month old" and a "4 month old" of one
 *   RotaTeq day).
 * A shared case number (the same SPLTTYPE) or a shared text is the support the others lack.
 *
 * Round 8 (declared post hoc in docs/duplicates.md; tuned on every label of rounds 1-7): a **weak**
 * link, under PINNED_WEIGHT bits, must also **pin the person** (pinnedPerson): both reports state
 * an age (the weight already says it agrees), and they name the same state or share at least 0.3
 * of their narratives' words. Round 7's wrong links lay mostly between the threshold and 31 bits
 * (12 of 14), agreeing on what a clinic day or a product shares: an unknown age on one side (a
 * report of "5 adults" beside one woman's; a man's two Pneumovax reports that each name "a second
 * male patient"; two Wyeth legal complaints with other vaccine histories), other states of one
 * manufacturer's batch.
 */
import { oneSenderNumbers } from './case-numbers.js';
import { jaccard } from './compare.js';
import type { LinkageFeatures } from './features.js';

/** The weight in bits a thin link needs (thinLink; round 7: the labelled thin links of different patients lay at 23.8-39.5 bits). */
export const THIN_WEIGHT = 40;

/** The weight in bits under which a link must pin the person (pinnedPerson; round 7: 12 of its 14 wrong links lay at 23.6-30.7 bits). */
export const PINNED_WEIGHT = 31;

/** The narrative word share (Jaccard) that pins the person in a weak link without the same state. */
const PINNING_TEXT = 0.3;

/**
 * Whether reports `a` and `b` pin one person (see the module header): both state an age, and both
 * the same (known) state or narratives sharing at least PINNING_TEXT of their words.
 */
export function pinnedPerson(f: LinkageFeatures, a: number, b: number): boolean {
  if (Number.isNaN(f.age[a]) || Number.isNaN(f.age[b])) return false;
  if (f.state[a] >= 0 && f.state[a] === f.state[b]) return true;
  return jaccard(f.narrative[a], f.narrative[b]) >= PINNING_TEXT;
}

/** Whether the link of reports `a` and `b` is thin (see the module header): two direct reports sharing little text and few events, or two case numbers of one sender with narratives written apart. */
export function thinLink(f: LinkageFeatures, a: number, b: number): boolean {
  const [x, y] = [f.splttype[a], f.splttype[b]];
  const text = jaccard(f.narrative[a], f.narrative[b]);
  if (x === '' && y === '') return text < 0.2 && jaccard(f.events[a], f.events[b]) < 1 / 3;
  return oneSenderNumbers(x, y) && text < 0.5;
}
