/**
 * Progress of the build on standard error (a long build shows where it is): a cli-progress bar per phase when standard
 * error is a terminal (with phase k of n once the build announced its phases, and the phase's time left), plain lines otherwise (one at the start of a phase, then about every
 * 10% and at the end, `PHASE: done in W s (cpu C s)` with the phase's wall and CPU seconds, the CPU of every thread of the
 * process, read by bench/full-size.ts), so logs stay readable.
 */
import cliProgress from 'cli-progress';

/** Receives progress of one phase at a time. */
export interface Progress {
  /** The phases the build will run, in order (announced once, before the first; optional). */
  plan?(phases: readonly string[]): void;
  /** A phase begins; `total` in `unit`s (e.g. bytes, reports, windows). */
  start(phase: string, total: number, unit: string): void;
  /** `done` of `total` are finished; `detail` is a short note (e.g. the file being read). */
  update(done: number, detail?: string): void;
  /** A step of the phase begins that moves no count (e.g. the read's SQL steps): shown as its detail (a line of its own in a log). */
  note?(detail: string): void;
  /** The phase ends. */
  end(): void;
}

/** Progress that prints nothing (tests, library use). */
export const SILENT: Progress = { start() {}, update() {}, end() {} };

/** A progress reporter writing to `stream` (default: process.stderr), bars on a TTY. */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    let bar: cliProgress.SingleBar | null = null;
    let phases: readonly string[] = [];
    return {
      plan(list) {
        phases = list;
      },
      start(phase, total, unit) {
        const at = phases.indexOf(phase);
        const step = at >= 0 ? `phase ${at + 1} of ${phases.length}, ` : '';
        bar = new cliProgress.SingleBar({
          stream, format: `${step}${phase.padEnd(12)} [{bar}] {percentage}% {value}/{total} ${unit}, {eta_formatted} left in this phase {detail}`, hideCursor: true,
          clearOnComplete: false, etaBuffer: 50,
        }, cliProgress.Presets.shades_classic);
        bar.start(Math.max(total, 1), 0, { detail: '' });
      },
      update(done, detail) {
        bar?.update(done, { detail: detail ?? '' });
      },
      note(detail) {
        bar?.update({ detail });
      },
      end() {
        bar?.stop();
        bar = null;
      },
    };
  }
  let current = { phase: '', total: 0, unit: '', nextShown: 0, started: 0, cpu: 0 };
  const cpuSeconds = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  return {
    start(phase, total, unit) {
      current = { phase, total, unit, nextShown: total / 10, started: Date.now(), cpu: cpuSeconds() };
      stream.write(`${phase}: ${total} ${unit}\n`);
    },
    update(done, detail) {
      if (done < current.nextShown || current.total <= 0) return;
      current.nextShown = done + current.total / 10;
      stream.write(`${current.phase}: ${Math.floor((100 * done) / current.total)}% (${done}/${current.total} ${current.unit})${detail ? ` ${detail}` : ''}\n`);
    },
    note(detail) {
      stream.write(`${current.phase}: ${detail}\n`);
    },
    end() {
      stream.write(`${current.phase}: done in ${((Date.now() - current.started) / 1000).toFixed(1)} s (cpu ${(cpuSeconds() - current.cpu).toFixed(1)} s)\n`);
      if (process.env.REPORTING_SIGNALS_MEMORY) stream.write(`${current.phase}: ${memoryLine()}\n`);
    },
  };
}

/**
 * The memory after a phase, for finding what holds it (printed when REPORTING_SIGNALS_MEMORY is set;
 * docs/architecture.md "Scale"): the main thread's V8 heap used and total, its external memory and
 * ArrayBuffers (typed arrays; SharedArrayBuffers the workers also see are counted here once), and
 * the process's RSS (every thread, the worker threads' heaps and DuckDB's memory included), in MiB.
 */
export function memoryLine(): string {
  const m = process.memoryUsage();
  const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)}`;
  return `memory MiB: main heap used ${mib(m.heapUsed)} of ${mib(m.heapTotal)}, external ${mib(m.external)} (array buffers ${mib(m.arrayBuffers)}), rss ${mib(m.rss)}`;
}
