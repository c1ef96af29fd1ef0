/**
 * The m and u probabilities of the linkage's fields, estimated from the data:
 *
 * - **u** from random pairs of reports (`RANDOM_PAIRS` pairs drawn by a fixed hash sequence, so
 *   a run is reproducible): almost every random pair is two different cases, so the share of a
 *   level among them estimates P(level | non-match) (Winkler 1988; the same method as splink's
 *   `estimate_u_using_random_sampling`). Candidate pairs cannot give u: the blocking chose them
 *   for agreeing on some field.
 * - **m** by EM (em.ts, u fixed, p fitted) over the candidate pairs, in sessions (as splink's
 *   training blocking rules): each session takes the pairs that agree on some fields and leaves
 *   those fields out of its EM (every pair there agrees on them whatever its class, so they say
 *   nothing of m). A field's m is the mean over the sessions that estimated it. Over all
 *   candidate pairs at once, the EM's "match" class became a cohort (same vaccines, lots and
 *   dates: one campaign), not "same case"; the sessions' pairs are mostly duplicates.
 */
import { COMPARED_FIELDS, comparePair, levelsOf, RADIX } from './compare.js';
import { fitMatchModel, type MatchModel } from './em.js';
import type { LinkageFeatures } from './features.js';

/** Random pairs drawn to estimate u. */
export const RANDOM_PAIRS = 200_000;

/**
 * The EM sessions: each takes the candidate pairs whose levels reach `where` (field -> lowest
 * level) and leaves those fields out of its EM. Session 1, pairs whose narratives share at least
 * half their words, estimates every field but the narrative; session 2, pairs with the same age,
 * vaccination date and onset date, estimates the others (the narrative's m among them).
 */
export const SESSIONS: ReadonlyArray<{ name: string; where: Readonly<Record<string, number>> }> = [
  { name: 'similar narratives', where: { narrative: 3 } },
  { name: 'same age, vaccination and onset dates', where: { age: 3, vax_date: 3, onset_date: 3 } },
];

/** A 32-bit hash of an integer (murmur3's finaliser), the random-pair sequence. */
function hash32(x: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Per field and level, u: the level's share among random pairs where the field is not missing. */
export function randomPairU(f: LinkageFeatures, pairs = RANDOM_PAIRS): number[][] {
  const counts = RADIX.map((r) => new Array<number>(r).fill(0));
  if (f.count >= 2) {
    for (let k = 0; k < pairs; k++) {
      const a = hash32(2 * k) % f.count;
      const b = hash32(2 * k + 1) % f.count;
      if (a === b) continue;
      levelsOf(comparePair(f, Math.min(a, b), Math.max(a, b))).forEach((l, field) => { counts[field][l]++; });
    }
  }
  return counts.map((row, field) => {
    const total = row.reduce((s, x, l) => s + (l > 0 ? x : 0), 0);
    // A level never seen among random pairs gets half a pair (so its u is small but not zero).
    return row.map((x, l) => (l === 0 ? 0 : total > 0 ? Math.max(x, 0.5) / total : 1 / (RADIX[field] - 1)));
  });
}

/** The fitted probabilities: m from the sessions, u from random pairs, and each session's fit. */
export interface Estimates {
  m: number[][];
  u: number[][];
  weights: number[][];
  sessions: Array<{ name: string; pairs: number; p: number; iterations: number; converged: boolean }>;
}

/**
 * m and u of every field (see the module header). `patterns` counts the candidate pairs by
 * comparison pattern.
 */
export function estimate(f: LinkageFeatures, patterns: ReadonlyMap<number, number>): Estimates {
  const u = randomPairU(f);
  const mSum = RADIX.map((r) => new Array<number>(r).fill(0));
  const mSessions = RADIX.map(() => 0);
  const sessions: Estimates['sessions'] = [];
  for (const session of SESSIONS) {
    const where = Object.entries(session.where).map(([name, level]) => [COMPARED_FIELDS.findIndex((c) => c.name === name), level] as const);
    const out = new Set(where.map(([k]) => k));
    const counts = new Map<string, { levels: number[]; count: number }>();
    let pairs = 0;
    for (const [pattern, count] of patterns) {
      const levels = levelsOf(pattern);
      if (where.some(([k, level]) => levels[k] < level)) continue;
      for (const k of out) levels[k] = 0;
      const key = levels.join();
      const entry = counts.get(key);
      if (entry) entry.count += count;
      else counts.set(key, { levels, count });
      pairs += count;
    }
    const entries = [...counts.values()];
    const model: MatchModel = fitMatchModel(entries.map((e) => e.levels), entries.map((e) => e.count), RADIX, { fixedU: u, p: 0.5 });
    sessions.push({ name: session.name, pairs, p: model.p, iterations: model.iterations, converged: model.converged });
    if (pairs === 0) continue;
    RADIX.forEach((r, k) => {
      if (out.has(k)) return;
      mSessions[k]++;
      for (let l = 1; l < r; l++) mSum[k][l] += model.m[k][l];
    });
  }
  // A field no session estimated keeps a neutral m (= u): it weighs 0.
  const m = mSum.map((row, k) => row.map((x, l) => (l === 0 ? 0 : mSessions[k] > 0 ? x / mSessions[k] : u[k][l])));
  const weights = m.map((row, k) => row.map((x, l) => (l === 0 ? 0 : Math.log2(x / u[k][l]))));
  return { m, u, weights, sessions };
}
