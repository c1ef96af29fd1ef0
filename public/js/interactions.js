// The pair view's "Co-reported vaccines" panel (docs/interactions.md), a disclosure loaded when
// opened: the pair's Omega interactions in a window the reader picks (the latest by default; GET
// /interactions, filtered to the pair's vaccine and event), each with its Omega series over every
// stored window (GET /interactions/series: how many windows signal, the peak with its counts), and
// its maskers (GET /masking), with the caveat the API sends. Built with DOM calls only.
import { apiUrl, getJson } from './api.js';

const $ = (id) => document.getElementById(id);

/** Number formatting: 3 significant digits, or an em dash for null. */
const fmt = (x) => (typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : '—');

/** Fills `table` with a header row and one row per item (cells from `columns`: [title, value of the item]). */
function fillTable(table, columns, items) {
  table.tHead.replaceChildren();
  table.tBodies[0].replaceChildren();
  const head = table.tHead.insertRow();
  for (const [title] of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = title;
    head.appendChild(th);
  }
  for (const item of items) {
    const row = table.tBodies[0].insertRow();
    for (const [, value] of columns) row.insertCell().textContent = value(item);
  }
  table.hidden = items.length === 0;
}

/** The pair the panel shows or will show when opened, and the pair (and window) it last loaded. */
let wanted = null;
let loaded = '';

/** Partners of the chosen window whose Omega series is asked (the first ones, by Omega025). */
export const SERIES_ASKED = 5;

/**
 * What an Omega series says over time (GET /interactions/series `series`): the stored windows,
 * those that signal, and the signalling window with the highest Omega (or, without one, null).
 * @returns {{stored: number, signal: number, peak: object|null}}
 */
export function seriesSummary(windows) {
  const stored = windows.filter((w) => w && w.stored);
  const signal = stored.filter((w) => w.signal);
  const peak = signal.reduce((best, w) => (best === null || Number(w.omega) > Number(best.omega) ? w : best), null);
  return { stored: stored.length, signal: signal.length, peak };
}

/** The series' words: `signals in 31 of 46 stored windows; peak 2004Q4: 27 of 895 co-reports, 6.94 expected, Omega 1.89 [1.29, 2.38]`. */
export function seriesText(summary) {
  if (summary.signal === 0) return `no signal in any of ${summary.stored} stored windows`;
  const p = summary.peak;
  return `signals in ${summary.signal} of ${summary.stored} stored windows; peak ${p.quarter}: ${p.n111} of ${p.n11} co-reports, ${fmt(p.e111)} expected, Omega ${fmt(p.omega)} [${fmt(p.omega025)}, ${fmt(p.omega975)}]`;
}

/** Fills the window picker with the quarters of the pair's series (once per pair), `chosen` selected. */
async function fillWindows(ctx, chosen) {
  const select = $('interactions-window');
  if (select.dataset.pair !== `${ctx.vaccine}\u0000${ctx.event}`) {
    select.dataset.pair = `${ctx.vaccine}\u0000${ctx.event}`;
    const series = await getJson(apiUrl('/signals', { vaccine: ctx.vaccine, event: ctx.event, format: 'series' }));
    const quarters = series.ok && series.body && Array.isArray(series.body.quarters) ? series.body.quarters.map((q) => q.quarter).filter(Boolean) : [];
    const latest = document.createElement('option');
    latest.value = '';
    latest.textContent = 'the latest';
    select.replaceChildren(latest, ...quarters.slice().reverse().map((q) => {
      const option = document.createElement('option');
      option.value = q;
      option.textContent = q;
      return option;
    }));
  }
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : '';
}

