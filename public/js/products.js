// The sponsor's view (issue 46): the queue filtered to one's products or vaccine types (the
// `product` URL parameters, kept across views), and the "My products" page (`view=products`): per
// product its flagged pairs (GET /signals), its queue rows with cautions (GET /triage, caution=include,
// with the cautions of the rows folded under them), its Omega interactions (GET /interactions) and
// the maskers of its first cautioned or flagged queue pairs (GET /masking), each section with the
// API's CSV where it has one, and the whole page as one CSV written here. Every datum is the API's,
// written as text; whatever caution codes the API sends are shown (code as its label, and its sentence).
import { apiUrl, getJson, getSignals, signalsUrl } from './api.js';
import { signalsPathOf, triagePathOf } from './analyses.js';
import { el, formatNumber } from './table.js';
import { cautionTable, cautionsOf } from './triage.js';

const $ = (id) => document.getElementById(id);

/** Rows per section of a product. */
export const PRODUCT_ROWS = 20;
/** Queue pairs of a product whose maskers are asked. */
export const MASKED_PAIRS = 3;

/**
 * The filter form of the queue: the chips of the products in `products`, each with a button that
 * removes it; the input adds one (`onChange(next products)`); the datalist offers the names and
 * types of GET /vaccines (`names`).
 */
