/**
 * `reporting-signals serve`: binds the HTTP app (src/http/app.ts) to a port and runs it as a
 * service (store reloads on SIGHUP or --watch, graceful shutdown).
 * - Port and host: `--port`/`--host`, else `PORT`/`HOST`, else 8080 and 127.0.0.1.
 * - Store: `--store FILE` (a DuckDB store of any name; a missing or unreadable one does not stop
 *   the server: the resources then answer 503 with an Error object that says so). Without it, the
 *   default store (src/cache/): the default analyses built from data/vaers (or
 *   `--vaers DIR`) into the cache folder, keyed by the inputs and the build's code; the port opens
 *   at once, the build runs in a child process (/readyz 503 with its phase and percent, the
 *   resources 503 with `Retry-After`), then the store is loaded and served. A cached store that
 *   fails to load is logged, removed and built again (once); a cache folder that cannot be
 *   written, or a build that fails, ends the process with a one-line error (exit 1).
 * - `SIGHUP` reloads the store file (the same path): the new store is loaded beside the old one
 *   and swapped in once complete; a store that fails to load, or that would drop an analysis or
 *   the narratives of the current one, is logged and the old one stays (src/http/live-store.ts);
 *   `SIGUSR2` reloads it even then (a forced swap). `--watch` does the same when the store file is replaced (a build
 *   renames its finished file onto the path).
 * - `SIGTERM` / `SIGINT`: graceful shutdown: stop accepting connections, let requests in flight
 *   finish (at most SHUTDOWN_GRACE_MS), close the store, exit 0.
 * - `REQUEST_LOG=1` logs every request (off by default: it costs throughput).
 */
import type { AddressInfo } from 'node:net';
import { watch } from 'chokidar';
import { UserError } from '../domain/user-error.js';
import { buildServedApp } from '../http/app.js';
import type { LiveStore } from '../http/live-store.js';
import { prepareDefaultStore, refreshDefaultStore } from './serve-default.js';
import { cacheDir, DEFAULT_VAERS_DIR } from '../cache/key.js';
import { writePidFile, writeReloadOutcome } from '../cache/serve-pid.js';
import { DEFAULT_ANALYSES } from '../domain/analysis-rules.js';

/** Options of `serve` as parsed by the CLI. */
export interface ServeOptions {
  /** Store file (default: the default store, built into the cache). */
  store?: string;
  /** Without `store`: the VAERS folder the default store is built from (default: data/vaers). */
  vaers?: string;
  port?: number;
  host?: string;
  /** Reload the store when its file is replaced. */
  watch?: boolean;
}

/** Longest wait for requests in flight at shutdown, in milliseconds. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Quiet time after the last change of the store file before a `--watch` reload, in milliseconds. */
export const WATCH_SETTLE_MS = 500;