/** Loads the panel for the wanted pair (once per pair). */
async function load() {
  const ctx = wanted;
  const quarter = ctx ? ctx.quarter ?? '' : '';
  const key = ctx ? `${ctx.vaccine}\u0000${ctx.event}\u0000${quarter}` : '';
  if (!ctx || key === loaded) return;
  loaded = key;
  const { vaccine, event } = ctx;
  $('interactions-note').textContent = 'Loading…';
  const [interactions, masking] = await Promise.all([
    getJson(apiUrl('/interactions', { vaccine, event, quarter, limit: 20 })),
    getJson(apiUrl('/masking', { vaccine, event, quarter, limit: 5 })),
    fillWindows(ctx, quarter),
  ]);
  if (loaded !== key) return; // another pair was asked for meanwhile
  // Each partner's Omega series over every stored window.
  const partners = interactions.ok && Array.isArray(interactions.body.interactions) ? interactions.body.interactions.slice(0, SERIES_ASKED) : [];
  const series = await Promise.all(partners.map((r) => getJson(apiUrl('/interactions/series', { vaccine1: r.vaccine1, vaccine2: r.vaccine2, event }))));
  if (loaded !== key) return;
  const overTime = new Map(partners.map((r, i) => [r, series[i].ok && Array.isArray(series[i].body.series) ? seriesText(seriesSummary(series[i].body.series)) : `series unavailable: ${series[i].error ?? 'error'}`]));
  const notes = [];
  if (interactions.ok) {
    const body = interactions.body;
    const rows = Array.isArray(body.interactions) ? body.interactions : [];
    notes.push(body.caveat);
    $('interactions-note').textContent = rows.length
      ? `${body.total} Omega signal${body.total === 1 ? '' : 's'} (Omega025 > 0) of ${vaccine} given with another vaccine, for “${event}”, window ending ${body.quarter} (${body.analysis} analysis; pairs co-reported on at least ${body.min_co_reports} reports).`
      : `No Omega signal of ${vaccine} with another vaccine for “${event}” in the window ending ${body.quarter ?? '—'}; pick another window above (a pair with a second vaccine may signal in earlier windows: docs/interactions.md).`;
    fillTable($('interactions-table'), [
      ['Given with', (r) => (r.vaccine1 === vaccine ? r.vaccine2 : r.vaccine1)], ['Reports of all three', (r) => String(r.n111)],
      ['Expected', (r) => fmt(r.e111)], ['Co-reports', (r) => String(r.n11)], ['Omega', (r) => fmt(r.omega)], ['Omega025', (r) => fmt(r.omega025)],
      ['Over time (every stored window)', (r) => overTime.get(r) ?? `not asked (the first ${SERIES_ASKED} only)`],
    ], rows);
  } else {
    $('interactions-note').textContent = `Interactions unavailable: ${interactions.error ?? 'error'}`;
    fillTable($('interactions-table'), [], []);
  }
  if (masking.ok) {
    const body = masking.body;
    const maskers = Array.isArray(body.maskers) ? body.maskers : [];
    const u = body.unmasked;
    $('masking-note').textContent = `Window ending ${body.quarter}: PRR ${fmt(body.prr)}, EB05 ${fmt(body.eb05)} over ${body.n} reports.`
      + (u ? ` Without the reports of ${u.without}: PRR ${fmt(u.prr)}, EB05 ${fmt(u.eb05)} over ${u.n} reports.` : '');
    fillTable($('masking-table'), [
      ['Masker', (m) => m.vaccine], ['Its reports', (m) => String(m.reports)], ['With this event', (m) => String(m.with_event)],
      ['PRR without it', (m) => fmt(m.prr_without)], ['Masking ratio', (m) => fmt(m.masking_ratio)],
    ], maskers);
    if (!notes.includes(body.caveat)) notes.push(body.caveat);
  } else {
    $('masking-note').textContent = `Masking unavailable: ${masking.error ?? 'error'}`;
    fillTable($('masking-table'), [], []);
  }
  $('interactions-caveat').textContent = notes.filter(Boolean).join(' ');
}

/**
 * Prepares the panel for a pair: its two requests are made when the panel is opened (now, when
 * it is open), once per pair, so a pair's view costs nothing more until asked.
 * @param {{current: () => boolean, vaccine: string, event: string}} ctx
 */
export async function renderInteractions(ctx) {
  const panel = $('interactions-panel');
  if (!panel) return;
  wanted = { ...ctx, quarter: ctx.window || '' };
  if (!panel.dataset.listening) {
    panel.dataset.listening = '1';
    panel.addEventListener('toggle', () => { if (panel.open) void load(); });
    $('interactions-window-form').addEventListener('submit', (event) => {
      event.preventDefault();
      if (wanted) wanted = { ...wanted, quarter: $('interactions-window').value };
      void load();
    });
  }
  if (panel.open) await load();
  else {
    loaded = '';
    for (const id of ['interactions-note', 'masking-note', 'interactions-caveat']) $(id).textContent = '';
    for (const id of ['interactions-table', 'masking-table']) fillTable($(id), [], []);
  }
}
