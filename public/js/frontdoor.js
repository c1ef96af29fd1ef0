// The front door (no query, no pair): first the triage queue of the latest window (./triage.js;
// left out when the server has none), then the vaccine types of the data from GET /vaccines, or
// /analyses/NAME/vaccines for another analysis than the default (grouped
// by vax_type: products, flagged and emerging pairs, latest report), and the emerging pairs
// (first flagged within the last four quarters) from /signals answers: the pairs of each type
// with emerging pairs, most recent first, kept where the API says `emerging: true`.
import { getSignals, getVaccines } from './api.js';
import { isDefault, signalsPathOf, vaccinesPathOf } from './analyses.js';
import { parseQuarter } from './plot.js';
import { el, formatNumber } from './table.js';
import { renderTriage } from './triage.js';
import { analysisWords, N_SUM, setTableContext } from './context.js';

/** Emerging pairs listed on the front door (the highest EB05 first). */
export const EMERGING_SHOWN = 20;
const PAGE = 500;

const vaccinesAnswers = new Map();
const emergingByAnalysis = new Map();

/** The vaccine listing of an analysis ('' = the default), once per page and analysis. */
async function vaccines(analysis) {
  const path = vaccinesPathOf(analysis);
  let answer = vaccinesAnswers.get(path);
  if (!answer || !answer.ok) {
    answer = await getVaccines(path);
    vaccinesAnswers.set(path, answer);
  }
  return answer;
}

/**
 * Groups /vaccines rows by vax_type, sorted by type; `names` maps each code to its long name (vax_type_names).
 * @returns {Array<{type: string, products: object[], codes: string[], names: Map<string, string>, flagged: number, emerging: number, latest: string|null}>}
 */
export function groupTypes(rows) {
  const types = new Map();
  for (const v of rows) {
    const type = typeof v.vax_type === 'string' && v.vax_type ? v.vax_type : v.vaccine;
    if (!types.has(type)) types.set(type, { type, products: [], codes: new Set(), names: new Map(), flagged: 0, emerging: 0, latest: null });
    const t = types.get(type);
    t.products.push(v);
    const codes = Array.isArray(v.vax_type_codes) ? v.vax_type_codes : [];
    const names = Array.isArray(v.vax_type_names) ? v.vax_type_names : [];
    codes.forEach((code, i) => {
      t.codes.add(code);
      if (typeof names[i] === 'string') t.names.set(code, names[i]);
    });
    t.flagged += Number(v.flagged_pairs) || 0;
    t.emerging += Number(v.emerging_pairs) || 0;
    if (typeof v.latest_quarter === 'string' && (t.latest === null || v.latest_quarter > t.latest)) t.latest = v.latest_quarter;
  }
  return [...types.values()].map((t) => ({ ...t, codes: [...t.codes].sort() })).sort((a, b) => a.type.localeCompare(b.type));
}

/**
 * The emerging rows of one type's pairs: its pairs most recent first (sort=latest), page by
 * page until the latest flagged quarter falls before `cutoff` (an emerging pair's latest
 * quarter is at or after its first, which is within the last four quarters).
 */
async function emergingOfType(type, path, cutoff) {
  const out = [];
  for (let offset = 0; ; offset += PAGE) {
    const result = await getSignals({ vaccine: type, sort: 'latest', order: 'desc', limit: PAGE, offset }, undefined, path);
    if (!result.ok) return { error: result.error, rows: out };
    const rows = Array.isArray(result.body) ? result.body : [];
    const emerging = rows.filter((r) => r.emerging === true);
    out.push(...emerging);
    const last = rows.length ? parseQuarter(rows[rows.length - 1].latest_quarter) : null;
    if (rows.length < PAGE || cutoff === null || last === null || last < cutoff) return { error: null, rows: out };
  }
}

/** Emerging pairs of an analysis (cached), deduplicated by vaccine and event. */
async function emergingPairs(types, analysis, through) {
  const key = analysis || '';
  if (emergingByAnalysis.has(key)) return emergingByAnalysis.get(key);
  const path = signalsPathOf(analysis);
  // The listing counts the emerging pairs of this analysis: only types with some are asked.
  const asked = types.filter((t) => t.emerging > 0);
  const last = parseQuarter(through);
  const cutoff = last === null ? null : last - 3;
  const answers = await Promise.all(asked.map((t) => emergingOfType(t.type, path, cutoff)));
  const seen = new Map();
  for (const answer of answers) for (const row of answer.rows) seen.set(`${row.vaccine}\u0000${row.event}`, row);
  const result = { rows: [...seen.values()], errors: answers.filter((a) => a.error).map((a) => a.error) };
  if (!result.errors.length) emergingByAnalysis.set(key, result);
  return result;
}

/**
 * Renders the front door.
 * @param {object} ctx
 * @param {() => boolean} ctx.current
 * @param {string} ctx.analysis  the page's analysis ('' = default)
 * @param {(name: string, text?: string) => HTMLAnchorElement} ctx.vaccineLink  link to a vaccine's (or type's) pairs
 * @param {(row: object, text: string, attrs?: object) => HTMLAnchorElement} ctx.pairLink
 * @param {(headers: object, hypothesis?: string) => void} ctx.onMeta
 */
export async function renderFrontDoor(ctx) {
  await Promise.all([renderTriage(ctx), renderListings(ctx)]);
}

