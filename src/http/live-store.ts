/**
 * The served store, replaceable while the server runs (a live store swap: load beside, then swap).
 *
 * `LiveStore` holds the current generation (src/serve/generation: one store file loaded, with its
 * identity, build id and every per-store cache). `reload()` loads a new generation beside the
 * current one, waits until every analysis and the case series are loaded (a store that fails any
 * of it is logged and the old one stays; so does one that would drop an analysis or the
 * narratives of the current store, unless the reload is forced), then swaps it in one
 * assignment. Requests hold the generation they started on (`acquire`/`release`): they finish on
 * it, and a retired generation is closed when its last request is done; its caches go with it.
 * Here too: the messages of a store being prepared (preparingMessage, phaseText).
 */
import type { BuildStatus } from '../cache/default-store.js';
import { formatDuration } from '../cache/progress-view.js';
import { analysisRule } from '../domain/analysis-rules.js';
import { unknownRule } from '../serve/cases/service.js';
import { buildId } from '../serve/generation/build-id.js';
import type { Generation } from '../serve/generation/generation.js';
import { droppedFeatures } from '../serve/generation/identity.js';
import { loadGeneration } from '../serve/generation/load.js';

/** The served generation's type, for the route files that still name it from here (src/http/export-route.ts). */
export type { Generation } from '../serve/generation/generation.js';


const UNAVAILABLE =
  'the signal store is missing or unreadable (%s); build one with "reporting-signals build --vaers DIR --out FILE" and serve it with "reporting-signals serve --store FILE"';

/** Seconds a client is told to wait (`Retry-After`) while the default store is being prepared. */
export const RETRY_AFTER_SECONDS = 10;

/** The phase of a preparation as the messages give it: `3 of 23: count all, 45%` (k of n and the percent when known; without the percent when `percent` is false). */
export function phaseText(status: Pick<BuildStatus, 'phase' | 'percent' | 'step' | 'steps'>, percent = true): string {
  const step = status.step && status.steps ? `${status.step} of ${status.steps}: ` : '';
  return `${step}${status.phase}${percent && status.percent !== null ? `, ${status.percent}%` : ''}`;
}

/**
 * The Error message while the default store is being prepared: built (by this process or another
 * one) or loaded from the cache (`loading`: nothing is built), the phase (k of n), its percent, the
 * time since the start and the estimated time left when known (src/cache/progress-view.ts).
 */
export function preparingMessage(status: BuildStatus): string {
  const left = typeof status.left === 'number' ? `, about ${formatDuration(status.left)} left` : '';
  const where = `(phase ${phaseText(status)}; started ${formatDuration((Date.now() - status.since) / 1000)} ago${left}); retry in a few seconds`;
  if (status.state === 'loading') return `the data is being prepared: the default store is loading from the cache, nothing is built ${where}`;
  if (status.state === 'checking') return 'the data is being prepared: looking for the default store in the cache (it is built there when absent); retry in a few seconds';
  const who = status.state === 'building' ? 'is being built' : `is being built by process ${status.pid}`;
  return `the data is being prepared: the default store ${who} from the official VAERS files ${where}`;
}

/** Options of LiveStore.reload. */
export interface ReloadOptions {
  /** Swap in a store that drops an analysis or the narratives of the current one (refused otherwise). */
  force?: boolean;
  /**
   * When no store is served yet: serve this one as soon as its default analysis is loaded, the
   * others becoming ready one by one (readiness per analysis, src/http/readiness.ts); the result
   * still waits for the complete load (ok false, the generation marked failed, when it fails).
   */
  early?: boolean;
}

/** Outcome of one load. */
export type LoadResult = { ok: true; generation: Generation } | { ok: false; error: string };

/** Something to tell the operator (the serve command logs it). */
export interface LiveStoreLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Logs each analysis of the store whose subset rule this program does not know (its /cases answers 404). */
function warnUnknownRules(generation: Generation, log: LiveStoreLog): void {
  for (const name of generation.analyses.names.filter((n) => !analysisRule(n))) {
    log.warn(`store ${generation.path}: ${unknownRule(name)}: /analyses/${name}/cases will answer 404 (its /signals is served)`);
  }
}

/** The current generation, and how to replace it. */
export class LiveStore {
  private generation: Generation | null = null;
  private failure = 'not loaded yet';
  private reloading: Promise<LoadResult> | null = null;
  private queued: Promise<LoadResult> | null = null;
  /** Counts of loads by outcome (metrics). */
  readonly loads = { ok: 0, failed: 0 };
  /** While the default store is being prepared (no store loaded yet, or only its first analysis): its status; else null. */
  preparing: BuildStatus | null = null;
  /** The analyses still being built while the default store's first analysis is served (serve-default.ts); else empty. */
  building: readonly string[] = [];
  /**
   * Called when the served store's storage fails at request time (after the log line): serve sets
   * it for the default store, to remove the cached file and build it again.
   */
  onBroken: ((path: string, message: string) => void) | null = null;

  /** Makes `generation` report its storage failures here. */
  private watchBroken(generation: Generation): void {
    generation.onBroken = (broken, message) => {
      this.log.warn(`${message}: the server is not ready (/readyz 503)`);
      if (broken === this.generation) this.onBroken?.(broken.path, message);
    };
  }

