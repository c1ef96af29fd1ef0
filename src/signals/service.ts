/**
 * The /signals resource over one store: params -> match -> aggregate (precomputed) -> render.
 * Transport-free: `answer(rawQuery)` returns status, headers and body; src/http sends it.
 *
 * The store is read once at open (loadCatalog) and no database stays open. Two caches, both
 * LRU and bounded (the store is read-only, so an answer never changes while the process
 * lives; answers are public, `max-age=60`): rendered 200 answers (body bytes and headers)
 * keyed by the normalised parameters, bounded by `ANSWER_CACHE_BYTES`, with an exact raw
 * query string LRU in front of it (`RAW_CACHE_BYTES`: a repeated URL skips parsing); and matches (pair ids
 * before sorting and paging, shared by pages, sorts and formats of one query) bounded by
 * `MATCH_CACHE_IDS` pair ids.
 */
import { errorBody, type ErrorBody } from '../spec/errors.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { SizedLru } from './lru.js';
import { matchPairs, sortAndPage, type MatchResult } from './match.js';
import { parseSignalsQuery } from './parameters.js';
import { RENDERERS } from './render.js';

/** Cache lifetime of 200 answers (spec 4.1, 8). */
export const CACHE_CONTROL = 'public, max-age=60';

/** One answer of GET /signals: a 200 carries its spec 4.1 headers (lower-case names) and the normalised query (`key`: equal for equal answers). */
export type SignalsAnswer =
  | { status: 200; contentType: string; body: Buffer; headers: Record<string, string>; key: string }
  | { status: 400; body: ErrorBody };

/** Bound of the answer cache: total body bytes. */
export const ANSWER_CACHE_BYTES = 16 << 20;
/** Bound of the raw-query cache (in front of parsing): total query and body bytes (bodies shared with the answer cache). */
export const RAW_CACHE_BYTES = 8 << 20;
/** Bound of the match cache: total pair ids. */
export const MATCH_CACHE_IDS = 1 << 20;

/** Options of `SignalsService.open` (tests turn the answer cache off to compare). */
export interface SignalsServiceOptions {
  /** Bytes of rendered answers kept (0: no answer cache). Default ANSWER_CACHE_BYTES. */
  answerCacheBytes?: number;
  /** The analysis to serve (a store with several); default every row of the store. */
  analysis?: string;
}

/** Lookups of the answer caches, counted over every store the process served (metrics). */
export interface CacheStats {
  /** Answers served from a cache. */
  hits: number;
  /** Answers rendered (not cached yet, or evicted). */
  misses: number;
}

/** The loaded resource. */
export class SignalsService {
  /** Answer-cache lookups of every SignalsService of the process (200 answers only). */
  static readonly stats: CacheStats = { hits: 0, misses: 0 };

  private readonly answers: SizedLru<SignalsAnswer>;
  private readonly raw: SizedLru<SignalsAnswer>;
  private readonly matches = new SizedLru<MatchResult>(MATCH_CACHE_IDS);

  private constructor(readonly catalog: Catalog, options: SignalsServiceOptions) {
    const bytes = options.answerCacheBytes ?? ANSWER_CACHE_BYTES;
    this.answers = new SizedLru<SignalsAnswer>(bytes);
    this.raw = new SizedLru<SignalsAnswer>(bytes === 0 ? 0 : RAW_CACHE_BYTES);
  }

  /**
   * Reads the store file once (read-only) and builds the pair catalog; no database stays open.
   * @throws Error naming the file when it is missing or not a store.
   */
  static async open(storePath: string, options: SignalsServiceOptions = {}): Promise<SignalsService> {
    return new SignalsService(await loadCatalog(storePath, options.analysis), options);
  }

  /** Answers one request given its raw query string (without `?`). Never throws for bad input. */
  answer(search: string): SignalsAnswer {
    // The same raw query string always has the same answer: no parsing on a repeat.
    const hit = this.raw.get(search);
    if (hit) {
      SignalsService.stats.hits++;
      return hit;
    }
    const parsed = parseSignalsQuery(search);
    if (!parsed.ok) return { status: 400, body: errorBody(parsed.error.error, parsed.error) };
    const cached = this.answers.get(parsed.key);
    if (cached?.status === 200) {
      SignalsService.stats.hits++;
      this.raw.set(search, cached, 2 * search.length + cached.body.length + 256);
      return cached;
    }
    const { params } = parsed;
    const matchKey = JSON.stringify([params.format === 'class' || params.format === 'series' ? params.format : '', params.vaccine, params.event, params.q, params.min_eb05, params.min_n]);
    let matched = this.matches.get(matchKey);
    if (!matched) {
      matched = matchPairs(this.catalog, params);
      this.matches.set(matchKey, matched, 16 + (matched.ok ? matched.match.ids.length : 0));
    }
    if (!matched.ok) return { status: 400, body: errorBody(matched.error.error, matched.error) };
    const { match } = matched;
    const page = params.format === 'series' ? [] : sortAndPage(this.catalog, match.ids, params.sort, params.order, params.offset, params.limit);
    SignalsService.stats.misses++;
    const rendered = RENDERERS[params.format]({ catalog: this.catalog, params, match, page });
    const body = Buffer.from(rendered.body, 'utf8');
    const answer: SignalsAnswer = {
      status: 200,
      key: parsed.key,
      contentType: rendered.contentType,
      body,
      headers: {
        'content-type': rendered.contentType,
        'x-total-count': String(match.ids.length),
        'x-limit': String(params.limit),
        'x-offset': String(params.offset),
        'x-reports-through': this.catalog.reportsThrough ?? 'none',
        'cache-control': CACHE_CONTROL,
      },
    };
    this.answers.set(parsed.key, answer, body.length + 256);
    this.raw.set(search, answer, 2 * search.length + body.length + 256);
    return answer;
  }

  /** Releases the series records (their temporary file, for a large store); the store was closed after the load. */
  close(): void {
    this.catalog.series.close();
  }
}
