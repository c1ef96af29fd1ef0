/**
 * `serve` without `--store`: prepares the default store in the cache (src/cache/) and
 * loads it into the running server's live store, telling /readyz how far the build is.
 */
import { rm } from 'node:fs/promises';
import { DEFAULT_ANALYSES } from '../domain/analysis-rules.js';
import { discardCachedStore, ensureDefaultStore, statusOf } from '../cache/default-store.js';
import { cacheDir, DEFAULT_VAERS_DIR } from '../cache/key.js';
import { ProgressReport } from '../cache/progress-report.js';
import { formatDuration } from '../cache/progress-view.js';
import type { LiveStore } from '../http/live-store.js';

/** Where the serve command logs. */
export interface ServeLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Builds (or finds) the default store built from `vaers` (default data/vaers) in the cache
 * folder (`$REPORTING_SIGNALS_CACHE_DIR`, ...), then loads it into `live`. A cached store that
 * fails to load (its verification included: every block read) is logged, removed and built again,
 * once. Once served, a storage failure at request time removes and rebuilds it (rebuildBroken).
 * @throws CacheDirError (a UserError) when the cache folder cannot be written; an Error when the
 *   build fails or the rebuilt store does not load either.
 */
export async function prepareDefaultStore(live: LiveStore, vaers: string | undefined, log: ServeLog, url = ''): Promise<void> {
  const dir = cacheDir();
  const folder = vaers ?? DEFAULT_VAERS_DIR;
  const since = Date.now();
  // Until a build starts, the cache is only read: a cached start is `loading` throughout.
  const progress = new ProgressReport({ state: 'loading' });
  progress.plan(['load']);
  // The terminal says the moment the default analysis answers (the first analysis's own store on a first start, the cached store's first analysis on a later one).
  const announcer = announceServed(live, progress, url);
  live.preparing = { state: 'checking', phase: 'checking the cache', percent: null, pid: process.pid, since };
  log.info(`default store: cache folder ${dir}, official files ${folder}`);
  let first: string | null = null;
  try {
    for (let attempt = 1; ; attempt++) {
      const path = await ensureDefaultStore({
        cacheDir: dir, vaers: folder, analyses: DEFAULT_ANALYSES, progress,
        onStatus: (status) => { live.preparing = status; },
        onFirstAnalysis: (written) => { first = written; serveFirst(live, written, log); },
        log: (message) => log.info(message),
      });
      const result = await loadShowing(live, path, progress, since);
      live.building = [];
      if (first !== null) {
        // Served from the full store now; with it go its narrative index (src/serve/narratives/index-file.ts) and integrity stamp (src/serve/store/verified.ts).
        for (const path of [first, `${first}.narratives`, `${first}.verified`]) await rm(path, { force: true }).catch(() => undefined);
        log.info(`default store: the first analysis's store ${first} removed (served from the full store now)`);
        first = null;
      }
      if (result.ok) {
        live.onBroken = (broken) => rebuildBroken(live, broken, vaers, log);
        announcer.flush();
        progress.say(`reporting-signals: every analysis and the case series are loaded (/readyz 200) after ${formatDuration(process.uptime())}`);
        return;
      }
      if (attempt > 1) throw new Error(`the rebuilt default store ${path} does not load: ${result.error}`);
      log.warn(`the cached default store ${path} does not load (${result.error}): removing it and building it again`);
      await discardCachedStore(path);
    }
  } finally {
    announcer.flush();
    progress.stop();
    live.preparing = null;
  }
}

/** How often the terminal's announcement looks whether the default analysis is served, in ms. */
const ANNOUNCE_EVERY_MS = 100;

/**
 * Writes "the default analysis answers now at URL" on the terminal (progress.say) within
 * ANNOUNCE_EVERY_MS of the first generation being served (LiveStore.current set: its default
 * analysis is loaded), with the seconds since the process started; once.
 */
function announceServed(live: LiveStore, progress: ProgressReport, url: string): { flush(): void } {
  const before = live.current; // a broken store being replaced (rebuildBroken) is not the one announced
  let done = false;
  const look = (): void => {
    const generation = live.current;
    if (done || !generation || generation === before) return;
    done = true;
    clearInterval(timer);
    const rest = live.building.length > 0 ? 'the other analyses are being built' : 'the other analyses and the case series are loading';
    progress.say(`reporting-signals: the default analysis (${generation.analyses.defaultName}) answers now at ${url || 'the port above'} after ${formatDuration(process.uptime())}; ${rest}`);
  };
  const timer = setInterval(look, ANNOUNCE_EVERY_MS);
  timer.unref();
  /** Announces now if the moment came since the last look, and stops looking. */
  return { flush: () => { look(); done = true; clearInterval(timer); } };
}

