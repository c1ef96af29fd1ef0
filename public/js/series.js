// The Quarterly series and Class views of a pair (format=series and format=class of the
// selected analysis's signals path).
import { getBoundQuarters, getSignals, signalsUrl } from './api.js';
import { drawSeriesPlot, drawClassPlot, clearPlot } from './plot.js';
import { formatNumber, renderPairHead, renderPairRows, renderSeriesTable } from './table.js';
import { analysisWords, N_SUM, nWindow, setTableContext } from './context.js';

const $ = (id) => document.getElementById(id);

/** Products plotted at most in the class view. */
const MAX_CLASS_PLOTS = 10;

/**
 * @typedef {object} DetailContext
 * @property {() => boolean} current  false once a newer render started
 * @property {string} path  the analysis's signals path
 * @property {string} vaccine
 * @property {string} event
 * @property {{vaccine: string, event: string}|null} selected
 * @property {(result: object) => void} onError
 * @property {(headers: object, hypothesis?: string) => void} onMeta
 * @property {(row: object, text: string, attrs?: object) => HTMLAnchorElement} pairLink
 * @property {string} [analysis]  the page's analysis ('' = the default)
 * @property {string} [window]  the triage window the pair was opened from (its last quarter), or ''
 */

/**
 * Fetches the detail view's answer (series or class). Returns its body, or null when a newer
 * view has started or the API answered an error (then shown, plot cleared).
 * @param {DetailContext} ctx
 */
async function fetchDetail(ctx, params, plotId) {
  const result = await getSignals(params, undefined, ctx.path);
  if (!ctx.current()) return null;
  if (!result.ok) {
    clearPlot($(plotId));
    ctx.onError(result);
    return null;
  }
  const body = result.body ?? {};
  ctx.onMeta({ ...result.headers, through: body.reports_through ?? result.headers.through }, body.hypothesis);
  return body;
}

/** The Quarterly series view. @param {DetailContext} ctx */
export async function renderSeries(ctx) {
  const { vaccine, event } = ctx;
  const params = { vaccine, event, format: 'series' };
  $('download-series').href = signalsUrl(params, ctx.path);
  const [body, boundQuarters] = await Promise.all([fetchDetail(ctx, params, 'plot'), getBoundQuarters(ctx.path)]);
  if (!body || !ctx.current()) return;
  const quarters = Array.isArray(body.quarters) ? body.quarters : [];
  const notes = [];
  if (quarters.length && (body.vaccine !== vaccine || body.event !== event)) {
    notes.push(`The API answered with the pair ${body.vaccine ?? '—'} / ${body.event ?? '—'} (the highest peak EB05 of ${body.n_pairs_matched ?? 'several'} matching pairs).`);
  }
  if (typeof body.note === 'string' && body.note) notes.push(body.note);
  if (!quarters.length) notes.push('This pair has no quarters in this analysis (see Compare analyses).');
  if (ctx.window) {
    const q = quarters.find((x) => x.quarter === ctx.window);
    notes.push(q
      ? `Opened from the triage queue: in the window ending ${ctx.window} (${analysisWords(ctx.analysis)}) the pair has n ${formatNumber(q.n)} reports and EB05 ${formatNumber(q.eb05)}; its row is marked in the table below.`
      : `Opened from the triage queue's window ending ${ctx.window}, which has no row of this pair in the ${analysisWords(ctx.analysis)}.`);
  }
  $('series-note').textContent = notes.join(' ');
  $('plot').closest('figure').hidden = !quarters.length;
  if (!quarters.length) {
    clearPlot($('plot'));
    delete $('plot').dataset.drawn;
    $('plot-caption').textContent = '';
    renderSeriesTable($('series-table'), []);
    setTableContext($('series-table'), '');
    return;
  }
  const drawn = drawSeriesPlot($('plot'), { vaccine: body.vaccine ?? vaccine, event: body.event ?? event, quarters, boundQuarters });
  $('plot').dataset.drawn = 'series';
  const parts = [
    'Shaded blue: EB05 to EB95 per quarter; dark line: EB50 (quarterly median, not an EBGM);',
    drawn.hasEwma ? 'orange dashed: EWMA of EB05;' : 'EWMA of EB05: not in this series;',
    `red dots: ${drawn.flagged} quarter${drawn.flagged === 1 ? '' : 's'} flagged by at least 2 methods;`,
    `orange rings: ${drawn.bound} quarter${drawn.bound === 1 ? '' : 's'} whose window's prior fit sits on a bound of openEBGM's box (EB05 shrunk for that reason too; read PRR, ROR and IC beside it);`,
    'dashed reference lines at 1 and 2;',
    drawn.covidInRange ? 'yellow band: the COVID-19 era 2021Q1–2022Q4.' : 'the COVID-19 era (2021Q1–2022Q4, shaded when in range) lies outside these quarters.',
  ];
  if (drawn.log) parts.push('The y axis is on a log scale (values reach 10 or more).');
  $('plot-caption').textContent = parts.join(' ');
  renderSeriesTable($('series-table'), quarters, ctx.window);
  setTableContext($('series-table'), `Rows of the ${analysisWords(ctx.analysis)}. ${nWindow('')}`);
  if (ctx.window) $('series-table').closest('details').open = true;
}

/** The Class view: every product of the pair's vaccine type for its event. @param {DetailContext} ctx */
export async function renderClass(ctx) {
  const { vaccine, event } = ctx;
  const body = await fetchDetail(ctx, { vaccine, event, format: 'class', limit: 500 }, 'class-plot');
  if (!body) return;
  const pairs = (Array.isArray(body.pairs) ? body.pairs : []).filter((p) => p.event === event)
    .sort((a, b) => String(a.vaccine).localeCompare(String(b.vaccine)));
  const types = Array.isArray(body.vax_type) ? body.vax_type.join(', ') : String(body.vax_type ?? '');
  const products = Array.isArray(body.vaccines) ? body.vaccines : [];
  $('class-note').textContent = `Vaccine type ${types}: ${products.length} product${products.length === 1 ? '' : 's'} (${products.join('; ')}); `
    + `${pairs.length} with a flagged pair for “${event}”.`;
  const table = $('class-table');
  renderPairHead(table.tHead, {});
  renderPairRows(table.tBodies[0], pairs, { selected: ctx.selected, pairLink: ctx.pairLink });
  setTableContext(table, `Rows of the ${analysisWords(ctx.analysis)}. ${N_SUM}`);
  const shown = pairs.slice(0, MAX_CLASS_PLOTS);
  const series = await Promise.all(shown.map((p) => getSignals({ vaccine: p.vaccine, event: p.event, format: 'series' }, undefined, ctx.path)));
  if (!ctx.current()) return;
  const productSeries = series.filter((r) => r.ok && r.body && Array.isArray(r.body.quarters) && r.body.quarters.length)
    .map((r) => ({ vaccine: r.body.vaccine, quarters: r.body.quarters }));
  $('class-plot').hidden = !productSeries.length;
  if (productSeries.length) {
    const drawn = drawClassPlot($('class-plot'), productSeries, `EB05 of every ${types} product — ${event}`);
    $('class-plot').dataset.drawn = 'class';
    $('class-plot-caption').textContent = `EB05 per quarter for each product side by side${pairs.length > MAX_CLASS_PLOTS ? ` (first ${MAX_CLASS_PLOTS})` : ''}; dashed reference lines at 1 and 2${drawn.log ? '; log scale' : ''}.`;
  } else {
    clearPlot($('class-plot'));
    $('class-plot-caption').textContent = 'No product of this type has a series for this event.';
  }
}
