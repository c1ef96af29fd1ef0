// The signal explorer page (issues 6 and 12): a front door (vaccine types and emerging pairs),
// search, a sortable paged table of pairs whose names are links to the pair's view, and the
// pair's views: quarterly series, analyses compared, the reports behind it (also for a vaccine
// or an event alone) and the class view. The URL holds the state; every datum comes from the
// public API (/signals, /analyses, /cases, /vaccines) and is written with textContent.
import { getSignals, getVaccines, signalsUrl } from './api.js';
import { renderProductForm, renderProductsPage } from './products.js';
import { analysisInfo, casesPathOf, defaultAnalysis, fillSelector, isDefault, loadAnalyses, signalsPathOf, vaccinesPathOf } from './analyses.js';
import {
  stateFromSearch, hasQuery, listParams, describeQuery, casesParams, hrefOf, pairState, pairHref,
  vaccineState, showsQueryReports, windowStart,
} from './state.js';
import { fillPairCautions, renderPairHead, renderPairRows } from './table.js';
import { cautionCell, queueCautions } from './triage.js';
import { clearPlot } from './plot.js';
import { rememberNames, setupSuggestions } from './suggest.js';
import { viewLink } from './links.js';
import { renderFrontDoor } from './frontdoor.js';
import { renderSeries, renderClass } from './series.js';
import { renderInteractions } from './interactions.js';
import { renderCompare } from './compare.js';
import { renderReports } from './reports.js';
import { renderGroupContext } from './groups.js';
import { analysisWords, N_SUM, renderRange, setTableContext } from './context.js';

const $ = (id) => document.getElementById(id);

/** A vaccine name that exists nowhere: its empty 200 answer (spec 7) carries the headers. */
const PROBE_VACCINE = 'explorer probe: no such vaccine';

let state = stateFromSearch(location.search);
let generation = 0;
let probed = false;
/** Why GET /analyses failed, if it did (then only the default paths are used). */
let analysesError = '';

function setStatus(status) {
  document.body.dataset.status = status;
}

/** Shows the caveat, reports_through and build from an answer's headers or error body. */
function showMeta(headers, hypothesis) {
  const sentence = hypothesis ?? headers?.hypothesis;
  if (sentence) $('hypothesis').textContent = sentence;
  if (headers?.through) $('reports-through').textContent = headers.through;
  if (headers?.build) $('build').textContent = headers.build;
}

function showError(target, result) {
  showMeta(result.headers, result.hypothesis);
  const node = $(target);
  node.textContent = result.error;
  if (result.allowed) node.append(` Allowed: ${result.allowed.join(', ')}.`);
  node.hidden = false;
}

/** Changes the state, records it in the URL (a history entry unless `replace`), re-renders. */
function navigate(patch, { replace = false } = {}) {
  state = { ...state, ...patch };
  const url = hrefOf(state);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  return render();
}

/** Opens a view pushed by a link, then moves the focus to the view's heading. */
function openView(next, focusId) {
  navigate(next).then(() => {
    const target = $(focusId);
    if (target && !target.closest('[hidden]')) {
      target.focus();
      target.scrollIntoView({ block: 'start' });
    }
  });
}

/**
 * A link to a pair's view (vaccine or event name of a row); `from` (the triage queue's analysis
 * and window) opens it in that analysis and window.
 */
function pairLink(row, text, attrs = {}, from = undefined) {
  const pair = { vaccine: row.vaccine, event: row.event };
  const context = from ? { analysis: isDefault(from.analysis) ? '' : from.analysis, window: from.window } : undefined;
  return viewLink(text, pairHref(state, pair, context), () => openView(pairState(state, pair, context), 'detail-title'), attrs);
}

/** A link to a pair's view in another analysis (`analysis`: its name, '' for the default), listed under its vaccine. */
function pairLinkIn(analysis, pair, text) {
  const next = pairState({ ...vaccineState(state, pair.vaccine), analysis }, pair);
  return viewLink(text, hrefOf(next), () => openView(next, 'detail-title'));
}

/** A link to the pairs of a vaccine name or type. */
function vaccineLink(name, text = name) {
  const next = vaccineState(state, name);
  return viewLink(text, hrefOf(next), () => openView(next, 'results-title'));
}

/** A link to the pairs of an event term. */
function eventLink(name, text = name) {
  const next = { ...vaccineState(state, ''), event: name };
  return viewLink(text, hrefOf(next), () => openView(next, 'results-title'));
}

function syncForm() {
  const mode = state.q ? 'q' : state.vaccine ? 'vaccine' : state.event ? 'event' : $('search-mode').value;
  $('search-mode').value = mode;
  $('search-text').value = mode === 'q' ? state.q : mode === 'vaccine' ? state.vaccine : state.event;
  fillSelector($('analysis'), state.analysis);
  const info = analysisInfo(state.analysis);
  $('analysis-help').textContent = analysesError
    ? `The analyses could not be listed: ${analysesError}`
    : info && info.description ? `Analysis “${info.name}”: ${info.description}` : '';
}

