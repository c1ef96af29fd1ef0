/**
 * What the wait for the default store looks like to a person (and, on request, to a machine): the
 * pure formatting of the build's progress (docs/operations.md "Progress of the first start").
 *
 * The build runs a known list of phases (build.ts announces them: `read`, `link`, `count NAME`,
 * `fit NAME`, `rows NAME`, `write`); each phase reports `done` of `total` `unit`s, or nothing (the
 * duplicate-report linkage: total 0, progress unknown). From these and the clock:
 * - the phase's time left: its elapsed time times (total - done) / done, once 2 s and 1% of it
 *   have passed (else unknown);
 * - the whole build's time left: the elapsed time times (1 - F) / F, F being the share of the
 *   build done, weighing each phase by PHASE_WEIGHTS, once F >= 5% (else unknown).
 * A phase without progress counts as half done while it runs, so that the estimate keeps moving;
 * when the last measured build's phase times are known (`ExpectedTimes`, kept in the cache folder
 * by src/cache/default-store.ts), each phase weighs its measured seconds instead, and a phase
 * without progress counts as done in the share of its measured time that has passed (at most 95%),
 * and its line says how long that build spent in it.
 *
 * `progressLine` is the human line ("phase 3 of 22, count all: 45% ..."), `progressJson` the
 * machine line (one JSON object: REPORTING_SIGNALS_PROGRESS=json).
 */

/**
 * The weight of each kind of phase (the first word of its name): its share of the build's CPU
 * time, per phase of that kind, measured by bench/first-start.ts on the 1990-2006 files (2 cores,
 * 283 s of CPU over the phases: read 17.4 s, the 6 counts 2.2 s, the 7 fits 94.0 s with the
 * linkage thread's time, the 7 row passes 154.2 s, write 15.2 s; `link`, then only the wait for
 * the linkage thread, 0.2 s; `interactions`, Omega's step, about 3 s by bench/interactions.ts). `load` (not in that sum): a cached start's load against a build, about 1 to 20.
 */
export const PHASE_WEIGHTS: Readonly<Record<string, number>> = {
  read: 0.06, link: 0.005, count: 0.0015, interactions: 0.01, fit: 0.047, rows: 0.078, write: 0.054, load: 0.05,
};

/** A phase kind this table does not know weighs this much. */
const OTHER_WEIGHT = 0.02;

/** Where a preparation stands, as the formatters read it. */
export interface ProgressSnapshot {
  /** `building`: this process builds; `waiting`: another process builds; `loading`: the store file exists and is being loaded. */
  state: 'building' | 'waiting' | 'loading';
  /** The phase (`read`, `link`, `count all`, ..., `loading`). */
  phase: string;
  /** 1-based number of the phase in the plan, and the plan's length (0 when unknown). */
  step: number;
  steps: number;
  /** Units done of `total` in this phase; total 0: progress unknown. */
  done: number;
  total: number;
  unit: string;
  /** Seconds since this phase began, and since the preparation began. */
  phaseSeconds: number;
  seconds: number;
  /** Estimated seconds left in this phase, and in the whole preparation; null when not known yet. */
  phaseLeft: number | null;
  left: number | null;
  /** A phase without a count: the seconds the last measured build spent in it, and its share of that build (0-1); absent when not known. */
  expectedSeconds?: number | null;
  expectedShare?: number | null;
}

/** The last measured build's wall seconds per phase name (`read`, `count all`, `link`, ...). */
export type ExpectedTimes = Readonly<Record<string, number>>;

