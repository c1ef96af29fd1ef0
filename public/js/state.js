// The view state and its URL form, so that a view can be shared, restored and opened in a new
// tab (links carry the same URL the page pushes).
//
// Page URL parameters: q | vaccine | event (the query, as in /signals), sort, order, page
// (1-based), limit, analysis (omitted for the default), pair_vaccine + pair_event (the
// selected pair), view (series | compare | reports | class; `reports` also without a pair:
// the reports behind the query), rpage (1-based page of the reports listing), text (the
// Reports view's search of the narratives, GET /cases `text`), duplicates (`collapse`: the Reports
// view counts each suspected-duplicate cluster once, GET /cases `duplicates`; left out for `keep`),
// product (repeated: the sponsor's products or vaccine types; the front door's queue filtered to
// them, and their "My products" page, `view=products`).

export const SORT_KEYS = ['eb05', 'n', 'latest'];
export const VIEWS = ['series', 'compare', 'reports', 'class'];
/** The most products a page filters to. */
export const MAX_PRODUCTS = 20;
/** The choices of GET /cases `duplicates`; the first is the default. */
export const DUPLICATES = ['keep', 'collapse'];
export const DEFAULT_LIMIT = 20;
/** Reports per page of the line listing. */
export const REPORTS_LIMIT = 20;
const MAX_LIMIT = 500;
/** Pairs per page of the front door's triage queue. */
export const QUEUE_LIMIT = 20;
/** Quarters in a window (the statistics' rolling 4-quarter windows). */
export const WINDOW_QUARTERS = 4;
const QUARTER = /^(\d{4})Q([1-4])$/;

/**
 * @typedef {object} ViewState
 * @property {string} q
 * @property {string} vaccine
 * @property {string} event
 * @property {string} sort   one of SORT_KEYS
 * @property {'asc'|'desc'} order
 * @property {number} page   1-based
 * @property {number} limit
 * @property {string} analysis  '' for the default analysis
 * @property {{vaccine: string, event: string}|null} pair
 * @property {'series'|'compare'|'reports'|'class'} view
 * @property {number} rpage  1-based page of the reports listing
 * @property {string} text  search of the narratives in the Reports view ('' for none)
 * @property {'keep'|'collapse'} duplicates  the Reports view's GET /cases `duplicates`: every report,
 *   or each suspected-duplicate cluster once (kept across views and pairs, like the analysis)
 * @property {string} window  the triage window the pair was opened from (its last quarter, '' for none)
 * @property {string} from  first RECVDATE quarter of the Reports view ('' for the first of the store)
 * @property {string} to  last RECVDATE quarter of the Reports view ('' for the last of the store)
 * @property {number} tpage  1-based page of the front door's triage queue
 * @property {string[]} products  the products or vaccine types the queue is filtered to (URL `product`, repeated)
 * @property {boolean} productsPage  the "My products" page (URL `view=products`, with at least one product, no pair)
 */

/** A quarter `YYYYQn` as given, or '' when it is not one. */
function quarterOrEmpty(text) {
  return typeof text === 'string' && QUARTER.test(text) ? text : '';
}

/**
 * The first quarter of the 4-quarter window ending at `quarter` (`2006Q4` -> `2006Q1`,
 * `2007Q2` -> `2006Q3`), or '' when `quarter` is not `YYYYQn`.
 * @param {string} quarter
 * @returns {string}
 */
export function windowStart(quarter) {
  const m = QUARTER.exec(quarter ?? '');
  if (!m) return '';
  const index = Number(m[1]) * 4 + Number(m[2]) - 1 - (WINDOW_QUARTERS - 1);
  return `${Math.floor(index / 4)}Q${(index % 4) + 1}`;
}

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
  const pair = pairVaccine && pairEvent ? { vaccine: pairVaccine, event: pairEvent } : null;
  const view = p.get('view');
  return {
    q: p.get('q') ?? '',
    vaccine: p.get('vaccine') ?? '',
    event: p.get('event') ?? '',
    sort: SORT_KEYS.includes(sort) ? sort : 'eb05',
    order: order === 'asc' ? 'asc' : 'desc',
    page: positiveInt(p.get('page'), 1, Number.MAX_SAFE_INTEGER),
    limit: positiveInt(p.get('limit'), DEFAULT_LIMIT, MAX_LIMIT),
    analysis: p.get('analysis') ?? '',
    pair,
    view: VIEWS.includes(view) && (pair || view === 'reports') ? view : 'series',
    rpage: positiveInt(p.get('rpage'), 1, Number.MAX_SAFE_INTEGER),
    text: p.get('text') ?? '',
    duplicates: DUPLICATES.includes(p.get('duplicates')) ? p.get('duplicates') : DUPLICATES[0],
    window: pair ? quarterOrEmpty(p.get('window')) : '',
    from: quarterOrEmpty(p.get('from')),
    to: quarterOrEmpty(p.get('to')),
    tpage: positiveInt(p.get('tpage'), 1, Number.MAX_SAFE_INTEGER),
    products: productsOf(p.getAll('product')),
    productsPage: !pair && view === 'products' && p.getAll('product').some((x) => x.trim() !== ''),
  };
}