/** Once per page: the headers of an empty answer, when no answer has given them yet. */
async function probeMeta() {
  probed = true;
  const result = await getSignals({ vaccine: PROBE_VACCINE, limit: 1 }, undefined, signalsPathOf(state.analysis));
  showMeta(result.headers, result.hypothesis);
}

async function render() {
  const gen = ++generation;
  const current = () => gen === generation;
  setStatus('loading');
  syncForm();
  $('error').hidden = true;
  $('empty').hidden = true;
  const productsPage = state.productsPage && !hasQuery(state) && !state.pair;
  const front = !hasQuery(state) && !state.pair && !productsPage;
  $('front').hidden = !front;
  $('products-page').hidden = !productsPage;
  const tasks = [renderDetail(current)];
  if (front) {
    renderProductForm(state.products, await productNames(), (products) => navigate({ products, tpage: 1 }), hrefOf({ ...state, productsPage: true, tpage: 1 }));
    tasks.push(renderFrontDoor({
      current, analysis: state.analysis, vaccineLink, pairLink, onMeta: showMeta, products: state.products,
      queuePage: state.tpage, onQueuePage: (tpage) => openView({ tpage }, 'triage-title'),
    }));
  }
  if (productsPage) tasks.push(renderProductsPage({ current, analysis: state.analysis, products: state.products, backHref: hrefOf({ ...state, productsPage: false }) }));
  if (hasQuery(state)) tasks.push(renderList(current));
  else $('results').hidden = true;
  await Promise.all(tasks);
  if (!probed && $('reports-through').textContent === '—') await probeMeta();
  if (current()) setStatus('ready');
}

/**
 * Product names and vaccine types for the filter's suggestions, from the vaccines of the page's
 * analysis (GET /vaccines or /analyses/NAME/vaccines; once per analysis; none when it fails).
 */
const namesOf = new Map();
function productNames() {
  const path = vaccinesPathOf(state.analysis);
  if (!namesOf.has(path)) namesOf.set(path, getVaccines(path).then((answer) => {
    const rows = answer.ok && answer.body && Array.isArray(answer.body.vaccines) ? answer.body.vaccines : [];
    return [...new Set([...rows.map((v) => v.vax_type).filter(Boolean), ...rows.map((v) => v.vaccine)])].sort();
  }, () => []));
  return namesOf.get(path);
}

async function renderList(current) {
  const params = listParams(state);
  const path = signalsPathOf(state.analysis);
  const result = await getSignals(params, undefined, path);
  if (!current()) return;
  if (!result.ok) {
    $('results').hidden = true;
    showError('error', result);
    return;
  }
  showMeta(result.headers);
  const rows = Array.isArray(result.body) ? result.body : [];
  rememberNames(rows);
  const total = result.headers.total ?? rows.length;
  const reportsState = { ...state, pair: null, view: 'reports', rpage: 1 };
  if (total === 0) {
    $('results').hidden = true;
    const where = isDefault(state.analysis) ? '' : ` in the analysis “${state.analysis}”`;
    const empty = $('empty');
    empty.textContent = `No pairs match ${describeQuery(state)}${where}. Try another name, a vaccine type, or a longer part of an event term. `;
    empty.append(viewLink(`Reports naming ${describeQuery(state)}`, hrefOf(reportsState), () => openView(reportsState, 'detail-title'), { id: 'empty-reports' }));
    empty.hidden = false;
    return;
  }
  $('results').hidden = false;
  const table = $('pairs');
  renderPairHead(table.tHead, { sort: state.sort, order: state.order, onSort });
  renderPairRows(table.tBodies[0], rows, { selected: state.pair, pairLink, typeLink: (row) => vaccineLink(row.vax_type) });
  // The cautions of the same pairs in the same analysis's queue (latest window), filled when /triage answers.
  queueCautions(state, state.analysis).then((queue) => {
    if (!current()) return;
    fillPairCautions(table.tBodies[0], rows, queue && queue.map, (list) => cautionCell(list, queue.table));
  }, () => undefined);
  setTableContext(table, `Rows of the ${analysisWords(state.analysis)}. ${N_SUM}`);
  const pages = Math.max(1, Math.ceil(total / state.limit));
  const first = params.offset + 1;
  const last = params.offset + rows.length;
  const where = isDefault(state.analysis) ? '' : ` in the analysis “${state.analysis}”`;
  $('total').textContent = `${total} pair${total === 1 ? '' : 's'} match ${describeQuery(state)}${where}.`;
  $('page-info').textContent = rows.length
    ? `Page ${state.page} of ${pages} (rows ${first}–${last} of ${total})`
    : `Page ${state.page} of ${pages}: past the last row`;
  $('prev').disabled = state.page <= 1;
  $('next').disabled = state.page >= pages;
  $('download-csv').href = signalsUrl({ ...params, format: 'csv' }, path);
  const reports = $('query-reports');
  reports.href = hrefOf(reportsState);
  reports.textContent = `Reports naming ${describeQuery(state)}`;
}

function onSort(key) {
  const order = state.sort === key && state.order === 'desc' ? 'asc' : 'desc';
  navigate({ sort: key, order, page: 1 });
}