/**
 * Serves the default store's first analysis, written on its own while the build goes on
 * (src/cache/default-store.ts `onFirstAnalysis`): the other analyses are `building` meanwhile
 * (their routes and /readyz answer 503 with Retry-After; src/http/readiness.ts), until the full
 * store replaces it. A failed load is logged; the full store is loaded all the same.
 */
function serveFirst(live: LiveStore, path: string, log: ServeLog): void {
  live.building = DEFAULT_ANALYSES.slice(1);
  void live.reload(path, { early: true }).then((result) => {
    if (result.ok) log.info(`default store: ${DEFAULT_ANALYSES[0]} answers from ${path} while ${DEFAULT_ANALYSES.slice(1).join(', ')} are built`);
    else log.warn(`default store: its first analysis could not be served from ${path} (${result.error}); waiting for the full store`);
  });
}

/**
 * Loads the built store at `path` into `live`, serving each analysis as soon as it is loaded
 * (LiveStore.reload `early`), with the load as the progress's last phase (`load`: the analyses and
 * the case series loaded, of all of them) and `live.preparing` in the `loading` state until a
 * generation is served.
 */
async function loadShowing(live: LiveStore, path: string, progress: ProgressReport, since: number): ReturnType<LiveStore['reload']> {
  const parts = DEFAULT_ANALYSES.length + 1;
  progress.setState('loading');
  progress.start('load', parts, 'parts (analyses and the case series)');
  const before = live.current; // a broken store being replaced (rebuildBroken) is not this load
  const show = (): void => {
    const generation = live.current;
    if (generation && generation !== before) {
      progress.update(generation.analyses.loadedNames.length + (generation.casesSettled ? 1 : 0));
      live.preparing = null;
    } else live.preparing = statusOf(progress.snapshot(), process.pid, since);
  };
  show();
  const ticker = setInterval(show, 250).unref();
  try {
    const result = await live.reload(path, { early: true });
    if (result.ok) {
      progress.update(parts);
      progress.end();
    }
    return result;
  } finally {
    clearInterval(ticker);
  }
}

/** The rebuild under way after a storage failure, if any (one at a time). */
let rebuilding: Promise<void> | null = null;

/**
 * The served default store failed at request time (a corrupt block, Generation.read): the server
 * is not ready (/readyz 503) and the failing resources answer 503; the cached file is removed
 * and built again, then loaded (the old one keeps serving what it holds in memory meanwhile). A
 * failed rebuild is logged and the server stays not ready.
 */
function rebuildBroken(live: LiveStore, path: string, vaers: string | undefined, log: ServeLog): void {
  if (rebuilding) return;
  log.warn(`the default store ${path} is broken: removing it and building it again`);
  rebuilding = (async () => {
    await discardCachedStore(path);
    await prepareDefaultStore(live, vaers, log);
  })().catch((error: Error) => log.warn(`rebuilding the default store failed: ${error.message}`)).finally(() => {
    rebuilding = null;
  });
}

/** The outcome of a refresh (serve's SIGHUP without --store). */
export interface RefreshResult {
  ok: boolean;
  /** One line: rebuilt and swapped in, already current, or why not. */
  message: string;
}

/** The refresh under way, if any: a second SIGHUP meanwhile runs after it. */
let refreshing: Promise<RefreshResult> = Promise.resolve({ ok: true, message: '' });

/**
 * The weekly refresh of a server started without `--store` (`npm start`, `serve --vaers DIR`):
 * the default store's key is computed again from the VAERS folder as it is now (key.ts: its
 * files' SHA-256); when the week's files changed it, the new store is built into the cache beside
 * the served one (a child process, its progress on standard error; the served store keeps
 * answering and /readyz stays 200), then loaded and swapped in as `reload` does (refused when it
 * would drop an analysis or the narratives, unless `force`); when nothing changed, nothing is
 * built or swapped. Refreshes run one at a time. Never throws: the outcome says what happened.
 */
export function refreshDefaultStore(live: LiveStore, vaers: string | undefined, log: ServeLog, force = false): Promise<RefreshResult> {
  const folder = vaers ?? DEFAULT_VAERS_DIR;
  refreshing = refreshing.then(async (): Promise<RefreshResult> => {
    try {
      const path = await ensureDefaultStore({ cacheDir: cacheDir(), vaers: folder, analyses: DEFAULT_ANALYSES, log: (message) => log.info(message) });
      if (path === live.path && live.current) return { ok: true, message: `the files of ${folder} have not changed: the served store is current (${path}), nothing rebuilt` };
      const result = await live.reload(path, { force });
      if (!result.ok) return { ok: false, message: result.error };
      const { meta, storeId } = result.generation;
      return { ok: true, message: `the default store of ${folder} was rebuilt and swapped in: reports through ${meta.reports_through ?? 'none'}, store_build ${storeId} (${path})` };
    } catch (error) {
      return { ok: false, message: `the refresh failed, the served store stays: ${(error as Error).message}` };
    }
  });
  return refreshing;
}
