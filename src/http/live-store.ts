/**
 * The served store, replaceable while the server runs (a live store swap: load beside, then swap).
 *
 * A `Generation` is one store file loaded: its metadata, its build id, the analyses (/signals),
 * the case series (/cases) and the vaccine listing (/vaccines). `LiveStore` holds the current
 * generation. `reload()` loads a new generation beside the current one, waits until every
 * analysis and the case series are loaded (a store that fails any of it is logged and the old
 * one stays; so does one that would drop an analysis or the narratives of the current store,
 * unless the reload is forced), then swaps it in one assignment. Requests hold the generation they started on
 * (`acquire`/`release`): they finish on it, and a retired generation is closed when its last
 * request is done. Its answer caches go with it. A generation holds its store file open and reads
 * it at request time (Generation.read) from that file, never from a newer one renamed onto the path.
 *
 * The store's build id is the first 12 hex digits of a SHA-256 over its metadata (sources with
 * their digests, parameters, build time, analyses): equal on every replica serving the same file.
 * The `X-REPORTS-Build` digest (spec 4.1) then covers the program and the store (build-id.ts).
 */
import { performance } from 'node:perf_hooks';
import { CasesService, unknownRule } from '../serve/cases/service.js';
import { eventGroupsOfMeta } from '../serve/store/event-groups.js';
import { analysisRule } from '../domain/analysis-rules.js';
import { analysisDetail, AnalysesService } from '../serve/signals/analyses.js';
import { vaccineListing } from '../serve/vaccines/listing.js';
import type { BuildStatus } from '../cache/default-store.js';
import { formatDuration } from '../cache/progress-view.js';
import type { StoreMeta } from '../domain/store-schema.js';
import { OpenStore, readStoreMeta, verifyTables, withStore } from '../serve/store/serving.js';
import { readStoreWindows } from '../serve/store/windows.js';
import { readTriageWindows, type TriageWindows } from '../serve/store/triage-rows.js';
import type { RenderedAnswer } from './answer.js';
import { buildId } from './build-id.js';
import { droppedFeatures, storeBuildId } from './store-identity.js';

export { storeBuildId } from './store-identity.js';

/** Cache lifetime of the /analyses and /vaccines listings. */
const LISTING_CACHE_CONTROL = 'public, max-age=60';

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

/**
 * A store read at request time failed in the storage (a corrupt or unreadable block): the
 * resources answer 503 with its message, the generation is marked broken (`/readyz` 503).
 */
export class StoreReadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreReadError';
  }
}

/** DuckDB's messages of a storage failure (as opposed to a bad query). */
const STORAGE_FAILURE = /IO Error|Corrupt|checksum|Serialization Error|INTERNAL Error|FATAL Error|invalidated|Could not read/i;

/** One loaded store. */
export class Generation {
  /** In-flight requests holding this generation. */
  private refs = 0;
  private retired = false;
  /** The rendered /analyses and /vaccines answers (their ETag and compressed bytes hang on them, answer.ts). */
  private readonly listings = new Map<string, RenderedAnswer>();
  /** Resolves once every analysis and the case series are loaded (rejects when one failed). */
  readonly complete: Promise<void>;
  /** Seconds from the start of the load to `complete` (null until then). */
  loadSeconds: number | null = null;
  /** Why `complete` rejected (an analysis or the case series failed to load), else null. */
  failure: string | null = null;
  /** Whether the case series' load has finished (loaded or failed). */
  casesSettled = false;

  constructor(
    readonly path: string,
    readonly meta: StoreMeta,
    /** 12 hex digits identifying the store (storeBuildId). */
    readonly storeId: string,
    /** The `X-REPORTS-Build` value of answers from this store. */
    readonly build: string,
    readonly analyses: AnalysesService,
    /** The case series (null: the store has no report tables); rejects when they could not be read. */
    readonly cases: Promise<CasesService | null>,
    started: number,
    /** The store file held open: the request-time reads (`read`) go to this file, never to a newer one at the same path. */
    private readonly store: OpenStore,
  ) {
    cases.then(() => { this.casesSettled = true; }, () => { this.casesSettled = true; });
    this.complete = Promise.all([...analyses.names.map((name) => analyses.service(name)), cases])
      // Every block of every table read once (DuckDB checks each block's checksum) before the store counts as loaded.
      .then(() => withStore(path, async (connection) => {
        await verifyTables(connection, path);
      }))
      .then(async () => {
        if (!(await store.sameFile())) throw new Error(`the store file ${path} was replaced while it loaded`);
        this.loadSeconds = (performance.now() - started) / 1000;
      });
    this.complete.catch((error: Error) => {
      this.failure = error.message;
    });
  }

  /** The analysis GET /triage ranks: `stratified` when the store has it, else the default. */
  get triageAnalysis(): string {
    return this.analyses.names.includes('stratified') ? 'stratified' : this.analyses.defaultName;
  }

  /** One triage window of an analysis, by `analysis\0quarter`; filled by triageWindow. */
  private triageOne: Map<string, Promise<TriageWindows>> | undefined;

  /**
   * The triage window of `quarter` of `analysis` (null: its last quarter) and the analysis's range
   * (readTriageWindows with a quarter): read at the window's first GET /triage request of the
   * generation, from the file it loaded, then answered from memory; a cold window reads one
   * window, not the whole analysis (millions of rows at full size). Rejects (and is read again
   * next time) when the store could not be read.
   */
  triageWindow(analysis: string, quarter: string | null): Promise<TriageWindows> {
    this.triageOne ??= new Map();
    const cache = this.triageOne;
    const key = `${analysis}\0${quarter ?? ''}`;
    let window = cache.get(key);
    if (!window) {
      window = this.read(`the ${analysis} triage window ${quarter ?? '(last)'}`, (store) => readTriageWindows(store, analysis, quarter ?? 'last'));
      window.catch(() => cache.delete(key));
      cache.set(key, window);
    }
    return window;
  }