const VIEW_IDS = { series: 'series-view', compare: 'compare-view', reports: 'reports-view', class: 'class-view' };

async function renderDetail(current) {
  const queryReports = showsQueryReports(state);
  if (!state.pair && !queryReports) {
    $('detail').hidden = true;
    for (const id of ['plot', 'class-plot', 'compare-plot']) clearPlot($(id));
    return;
  }
  $('detail').hidden = false;
  $('detail-error').hidden = true;
  const view = queryReports ? 'reports' : state.view;
  const subject = state.pair ? `${state.pair.vaccine} and ${state.pair.event}` : describeQuery(state);
  $('detail-title').textContent = state.pair ? `${state.pair.vaccine} — ${state.pair.event}` : `Reports naming ${describeQuery(state)}`;
  // Event groups: a group pair's terms, a term pair's groups (public/js/groups.js); not awaited before the view.
  $('detail-groups').hidden = true;
  if (state.pair) renderGroupContext($('detail-groups'), { current, analysis: state.analysis, vaccine: state.pair.vaccine, event: state.pair.event, pairLinkIn }).catch(() => undefined);
  for (const [name, id] of Object.entries(VIEW_IDS)) {
    const button = $(`view-${name}`);
    button.setAttribute('aria-pressed', String(view === name));
    button.hidden = queryReports && name !== 'reports';
    $(id).hidden = view !== name;
  }
  const onError = (result) => showError('detail-error', result);
  if (view === 'reports') {
    $('reports-body').hidden = true;
    $('text-input').value = state.text;
    $('duplicates-collapse').checked = state.duplicates === 'collapse';
    renderRange(state, null);
    await renderReports({
      current, params: casesParams(state), path: casesPathOf(state.analysis), subject,
      vaccineLink, eventLink, onError, onMeta: showMeta, onPage: (rpage) => openView({ rpage }, 'listing-title'),
      onAnswer: (body) => { if (current()) renderRange(state, body); },
    });
    return;
  }
  const ctx = {
    current, path: signalsPathOf(state.analysis), vaccine: state.pair.vaccine, event: state.pair.event,
    selected: state.pair, onError, onMeta: showMeta, pairLink, analysis: state.analysis, window: state.window,
  };
  if (view === 'series') await Promise.all([renderSeries(ctx), renderInteractions(ctx)]);
  else if (view === 'class') await renderClass(ctx);
  else await renderCompare({ current, vaccine: state.pair.vaccine, event: state.pair.event, selected: state.analysis });
}

async function init() {
  $('detail-title').tabIndex = -1;
  $('results-title').tabIndex = -1;
  $('listing-title').tabIndex = -1;
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    const mode = $('search-mode').value;
    const text = $('search-text').value.trim();
    navigate({ q: mode === 'q' ? text : '', vaccine: mode === 'vaccine' ? text : '', event: mode === 'event' ? text : '', page: 1, pair: null, view: 'series', rpage: 1, text: '' });
  });
  $('analysis').addEventListener('change', () => {
    const name = $('analysis').value;
    navigate({ analysis: name === defaultAnalysis() ? '' : name, page: 1, rpage: 1 });
  });
  $('prev').addEventListener('click', () => navigate({ page: Math.max(1, state.page - 1) }));
  $('next').addEventListener('click', () => navigate({ page: state.page + 1 }));
  for (const view of Object.keys(VIEW_IDS)) $(`view-${view}`).addEventListener('click', () => navigate({ view, rpage: 1 }));
  $('text-form').addEventListener('submit', (e) => {
    e.preventDefault();
    openView({ text: $('text-input').value.trim(), rpage: 1 }, 'listing-title');
  });
  $('duplicates-collapse').addEventListener('change', () => {
    navigate({ duplicates: $('duplicates-collapse').checked ? 'collapse' : 'keep', rpage: 1 });
  });
  $('query-reports').addEventListener('click', (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    openView({ pair: null, view: 'reports', rpage: 1 }, 'detail-title');
  });
  $('range-form').addEventListener('submit', (e) => {
    e.preventDefault();
    openView({ from: $('range-from').value.trim(), to: $('range-to').value.trim(), rpage: 1 }, 'listing-title');
  });
  $('products-page-link').addEventListener('click', (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    openView({ productsPage: true, tpage: 1 }, 'products-page-title');
  });
  $('products-back').addEventListener('click', (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    openView({ productsPage: false }, 'triage-title');
  });
  $('range-all').addEventListener('click', () => navigate({ from: '', to: '', rpage: 1 }));
  $('range-window').addEventListener('click', () => navigate({ from: windowStart(state.window), to: state.window, rpage: 1 }));
  const close = () => navigate({ pair: null, view: 'series', rpage: 1, text: '', window: '', from: '', to: '' });
  $('close-detail').addEventListener('click', close);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !$('detail').hidden && !(e.target instanceof window.HTMLInputElement)) close();
  });
  window.addEventListener('popstate', () => {
    state = stateFromSearch(location.search);
    render();
  });
  setupSuggestions($('search-text'), $('search-mode'), $('suggestions'));
  const failed = await loadAnalyses();
  if (failed) analysesError = failed.error;
  await render();
}

init();
