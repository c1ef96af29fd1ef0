/**
 * The app serving the run's default store (test/helpers/default-store.ts), built once per test process and shared
 * by the test files that run in it. The `shared` project of vitest.config.ts runs its files one after another in a
 * worker process with one module cache (`isolate: false`), so this module, and the app it holds, outlive a file
 * (vitest starts a new worker when an isolated file comes between: a few loads per run, not one per file). An app
 * on the default store costs about 8 s of CPU before its first answer (1.8 s to build, 6 s for the store's load that
 * the first request waits for; this machine, 2026-11-29), and about twenty files used to pay it each.
 *
 * The promise resolves once the store is loaded completely (every analysis, the case series), so that no loading
 * runs on into the next file. A file that takes the app must not close it, nor change what it serves (no option of
 * its own, no swap): a file that needs either builds an app of its own. It is never closed: vitest ends its worker
 * processes with a signal, and the run's temporary folder (its export files among them) goes with the run
 * (test/global-setup.ts).
 */
import type { FastifyInstance } from 'fastify';
import { buildServedApp } from '../../src/http/app.js';
import { DEFAULT_STORE } from './default-store.js';

let app: Promise<FastifyInstance> | null = null;
let server: Promise<{ app: FastifyInstance; base: string }> | null = null;

/**
 * The shared app on the default store (built at the first call in this process). With no default store (data/vaers
 * absent, or RS_TEST_NO_DEFAULT_STORE=1) it is an app without a store, as `buildApp({ storePath: null })` gives: its
 * resources answer 503.
 */
export function defaultApp(): Promise<FastifyInstance> {
  app ??= buildServedApp({ storePath: DEFAULT_STORE }).then(async ({ app: built, live }) => {
    await live.current?.complete;
    return built;
  });
  return app;
}

/** The shared app listening on 127.0.0.1 at a free port (from the first call on), and its base URL `http://127.0.0.1:PORT`. */
export function defaultServer(): Promise<{ app: FastifyInstance; base: string }> {
  // Fastify's listen resolves to the address it listens on, `http://127.0.0.1:PORT` here.
  server ??= defaultApp().then(async (shared) => ({ app: shared, base: await shared.listen({ port: 0, host: '127.0.0.1' }) }));
  return server;
}