  /** Whether every analysis and the case series are loaded. */
  get loaded(): boolean {
    return this.loadSeconds !== null;
  }

  /** The body of `GET /analyses` as a cached answer (computed once). */
  analysesListing(): RenderedAnswer {
    let answer = this.listings.get('analyses');
    if (!answer) {
      answer = this.listingAnswer(Buffer.from(JSON.stringify(this.analyses.listing())));
      this.listings.set('analyses', answer);
    }
    return answer;
  }

  /**
   * The body of `GET /vaccines` (the default analysis) or `GET /analyses/NAME/vaccines` as a
   * cached answer: computed once per analysis; waits for the analysis and the case series.
   * Rejects when the analysis could not be loaded.
   */
  async vaccines(name: string): Promise<RenderedAnswer> {
    const key = `vaccines\0${name}`;
    let answer = this.listings.get(key);
    if (!answer) {
      const catalog = (await this.analyses.service(name)!).catalog;
      const cases = await this.cases.catch(() => null);
      answer = this.listingAnswer(Buffer.from(JSON.stringify(vaccineListing(name, catalog, cases?.index ?? null))));
      this.listings.set(key, answer);
    }
    return answer;
  }

  /**
   * The body of `GET /analyses/NAME` as a cached answer: the analysis's `/analyses` entry with
   * its fitted windows (src/serve/signals/analyses.ts analysisDetail), read from the store once.
   * Resolves null for an analysis the store does not hold.
   */
  async analysisDetail(name: string): Promise<RenderedAnswer | null> {
    const key = `analysis\0${name}`;
    let answer = this.listings.get(key);
    if (!answer) {
      this.windows ??= this.read('the fitted windows', (store) => readStoreWindows(store));
      this.windows.catch(() => { this.windows = null; });
      const detail = analysisDetail(this.analyses.listing(), name, (await this.windows).get(name) ?? []);
      if (detail === null) return null;
      answer = this.listingAnswer(Buffer.from(JSON.stringify(detail)));
      this.listings.set(key, answer);
    }
    return answer;
  }

  /** The store's fitted windows by analysis, read on the first `GET /analyses/NAME`. */
  private windows: ReturnType<typeof readStoreWindows> | null = null;

  private listingAnswer(body: Buffer): RenderedAnswer {
    return { body, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': LISTING_CACHE_CONTROL, 'x-reports-through': this.meta.reports_through ?? 'none' } };
  }

  /** Called once when a request-time read finds the storage broken (LiveStore: log, and rebuild a default store). */
  onBroken: ((generation: Generation, message: string) => void) | null = null;

  /**
   * Runs a request-time read of the store (a /triage window, the fitted windows) on the file this
   * generation loaded. A storage failure (STORAGE_FAILURE) marks the generation broken
   * (`failure`: /readyz answers 503) and rejects with a StoreReadError (the resources answer 503).
   */
  async read<T>(what: string, read: (store: OpenStore) => Promise<T>): Promise<T> {
    try {
      return await read(this.store);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      if (!STORAGE_FAILURE.test(message)) throw error;
      const failure = `the store ${this.path} could not be read (${what}): ${message}`;
      if (this.failure === null) {
        this.failure = failure;
        this.onBroken?.(this, failure);
      }
      throw new StoreReadError(`${failure}; the server is not ready until the store is replaced or reloaded`, { cause: error });
    }
  }

  /** Marks a request as using this generation. */
  acquire(): this {
    this.refs++;
    return this;
  }

  /** Ends a request's use; a retired generation closes after its last request. */
  release(): void {
    this.refs--;
    if (this.retired && this.refs === 0) void this.close();
  }

  /** Retires the generation (a newer one is current): it closes once no request holds it. */
  retire(): void {
    this.retired = true;
    if (this.refs === 0) void this.close();
  }

  private closing: Promise<void> | null = null;
  private readonly closeHooks: Array<() => Promise<void>> = [];

  /** Runs `dispose` when the generation closes (its per-store files: the export's, src/serve/export/files.ts); at once when it has closed. */
  whenClosed(dispose: () => Promise<void>): void {
    if (this.closing) void this.closing.then(dispose);
    else this.closeHooks.push(dispose);
  }

  /** Releases the loaded data and runs the close hooks (idempotent). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled(this.closeHooks.map((dispose) => dispose()));
      await this.complete.catch(() => undefined);
      await this.analyses.close();
      this.store.close();
    })();
    return this.closing;
  }
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

/** Loads the store at `path`; resolves once its default analysis is loaded (the rest continue in `complete`). */
async function loadGeneration(path: string): Promise<Generation> {
  const started = performance.now();
  const store = await OpenStore.open(path);
  try {
    const meta = await readStoreMeta(store);
    const analyses = await AnalysesService.open(path, meta);
    const cases = CasesService.open(path, meta.reports_through, eventGroupsOfMeta(meta));
    cases.catch(() => undefined);
    const storeId = storeBuildId(meta);
    return new Generation(path, meta, storeId, buildId(storeId), analyses, cases, started, store);
  } catch (error) {
    store.close();
    throw error;
  }
}

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
