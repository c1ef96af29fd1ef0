/**
 * The build's progress as a person sees it on standard error (docs/operations.md "Progress of the
 * first start"), formatted by progress-view.ts. Three modes, chosen by REPORTING_SIGNALS_PROGRESS:
 * - `bar` (the default on a terminal): one line redrawn in place (cli-progress), at least every
 *   second, so the elapsed time moves even while a phase reports nothing;
 * - `lines` (the default when standard error is not a terminal: logs): one human line when a phase
 *   begins, then at most every LINE_EVERY_MS while it reports and at least every LINE_EVERY_MS while
 *   it is silent (no silent minute), and one when it ends with its time;
 * - `json`: the same schedule as `lines`, each line one JSON object (progress-view.ts progressJson).
 * The reporter also keeps every phase's wall and CPU seconds (`phaseTimes`) for the closing line.
 * The time left in all never rises by more than the time elapsed since it was last computed (it
 * may fall faster: a phase that ends early); issue 46 saw it rise from 3 min to 15 min 37 s in a
 * phase without a count. `expect` gives it the last measured build's phase times.
 */
import cliProgress from 'cli-progress';
import type { Progress } from '../ingest/mining/progress.js';
import { phaseLeft, planWeights, progressJson, progressLine, totalLeft, uncountedFraction, type ExpectedTimes, type ProgressSnapshot } from './progress-view.js';

/** The output modes (see the file comment). */
export type ProgressMode = 'bar' | 'lines' | 'json';

/** The name of the environment variable that chooses the mode. */
export const PROGRESS_ENV = 'REPORTING_SIGNALS_PROGRESS';

/** A line of `lines` and `json` at most (and at least) this often within a phase, in ms. */
export const LINE_EVERY_MS = 10_000;

/**
 * The mode from REPORTING_SIGNALS_PROGRESS (`bar`, `lines`, `json`; empty or unset: `bar` on a
 * terminal, else `lines`).
 * @throws Error naming the variable and the choices when the value is another one.
 */
export function progressMode(env: string | undefined, isTTY: boolean): ProgressMode {
  if (env === undefined || env === '') return isTTY ? 'bar' : 'lines';
  if (env === 'bar' || env === 'lines' || env === 'json') return env === 'bar' && !isTTY ? 'lines' : env;
  throw new Error(`${PROGRESS_ENV} must be bar, lines or json (got ${JSON.stringify(env)})`);
}

/** One finished phase: its name, wall seconds and CPU seconds (null when not measured). */
export interface PhaseTime {
  phase: string;
  seconds: number;
  cpuSeconds: number | null;
}

/** Options of {@link ProgressReport}. */
export interface ProgressReportOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  mode?: ProgressMode;
  /** The clock, in ms (tests). */
  now?: () => number;
  state?: ProgressSnapshot['state'];
}

/** A Progress that writes the human (or JSON) view, and can be asked where it stands (`snapshot`). */
export class ProgressReport implements Progress {
  private readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
  readonly mode: ProgressMode;
  private readonly now: () => number;
  private readonly since: number;
  private state: ProgressSnapshot['state'];
  private phases: readonly string[] = [];
  private phase = 'starting';
  private step = 0;
  private done = 0;
  private total = 0;
  private unit = '';
  private phaseSince: number;
  private phaseCpu: number | null = null;
  private lastCpu: number | null = null;
  private lastLine = 0;
  private bar: cliProgress.SingleBar | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly times: PhaseTime[] = [];
  private expected: ExpectedTimes | null = null;
  /** The last time left in all and when it was computed (ms), for the bound on its rise. */
  private lastLeft: { left: number; at: number } | null = null;

  constructor(options: ProgressReportOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.mode = options.mode ?? progressMode(process.env[PROGRESS_ENV], Boolean(this.stream.isTTY));
    this.now = options.now ?? Date.now;
    this.since = this.now();
    this.phaseSince = this.since;
    this.state = options.state ?? 'building';
  }

  /** The phases to come, in order (for "phase k of n" and the estimate of the time left). */
  plan(phases: readonly string[]): void {
    this.phases = phases;
  }

  /** The last measured build's wall seconds per phase (weights of the estimate; the share of a phase without a count). */
  expect(times: ExpectedTimes | null): void {
    this.expected = times;
  }

  /** Where the preparation stands now. */
  snapshot(): ProgressSnapshot {
    const now = this.now();
    const phaseSeconds = (now - this.phaseSince) / 1000;
    const seconds = (now - this.since) / 1000;
    const uncounted = this.total <= 0;
    const fraction = uncounted ? (this.expected ? uncountedFraction(this.phase, phaseSeconds, this.expected) : null) : Math.min(1, this.done / this.total);
    let expectedSeconds: number | null = null;
    let expectedShare: number | null = null;
    if (uncounted && this.expected && (this.expected[this.phase] ?? 0) > 0 && this.phases.includes(this.phase)) {
      const weights = planWeights(this.phases, this.expected);
      expectedSeconds = this.expected[this.phase];
      expectedShare = expectedSeconds / weights.reduce((a, b) => a + b, 0);
    }
    return {
      state: this.state, phase: this.phase, step: this.step, steps: this.phases.length, done: this.done, total: this.total, unit: this.unit,
      phaseSeconds, seconds, phaseLeft: phaseLeft(this.done, this.total, phaseSeconds), left: this.bounded(totalLeft(this.phases, this.step, fraction, seconds, this.expected), now),
      expectedSeconds, expectedShare,
    };
  }

