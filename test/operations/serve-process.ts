/**
 * A real `reporting-signals serve` child process for the operations tests: the compiled CLI
 * (dist/cli.js) started on port 0 with the given arguments and environment, its output collected, its URL
 * read from Fastify's "Server listening at" line, and how it ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../helpers/paths.js';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** A serve process. */
export interface ServeProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null: killed by a signal). */
  exit: Promise<number | null>;
  /** Everything it printed so far (standard output and error). */
  output(): string;
  /** Resolves with `http://127.0.0.1:PORT` once it listens; rejects when it exits first or after `ms`. */
  listening(ms?: number): Promise<string>;
  /** Resolves once its output matches `pattern`; rejects, with the output, after `ms`. */
  untilOutput(pattern: RegExp, ms: number): Promise<void>;
}

const started: ChildProcess[] = [];

/** Starts `serve --port 0 ...args` with `env` added to this process's environment. */
export function startServe(args: string[], env: Record<string, string> = {}): ServeProcess {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    child, exit, output: () => out,
    untilOutput: async (pattern, ms) => {
      for (const t = Date.now(); !pattern.test(out); await new Promise((done) => setTimeout(done, 50))) {
        if (Date.now() - t > ms) throw new Error(`no output matching ${pattern} within ${ms} ms: ${out}`);
      }
    },
    listening: (ms = 60_000) => new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve did not listen within ${ms} ms: ${out}`)), ms);
      const look = (): void => {
        const found = out.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
        if (found) {
          clearTimeout(timer);
          done(found[1]);
        }
      };
      child.stdout!.on('data', look);
      void exit.then((code) => { clearTimeout(timer); fail(new Error(`serve exited (${code}) before listening: ${out}`)); });
      look();
    }),
  };
}

/** Kills every serve process still running (afterAll). */
export function killAll(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** GET `url`: status, JSON body (null when not JSON), headers and the time it took (ms). */
export async function get(url: string): Promise<{ status: number; body: Record<string, unknown> | null; headers: Headers; ms: number; text: string }> {
  const t0 = performance.now();
  const response = await fetch(url);
  const text = await response.text();
  const ms = performance.now() - t0;
  let body: Record<string, unknown> | null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = null;
  }
  return { status: response.status, body, headers: response.headers, ms, text };
}

/** Polls `/readyz` until 200 (resolves with its body) or `ms` pass (rejects with the output). */
export async function untilReady(base: string, serve: ServeProcess, ms = 600_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (serve.child.exitCode !== null) throw new Error(`serve exited (${serve.child.exitCode}): ${serve.output()}`);
    const r = await get(`${base}/readyz`).catch(() => null);
    if (r?.status === 200) return r.body!;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`not ready within ${ms} ms: ${serve.output()}`);
}

/** A VAERS folder of the official files of `years` (copied from data/vaers): a real build of a few seconds. */
export async function realYears(dir: string, years: number[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const year of years) {
    for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) await copyFile(join(ROOT, 'data/vaers', `${year}VAERS${kind}.csv.gz`), join(dir, `${year}VAERS${kind}.csv.gz`));
  }
  return dir;
}
