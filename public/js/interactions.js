// The pair view's "Co-reported vaccines" panel (docs/interactions.md), a disclosure loaded when
// opened: the pair's Omega interactions in the latest window (GET /interactions, filtered to the
// pair's vaccine and event) and its maskers (GET /masking), with the caveat the API sends. Built
// with DOM calls only.
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

/** The pair the panel shows or will show when opened, and the pair it last loaded. */
let wanted = null;
let loaded = '';

/** Loads the panel for the wanted pair (once per pair). */
async function load() {
  const ctx = wanted;
  const key = ctx ? `${ctx.vaccine}\u0000${ctx.event}` : '';
  if (!ctx || key === loaded) return;
  loaded = key;
  const { vaccine, event } = ctx;
  $('interactions-note').textContent = 'Loading…';
  const [interactions, masking] = await Promise.all([
    getJson(apiUrl('/interactions', { vaccine, event, limit: 20 })),
    getJson(apiUrl('/masking', { vaccine, event, limit: 5 })),
  ]);
  if (loaded !== key) return; // another pair was asked for meanwhile
  const notes = [];
  if (interactions.ok) {
    const body = interactions.body;
    const rows = Array.isArray(body.interactions) ? body.interactions : [];
    notes.push(body.caveat);
    $('interactions-note').textContent = rows.length
      ? `${body.total} Omega signal${body.total === 1 ? '' : 's'} (Omega025 > 0) of ${vaccine} given with another vaccine, for “${event}”, window ending ${body.quarter} (${body.analysis} analysis; pairs co-reported on at least ${body.min_co_reports} reports).`
      : `No Omega signal of ${vaccine} with another vaccine for “${event}” in the window ending ${body.quarter ?? '—'}.`;
    fillTable($('interactions-table'), [
      ['Given with', (r) => (r.vaccine1 === vaccine ? r.vaccine2 : r.vaccine1)], ['Reports of all three', (r) => String(r.n111)],
      ['Expected', (r) => fmt(r.e111)], ['Co-reports', (r) => String(r.n11)], ['Omega', (r) => fmt(r.omega)], ['Omega025', (r) => fmt(r.omega025)],
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
  wanted = ctx;
  if (!panel.dataset.listening) {
    panel.dataset.listening = '1';
    panel.addEventListener('toggle', () => { if (panel.open) void load(); });
  }
  if (panel.open) await load();
  else {
    loaded = '';
    for (const id of ['interactions-note', 'masking-note', 'interactions-caveat']) $(id).textContent = '';
    for (const id of ['interactions-table', 'masking-table']) fillTable($(id), [], []);
  }
}