/** The vaccine types and the emerging pairs (the front door without triage). */
async function renderListings(ctx) {
  const $ = (id) => document.getElementById(id);
  const answer = await vaccines(ctx.analysis);
  if (!ctx.current()) return;
  if (!answer.ok || !answer.body || !Array.isArray(answer.body.vaccines)) {
    $('front-error').textContent = `The list of vaccines could not be loaded: ${answer.error ?? 'GET /vaccines answered no list.'}`;
    $('front-error').hidden = false;
    $('types-section').hidden = true;
    $('emerging-section').hidden = true;
    return;
  }
  $('front-error').hidden = true;
  const body = answer.body;
  ctx.onMeta({ ...answer.headers, through: body.reports_through ?? answer.headers.through }, body.hypothesis);
  const types = groupTypes(body.vaccines);
  renderTypes(types, body, ctx);
  $('types-section').hidden = false;
  $('emerging-section').hidden = false;
  $('emerging-summary').textContent = 'Loading the emerging pairs…';
  const emerging = await emergingPairs(types, ctx.analysis, body.reports_through);
  if (!ctx.current()) return;
  renderEmerging(emerging, body, ctx);
}

function renderTypes(types, body, ctx) {
  const $ = (id) => document.getElementById(id);
  const analysis = typeof body.analysis === 'string' ? body.analysis : 'default';
  const products = types.reduce((sum, t) => sum + t.products.length, 0);
  $('types-summary').textContent = `${types.length} vaccine types, ${products} vaccine names in the data through ${body.reports_through ?? '—'}. `
    + `Flagged and emerging pairs are those of the analysis “${analysis}”${isDefault(ctx.analysis) ? ' (the default)' : ''}. Open a type to list its pairs.`;
  const rows = types.map((t) => {
    const tr = el('tr', null, { 'data-type': t.type });
    const name = el('th', null, { scope: 'row' });
    name.append(ctx.vaccineLink(t.type));
    const list = el('details', null, { class: 'products' });
    list.append(el('summary', `${t.products.length} product${t.products.length === 1 ? '' : 's'}`));
    const ul = el('ul');
    for (const p of t.products) {
      const li = el('li');
      li.append(ctx.vaccineLink(p.vaccine), ` — ${p.reports === null || p.reports === undefined ? 'reports: —' : `${p.reports} reports`}, ${formatNumber(p.flagged_pairs)} flagged pairs`);
      ul.append(li);
    }
    list.append(ul);
    const productsCell = el('td');
    productsCell.append(list);
    // In a type-level analysis each entry is a code (vaccine, vax_type and only code alike): its long name under the link.
    const isCode = t.products.every((p) => p.vaccine === t.type && t.codes.length === 1 && t.codes[0] === t.type);
    if (isCode && t.names.has(t.type)) name.append(el('div', t.names.get(t.type), { class: 'type-name' }));
    // Each code's long name on hover.
    const codesCell = el('td', t.codes.join(', ') || '—');
    const described = t.codes.filter((c) => t.names.has(c)).map((c) => `${c}: ${t.names.get(c)}`);
    if (described.length) codesCell.setAttribute('title', described.join('\n'));
    tr.append(name, codesCell, productsCell, el('td', String(t.flagged), { class: 'num' }),
      el('td', String(t.emerging), { class: 'num' }), el('td', t.latest ?? '—'));
    return tr;
  });
  $('types-table').tBodies[0].replaceChildren(...rows);
  setTableContext($('types-table'), `Flagged and emerging pairs counted in the ${analysisWords(ctx.analysis)}.`);
}

function renderEmerging(emerging, body, ctx) {
  const $ = (id) => document.getElementById(id);
  const rows = [...emerging.rows].sort((a, b) => (b.eb05 ?? -1) - (a.eb05 ?? -1) || String(a.vaccine).localeCompare(String(b.vaccine)));
  const inTypes = new Set(rows.map((r) => r.vax_type)).size;
  const where = isDefault(ctx.analysis) ? '' : ` in the analysis “${ctx.analysis}”`;
  const recent = `first flagged within the last four quarters of data through ${body.reports_through ?? '—'}`;
  const parts = [rows.length
    ? `${rows.length} emerging pair${rows.length === 1 ? '' : 's'}${where} (${recent}) in ${inTypes} vaccine type${inTypes === 1 ? '' : 's'}.`
    : `No emerging pair${where}: no pair is ${recent}.`];
  if (rows.length > EMERGING_SHOWN) parts.push(`The ${EMERGING_SHOWN} with the highest EB05 are listed; open a type for the rest (its table has an Emerging column).`);
  if (emerging.errors.length) parts.push(`Some answers failed: ${emerging.errors[0]}`);
  $('emerging-summary').textContent = parts.join(' ');
  const shown = rows.slice(0, EMERGING_SHOWN).map((r) => {
    const tr = el('tr');
    const vaccine = el('th', null, { scope: 'row' });
    vaccine.append(ctx.pairLink(r, r.vaccine, { class: 'pair-link vaccine-link' }));
    const event = el('td');
    event.append(ctx.pairLink(r, r.event, { class: 'pair-link event-link' }));
    tr.append(vaccine, event, el('td', r.vax_type ?? '—'), el('td', formatNumber(r.n), { class: 'num' }), el('td', formatNumber(r.eb05), { class: 'num' }),
      el('td', r.first_quarter ?? '—'), el('td', r.latest_quarter ?? '—'));
    return tr;
  });
  $('emerging-table').tBodies[0].replaceChildren(...shown);
  setTableContext($('emerging-table'), `Rows of the ${analysisWords(ctx.analysis)}. ${N_SUM}`);
  $('emerging-table').hidden = shown.length === 0;
}