export function renderProductForm(products, names, onChange, productsHref) {
  const chips = $('product-chips');
  chips.replaceChildren(...products.map((product) => {
    const li = el('li', null, { class: 'chip', 'data-product': product });
    li.append(el('span', product));
    const remove = el('button', '×', { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${product} from the filter` });
    remove.addEventListener('click', () => onChange(products.filter((p) => p !== product)));
    li.append(remove);
    return li;
  }));
  if (names) $('product-names').replaceChildren(...names.map((name) => el('option', null, { value: name })));
  $('products-form').onsubmit = (event) => {
    event.preventDefault();
    const value = $('product-input').value.trim();
    $('product-input').value = '';
    if (value && !products.includes(value)) onChange([...products, value]);
  };
  const link = $('products-page-link');
  link.hidden = products.length === 0;
  link.href = productsHref;
}

/** A CSV cell: quoted when needed; text starting with = + - @ tab or CR gets a leading ' (as the server's cell writer). */
export function csvCell(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The page's rows as CSV text (a header line, then one line a row). */
export function productsCsv(rows) {
  const columns = ['product', 'section', 'vaccine', 'event', 'n', 'eb05', 'window', 'detail'];
  return [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';
}

/** A table with a caption, `columns` ([header, title, cell of a row, numeric]) and `rows`. */
function table(caption, columns, rows) {
  const wrap = el('div', null, { class: 'table-wrap', tabindex: '0' });
  const t = el('table');
  t.append(el('caption', caption));
  const head = el('tr');
  for (const [label, title, , num] of columns) head.append(el('th', label, { scope: 'col', title, class: num ? 'num' : null }));
  t.append(el('thead'));
  t.tHead.append(head);
  const body = el('tbody');
  for (const row of rows) {
    const tr = el('tr');
    for (const [, , cell, num] of columns) {
      const value = cell(row);
      const td = el('td', null, { class: num ? 'num' : null });
      if (value instanceof window.Node) td.append(value);
      else td.textContent = value;
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
  wrap.append(t);
  return wrap;
}

/** The visible list of cautions: `label: sentence`, a folded row's marked. */
function cautionList(list, codes) {
  const ul = el('ul', null, { class: 'caution-sentences' });
  for (const c of list) {
    const spec = codes.get(c.code);
    const name = spec && typeof spec.label === 'string' ? spec.label : String(c.code).replace(/_/g, ' ');
    const li = el('li', null, { 'data-code': c.code, 'data-folded': c.folded || null });
    li.append(el('span', c.folded ? `${name} (folded: ${c.folded})` : name, { class: `label caution${spec && spec.artefact ? ' artefact' : ''}${c.folded ? ' folded' : ''}` }));
    if (typeof c.text === 'string' && c.text) li.append(` ${c.text}`);
    ul.append(li);
  }
  return ul;
}

/** Products of a vaccine type whose interactions are asked. */
export const INTERACTION_NAMES = 3;

/**
 * The Omega interactions naming any of `names` (exact products), merged into one answer shaped as
 * /interactions answers (the first answer's window and caveat; `total` summed; rows in the API's
 * order: uncautioned triples before cautioned ones, each by Omega025, docs/interactions.md).
 */
async function interactionsOf(names) {
  const cautioned = (row) => (Array.isArray(row.cautions) && row.cautions.length > 0 ? 1 : 0);
  const answers = await Promise.all(names.map((vaccine) => getJson(apiUrl('/interactions', { vaccine, limit: PRODUCT_ROWS }))));
  const failed = answers.find((a) => !a.ok || !a.body || !Array.isArray(a.body.interactions));
  if (failed) return failed;
  const seen = new Set();
  const rows = answers.flatMap((a) => a.body.interactions).filter((r) => {
    const key = `${r.vaccine1}\u0000${r.vaccine2}\u0000${r.event}`;
    return seen.has(key) ? false : (seen.add(key), true);
  }).sort((a, b) => cautioned(a) - cautioned(b) || Number(b.omega025) - Number(a.omega025)).slice(0, PRODUCT_ROWS);
  const total = answers.reduce((sum, a) => sum + Number(a.body.total ?? a.body.interactions.length), 0);
  return { ...answers[0], body: { ...answers[0].body, total, interactions: rows } };
}

/** One product's sections; pushes its CSV rows onto `csv`. */
async function renderProduct(product, ctx, csv) {
  const section = el('section', null, { class: 'product', 'data-product': product, 'aria-label': product });
  section.append(el('h3', product));
  const signalsPath = signalsPathOf(ctx.analysis);
  const triagePath = triagePathOf(ctx.analysis);
  const [signals, queue] = await Promise.all([
    getSignals({ vaccine: product, sort: 'eb05', order: 'desc', limit: PRODUCT_ROWS }, undefined, signalsPath),
    getJson(apiUrl(triagePath, { vaccine: product, caution: 'include', limit: 500 })),
  ]);
  // /interactions names exact products: a vaccine type is asked by the products of its flagged pairs (at most INTERACTION_NAMES).
  const names = [...new Set((signals.ok && Array.isArray(signals.body) ? signals.body : []).map((r) => r.vaccine))];
  const interactions = await interactionsOf(names.includes(product) || names.length === 0 ? [product] : names.slice(0, INTERACTION_NAMES));
  // Flagged pairs (peak EB05 over the flagged quarters).
  const pairs = signals.ok && Array.isArray(signals.body) ? signals.body : [];
  section.append(el('h4', `Flagged pairs (${signals.ok ? (signals.headers.total ?? pairs.length) : '—'})`));
  if (!signals.ok) section.append(el('p', `GET /signals: ${signals.error}`, { class: 'error' }));
  else {
    section.append(table(`The pairs of ${product} flagged in at least one window, highest peak EB05 first (the first ${PRODUCT_ROWS}).`, [
      ['Vaccine', 'The product', (r) => r.vaccine], ['Event', 'The MedDRA term', (r) => r.event],
      ['n (sum)', 'Sum of the quarterly observed counts over the flagged windows (not a count of reports)', (r) => formatNumber(r.n), true],
      ['Peak EB05', 'Peak quarterly EB05 among the flagged quarters', (r) => formatNumber(r.eb05), true],
      ['Latest quarter', 'Latest quarter flagged', (r) => r.latest_quarter ?? '—'],
    ], pairs));
    section.append(el('a', 'CSV of every flagged pair', { href: signalsUrl({ vaccine: product, sort: 'eb05', order: 'desc', limit: 500, format: 'csv' }, signalsPath), class: 'csv-link' }));
    for (const r of pairs) csv.push({ product, section: 'flagged pair', vaccine: r.vaccine, event: r.event, n: r.n, eb05: r.eb05, window: r.latest_quarter, detail: 'peak EB05 over flagged quarters; n sums windows' });
  }
  // Queue rows with cautions (the window's EB05).
  const rows = queue.ok && queue.body && Array.isArray(queue.body.pairs) ? queue.body.pairs : [];
  const codes = queue.ok && queue.body ? cautionTable(queue.body) : new Map();
  const cautioned = rows.filter((p) => cautionsOf(p).length > 0);
  const window = queue.ok && queue.body ? queue.body.quarter : '';
  section.append(el('h4', `Queue rows with cautions (${cautioned.length} of ${rows.length} in the window ending ${window || '—'})`));
  if (!queue.ok) section.append(el('p', `GET /triage: ${queue.error}`, { class: 'error' }));
  else {
    section.append(table(`The queue's rows of ${product} that carry a caution, their own or a folded row's, in rank order.`, [
      ['Vaccine', 'The product', (r) => r.vaccine], ['Event', 'The MedDRA term', (r) => r.event],
      ['n (window)', 'Reports of the pair in the window', (r) => formatNumber(r.n), true],
      ['EB05 (window)', 'EB05 of the window (not the peak)', (r) => formatNumber(r.eb05), true],
      ['Cautions', 'Each caution with the API\'s sentence; folded: the caution of an event folded under this row', (r) => cautionList(cautionsOf(r), codes)],
    ], cautioned));
    section.append(el('a', 'CSV of the queue rows', { href: apiUrl(triagePath, { vaccine: product, caution: 'include', limit: 500, format: 'csv' }), class: 'csv-link' }));
    for (const r of cautioned) {
      csv.push({ product, section: 'queue row with cautions', vaccine: r.vaccine, event: r.event, n: r.n, eb05: r.eb05, window,
        detail: cautionsOf(r).map((c) => `${c.code}${c.folded ? ` (folded: ${c.folded})` : ''}: ${c.text ?? ''}`).join(' | ') });
    }
  }
  // Interactions (Omega) of the latest window.
  const items = interactions.ok && interactions.body && Array.isArray(interactions.body.interactions) ? interactions.body.interactions : [];
  section.append(el('h4', `Interactions with another vaccine (${interactions.ok ? interactions.body.total ?? items.length : '—'})`));
  if (!interactions.ok) section.append(el('p', `GET /interactions: ${interactions.error}`, { class: 'error' }));
  else {
    section.append(table(`Omega interaction signals naming ${product} in the window ending ${interactions.body.quarter ?? '—'} (the first ${PRODUCT_ROWS}). ${interactions.body.caveat ?? ''}`, [
      ['Vaccines', 'The two vaccines reported together', (r) => `${r.vaccine1} + ${r.vaccine2}`], ['Event', 'The MedDRA term', (r) => r.event],
      ['Reports', 'Reports naming both vaccines and the event (n111)', (r) => formatNumber(r.n111), true],
      ['Expected', 'Expected under no interaction (e111)', (r) => formatNumber(r.e111), true],
      ['Omega025', 'Lower 2.5% bound of Omega (a signal above 0)', (r) => formatNumber(r.omega025), true],
    ], items));
    for (const r of items) csv.push({ product, section: 'interaction', vaccine: `${r.vaccine1} + ${r.vaccine2}`, event: r.event, n: r.n111, eb05: null, window: interactions.body.quarter, detail: `omega ${r.omega}; omega025 ${r.omega025}; expected ${r.e111}` });
  }
  // Maskers of the product's first queue pairs (cautioned first).
  const asked = [...cautioned, ...rows.filter((p) => !cautioned.includes(p))].slice(0, MASKED_PAIRS);
  const masking = await Promise.all(asked.map((p) => getJson(apiUrl('/masking', { vaccine: p.vaccine, event: p.event, limit: 3 }))));
  const maskers = masking.flatMap((m, i) => (m.ok && m.body && Array.isArray(m.body.maskers) ? m.body.maskers.map((k) => ({ pair: asked[i], masker: k, quarter: m.body.quarter })) : []));
  section.append(el('h4', `Maskers of its first ${asked.length} queue pairs`));
  section.append(table('Vaccines whose reports most lower the pair\'s PRR (masking ratio: PRR without the masker\'s reports / PRR on all).', [
    ['Pair', 'The queue pair', (r) => `${r.pair.vaccine} × ${r.pair.event}`], ['Masker', 'The masking vaccine', (r) => r.masker.vaccine],
    ['Masking ratio', 'PRR without its reports / PRR on every report', (r) => formatNumber(r.masker.masking_ratio), true],
    ['PRR without', 'The pair\'s PRR without the masker\'s reports', (r) => formatNumber(r.masker.prr_without), true],
  ], maskers));
  for (const r of maskers) csv.push({ product, section: 'masker', vaccine: r.pair.vaccine, event: r.pair.event, n: null, eb05: null, window: r.quarter, detail: `masker ${r.masker.vaccine}; masking ratio ${r.masker.masking_ratio}; PRR without ${r.masker.prr_without}` });
  return section;
}

/** The "My products" page of `ctx.products` (in `ctx.analysis`); resolves when every section is in. */
export async function renderProductsPage(ctx) {
  const page = $('products-page');
  page.hidden = false;
  $('products-summary').textContent = `Loading ${ctx.products.length} product${ctx.products.length === 1 ? '' : 's'}…`;
  const csv = [];
  const sections = [];
  for (const product of ctx.products) sections.push(await renderProduct(product, ctx, csv));
  if (!ctx.current()) return;
  $('products-list').replaceChildren(...sections);
  $('products-summary').textContent = `${ctx.products.join(', ')}: per product its flagged pairs (peak EB05), its queue rows with cautions (the window's EB05), its interactions and maskers${ctx.analysis ? `, analysis “${ctx.analysis}”` : ''}.`;
  // A data: URL (the page's Content-Security-Policy lets no script fetch a blob:, and the CSV is a few kilobytes).
  const link = $('products-csv');
  link.href = `data:text/csv;charset=utf-8,${encodeURIComponent(productsCsv(csv))}`;
  link.dataset.rows = String(csv.length);
  $('products-back').href = ctx.backHref;
}
