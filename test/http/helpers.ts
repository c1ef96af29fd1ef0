/**
 * Shared helpers of the HTTP tests: an app over the fixture store (test/serve/signals/fixture.ts)
 * and small readers of inject() answers.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { writeFixtureStore } from '../serve/signals/fixture.js';

/** Builds the app over a fresh fixture store (with `analyses`: the three-analysis fixture). */
export async function fixtureApp(options: { hasIc025?: boolean; analyses?: boolean } = {}): Promise<FastifyInstance> {
  return buildApp({ storePath: await writeFixtureStore(options) });
}

/**
 * The two places the /signals contract is served: `/signals` over the
 * one-analysis fixture, and `/analyses/stratified/signals` over the three-analysis fixture,
 * whose `stratified` rows equal the one-analysis fixture's. Spec tests run over both.
 */
export const SIGNALS_PATHS: ReadonlyArray<{ path: string; analyses: boolean; analysis: string }> = [
  { path: '/signals', analyses: false, analysis: 'all' },
  { path: '/analyses/stratified/signals', analyses: true, analysis: 'stratified' },
];

/** GET `url` and parse the JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function getJson(app: FastifyInstance, url: string): Promise<{ status: number; body: any; res: LightMyRequestResponse }> {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: JSON.parse(res.body), res };
}

/** `vaccine|event` keys of a pair array, in order. */
export function keys(pairs: Array<{ vaccine: string; event: string }>): string[] {
  return pairs.map((p) => `${p.vaccine}|${p.event}`);
}

/** A raw GET over a socket on 127.0.0.1:`port` (inject() skips Node's HTTP parser, where the head limit lives): status, lower-case headers and body. */
export function rawGet(port: number, target: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `text` on a fresh connection and resolves with the whole answer (status line, headers, body). */
export function rawExchange(port: number, text: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      out += d;
      const end = out.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(out);
      if (end >= 0 && length && out.length >= end + 4 + Number(length[1])) socket.end();
    });
    socket.on('close', () => resolve({ head: out.slice(0, out.indexOf('\r\n\r\n')), body: out.slice(out.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}
