/**
 * The one signature of every `/signals` format renderer (spec 4.1 success responses): what a
 * renderer gets and what it returns. A module of its own so that the registry (render.ts) and
 * renderers kept in their own files (series.ts) both import it without importing each other.
 */
import type { Catalog } from './catalog.js';
import type { Match } from './match.js';
import type { SignalsParams } from './parameters.js';

/** What a renderer gets. */
export interface RenderContext {
  catalog: Catalog;
  params: SignalsParams;
  match: Match;
  /** Pair ids of the page, in order. */
  page: number[];
}

/** A rendered 200 body. */
export interface Rendered {
  contentType: string;
  body: string;
}

/** The one signature of every format's renderer. */
export type Renderer = (ctx: RenderContext) => Rendered;
