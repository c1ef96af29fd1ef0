/**
 * The /signals resource over one store: params -> match -> aggregate (precomputed) -> render.
 * Transport-free: `answer(rawQuery)` returns status, headers and body; src/http sends it.
 *
 * The store is read once at open (loadCatalog) and no database stays open. Two caches, both
 * LRU and bounded (the store is read-only, so an answer never changes while the store is
 * served; answers are public, `max-age=60`), shared by the analyses of a store (keys prefixed
 * by the analysis; AnalysesService) and dropped with it on a swap: rendered 200 answers (body bytes and headers)
 * keyed by the normalised parameters, bounded by `ANSWER_CACHE_BYTES`, with an exact raw
 * query string LRU in front of it (`RAW_CACHE_BYTES`: a repeated URL skips parsing); and matches (pair ids
 * before sorting and paging, shared by pages, sorts and formats of one query) bounded by
 * `MATCH_CACHE_IDS` pair ids.
 */
import { errorBody, type ErrorBody } from '../query/error-object.js';
import { ownBytes, SizedLru, type CacheStats } from '../query/lru.js';
import { loadCatalog, type Catalog } from './catalog.js';
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
  /**
   * Caches shared with the other analyses of the store (AnalysesService): one bound for all of
   * them, so that the memory the caches hold does not grow with the number of analyses, and the
   * busiest analysis gets the room. Default: caches of its own.
   */
  caches?: SignalsCaches;
  /** The analysis to serve (a store with several); default every row of the store. */
  analysis?: string;
}

/** The three caches of a SignalsService (keys are prefixed by the analysis when shared). */
export interface SignalsCaches {
  answers: SizedLru<SignalsAnswer>;
  raw: SizedLru<SignalsAnswer>;
  matches: SizedLru<MatchResult>;
}

/** New caches with the bounds above (`answerCacheBytes` 0: no answer and raw-query caches). */
export function signalsCaches(answerCacheBytes: number = ANSWER_CACHE_BYTES): SignalsCaches {
  return {
    answers: new SizedLru<SignalsAnswer>(answerCacheBytes),
    raw: new SizedLru<SignalsAnswer>(answerCacheBytes === 0 ? 0 : RAW_CACHE_BYTES),
    matches: new SizedLru<MatchResult>(MATCH_CACHE_IDS),
  };
}

/** The loaded resource. */
export class SignalsService {
  /** Answer-cache lookups of every SignalsService of the process (200 answers only). */
  static readonly stats: CacheStats = { hits: 0, misses: 0 };

  private readonly answers: SizedLru<SignalsAnswer>;
  private readonly raw: SizedLru<SignalsAnswer>;
  private readonly matches: SizedLru<MatchResult>;
  /** Prefix of this service's keys in (possibly shared) caches: the analysis name and a NUL. */
  private readonly prefix: string;

  private constructor(readonly catalog: Catalog, options: SignalsServiceOptions) {
    ({ answers: this.answers, raw: this.raw, matches: this.matches } = options.caches ?? signalsCaches(options.answerCacheBytes));
    this.prefix = `${options.analysis ?? ''}\0`;
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
    const rawKey = this.prefix + search;
    const hit = this.raw.get(rawKey);
    if (hit) {
      SignalsService.stats.hits++;
      return hit;
    }
    const parsed = parseSignalsQuery(search);
    if (!parsed.ok) return { status: 400, body: errorBody(parsed.error.error, parsed.error) };
    const answerKey = this.prefix + parsed.key;
    const cached = this.answers.get(answerKey);
    if (cached?.status === 200) {
      SignalsService.stats.hits++;
      this.raw.set(rawKey, cached, 2 * rawKey.length + cached.body.length + 256);
      return cached;
    }
    const { params } = parsed;
    const matchKey = this.prefix + JSON.stringify([params.format === 'class' || params.format === 'series' ? params.format : '', params.vaccine, params.event, params.q, params.min_eb05, params.min_n]);
    let matched = this.matches.get(matchKey);
    if (!matched) {
      matched = matchPairs(this.catalog, params);
      // ~64 ids' worth for the entry itself (key, object, map slot), so that many small matches stay bounded too.
      this.matches.set(matchKey, matched, 64 + (matched.ok ? matched.match.ids.length : 0));
    }
    if (!matched.ok) return { status: 400, body: errorBody(matched.error.error, matched.error) };
    const { match } = matched;
    const page = params.format === 'series' ? [] : sortAndPage(this.catalog, match.ids, params.sort, params.order, params.offset, params.limit);
    SignalsService.stats.misses++;
    const rendered = RENDERERS[params.format]({ catalog: this.catalog, params, match, page });
    const body = ownBytes(rendered.body);
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
    this.answers.set(answerKey, answer, body.length + 256);
    this.raw.set(rawKey, answer, 2 * rawKey.length + body.length + 256);
    return answer;
  }

  /** Releases the series records (their temporary file, for a large store); the store was closed after the load. */
  close(): void {
    this.catalog.series.close();
  }
}
