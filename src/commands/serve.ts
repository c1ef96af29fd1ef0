/**
 * `reporting-signals serve`: binds the HTTP app (src/http/app.ts) to a port.
 * Port and host: `--port`/`--host`, else `PORT`/`HOST`, else 8080 and 127.0.0.1 (issue 4).
 * Store: `--store FILE`, else the embedded default (data/default.duckdb). A missing store does
 * not stop the server: /signals then answers 503 with an Error object that says so.
 * `REQUEST_LOG=1` logs every request (off by default: it costs throughput).
 */
import { UserError } from '../errors.js';
import { buildApp, DEFAULT_STORE_PATH } from '../http/app.js';

/** Options of `serve` as parsed by the CLI: store file (default: the embedded store), port and host. */
export interface ServeOptions {
  store?: string;
  port?: number;
  host?: string;
}

/** Port from the option or `PORT`, validated. @throws UserError when PORT is not a port number. */
export function resolvePort(option: number | undefined, env: string | undefined): number {
  if (option !== undefined) return option;
  if (env === undefined || env === '') return 8080;
  const port = Number(env);
  if (!/^\d+$/.test(env) || port > 65535) throw new UserError(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(env)})`);
  return port;
}

/** Starts the server and resolves once it listens. */
export async function runServe(options: ServeOptions): Promise<void> {
  const port = resolvePort(options.port, process.env.PORT);
  const host = options.host ?? (process.env.HOST || '127.0.0.1');
  const app = await buildApp({ storePath: options.store ?? DEFAULT_STORE_PATH, logger: true, requestLog: process.env.REQUEST_LOG === '1' });
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  try {
    await app.listen({ port, host });
  } catch (error) {
    throw new UserError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
}
