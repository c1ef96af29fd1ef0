// The view state and its URL form, so that a view can be shared and restored.
//
// Page URL parameters: q | vaccine | event (the query, as in /signals), sort, order, page
// (1-based), limit, pair_vaccine + pair_event (the selected pair), view (series | class).

export const SORT_KEYS = ['eb05', 'n', 'latest'];
export const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 500;

/**
 * @typedef {object} ViewState
 * @property {string} q
 * @property {string} vaccine
 * @property {string} event
 * @property {string} sort   one of SORT_KEYS
 * @property {'asc'|'desc'} order
 * @property {number} page   1-based
 * @property {number} limit
 * @property {{vaccine: string, event: string}|null} pair
 * @property {'series'|'class'} view
 */

function positiveInt(text, fallback, max) {
  if (text === null || !/^\d+$/.test(text)) return fallback;
  const n = Number(text);
  return n >= 1 && n <= max ? n : fallback;
}

/**
 * Reads the state from a query string (unknown or malformed values fall back to defaults).
 * @param {string} search e.g. location.search
 * @returns {ViewState}
 */
export function stateFromSearch(search) {
  const p = new URLSearchParams(search);
  const sort = p.get('sort');
  const order = p.get('order');
  const pairVaccine = p.get('pair_vaccine');
  const pairEvent = p.get('pair_event');
  return {
    q: p.get('q') ?? '',
    vaccine: p.get('vaccine') ?? '',
    event: p.get('event') ?? '',
    sort: SORT_KEYS.includes(sort) ? sort : 'eb05',
    order: order === 'asc' ? 'asc' : 'desc',
    page: positiveInt(p.get('page'), 1, Number.MAX_SAFE_INTEGER),
    limit: positiveInt(p.get('limit'), DEFAULT_LIMIT, MAX_LIMIT),
    pair: pairVaccine && pairEvent ? { vaccine: pairVaccine, event: pairEvent } : null,
    view: p.get('view') === 'class' ? 'class' : 'series',
  };
}

/**
 * Writes the state as a query string; defaults are left out so URLs stay short.
 * @param {ViewState} state
 * @returns {string} starting with `?`, or '' for the empty state
 */
export function searchFromState(state) {
  const p = new URLSearchParams();
  if (state.q) p.set('q', state.q);
  if (state.vaccine) p.set('vaccine', state.vaccine);
  if (state.event) p.set('event', state.event);
  if (state.sort !== 'eb05') p.set('sort', state.sort);
  if (state.order !== 'desc') p.set('order', state.order);
  if (state.page !== 1) p.set('page', String(state.page));
  if (state.limit !== DEFAULT_LIMIT) p.set('limit', String(state.limit));
  if (state.pair) {
    p.set('pair_vaccine', state.pair.vaccine);
    p.set('pair_event', state.pair.event);
    if (state.view !== 'series') p.set('view', state.view);
  }
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** True when the state holds a query (at least one of q, vaccine, event; spec 4.1). */
export function hasQuery(state) {
  return Boolean(state.q || state.vaccine || state.event);
}

/**
 * The /signals parameters of the pair list for a state (the CSV link uses the same ones).
 * @param {ViewState} state
 */
export function listParams(state) {
  return {
    q: state.q, vaccine: state.vaccine, event: state.event,
    sort: state.sort, order: state.order,
    limit: state.limit, offset: (state.page - 1) * state.limit,
  };
}

/** A short human description of the query, e.g. `vaccine "X"`. */
export function describeQuery(state) {
  const parts = [];
  if (state.vaccine) parts.push(`vaccine “${state.vaccine}”`);
  if (state.event) parts.push(`event “${state.event}”`);
  if (state.q) parts.push(`“${state.q}”`);
  return parts.join(' and ');
}