/** `45 s`, `2 min 05 s`, `1 h 02 min` (seconds rounded). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** A count with thousands separators (`203,446`); fractions keep one decimal (`2.5`). */
function count(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** Percent of the phase done (0-100, floored), or null when the phase gives no progress. */
export function phasePercent(done: number, total: number): number | null {
  return total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : null;
}

/**
 * The human line of a snapshot, e.g.
 * `building the default store: phase 3 of 22, count all: 45% (91,551 of 203,446 reports), about 12 s left in this phase; 1 min 05 s elapsed, about 2 min 10 s left in all`.
 */
export function progressLine(s: ProgressSnapshot): string {
  const who = s.state === 'waiting' ? 'waiting for another process to build the default store' : s.state === 'loading' ? 'loading the default store' : 'building the default store';
  const step = s.steps > 0 ? `phase ${s.step} of ${s.steps}, ` : '';
  const percent = phasePercent(s.done, s.total);
  const expected = s.expectedSeconds != null && s.expectedShare != null
    ? `; the last measured build spent ${formatDuration(s.expectedSeconds)} here, ${Math.round(100 * s.expectedShare)}% of its time` : '';
  const amount = percent === null
    ? `working for ${formatDuration(s.phaseSeconds)} (no progress count in this phase${expected})`
    : `${percent}% (${count(s.done)} of ${count(s.total)} ${s.unit})${s.phaseLeft === null ? '' : `, about ${formatDuration(s.phaseLeft)} left in this phase`}`;
  const total = `${formatDuration(s.seconds)} elapsed${s.left === null ? '' : `, about ${formatDuration(s.left)} left in all`}`;
  return `${who}: ${step}${s.phase}: ${amount}; ${total}`;
}

/** The machine line of a snapshot: one JSON object (seconds rounded to 0.1). */
export function progressJson(s: ProgressSnapshot): string {
  const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);
  return JSON.stringify({
    state: s.state, phase: s.phase, step: s.step, steps: s.steps, done: s.done, total: s.total, unit: s.unit, percent: phasePercent(s.done, s.total),
    phase_seconds: round(s.phaseSeconds), seconds: round(s.seconds), phase_left_seconds: round(s.phaseLeft), left_seconds: round(s.left),
  });
}

/** The weight of a phase (PHASE_WEIGHTS by its first word). */
function weightOf(phase: string): number {
  return PHASE_WEIGHTS[phase.split(' ')[0]] ?? OTHER_WEIGHT;
}

/**
 * The weights of the plan's phases: the last measured build's seconds where known, the others
 * PHASE_WEIGHTS scaled to seconds by the phases known in both (so a `load` after the build, which
 * no build measures, still counts); PHASE_WEIGHTS alone without a measured build.
 */
export function planWeights(plan: readonly string[], expected: ExpectedTimes | null = null): number[] {
  const known = expected ? plan.filter((p) => (expected[p] ?? 0) > 0) : [];
  if (!expected || known.length === 0) return plan.map(weightOf);
  const scale = known.reduce((a, p) => a + expected[p], 0) / known.reduce((a, p) => a + weightOf(p), 0);
  return plan.map((p) => ((expected[p] ?? 0) > 0 ? expected[p] : weightOf(p) * scale));
}

/**
 * The share done of a phase without a count: the share of its measured time that has passed (at
 * most 0.95), or one half when no build measured it.
 */
export function uncountedFraction(phase: string, phaseSeconds: number, expected: ExpectedTimes | null): number {
  const measured = expected?.[phase] ?? 0;
  return measured > 0 ? Math.min(0.95, phaseSeconds / measured) : 0.5;
}

/** The phase's estimated seconds left from its own rate, or null (see the file comment). */
export function phaseLeft(done: number, total: number, phaseSeconds: number): number | null {
  if (total <= 0 || done <= 0 || phaseSeconds < 2 || done / total < 0.01) return null;
  return Math.max(0, (phaseSeconds * (total - done)) / done);
}

/**
 * The whole preparation's estimated seconds left, or null: `plan` the phases in order, `step` the
 * 1-based current one, `fraction` of it done (null: unknown, counted as one half), `expected` the
 * last measured build's phase times (planWeights).
 */
export function totalLeft(plan: readonly string[], step: number, fraction: number | null, seconds: number, expected: ExpectedTimes | null = null): number | null {
  if (plan.length === 0 || step < 1 || seconds < 2) return null;
  const weights = planWeights(plan, expected);
  const all = weights.reduce((a, b) => a + b, 0);
  const before = weights.slice(0, step - 1).reduce((a, b) => a + b, 0);
  const share = (before + (weights[step - 1] ?? 0) * (fraction ?? 0.5)) / all;
  if (share < 0.05) return null;
  return Math.max(0, (seconds * (1 - share)) / share);
}
