/**
 * `reporting-signals reload [--port N] [--no-wait]`: refreshes the server running on this machine
 * on port N (default `$PORT`, else 8080), however it was started (`npm start`, `serve --store`):
 * reads its pid file in the cache folder (src/cache/serve-pid.ts), sends it SIGHUP (`--force`:
 * SIGUSR2, a swap that may drop analyses or the narratives), and waits for the outcome it writes
 * (without `--store`: the default store rebuilt when its VAERS folder's files changed, then
 * swapped in; with `--store`: the file reloaded). Prints the outcome's line; exit 0 when it
 * succeeded, 1 (a UserError) when there is no such server, it ended meanwhile, or the reload failed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../domain/user-error.js';
import { cacheDir } from '../cache/key.js';
import { isAlive } from '../cache/lock.js';
import { pidFile, readPidFile, readReloadOutcome } from '../cache/serve-pid.js';
import { resolvePort } from './serve.js';

/** Options of `reload` as parsed by the CLI. */
export interface ReloadCommandOptions {
  port?: number;
  /** false: send the signal and return at once (`--no-wait`). */
  wait?: boolean;
  force?: boolean;
}

/** How often the outcome file is read while waiting, in ms. */
const POLL_MS = 200;

/**
 * Sends the signal and (by default) waits for the outcome; resolves with the line printed.
 * @throws UserError naming the pid file when no live server is found, or with the server's
 *   message when the reload failed.
 */
export async function runReload(options: ReloadCommandOptions, print: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<string> {
  const port = resolvePort(options.port, process.env.PORT);
  const dir = cacheDir();
  const file = pidFile(dir, port);
  const server = await readPidFile(file);
  if (server === null || !isAlive(server.pid)) {
    throw new UserError(`reload: no server on port ${port} found (${server === null ? `no pid file ${file}` : `${file} names process ${server.pid}, which is not running`}): start it with \`npm start\` (or give --port N, or set REPORTING_SIGNALS_CACHE_DIR as the server had it)`);
  }
  const signal = options.force ? 'SIGUSR2' : 'SIGHUP';
  const sent = Date.now();
  process.kill(server.pid, signal);
  const what = server.store === null ? `refresh the default store from ${server.vaers}` : `reload ${server.store}`;
  if (options.wait === false) {
    const line = `reload: sent ${signal} to the server on port ${port} (process ${server.pid}) to ${what}; GET /readyz says when the new store serves`;
    print(line);
    return line;
  }
  print(`reload: sent ${signal} to the server on port ${port} (process ${server.pid}) to ${what}; waiting for it (the server's terminal shows the progress)`);
  for (;;) {
    const outcome = await readReloadOutcome(dir, port);
    if (outcome && outcome.requested_at >= sent && outcome.finished_at !== null) {
      if (!outcome.ok) throw new UserError(`reload: ${outcome.message}`);
      const line = `reload: ${outcome.message}`;
      print(line);
      return line;
    }
    if (!isAlive(server.pid)) throw new UserError(`reload: the server (process ${server.pid}) ended before it reloaded`);
    await sleep(POLL_MS);
  }
}
