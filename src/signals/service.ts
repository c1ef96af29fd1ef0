/**
 * The /signals resource over one store: params -> match -> aggregate (precomputed) -> render.
 * Transport-free: `answer(rawQuery)` returns status, headers and body; src/http adds the
 * common headers and sends it. Answers of 200 are kept in a small LRU keyed by the normalised
 * parameters, and matches (pair ids before sorting and paging) in another (the store is read-only, so an answer never changes while the process lives).
 */
import { errorBody, type ErrorBody } from '../http/errors.js';
import { Store } from '../store/read.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { matchPairs, sortAndPage, type MatchResult } from './match.js';
import { parseSignalsQuery } from './parameters.js';
import { RENDERERS } from './render.js';

/** One answer of GET /signals. */
export type SignalsAnswer =
  | { status: 200; contentType: string; body: string; headers: Record<string, string> }
  | { status: 400; body: ErrorBody };

const CACHE_ENTRIES = 2000;
const CACHE_MAX_BODY = 1 << 20;
const MATCH_ENTRIES = 500;

/** The loaded resource. */
export class SignalsService {
  private readonly cache = new Map<string, SignalsAnswer>();
  private readonly matches = new Map<string, MatchResult>();

  private constructor(readonly store: Store, readonly catalog: Catalog) {}

  /**
   * Opens the store read-only and builds the pair catalog.
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(storePath: string): Promise<SignalsService> {
    const store = await Store.open(storePath);
    try {
      return new SignalsService(store, await loadCatalog(store));
    } catch (error) {
      store.close();
      throw error;
    }
  }

  /** Answers one request given its raw query string (without `?`). Never throws for bad input. */
  async answer(search: string): Promise<SignalsAnswer> {
    const parsed = parseSignalsQuery(search);
    if (!parsed.ok) return { status: 400, body: errorBody(parsed.error.error, parsed.error) };
    const cached = this.cache.get(parsed.key);
    if (cached) {
      this.cache.delete(parsed.key);
      this.cache.set(parsed.key, cached);
      return cached;
    }
    const { params } = parsed;
    // Matches are cached apart from answers: pages, sorts and formats of one query share them.
    const matchKey = JSON.stringify([params.format === 'class' || params.format === 'series' ? params.format : '', params.vaccine, params.event, params.q, params.min_eb05, params.min_n]);
    let matched = this.matches.get(matchKey);
    if (!matched) {
      matched = matchPairs(this.catalog, params);
      this.matches.set(matchKey, matched);
      if (this.matches.size > MATCH_ENTRIES) this.matches.delete(this.matches.keys().next().value!);
    }
    if (!matched.ok) return { status: 400, body: errorBody(matched.error.error, matched.error) };
    const { match } = matched;
    const page = params.format === 'series' ? [] : sortAndPage(this.catalog, match.ids, params.sort, params.order, params.offset, params.limit);
    const rendered = await RENDERERS[params.format]({ catalog: this.catalog, store: this.store, params, match, page });
    const answer: SignalsAnswer = {
      status: 200,
      contentType: rendered.contentType,
      body: rendered.body,
      headers: {
        'x-total-count': String(match.ids.length),
        'x-limit': String(params.limit),
        'x-offset': String(params.offset),
        'x-reports-through': this.catalog.reportsThrough ?? 'none',
      },
    };
    if (rendered.body.length <= CACHE_MAX_BODY) {
      this.cache.set(parsed.key, answer);
      if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    }
    return answer;
  }

  /** Closes the store. */
  close(): void {
    this.store.close();
  }
}