  private constructor(public path: string, private readonly log: LiveStoreLog) {}

  /**
   * Opens the store at `path` and resolves once its default analysis is loaded (or the load
   * failed: the server still starts, and the resources answer 503 until a reload succeeds).
   */
  static async open(path: string, log: LiveStoreLog = { info: () => undefined, warn: () => undefined }): Promise<LiveStore> {
    const live = new LiveStore(path, log);
    try {
      live.generation = await loadGeneration(path);
      live.watchBroken(live.generation);
      live.loads.ok++;
      warnUnknownRules(live.generation, log);
      live.generation.complete.then(
        () => log.info(`store ${path} loaded in ${live.generation?.loadSeconds?.toFixed(2)} s (build ${live.generation?.storeId})`),
        (error: Error) => log.warn(`store ${path}: part of it could not be loaded: ${error.message}`));
    } catch (error) {
      live.loads.failed++;
      live.failure = (error as Error).message;
      log.warn(live.unavailable());
    }
    return live;
  }

  /**
   * A live store with no store yet, while the default store is being prepared (set `preparing`,
   * then `reload(path)` once it is built): the resources answer 503 until then.
   */
  static pending(log: LiveStoreLog = { info: () => undefined, warn: () => undefined }): LiveStore {
    const live = new LiveStore('', log);
    live.failure = 'the default store is being prepared';
    return live;
  }

  /** The generation new requests use, or null when no store is loaded. */
  get current(): Generation | null {
    return this.generation;
  }

  /** The Error message of a resource while no store is loaded. */
  unavailable(): string {
    if (this.preparing && !this.generation) return preparingMessage(this.preparing);
    return UNAVAILABLE.replace('%s', this.failure);
  }

  /** The `X-REPORTS-Build` value for answers without a store (the program alone) or of the current one. */
  get build(): string {
    return this.generation?.build ?? buildId();
  }

  /**
   * Loads the store at `path` (default: the current path) beside the current one and swaps it in
   * once it is completely loaded. Never throws: a failed load is logged, counted and reported,
   * and the current store stays. A call during a load queues one more load after it (calls
   * meanwhile share that one).
   */
  reload(path: string = this.path, options: ReloadOptions = {}): Promise<LoadResult> {
    if (this.reloading) {
      // A reload asked for during a load: one more load after it (the file may have changed
      // since the running load opened it); further requests meanwhile share that one.
      this.queued ??= this.reloading.then(() => {
        this.queued = null;
        return this.reload(path, options);
      });
      return this.queued;
    }
    this.reloading = this.load(path, options.force ?? false, options.early ?? false).finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  private async load(path: string, force: boolean, early: boolean): Promise<LoadResult> {
    this.log.info(`loading store ${path} beside the current one`);
    let next: Generation | null = null;
    try {
      next = await loadGeneration(path);
      if (early && !this.generation) return await this.serveEarly(next, path);
      const dropped = this.generation ? droppedFeatures(this.generation.meta, next.meta) : [];
      if (dropped.length > 0 && !force) {
        throw new Error(`it would drop what the current store serves (${dropped.join('; ')}); build it with ` +
          `"reporting-signals build --vaers DIR --like ${this.generation!.path} --out FILE", or force the swap with SIGUSR2`);
      }
      if (dropped.length > 0) this.log.warn(`forced swap: store ${path} drops ${dropped.join('; ')}`);
      await next.complete;
      warnUnknownRules(next, this.log);
      if (!(await next.cases) && (await this.generation?.cases.catch(() => null))) {
        this.log.warn(`store ${path} has no report tables: /cases will answer 503`);
      }
    } catch (error) {
      this.loads.failed++;
      void next?.close();
      const message = `store ${path} could not be loaded, the current store stays: ${(error as Error).message}`;
      this.log.warn(message);
      return { ok: false, error: message };
    }
    const previous = this.generation;
    this.watchBroken(next);
    this.generation = next;
    this.path = path;
    this.loads.ok++;
    previous?.retire();
    this.log.info(`store swapped: ${path} (build ${next.storeId}, reports through ${next.meta.reports_through ?? 'none'}) in ${next.loadSeconds?.toFixed(2)} s`);
    return { ok: true, generation: next };
  }

  /** Serves `next` (the first store) at once, then waits for its complete load (ReloadOptions.early). */
  private async serveEarly(next: Generation, path: string): Promise<LoadResult> {
    this.watchBroken(next);
    this.generation = next;
    this.path = path;
    this.log.info(`store ${path}: the default analysis ${next.analyses.defaultName} is served; the others and the case series follow`);
    try {
      await next.complete;
    } catch (error) {
      this.loads.failed++;
      const message = `store ${path} could not be loaded completely: ${(error as Error).message}`;
      this.log.warn(message);
      return { ok: false, error: message };
    }
    warnUnknownRules(next, this.log);
    this.loads.ok++;
    this.log.info(`store loaded: ${path} (build ${next.storeId}, reports through ${next.meta.reports_through ?? 'none'}) in ${next.loadSeconds?.toFixed(2)} s`);
    return { ok: true, generation: next };
  }

  /** Closes the current generation (server shutdown). */
  async close(): Promise<void> {
    await this.reloading?.catch(() => undefined);
    await this.generation?.close();
  }
}
