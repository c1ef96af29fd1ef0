/**
 * The error a request's work throws when the request is not answered now (src/serve/narratives/search-pool.ts,
 * src/serve/cases/slices.ts, src/http/deadline.ts). It lives on the served side (src/serve/query): src/domain is
 * part of the default store's cache key (src/cache/key.ts), and this changes nothing a build writes.
 */
/**
 * Why a request is not answered now, as thrown by the work behind it: too much work already waits
 * (`busy`), its deadline passed (`deadline`: it was stopped), or its client left (`cancelled`: no
 * answer is owed). The server answers `busy` and `deadline` with 503, the Error object and Retry-After.
 */
export class Unavailable extends Error {
  constructor(readonly why: 'busy' | 'deadline' | 'cancelled', message: string) {
    super(message);
    this.name = 'Unavailable';
  }
}