  /** The time left in all, risen by at most the seconds elapsed since the last one (null: not known yet, or the last one counted down). */
  private bounded(raw: number | null, now: number): number | null {
    const last = this.lastLeft;
    const elapsed = last ? Math.max(0, (now - last.at) / 1000) : 0;
    const left = raw === null ? (last ? Math.max(0, last.left - elapsed) : null) : last ? Math.min(raw, last.left + elapsed) : raw;
    if (left !== null) this.lastLeft = { left, at: now };
    return left;
  }

  /**
   * A line for the person at the terminal between the progress lines (in `bar` mode the bar's line
   * is cleared first and redrawn after it): e.g. "the default analysis answers now at ...".
   */
  say(message: string): void {
    if (this.mode === 'json') this.stream.write(`${JSON.stringify({ message })}\n`);
    else this.stream.write(`${this.mode === 'bar' && this.bar ? '\r\x1b[K' : ''}${message}\n`);
  }

  /** Switches the state (`loading` once the store file is there); starts a phase of that name when `phase` is given. */
  setState(state: ProgressSnapshot['state'], phase?: string): void {
    this.state = state;
    if (phase !== undefined) this.start(phase, 0, '');
  }

  /** A phase begins (`cpuSeconds`: the builder's CPU time so far, when known). */
  start(phase: string, total: number, unit: string, cpuSeconds?: number): void {
    this.phase = phase;
    const at = this.phases.indexOf(phase);
    this.step = at >= 0 ? at + 1 : this.step;
    this.done = 0;
    this.total = total;
    this.unit = unit;
    this.phaseSince = this.now();
    this.phaseCpu = cpuSeconds ?? this.lastCpu;
    this.write(true);
  }

  /** Progress within the phase. */
  update(done: number, _detail?: string, cpuSeconds?: number): void {
    this.done = done;
    if (cpuSeconds !== undefined) this.lastCpu = cpuSeconds;
    this.write(false);
  }

  /** The phase ends: its time is kept, and `lines`/`json` say so. */
  end(cpuSeconds?: number): void {
    if (cpuSeconds !== undefined) this.lastCpu = cpuSeconds;
    this.done = this.total;
    const seconds = (this.now() - this.phaseSince) / 1000;
    const cpu = this.lastCpu !== null && this.phaseCpu !== null ? this.lastCpu - this.phaseCpu : null;
    this.times.push({ phase: this.phase, seconds, cpuSeconds: cpu });
    if (this.mode === 'lines') this.stream.write(`${this.phase}: done in ${seconds.toFixed(1)} s${cpu === null ? '' : ` (cpu ${cpu.toFixed(1)} s)`}\n`);
    else if (this.mode === 'json') this.stream.write(`${JSON.stringify({ phase: this.phase, phase_done_seconds: Math.round(seconds * 10) / 10, cpu_seconds: cpu === null ? null : Math.round(cpu * 10) / 10 })}\n`);
  }

  /** Every finished phase's times, in order. */
  phaseTimes(): readonly PhaseTime[] {
    return this.times;
  }

  /** Stops the redraws (the bar's line stays). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.bar?.stop();
    this.bar = null;
  }

  private write(started: boolean): void {
    if (this.mode === 'bar') {
      this.startBar();
      this.bar!.update(Math.round(1000 * (this.total > 0 ? Math.min(1, this.done / this.total) : 0)));
      return;
    }
    this.timer ??= setInterval(() => this.line(), LINE_EVERY_MS).unref();
    const now = this.now();
    if (started || now - this.lastLine >= LINE_EVERY_MS) this.line();
  }

  private line(): void {
    this.lastLine = this.now();
    const snapshot = this.snapshot();
    this.stream.write(`${this.mode === 'json' ? progressJson(snapshot) : progressLine(snapshot)}\n`);
  }

  private startBar(): void {
    if (this.bar) return;
    this.bar = new cliProgress.SingleBar({
      stream: this.stream as NodeJS.WriteStream, fps: 2, hideCursor: true, clearOnComplete: false, linewrap: false, barsize: 20,
      format: (options, params) => `[${(options.barCompleteString ?? '').slice(0, Math.round(params.progress * 20)).padEnd(20, options.barIncompleteChar ?? ' ')}] ${progressLine(this.snapshot())}`,
    }, cliProgress.Presets.shades_classic);
    this.bar.start(1000, 0);
  }
}
