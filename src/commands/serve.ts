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
import { watch } from 'chokidar';
import { UserError } from '../domain/user-error.js';
import { buildServedApp } from '../http/app.js';
import type { LiveStore } from '../http/live-store.js';
import { prepareDefaultStore } from './serve-default.js';
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

/** Starts the server and resolves once it listens. */
export async function runServe(options: ServeOptions): Promise<void> {
  const port = resolvePort(options.port, process.env.PORT);
  const host = options.host ?? (process.env.HOST || '127.0.0.1');
  if (options.store !== undefined && options.vaers !== undefined) throw new UserError('serve: give --store FILE or --vaers DIR, not both');
  const { app, live } = await buildServedApp({
    storePath: options.store ?? null, analysisNames: DEFAULT_ANALYSES, logger: true, requestLog: process.env.REQUEST_LOG === '1',
  });
  let stopWatching: (() => Promise<void>) | null = options.watch && options.store !== undefined ? watchStore(live, (message) => app.log.warn(message)) : null;

  // SIGHUP reloads; SIGUSR2 reloads even a store that drops an analysis or the narratives of the current one.
  for (const [signal, force] of [['SIGHUP', false], ['SIGUSR2', true]] as const) {
    process.on(signal, () => {
      if (!live.current && live.preparing) {
        app.log.info(`${signal}: ignored, the default store is still being prepared`);
        return;
      }
      app.log.info(`${signal}: reloading the store${force ? ' (forced: it may drop analyses or the narratives)' : ''}`);
      void live.reload(undefined, { force });
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
  if (options.store === undefined) {
    try {
      await prepareDefaultStore(live, options.vaers, app.log);
    } catch (error) {
      const message = error instanceof UserError ? error.message : `the default store could not be prepared: ${(error as Error).message}`;
      process.stderr.write(`reporting-signals: ${message}\n`);
      await app.close().catch(() => undefined);
      process.exit(1);
    }
    if (options.watch && !stopping) stopWatching = watchStore(live, (message) => app.log.warn(message));
  }
}
