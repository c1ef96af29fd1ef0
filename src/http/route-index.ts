/**
 * The routes the app registers, seen as they are registered (Fastify's onRoute hook), so that what
 * depends on them is derived, never kept by hand: the 405 answers (every GET path answers other
 * methods with 405 and `Allow`) and the API catalog (/.well-known/api-catalog: every route that
 * declares itself an API with `config: { catalog: true }`).
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** True on the one route that anchors a resource in the API catalog. */
    catalog?: boolean;
  }
}

/** What the app registered: the GET paths and the catalog anchors, in registration order. */
export interface RouteIndex {
  /** Every GET path (Fastify syntax, `/reports/:vaers_id`), once each. */
  readonly get: string[];
  /** The catalog anchors, as OpenAPI paths (`/reports/{vaers_id}`). */
  readonly catalog: string[];
}

/** `/reports/:vaers_id` -> `/reports/{vaers_id}` (the OpenAPI path of a Fastify path). */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/**
 * Starts indexing the routes of `app`: call it before any route is registered (the hook sees the
 * routes of every plugin registered after it, prefixes included).
 */
export function indexRoutes(app: FastifyInstance): RouteIndex {
  const index = { get: [] as string[], catalog: [] as string[] };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = [route.method].flat();
    if (!methods.includes('GET') || index.get.includes(route.url)) return;
    index.get.push(route.url);
    if (route.config?.catalog) index.catalog.push(openApiPath(route.url));
  });
  return index;
}
