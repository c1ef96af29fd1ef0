/**
 * `serve` without `--store`: prepares the default store in the cache (src/cache/) and
 * loads it into the running server's live store, telling /readyz how far the build is.
 */
import { rm } from 'node:fs/promises';
import { DEFAULT_ANALYSES } from '../domain/analysis-rules.js';
import { discardCachedStore, ensureDefaultStore, statusOf } from '../cache/default-store.js';
import { cacheDir, DEFAULT_VAERS_DIR } from '../cache/key.js';
import { ProgressReport } from '../cache/progress-report.js';
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
export async function prepareDefaultStore(live: LiveStore, vaers: string | undefined, log: ServeLog): Promise<void> {
  const dir = cacheDir();
  const folder = vaers ?? DEFAULT_VAERS_DIR;
  const since = Date.now();
  // Until a build starts, the cache is only read: a cached start is `loading` throughout.
  const progress = new ProgressReport({ state: 'loading' });
  progress.plan(['load']);
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
        // Served from the full store now; with it goes its narrative index (src/serve/narratives/index-file.ts).
        for (const path of [first, `${first}.narratives`]) await rm(path, { force: true }).catch(() => undefined);
      }
      if (result.ok) {
        live.onBroken = (broken) => rebuildBroken(live, broken, vaers, log);
        return;
      }
      if (attempt > 1) throw new Error(`the rebuilt default store ${path} does not load: ${result.error}`);
      log.warn(`the cached default store ${path} does not load (${result.error}): removing it and building it again`);
      await discardCachedStore(path);
    }
  } finally {
    progress.stop();
    live.preparing = null;
  }
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