/** The products of the URL: trimmed, without blanks or repeats, at most MAX_PRODUCTS. */
export function productsOf(values) {
  return [...new Set(values.map((v) => String(v).trim()).filter((v) => v !== ''))].slice(0, MAX_PRODUCTS);
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
  if (state.analysis) p.set('analysis', state.analysis);
  if (state.pair) {
    p.set('pair_vaccine', state.pair.vaccine);
    p.set('pair_event', state.pair.event);
  }
  if ((state.pair || state.view === 'reports') && state.view !== 'series') p.set('view', state.view);
  else if (state.productsPage && !state.pair && state.products && state.products.length) p.set('view', 'products');
  if (state.view === 'reports' && state.rpage !== 1) p.set('rpage', String(state.rpage));
  if (state.view === 'reports' && state.text) p.set('text', state.text);
  if (state.duplicates && state.duplicates !== DUPLICATES[0]) p.set('duplicates', state.duplicates);
  if (state.pair && state.window) p.set('window', state.window);
  if (state.from) p.set('from', state.from);
  if (state.to) p.set('to', state.to);
  if (state.tpage && state.tpage !== 1) p.set('tpage', String(state.tpage));
  for (const product of state.products ?? []) p.append('product', product);
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** The page URL of a state (path and query string). */
export function hrefOf(state) {
  return `${location.pathname}${searchFromState(state)}`;
}

/**
 * The state of a pair's view opened from `state`: the same list (or, without a query, the
 * pair's vaccine as the query), the same analysis, the quarterly series. Opened from the triage
 * queue (`from`: the queue's analysis and window), it takes the queue's analysis ('' when it is
 * the default) and window, and its Reports view the window's quarters; otherwise no window and
 * all time.
 * @param {ViewState} state
 * @param {{vaccine: string, event: string}} pair
 * @param {{analysis: string, window: string}} [from]
 * @returns {ViewState}
 */
export function pairState(state, pair, from) {
  const base = hasQuery(state) ? state : { ...state, vaccine: pair.vaccine, page: 1 };
  const last = from ? quarterOrEmpty(from.window) : '';
  const context = from
    ? { analysis: from.analysis, window: last, from: windowStart(last), to: last }
    : { window: '', from: '', to: '' };
  return { ...base, ...context, pair: { vaccine: pair.vaccine, event: pair.event }, view: 'series', rpage: 1, text: '' };
}

/** The URL of a pair's view (what a pair link points to, and what a click on it pushes). */
export function pairHref(state, pair, from) {
  return hrefOf(pairState(state, pair, from));
}

/** The state listing the pairs of a vaccine (name or type), in the same analysis. */
export function vaccineState(state, vaccine) {
  return { ...state, q: '', vaccine, event: '', page: 1, pair: null, view: 'series', rpage: 1, text: '', window: '', from: '', to: '' };
}

/** True when the state holds a query (at least one of q, vaccine, event; spec 4.1). */
export function hasQuery(state) {
  return Boolean(state.q || state.vaccine || state.event);
}

/** True when the state shows the reports behind its query (no pair selected). */
export function showsQueryReports(state) {
  return !state.pair && state.view === 'reports' && hasQuery(state);
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

/**
 * The /cases parameters of the Reports view: the pair, else the query; one page of the listing.
 * @param {ViewState} state
 */
export function casesParams(state) {
  const subject = state.pair ? { vaccine: state.pair.vaccine, event: state.pair.event } : { q: state.q, vaccine: state.vaccine, event: state.event };
  const duplicates = state.duplicates && state.duplicates !== DUPLICATES[0] ? { duplicates: state.duplicates } : {};
  const range = { ...(state.from ? { from: state.from } : {}), ...(state.to ? { to: state.to } : {}) };
  return { ...subject, ...(state.text ? { text: state.text } : {}), ...duplicates, ...range, limit: REPORTS_LIMIT, offset: (state.rpage - 1) * REPORTS_LIMIT };
}

/** A short human description of the query, e.g. `vaccine "X"`. */
export function describeQuery(state) {
  const parts = [];
  if (state.vaccine) parts.push(`vaccine “${state.vaccine}”`);
  if (state.event) parts.push(`event “${state.event}”`);
  if (state.q) parts.push(`“${state.q}”`);
  return parts.join(' and ');
}
