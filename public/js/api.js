// Calls to the public API: /signals and /analyses/NAME/signals (spec 4.1), /analyses, /cases and
// /analyses/NAME/cases, /vaccines. The page uses nothing else.

/** Base path of the default analysis's signals (same origin as the page). */
export const SIGNALS_PATH = '/signals';
/** Base path of the default analysis's case series. */
export const CASES_PATH = '/cases';

/**
 * URL of a request to `path`.
 * @param {string} path e.g. `/signals`
 * @param {Record<string, string|number|undefined|null>} params query parameters; empty ones are left out
 * @returns {string} path with query string, e.g. `/signals?vaccine=X&format=csv`
 */
export function apiUrl(path, params = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * URL of a /signals request (of the default analysis unless `path` names another's).
 * @param {Record<string, string|number|undefined|null>} params
 * @param {string} [path] the analysis's signals path, e.g. `/analyses/serious/signals`
 */
export function signalsUrl(params, path = SIGNALS_PATH) {
  return apiUrl(path, params);
}

/**
 * The headers every answer carries (spec 4.1), read from a Response.
 * @param {Response} response
 * @returns {{total: number|null, through: string|null, build: string|null, hypothesis: string|null, analysis: string|null}}
 */
export function readHeaders(response) {
  const total = response.headers.get('X-Total-Count');
  return {
    total: total === null || total === '' ? null : Number(total),
    through: response.headers.get('X-REPORTS-Through'),
    build: response.headers.get('X-REPORTS-Build'),
    hypothesis: response.headers.get('X-REPORTS-Hypothesis'),
    analysis: response.headers.get('X-REPORTS-Analysis'),
  };
}

/**
 * Fetches `url` as JSON.
 * Resolves (never rejects, except when aborted) to `{ok: true, body, headers}` on 200, or
 * `{ok: false, status, error, allowed, hypothesis}` on an error answer (spec 2.5) or a network
 * failure (status 0).
 * @param {string} url
 * @param {AbortSignal} [signal]
 */
export async function getJson(url, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (error && error.name === 'AbortError') throw error;
    return { ok: false, status: 0, error: `The API could not be reached (${error && error.message ? error.message : 'network error'}).` };
  }
  const headers = readHeaders(response);
  const body = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, body, headers };
  const error = body && typeof body.error === 'string' ? body.error : `The API answered HTTP ${response.status}.`;
  return {
    ok: false,
    status: response.status,
    error,
    allowed: body && Array.isArray(body.allowed) ? body.allowed : null,
    hypothesis: body && typeof body.hypothesis === 'string' ? body.hypothesis : headers.hypothesis,
    headers,
  };
}

/**
 * Fetches /signals (or an analysis's signals path) as JSON; see getJson for the result.
 * @param {Record<string, string|number|undefined|null>} params
 * @param {AbortSignal} [signal]
 * @param {string} [path]
 */
export function getSignals(params, signal, path = SIGNALS_PATH) {
  return getJson(signalsUrl(params, path), signal);
}

/** Fetches a case series (`/cases` or an analysis's cases path); see getJson. */
export function getCases(params, path = CASES_PATH) {
  return getJson(apiUrl(path, params));
}

/** Fetches `GET /analyses` (the analyses of the store, the default first). */
export function getAnalyses() {
  return getJson('/analyses');
}

/**
 * The quarters whose window's MGPS fit has a hyperparameter on a bound, in the analysis whose
 * signals path is `path` (`/signals`: the default analysis), from `GET /analyses/NAME` (`fits`).
 * An empty set when the API does not say (an older server, an error).
 * @returns {Promise<Set<string>>}
 */
export async function getBoundQuarters(path = SIGNALS_PATH) {
  let name = /^\/analyses\/([^/]+)\/signals$/.exec(path)?.[1];
  if (!name) {
    const listing = await getAnalyses();
    name = listing.ok && listing.body ? encodeURIComponent(listing.body.default) : undefined;
  }
  if (!name) return new Set();
  const detail = await getJson(`/analyses/${name}`);
  const fits = detail.ok && detail.body && Array.isArray(detail.body.fits) ? detail.body.fits : [];
  return new Set(fits.filter((w) => Array.isArray(w.at_bound) && w.at_bound.length > 0).map((w) => w.quarter));
}

/**
 * Fetches `GET /vaccines` (every vaccine name with its type, reports and flagged pairs in the
 * default analysis), or `GET /analyses/NAME/vaccines` (pairs counted in analysis NAME).
 */
export function getVaccines(path = '/vaccines') {
  return getJson(path);
}

/**
 * Fetches the triage queue (`GET /triage`, or `/analyses/NAME/triage`): the flagged pairs of a
 * window in rank order with their reasons and cautions; see getJson. A server or store without
 * triage answers 404 (`status: 404`), and the caller falls back.
 * @param {Record<string, string|number|undefined|null>} params e.g. `{limit: 100}`
 * @param {string} [path]
 */
export function getTriage(params, path = '/triage') {
  return getJson(apiUrl(path, params));
}
