// The Compare analyses view of a pair: its quarterly EB05 in every analysis of the store on
// one plot (the EB05-EB95 band of the selected analysis only, so that it stays legible), and
// per analysis the pair's row (peak EB05 over flagged quarters, n, quarters flagged) from
// /analyses/NAME/signals. Analyses that do not serve the pair say so. A type-level analysis
// (`items: vax_type_code`, e.g. `types`) counts VAERS VAX_TYPE codes, not products: a product is
// looked up there by its code (ROTAVIRUS (ROTASHIELD) -> RV, from GET /vaccines), and a code in a
// product-level analysis by its products (the one with the highest EB05 is shown).
import { getSignals, getVaccines } from './api.js';
import { analysisInfo, analysisName, listAnalyses, signalsPathOf } from './analyses.js';
import { drawComparePlot, clearPlot } from './plot.js';
import { el, formatNumber } from './table.js';
import { N_SUM, setTableContext } from './context.js';

/** The sentence on what stratification changes. */
export const STRATIFICATION_NOTE = 'Stratified analyses compute the expected count E within strata of sex × age group × year of report and add them up, '
  + 'so a signal that only reflects who receives the vaccine (infant vaccines share infant events) shrinks; '
  + 'subset analyses (serious, deaths, age groups) use only their reports, with stratified E.';

/** Items counted by an analysis's listing entry: products, or VAX_TYPE codes. */
function isTypeLevel(info) {
  return Boolean(info) && info.items === 'vax_type_code';
}

let vaccineListing = null;

/** GET /vaccines of the default analysis (products with their `vax_type_codes`), once per page; [] when it fails. */
async function productCodes() {
  if (!vaccineListing) {
    const answer = await getVaccines('/vaccines');
    vaccineListing = answer.ok && answer.body && Array.isArray(answer.body.vaccines) ? answer.body.vaccines : null;
    if (!vaccineListing) return [];
  }
  return vaccineListing;
}

/**
 * The vaccine names to ask of an analysis for the page's pair vaccine: itself at the same level;
 * a product's VAX_TYPE codes in a type-level analysis; a code's products in a product-level one.
 */
async function namesIn(info, vaccine, pageTypeLevel) {
  if (isTypeLevel(info) === pageTypeLevel) return [vaccine];
  const listing = await productCodes();
  const names = pageTypeLevel
    ? listing.filter((v) => Array.isArray(v.vax_type_codes) && v.vax_type_codes.includes(vaccine)).map((v) => v.vaccine)
    : listing.filter((v) => v.vaccine === vaccine).flatMap((v) => (Array.isArray(v.vax_type_codes) ? v.vax_type_codes : []));
  return names.length ? [...new Set(names)] : [vaccine];
}

/**
 * The pair in one analysis, its vaccine translated to the analysis's items: the entry whose row has
 * the highest EB05 (else the first), with `asked` the vaccine name asked when it is not the page's.
 */
async function pairInAnalysis(info, vaccine, event, pageTypeLevel) {
  const names = await namesIn(info, vaccine, pageTypeLevel);
  const entries = await Promise.all(names.map((name) => pairIn(info, name, event)));
  const best = entries.filter((e) => e.row).sort((a, b) => (b.row.eb05 ?? -1) - (a.row.eb05 ?? -1))[0] ?? entries[0];
  return { ...best, asked: best.vaccine === vaccine ? null : best.vaccine, level: isTypeLevel(info) ? 'type' : 'product' };
}

/**
 * The pair in one analysis: its series and its pair row, or why it is absent.
 * @returns {Promise<{name: string, info: object, vaccine: string, quarters: object[]|null, row: object|null, error: string|null}>}
 */
async function pairIn(info, vaccine, event) {
  const path = signalsPathOf(info.name);
  const [series, rows] = await Promise.all([
    getSignals({ vaccine, event, format: 'series' }, undefined, path),
    getSignals({ vaccine, event, limit: 50 }, undefined, path),
  ]);
  const failed = [series, rows].find((r) => !r.ok);
  if (failed) return { name: info.name, info, vaccine, quarters: null, row: null, error: failed.error };
  const body = series.body ?? {};
  const same = body.vaccine === vaccine && body.event === event && Array.isArray(body.quarters) && body.quarters.length > 0;
  const row = (Array.isArray(rows.body) ? rows.body : []).find((r) => r.vaccine === vaccine && r.event === event) ?? null;
  return { name: info.name, info, vaccine, quarters: same ? body.quarters : null, row, error: null };
}

