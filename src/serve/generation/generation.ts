/**
 * The serve wing's front hall: one object per served store. A `Generation` is one store file
 * loaded: its metadata, its identity (storeId, identity.ts) and build id (the `X-REPORTS-Build`
 * value, build-id.ts), the analyses (/signals), the case series (/cases), the store file held
 * open for the request-time reads (`read`), and every cache that lives as long as the store is
 * served (`hold`: the /analyses and /vaccines listings, the triage windows and term groups, the
 * interaction signals and priors; `whenClosed` for what a resource must release with it). The resources reach the store only through it
 * (src/serve/triage/resource.ts, src/serve/interactions/resource.ts, src/serve/listings); src/http
 * keeps no state of a store (test/architecture.test.ts).
 *
 * Requests hold the generation they started on (`acquire`/`release`): they finish on it, and a
 * retired generation (src/http/live-store.ts swapped a newer one in) is closed when its last
 * request is done; its caches go with it. A generation reads its own file, never a newer one
 * renamed onto the path.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { CasesService } from '../cases/service.js';
import type { AnalysesService } from '../signals/analyses.js';
import type { StoreMeta } from '../../domain/store-schema.js';
import { withStore, type OpenStore } from '../store/serving.js';
import { verifiedStampOf, verifyTablesOnce } from '../store/verified.js';
import { readTriageFrame, readTriageWindows, type TriageFrame, type TriageWindows } from '../store/triage-rows.js';
import { readStoreWindows } from '../store/windows.js';
import { StoreReadError } from '../query/store-read-error.js';
import { collectGarbage } from './collect.js';

export { StoreReadError };

/** DuckDB's messages of a storage failure (as opposed to a bad query). */
const STORAGE_FAILURE = /IO Error|Corrupt|checksum|Serialization Error|INTERNAL Error|FATAL Error|invalidated|Could not read/i;