/** Port from the option or `PORT`, validated. @throws UserError when PORT is not a port number. */
export function resolvePort(option: number | undefined, env: string | undefined): number {
  if (option !== undefined) return option;
  if (env === undefined || env === '') return 8080;
  const port = Number(env);
  if (!/^\d+$/.test(env) || port > 65535) throw new UserError(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(env)})`);
  return port;
}

/** Reloads `live` whenever the file at its path is replaced or changed (debounced). Returns a closer. */
function watchStore(live: LiveStore, warn: (message: string) => void): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(live.path, { ignoreInitial: true, atomic: true });
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void live.reload(), WATCH_SETTLE_MS);
  };
  watcher.on('add', schedule).on('change', schedule).on('error', (error) => warn(`watching ${live.path}: ${(error as Error).message}`));
  return async () => {
    clearTimeout(timer);
    await watcher.close();
  };
}

/** The explorer's address as a person types it: `http://HOST:PORT/` (the port bound, when 0 was asked). */
export function listeningUrl(address: AddressInfo | string | null, host: string, port: number): string {
  const bound = address !== null && typeof address === 'object' ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}/`;
}

/** Starts the server and resolves once it listens. */
export async function runServe(options: ServeOptions): Promise<void> {
  const port = resolvePort(options.port, process.env.PORT);
  const host = options.host ?? (process.env.HOST || '127.0.0.1');
  if (options.store !== undefined && options.vaers !== undefined) throw new UserError('serve: give --store FILE or --vaers DIR, not both');
  const { app, live } = await buildServedApp({
    storePath: options.store ?? null, analysisNames: DEFAULT_ANALYSES, logger: true, requestLog: process.env.REQUEST_LOG === '1',
  });
  let stopWatching: (() => Promise<void>) | null = options.watch && options.store !== undefined ? watchStore(live, (message) => app.log.warn(message)) : null;

  // SIGHUP reloads (without --store: refreshes the default store from its VAERS folder); SIGUSR2 also swaps a store that drops an analysis or the narratives of the current one.
  // Each outcome goes to the cache folder's serve-<port>.reload.json, which `reporting-signals reload` waits for (src/cache/serve-pid.ts).
  let reloadDir: string | null = null;
  let boundPort = port;
  let outcomes: Promise<void> = Promise.resolve(); // written one after the other (one temporary file name)
  const started = new Date().toISOString();
  // The pid file names the store served now (`served`), so that a default-store build in the same cache folder does not prune it.
  const notePid = (): Promise<string> => writePidFile(cacheDir(), {
    port: boundPort, host, store: options.store ?? null, vaers: options.store === undefined ? (options.vaers ?? DEFAULT_VAERS_DIR) : null,
    served: live.current ? live.path : null,
  }, started);
  for (const [signal, force] of [['SIGHUP', false], ['SIGUSR2', true]] as const) {
    process.on(signal, () => {
      const requestedAt = Date.now();
      const record = (ok: boolean | null, message: string): void => {
        if (reloadDir === null) return;
        const current = live.current;
        const outcome = {
          requested_at: requestedAt, finished_at: ok === null ? null : Date.now(), ok, message,
          store_build: current?.storeId ?? null, reports_through: current?.meta.reports_through ?? null,
        };
        const dir = reloadDir;
        outcomes = outcomes.then(() => writeReloadOutcome(dir, boundPort, outcome)).then(async () => { if (ok) await notePid(); })
          .catch((error: Error) => app.log.warn(`cannot write the reload outcome: ${error.message}`));
      };
      if (live.preparing || live.building.length > 0) {
        app.log.info(`${signal}: ignored, the default store is still being prepared`);
        record(false, `${signal} ignored: the default store is still being prepared (first start); reload once /readyz answers 200`);
        return;
      }
      const what = options.store === undefined ? 'refreshing the default store from its VAERS folder' : 'reloading the store';
      app.log.info(`${signal}: ${what}${force ? ' (forced: it may drop analyses or the narratives)' : ''}`);
      record(null, `${what}: the server's terminal shows the progress`);
      if (options.store === undefined) {
        void refreshDefaultStore(live, options.vaers, app.log, force).then(({ ok, message }) => {
          (ok ? app.log.info : app.log.warn).call(app.log, `${signal}: ${message}`);
          record(ok, message);
        });
      } else {
        void live.reload(undefined, { force }).then((result) => record(result.ok, result.ok
          ? `the store ${live.path} was reloaded: reports through ${result.generation.meta.reports_through ?? 'none'}, store_build ${result.generation.storeId}`
          : result.error));
      }
    });
  }
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing (requests in flight finish, at most ${SHUTDOWN_GRACE_MS / 1000} s)`);
    const timeout = setTimeout(() => {
      app.log.warn('requests still in flight after the grace period: exiting');
      process.exit(0);
    }, SHUTDOWN_GRACE_MS);
    timeout.unref();
    void (async () => {
      await stopWatching?.();
      await app.close();
      process.exit(0);
    })();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  try {
    await app.listen({ port, host });
  } catch (error) {
    throw new UserError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const url = listeningUrl(app.server.address(), host, port);
  const address = app.server.address();
  boundPort = address !== null && typeof address === 'object' ? address.port : port;
  // The pid file (cache folder) lets `reporting-signals reload` find this process (npm start runs it as npm's child).
  await notePid()
    .then((path) => { reloadDir = cacheDir(); app.log.info(`pid file ${path}: \`reporting-signals reload\` refreshes this server`); })
    .catch((error: Error) => app.log.warn(`no pid file in ${cacheDir()} (${error.message}): send SIGHUP to process ${process.pid} to reload`));
  if (options.store !== undefined && live.current) process.stderr.write(`reporting-signals: the store ${options.store} answers now at ${url}\n`);
  if (options.store === undefined) {
    try {
      await prepareDefaultStore(live, options.vaers, app.log, url);
    } catch (error) {
      const message = error instanceof UserError ? error.message : `the default store could not be prepared: ${(error as Error).message}`;
      process.stderr.write(`reporting-signals: ${message}\n`);
      await app.close().catch(() => undefined);
      process.exit(1);
    }
    if (reloadDir !== null) await notePid().catch((error: Error) => app.log.warn(`cannot rewrite the pid file: ${error.message}`));
    if (options.watch && !stopping) stopWatching = watchStore(live, (message) => app.log.warn(message));
  }
}