/** The flagged quarter (at least 2 methods) whose EB05 is the row's peak, or null. */
function peakQuarter(entry) {
  if (!entry.row || !entry.quarters || entry.row.eb05 === null || entry.row.eb05 === undefined) return null;
  const q = entry.quarters.find((x) => x.n_methods_flagged >= 2 && x.eb05 === entry.row.eb05);
  return q ? q.quarter : null;
}

/**
 * Renders the Compare analyses view.
 * @param {{current: () => boolean, vaccine: string, event: string, selected: string}} ctx
 *   `selected`: the page's analysis ('' = default), whose band is drawn
 */
export async function renderCompare(ctx) {
  const $ = (id) => document.getElementById(id);
  const analyses = listAnalyses();
  const pageTypeLevel = isTypeLevel(analysisInfo(ctx.selected));
  const entries = await Promise.all(analyses.map((info) => pairInAnalysis(info, ctx.vaccine, ctx.event, pageTypeLevel)));
  if (!ctx.current()) return;
  const selected = analysisName(ctx.selected);
  const present = entries.filter((e) => e.quarters);
  const translated = entries.filter((e) => e.asked).map((e) => `${e.name}: ${e.asked}`);
  $('compare-note').textContent = `${present.length} of ${entries.length} analyses serve ${ctx.vaccine} × ${ctx.event}`
    + `${translated.length ? ` (type-level and product-level analyses count different items; asked as ${translated.join(', ')})` : ''}. ${STRATIFICATION_NOTE}`;
  renderCompareTable($('compare-table'), entries, selected);
  const plot = $('compare-plot');
  plot.hidden = !present.length;
  if (!present.length) {
    clearPlot(plot);
    delete plot.dataset.drawn;
    $('compare-caption').textContent = 'No analysis has quarters for this pair.';
    return;
  }
  const drawn = drawComparePlot(plot, present.map((e) => ({ name: e.name, quarters: e.quarters })), {
    band: selected, title: `EB05 per quarter of ${ctx.vaccine} — ${ctx.event}, by analysis`,
  });
  plot.dataset.drawn = 'compare';
  plot.dataset.lines = String(drawn.lines);
  const absent = entries.filter((e) => !e.quarters).map((e) => e.name);
  $('compare-caption').textContent = [
    `One EB05 line per analysis that serves the pair (${present.map((e) => e.name).join(', ')});`,
    drawn.band ? `shaded: the EB05 to EB95 band of the selected analysis “${selected}” (thin line: its EB95);` : `the selected analysis “${selected}” does not serve the pair, so no band is drawn;`,
    'dashed reference lines at 1 and 2.',
    drawn.log ? 'The y axis is on a log scale (values reach 10 or more).' : '',
    absent.length ? `Not drawn (the pair is not served there): ${absent.join(', ')}.` : '',
  ].filter(Boolean).join(' ');
}

/** Per analysis: the pair row's peak EB05 and its quarter, n, quarters flagged, or its absence. */
function renderCompareTable(table, entries, selected) {
  const head = el('tr');
  for (const [label, num] of [['Analysis', false], ['Peak EB05 (flagged quarters)', true], ['Quarter of the peak', false], ['n', true],
    ['Quarters flagged', true], ['First – latest flagged quarter', false]]) head.append(el('th', label, { scope: 'col', class: num ? 'num' : null }));
  table.tHead.replaceChildren(head);
  const rows = entries.map((entry) => {
    const tr = el('tr', null, { 'data-analysis': entry.name, 'aria-current': entry.name === selected ? 'true' : null });
    const name = el('th', null, { scope: 'row', title: entry.info.description ?? null });
    name.append(el('span', entry.info.title ? `${entry.info.title} ` : ''), el('code', entry.name));
    if (entry.asked) name.append(el('span', ` as ${entry.asked}`, { class: 'asked' }));
    tr.append(name);
    if (entry.error) {
      tr.append(el('td', `The API answered: ${entry.error}`, { colspan: '5', class: 'absent' }));
    } else if (!entry.row) {
      tr.append(el('td', `Not served in this analysis: no quarter of ${entry.vaccine} × its event is flagged by at least two methods in its reports.`, { colspan: '5', class: 'absent' }));
    } else {
      const r = entry.row;
      tr.append(el('td', formatNumber(r.eb05), { class: 'num' }), el('td', peakQuarter(entry) ?? '—'), el('td', formatNumber(r.n), { class: 'num' }),
        el('td', formatNumber(r.quarters_flagged), { class: 'num' }), el('td', `${r.first_quarter ?? '—'} – ${r.latest_quarter ?? '—'}`));
    }
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
  setTableContext(table, `One row per analysis (each its own items: products, or VAX_TYPE codes in a type-level analysis). ${N_SUM}`);
}