/** One loaded store. */
export class Generation {
  /** In-flight requests holding this generation. */
  private refs = 0;
  private retired = false;
  /** What the resources keep while this store is served, by key (`hold`). */
  private readonly held = new Map<string, unknown>();
  /** Run when the generation closes (`whenClosed`). */
  private readonly closeHooks: Array<() => Promise<void>> = [];
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
    /** 12 hex digits identifying the store (identity.ts storeBuildId). */
    readonly storeId: string,
    /** The `X-REPORTS-Build` value of answers from this store (build-id.ts). */
    readonly build: string,
    readonly analyses: AnalysesService,
    /** The case series (null: the store has no report tables); rejects when they could not be read. */
    readonly cases: Promise<CasesService | null>,
    started: number,
    /** The store file held open: the request-time reads (`read`) go to this file, never to a newer one at the same path. */
    private readonly store: OpenStore,
  ) {
    cases.then(() => { this.casesSettled = true; }, () => { this.casesSettled = true; });
    // Every block of every table read once (DuckDB checks each block's checksum) before the store
    // counts as loaded, unless a stamp says this very file was read whole before (verified.ts): on
    // DuckDB's threads, beside the analyses' and the case series' loading (mostly JavaScript), not
    // after it (issue 41: a cached start does not wait for it in turn).
    const verified = withStore(path, async (connection) => {
      await verifyTablesOnce(connection, path);
    });
    this.complete = Promise.all([...analyses.names.map((name) => analyses.service(name)), cases, verified])
      .then(async () => {
        if (!(await store.sameFile())) throw new Error(`the store file ${path} was replaced while it loaded`);
        this.loadSeconds = (performance.now() - started) / 1000;
      });
    this.complete.catch((error: Error) => {
      this.failure = error.message;
    });
  }

  /** Whether every analysis and the case series are loaded. */
  get loaded(): boolean {
    return this.loadSeconds !== null;
  }

  /** The `X-REPORTS-Through` value of this store's answers: its reports_through, `none` when it has none. */
  get through(): string {
    return this.meta.reports_through ?? 'none';
  }

  /**
   * What a resource keeps while this store is served: `make()` on the first call with `key`, the
   * same value after. A promise that rejects is forgotten (made again at the next call). Keys
   * start with the resource's name (`triage\0...`, `interactions\0...`).
   */
  hold<T>(key: string, make: () => T): T {
    if (this.held.has(key)) return this.held.get(key) as T;
    const value = make();
    this.held.set(key, value);
    if (value instanceof Promise) value.catch(() => { if (this.held.get(key) === value) this.held.delete(key); });
    return value;
  }

  /**
   * Runs `dispose` when this generation closes (a resource's own per-store resources: temporary
   * files, handles; the export's files), at once when it has closed already.
   */
  whenClosed(dispose: () => Promise<void>): void {
    if (this.closing) void this.closing.then(dispose);
    else this.closeHooks.push(dispose);
  }

  /** The analysis GET /triage ranks: `stratified` when the store has it, else the default. */
  get triageAnalysis(): string {
    return this.analyses.names.includes('stratified') ? 'stratified' : this.analyses.defaultName;
  }

  /**
   * The triage window of `quarter` of `analysis` (null: its last quarter) and the analysis's range
   * (readTriageWindows with a quarter): read at the window's first GET /triage request of the
   * generation, from the file it loaded, then answered from memory; a cold window reads one
   * window, not the whole analysis (millions of rows at full size), and the analysis's range and
   * fits only at its first window (triageFrame). Rejects (and is read again
   * next time) when the store could not be read.
   */
  triageWindow(analysis: string, quarter: string | null): Promise<TriageWindows> {
    return this.hold(`triage-window\0${analysis}\0${quarter ?? ''}`, async () => {
      const frame = await this.triageFrame(analysis);
      return this.read(`the ${analysis} triage window ${quarter ?? '(last)'}`, (store) => readTriageWindows(store, analysis, quarter ?? 'last', frame));
    });
  }

  /** What every triage window of `analysis` reads besides its rows (readTriageFrame: its range, its fits' bounds), read once. */
  private triageFrame(analysis: string): Promise<TriageFrame> {
    return this.hold(`triage-frame\0${analysis}`, () => this.read(`the ${analysis} triage range`, (store) => readTriageFrame(store, analysis)));
  }

  /** The store's fitted windows by analysis (readStoreWindows), read at the first request that needs them (GET /analyses/NAME, /masking). */
  fittedWindows(): ReturnType<typeof readStoreWindows> {
    return this.hold('fitted-windows', () => this.read('the fitted windows', (store) => readStoreWindows(store)));
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
      // The file is no longer known good: the next load of it (a reload, a restart) reads it whole again.
      await rm(verifiedStampOf(this.path), { force: true }).catch(() => undefined);
      this.markBroken(failure);
      throw new StoreReadError(`${failure}; the server is not ready until the store is replaced or reloaded`, { cause: error });
    }
  }

  /**
   * Marks the generation broken after a storage failure at request time (`failure`: /readyz
   * answers 503; `onBroken` is told once): a failed read of the store (`read`), or of the narrative
   * index file beside it (a StoreReadError of src/serve/narratives/file-range.ts, seen by src/http/resource.ts).
   */
  markBroken(message: string): void {
    if (this.failure !== null) return;
    this.failure = message;
    this.onBroken?.(this, message);
  }

  /** Marks a request as using this generation. */
  acquire(): this {
    this.refs++;
    return this;
  }

  /** Ends a request's use; a retired generation closes after its last request. */
  release(): void {
    this.refs--;
    if (this.retired && this.refs === 0) this.closeRetired();
  }

  /**
   * Retires the generation (a newer one is current): it closes once no request holds it, and then
   * what it held is collected at once (collect.ts), not when V8 next needs memory.
   */
  retire(): void {
    this.retired = true;
    if (this.refs === 0) this.closeRetired();
  }

  /**
   * Closes a retired generation, then runs one full garbage collection once nothing of the call
   * refers to it (a timer later); nothing more when it is closing already (a second retire, or a
   * close at shutdown).
   */
  private closeRetired(): void {
    if (this.closing !== null) return;
    void this.close().then(() => setTimeout(collectGarbage, 0).unref());
  }

  private closing: Promise<void> | null = null;

  /** Runs the close hooks (whenClosed), releases the loaded data and the held values (idempotent). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled(this.closeHooks.map((dispose) => dispose()));
      await this.complete.catch(() => undefined);
      await this.analyses.close();
      await (await this.cases.catch(() => null))?.close();
      this.held.clear();
      this.store.close();
    })();
    return this.closing;
  }
}
