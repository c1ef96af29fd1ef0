// The signal explorer page (issue 6): search, a sortable paged table of pairs, the quarterly
// series of a selected pair, and the class view. The URL holds the state; every datum comes
// from the public /signals API (spec 4.1) and is written with textContent.
import { getSignals, signalsUrl } from './api.js';
import { stateFromSearch, searchFromState, hasQuery, listParams, describeQuery } from './state.js';
import { renderPairHead, renderPairRows, renderSeriesTable } from './table.js';
import { drawSeriesPlot, drawClassPlot, clearPlot } from './plot.js';
import { rememberNames, setupSuggestions } from './suggest.js';

const $ = (id) => document.getElementById(id);

/** A vaccine name that exists nowhere: its empty 200 answer (spec 7) carries the headers. */
const PROBE_VACCINE = 'explorer probe: no such vaccine';
/** Products plotted at most in the class view. */
const MAX_CLASS_PLOTS = 10;

let state = stateFromSearch(location.search);
let generation = 0;
let probed = false;

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
  const url = `${location.pathname}${searchFromState(state)}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  return render();
}

function syncForm() {
  const mode = state.q ? 'q' : state.vaccine ? 'vaccine' : state.event ? 'event' : $('search-mode').value;
  $('search-mode').value = mode;
  $('search-text').value = mode === 'q' ? state.q : mode === 'vaccine' ? state.vaccine : state.event;
}

/** Once per page: the headers of an empty answer, when no answer has given them yet. */
async function probeMeta() {
  probed = true;
  const result = await getSignals({ vaccine: PROBE_VACCINE, limit: 1 });
  showMeta(result.headers, result.hypothesis);
}

async function render() {
  const gen = ++generation;
  setStatus('loading');
  syncForm();
  $('error').hidden = true;
  $('empty').hidden = true;
  $('intro').hidden = hasQuery(state);
  if (!hasQuery(state)) {
    $('results').hidden = true;
    $('detail').hidden = true;
    if (!probed) await probeMeta();
  } else {
    await Promise.all([renderList(gen), renderDetail(gen)]);
  }
  if (!probed && $('reports-through').textContent === '—') await probeMeta();
  if (gen === generation) setStatus('ready');
}

async function renderList(gen) {
  const params = listParams(state);
  const result = await getSignals(params);
  if (gen !== generation) return;
  if (!result.ok) {
    $('results').hidden = true;
    showError('error', result);
    return;
  }
  showMeta(result.headers);
  const rows = Array.isArray(result.body) ? result.body : [];
  rememberNames(rows);
  const total = result.headers.total ?? rows.length;
  if (total === 0) {
    $('results').hidden = true;
    $('empty').textContent = `No pairs match ${describeQuery(state)}. Try another name, a vaccine type, or a longer part of an event term.`;
    $('empty').hidden = false;
    return;
  }
  $('results').hidden = false;
  const table = $('pairs');
  renderPairHead(table.tHead, { sort: state.sort, order: state.order, onSort, actions: true });
  renderPairRows(table.tBodies[0], rows, { selected: state.pair, onSeries: (row) => openPair(row, 'series'), onClass: (row) => openPair(row, 'class') });
  const pages = Math.max(1, Math.ceil(total / state.limit));
  const first = params.offset + 1;
  const last = params.offset + rows.length;
  $('total').textContent = `${total} pair${total === 1 ? '' : 's'} match ${describeQuery(state)}.`;
  $('page-info').textContent = rows.length
    ? `Page ${state.page} of ${pages} (rows ${first}–${last} of ${total})`
    : `Page ${state.page} of ${pages}: past the last row`;
  $('prev').disabled = state.page <= 1;
  $('next').disabled = state.page >= pages;
  $('download-csv').href = signalsUrl({ ...params, format: 'csv' });
}

function onSort(key) {
  const order = state.sort === key && state.order === 'desc' ? 'asc' : 'desc';
  navigate({ sort: key, order, page: 1 });
}

function openPair(row, view) {
  navigate({ pair: { vaccine: row.vaccine, event: row.event }, view }).then(() => $('detail-title').focus());
}

async function renderDetail(gen) {
  if (!state.pair) {
    $('detail').hidden = true;
    clearPlot($('plot'));
    clearPlot($('class-plot'));
    return;
  }
  const { vaccine, event } = state.pair;
  $('detail').hidden = false;
  $('detail-error').hidden = true;
  $('detail-title').textContent = `${vaccine} — ${event}`;
  $('view-series').setAttribute('aria-pressed', String(state.view === 'series'));
  $('view-class').setAttribute('aria-pressed', String(state.view === 'class'));
  $('series-view').hidden = state.view !== 'series';
  $('class-view').hidden = state.view !== 'class';
  if (state.view === 'series') await renderSeries(gen, vaccine, event);
  else await renderClass(gen, vaccine, event);
}

/**
 * Fetches the detail view's answer (series or class). Returns its body, or null when a newer
 * view has started (`gen` is stale) or the API answered an error (then shown, plot cleared).
 */
async function fetchDetail(gen, params, plotId) {
  const result = await getSignals(params);
  if (gen !== generation) return null;
  if (!result.ok) {
    clearPlot($(plotId));
    showError('detail-error', result);
    return null;
  }
  const body = result.body ?? {};
  showMeta({ ...result.headers, through: body.reports_through ?? result.headers.through }, body.hypothesis);
  return body;
}

async function renderSeries(gen, vaccine, event) {
  const params = { vaccine, event, format: 'series' };
  $('download-series').href = signalsUrl(params);
  const body = await fetchDetail(gen, params, 'plot');
  if (!body) return;
  const quarters = Array.isArray(body.quarters) ? body.quarters : [];
  const notes = [];
  if (body.vaccine !== vaccine || body.event !== event) {
    notes.push(`The API answered with the pair ${body.vaccine ?? '—'} / ${body.event ?? '—'} (the highest peak EB05 of ${body.n_pairs_matched ?? 'several'} matching pairs).`);
  }
  if (typeof body.note === 'string' && body.note) notes.push(body.note);
  if (!quarters.length) notes.push('This pair has no quarters in the data.');
  $('series-note').textContent = notes.join(' ');
  if (!quarters.length) {
    clearPlot($('plot'));
    $('plot-caption').textContent = '';
    renderSeriesTable($('series-table'), []);
    return;
  }
  const drawn = drawSeriesPlot($('plot'), { vaccine: body.vaccine ?? vaccine, event: body.event ?? event, quarters });
  $('plot').dataset.drawn = 'series';
  const parts = [
    'Shaded blue: EB05 to EB95 per quarter; dark line: EB50 (quarterly median, not an EBGM);',
    drawn.hasEwma ? 'orange dashed: EWMA of EB05;' : 'EWMA of EB05: not in this series;',
    `red dots: ${drawn.flagged} quarter${drawn.flagged === 1 ? '' : 's'} flagged by at least 2 methods;`,
    'dashed reference lines at 1 and 2;',
    drawn.covidInRange ? 'yellow band: the COVID-19 era 2021Q1–2022Q4.' : 'the COVID-19 era (2021Q1–2022Q4, shaded when in range) lies outside these quarters.',
  ];
  if (drawn.log) parts.push('The y axis is on a log scale (values reach 10 or more).');
  $('plot-caption').textContent = parts.join(' ');
  renderSeriesTable($('series-table'), quarters);
}

async function renderClass(gen, vaccine, event) {
  const body = await fetchDetail(gen, { vaccine, event, format: 'class', limit: 500 }, 'class-plot');
  if (!body) return;
  const pairs = (Array.isArray(body.pairs) ? body.pairs : []).filter((p) => p.event === event)
    .sort((a, b) => String(a.vaccine).localeCompare(String(b.vaccine)));
  const types = Array.isArray(body.vax_type) ? body.vax_type.join(', ') : String(body.vax_type ?? '');
  const products = Array.isArray(body.vaccines) ? body.vaccines : [];
  $('class-note').textContent = `Vaccine type ${types}: ${products.length} product${products.length === 1 ? '' : 's'} (${products.join('; ')}); `
    + `${pairs.length} with a flagged pair for “${event}”.`;
  const table = $('class-table');
  renderPairHead(table.tHead, { actions: true });
  renderPairRows(table.tBodies[0], pairs, { selected: state.pair, onSeries: (row) => openPair(row, 'series') });
  const shown = pairs.slice(0, MAX_CLASS_PLOTS);
  const series = await Promise.all(shown.map((p) => getSignals({ vaccine: p.vaccine, event: p.event, format: 'series' })));
  if (gen !== generation) return;
  const productSeries = series.filter((r) => r.ok && r.body && Array.isArray(r.body.quarters))
    .map((r) => ({ vaccine: r.body.vaccine, quarters: r.body.quarters }));
  if (productSeries.length) {
    const drawn = drawClassPlot($('class-plot'), productSeries, `EB05 of every ${types} product — ${event}`);
    $('class-plot').dataset.drawn = 'class';
    $('class-plot-caption').textContent = `EB05 per quarter for each product side by side${pairs.length > MAX_CLASS_PLOTS ? ` (first ${MAX_CLASS_PLOTS})` : ''}; dashed reference lines at 1 and 2${drawn.log ? '; log scale' : ''}.`;
  } else {
    clearPlot($('class-plot'));
    $('class-plot-caption').textContent = 'No product of this type has a series for this event.';
  }
}

function init() {
  $('detail-title').tabIndex = -1;
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    const mode = $('search-mode').value;
    const text = $('search-text').value.trim();
    navigate({ q: mode === 'q' ? text : '', vaccine: mode === 'vaccine' ? text : '', event: mode === 'event' ? text : '', page: 1, pair: null, view: 'series' });
  });
  $('prev').addEventListener('click', () => navigate({ page: Math.max(1, state.page - 1) }));
  $('next').addEventListener('click', () => navigate({ page: state.page + 1 }));
  $('view-series').addEventListener('click', () => navigate({ view: 'series' }));
  $('view-class').addEventListener('click', () => navigate({ view: 'class' }));
  $('close-detail').addEventListener('click', () => navigate({ pair: null, view: 'series' }));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.pair && !(e.target instanceof window.HTMLInputElement)) navigate({ pair: null, view: 'series' });
  });
  window.addEventListener('popstate', () => {
    state = stateFromSearch(location.search);
    render();
  });
  setupSuggestions($('search-text'), $('search-mode'), $('suggestions'));
  render();
}

init();
