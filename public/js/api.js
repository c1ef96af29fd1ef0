// Calls to the public /signals API (spec 4.1). The page uses nothing else.

/** Base path of the API (same origin as the page). */
export const SIGNALS_PATH = '/signals';

/**
 * URL of a /signals request.
 * @param {Record<string, string|number|undefined|null>} params query parameters; empty ones are left out
 * @returns {string} path with query string, e.g. `/signals?vaccine=X&format=csv`
 */
export function signalsUrl(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  return `${SIGNALS_PATH}?${search.toString()}`;
}

/**
 * The headers every /signals answer carries (spec 4.1), read from a Response.
 * @param {Response} response
 * @returns {{total: number|null, through: string|null, build: string|null, hypothesis: string|null}}
 */
export function readHeaders(response) {
  const total = response.headers.get('X-Total-Count');
  return {
    total: total === null || total === '' ? null : Number(total),
    through: response.headers.get('X-REPORTS-Through'),
    build: response.headers.get('X-REPORTS-Build'),
    hypothesis: response.headers.get('X-REPORTS-Hypothesis'),
  };
}

/**
 * Fetches /signals as JSON.
 * Resolves (never rejects) to `{ok: true, body, headers}` on 200, or `{ok: false, status, error,
 * allowed, hypothesis}` on an error answer (spec 2.5) or a network failure (status 0).
 * @param {Record<string, string|number|undefined|null>} params
 * @param {AbortSignal} [signal]
 */
export async function getSignals(params, signal) {
  let response;
  try {
    response = await fetch(signalsUrl(params), { signal, headers: { Accept: 'application/json' } });
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
