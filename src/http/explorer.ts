/**
 * The signal explorer (issues 6 and 12): a web page at `/` over the public API (`/signals`,
 * `/analyses`, `/cases`, `/vaccines`).
 *
 * Routes (all hidden from the OpenAPI document, which describes the API only):
 * - `GET /` : `public/index.html`, with the voluntary-reporting sentence (spec 1) written into
 *   it so that the caveat is visible before (and without) any script; the page then refreshes
 *   it from the `X-REPORTS-Hypothesis` header of each `/signals` answer. While the default store
 *   is being prepared, `public/preparing.html` instead (503, `Retry-After`): the
 *   caveat, what is being done (phase, percent), and a reload every RETRY_AFTER_SECONDS. Both
 *   pages carry guards.ts EXPLORER_CSP (no inline script, no framing) and `X-Frame-Options: DENY`.
 * - `GET /explorer/*` : the page's plain ES modules and CSS from `public/` (no build step).
 * - `GET /explorer/vendor/uplot/*` : uPlot (the charting library) from `node_modules/uplot/dist`.
 *
 * The page itself uses the public resources only; there is no private endpoint.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import escapeHtml from 'escape-html';
import type {} from '@fastify/swagger'; // brings `schema.hide` into FastifySchema
import { HYPOTHESIS } from '../serve/query/caveats.js';
import { RETRY_AFTER_SECONDS, type LiveStore } from './live-store.js';
import { EXPLORER_HEADERS } from './guards.js';

/** Folder of the page's files; `src/http` and `dist/http` both sit two levels below the root. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

/** Folder of uPlot's distributed files (resolved through Node, so hoisting does not matter). */
const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot'));

/** Marker in `public/index.html` replaced by the caveat sentence. */
const HYPOTHESIS_MARKER = '<!--HYPOTHESIS-->';


/** Options of the explorer plugin. */
export interface ExplorerOptions {
  /** The served store: while the default store is being prepared, `/` is the preparing page. */
  live: LiveStore;
}

/** The heading of the preparing page: the store loads from the cache, or is being built. */
export function preparingTitle(state: 'checking' | 'building' | 'waiting' | 'loading'): string {
  if (state === 'checking') return 'The data is being prepared';
  return state === 'loading' ? 'The data is loading' : 'The data is being prepared: the default store is being built';
}

/**
 * Fastify plugin serving the explorer page and its assets. Register it once on the app
 * (`await app.register(explorerRoutes, { live })`); it adds no decorators outside its own scope.
 */
export async function explorerRoutes(app: FastifyInstance, options: ExplorerOptions): Promise<void> {
  const template = await readFile(`${PUBLIC_DIR}index.html`, 'utf8');
  const html = template.replace(HYPOTHESIS_MARKER, escapeHtml(HYPOTHESIS));
  const preparing = (await readFile(`${PUBLIC_DIR}preparing.html`, 'utf8'))
    .replace(HYPOTHESIS_MARKER, escapeHtml(HYPOTHESIS)).replaceAll('<!--RETRY-->', String(RETRY_AFTER_SECONDS));

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const { live } = options;
    if (live.preparing && !live.current) {
      return reply.code(503).type('text/html; charset=utf-8').headers(EXPLORER_HEADERS).header('Cache-Control', 'no-store').header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send(preparing.replace('<!--TITLE-->', preparingTitle(live.preparing.state)).replace('<!--STATUS-->', escapeHtml(live.unavailable())));
    }
    return reply.type('text/html; charset=utf-8').headers(EXPLORER_HEADERS).header('Cache-Control', 'no-cache').send(html);
  });

  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/explorer/',
    index: false,
    schemaHide: true,
    cacheControl: true,
    maxAge: 60_000,
  });
  await app.register(fastifyStatic, {
    root: UPLOT_DIR,
    prefix: '/explorer/vendor/uplot/',
    index: false,
    schemaHide: true,
    decorateReply: false,
    maxAge: 3_600_000,
  });
}
