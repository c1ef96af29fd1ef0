/**
 * `reporting-signals serve`: binds the HTTP app (src/http/app.ts) to a port.
 * Port and host: `--port`/`--host`, else `PORT`/`HOST`, else 8080 and 127.0.0.1 (issue 4).
 */
import { buildApp, DEFAULT_STORE_PATH } from '../http/app.js';

export interface ServeOptions {
  store?: string;
  port?: number;
  host?: string;
}

/** Starts the server and resolves once it listens. */
export async function runServe(options: ServeOptions): Promise<void> {
  const app = await buildApp({ storePath: options.store ?? DEFAULT_STORE_PATH, logger: true });
  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : 8080);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port, host });
}
