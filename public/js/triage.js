// The triage queue on the front door (GET /triage, or /analyses/NAME/triage): the flagged pairs
// of the latest window in rank order, each with its vaccine, event, n, EB05, score, and its
// reasons and cautions as labels (the API's `text` as the title; a caution's words and whether it
// marks an artefact from the answer's `caution_codes`, the server's one table), and under a row
// the related events folded into it (one signal, one row). The pairs with an artefact caution are
// listed in their own section below, never hidden. Every datum is the API's, written as text.
import { getTriage } from './api.js';
import { triagePathOf } from './analyses.js';
import { el, formatNumber } from './table.js';
import { QUEUE_LIMIT } from './state.js';
import { nWindow, setTableContext } from './context.js';

/**
 * Pairs asked of /triage for one page of the front door's queue (`caution=exclude`; the rest page
 * by page on request) and for its artefacts section (`caution=only`).
 */
export const TRIAGE_ASKED = QUEUE_LIMIT;
export const ARTEFACTS_ASKED = 20;

/** The caution table of an answer (`caution_codes`: [{code, label, artefact, description}]) as a map by code. */
export function cautionTable(body) {
  const table = new Map();
  for (const c of Array.isArray(body && body.caution_codes) ? body.caution_codes : []) if (c && typeof c.code === 'string') table.set(c.code, c);
  return table;
}

/** The columns of the queue's and the artefacts' tables: [label, title, numeric]; every header says what it is. */
const COLUMNS = [
  ['Rank', 'Rank in the queue (in the filtered queue when filtered to products)', true], ['Vaccine', 'The product (VAERS VAX_NAME)', false], ['Event', 'The MedDRA term', false],
  ['n (window)', 'Reports of the pair received in the window (its 4 quarters)', true],
  ['EB05 (window)', 'EB05 of the window ending at the queue\'s quarter (not the peak over quarters of the pairs table)', true],
  ['Score', 'Triage score: the higher, the sooner to review', true], ['Reasons', 'Why the pair ranks where it does (hover a label for the API\'s sentence)', false],
  ['Cautions', 'The pair\'s cautions, and those of the events folded under it (marked “folded”); hover a label for the API\'s sentence', false],
];

/** Writes the column headers of a triage table. */
function fillHead(table) {
  const tr = el('tr');
  for (const [label, title, num] of COLUMNS) {
    const th = el('th', null, { scope: 'col', class: num ? 'num' : null, title });
    th.append(el('abbr', label, { title }));
    tr.append(th);
  }
  table.tHead.replaceChildren(tr);
}

/**
 * A pair's cautions and those of the rows folded under it (`related_events[].cautions`, when the
 * API gives them), each `{code, text, folded}` (`folded`: the folded event's term, or null).
 * Whatever codes the API sends are shown: none is known here.
 */
export function cautionsOf(pair) {
  const own = (Array.isArray(pair.cautions) ? pair.cautions : []).filter((c) => c && c.code).map((c) => ({ code: c.code, text: c.text, folded: null }));
  const folded = (Array.isArray(pair.related_events) ? pair.related_events : []).flatMap((r) => (r && Array.isArray(r.cautions) ? r.cautions : [])
    .filter((c) => c && c.code).map((c) => ({ code: c.code, text: c.text, folded: r.event })));
  return [...own, ...folded];
}

/** A code as words: `late_reports` -> `late reports`. */
function words(code) {
  return String(code).replace(/_/g, ' ');
}

/** A list of `{code, text}` as labels (the table's label, else the code as words; the text as the title), or a dash. */
function labels(items, kind, cautions) {
  const cell = el('td', null, { class: `labels ${kind}` });
  const list = Array.isArray(items) ? items.filter((item) => item && item.code) : [];
  if (!list.length) {
    cell.textContent = '—';
    return cell;
  }
  const ul = el('ul', null, { class: 'label-list' });
  for (const item of list) {
    const spec = kind === 'cautions' ? cautions.get(item.code) : undefined;
    const artefact = Boolean(spec && spec.artefact);
    const name = spec && typeof spec.label === 'string' ? spec.label : words(item.code);
    const sentence = typeof item.text === 'string' ? item.text : (spec && typeof spec.description === 'string' ? spec.description : null);
    ul.append(el('li', item.folded ? `${name} (folded: ${item.folded})` : name, {
      class: `label ${kind === 'reasons' ? 'reason' : 'caution'}${artefact ? ' artefact' : ''}${item.folded ? ' folded' : ''}`,
      'data-code': item.code, 'data-folded': item.folded || null, title: item.folded && sentence ? `${item.folded}, folded under this row: ${sentence}` : sentence,
    }));
  }
  cell.append(ul);
  return cell;
}

/** The labels of a list of cautions (`{code, text, folded}`) with the answer's caution table: a cell. */
export function cautionCell(list, cautions) {
  return labels(list, 'cautions', cautions);
}

/**
 * The queue's rows of the pairs a /signals list shows, to show their cautions in the pairs table:
 * one /triage answer (`caution=include`, `group=none`: every flagged pair its own row, with its own
 * cautions) for the list's vaccine, event or q, of the same analysis; a Map "vaccine\u0000event" ->
 * {cautions}, and the caution table; null when the queue cannot be read (404, an error).
 */
export async function queueCautions(query, analysis) {
  const params = { caution: 'include', group: 'none', limit: 500 };
  if (query.vaccine) params.vaccine = query.vaccine;
  if (query.event) params.event = query.event;
  if (!query.vaccine && !query.event && query.q) params.q = query.q;
  const result = await getTriage(params, triagePathOf(analysis));
  if (!result.ok || !result.body || !Array.isArray(result.body.pairs)) return null;
  const map = new Map(result.body.pairs.map((pair) => [`${pair.vaccine}\u0000${pair.event}`, { cautions: cautionsOf(pair), window: result.body.quarter }]));
  return { map, table: cautionTable(result.body), window: result.body.quarter };
}

/** The row under a pair that lists its related events (folded into it), or null when none. */
function relatedRow(pair) {
  const related = Array.isArray(pair.related_events) ? pair.related_events.filter((r) => r && r.event) : [];
  if (!related.length) return null;
  const tr = el('tr', null, { class: 'related-events', 'data-vaccine': pair.vaccine, 'data-event': pair.event });
  // A pair joined by its event group (r.group) may share no report with the head: say the group instead.
  const text = related.map((r) => `${r.event} (${formatNumber(r.n)} reports, ${r.group ? `event group ${r.group}` : `${Math.round(Number(r.overlap) * 100)}% shared${r.via ? ` with ${r.via}` : ''}`})`).join('; ');
  tr.append(el('td'), el('td', `Related events, mostly the same reports: ${text}`, { colspan: String(COLUMNS.length - 1), class: 'related' }));
  return tr;
}

/** The table rows of a triage pair: its row, and its related events' row when it has some. */
function pairRows(pair, rank, ctx) {
  const related = relatedRow(pair);
  return related ? [pairRow(pair, rank, ctx), related] : [pairRow(pair, rank, ctx)];
}

/** One table row of a triage pair. */
function pairRow(pair, rank, ctx) {
  const tr = el('tr', null, { 'data-vaccine': pair.vaccine, 'data-event': pair.event });
  const vaccine = el('th', null, { scope: 'row' });
  vaccine.append(ctx.pairLink(pair, pair.vaccine, { class: 'pair-link vaccine-link' }, ctx.from));
  const event = el('td');
  event.append(ctx.pairLink(pair, pair.event, { class: 'pair-link event-link' }, ctx.from));
  tr.append(el('td', String(rank), { class: 'num' }), vaccine, event, el('td', formatNumber(pair.n), { class: 'num' }),
    el('td', formatNumber(pair.eb05), { class: 'num' }), el('td', formatNumber(pair.score), { class: 'num' }),
    labels(pair.reasons, 'reasons', ctx.cautions), labels(cautionsOf(pair), 'cautions', ctx.cautions));
  return tr;
}

/**
 * Renders the triage section of the front door.
 * @param {object} ctx
 * @param {() => boolean} ctx.current
 * @param {string} ctx.analysis  the page's analysis ('' = default)
 * @param {(row: object, text: string, attrs?: object, from?: {analysis: string, window: string}) => HTMLAnchorElement} ctx.pairLink
 *   `from`: the queue's analysis and window, which the pair's view opens in
 * @param {number} [ctx.queuePage]  1-based page of the queue
 * @param {(tpage: number) => void} [ctx.onQueuePage]  opens another page of the queue
 * @returns {Promise<boolean>} false when the server has no triage (404): the front door is then as without it
 */
export async function renderTriage(ctx) {
  const $ = (id) => document.getElementById(id);
  // Two asks: the artefacts rank after every other pair, so in a long queue they are far below
  // its first page; caution=only fetches them for their own section.
  const path = triagePathOf(ctx.analysis);
  const page = ctx.queuePage ?? 1;
  const products = Array.isArray(ctx.products) ? ctx.products : [];
  const [result, artefactResult] = products.length
    ? await Promise.all([filteredQueue(products, 'exclude', page, path), filteredQueue(products, 'only', 1, path)])
    : await Promise.all([
      getTriage({ caution: 'exclude', limit: TRIAGE_ASKED, offset: (page - 1) * TRIAGE_ASKED }, path), getTriage({ caution: 'only', limit: ARTEFACTS_ASKED }, path),
    ]);
  if (!ctx.current()) return true;
  const section = $('triage-section');
  if (!result.ok && result.status === 404) {
    section.hidden = true;
    section.dataset.state = 'absent';
    return false;
  }
  section.hidden = false;
  const failed = [result, artefactResult].find((r) => !r.ok || !r.body || !Array.isArray(r.body.pairs));
  if (failed) {
    section.dataset.state = 'error';
    $('triage-summary').textContent = `The triage queue could not be loaded: ${failed.error ?? 'GET /triage answered no pairs.'}`;
    $('triage-table').hidden = true;
    $('triage-pager').hidden = true;
    $('artefacts-section').hidden = true;
    return true;
  }
  section.dataset.state = 'ready';
  const body = result.body;
  const from = { analysis: typeof body.analysis === 'string' ? body.analysis : '', window: typeof body.quarter === 'string' ? body.quarter : '' };
  const rowCtx = { ...ctx, cautions: cautionTable(body), from };
  const clean = Number(body.total ?? body.pairs.length);
  const queue = body.pairs.map((pair, i) => ({ pair, rank: Number(body.offset ?? 0) + i + 1 }));
  // Every artefact ranks after the `clean` pairs without one.
  const artefactBody = artefactResult.body;
  const artefacts = artefactBody.pairs.map((pair, i) => ({ pair, rank: clean + Number(artefactBody.offset ?? 0) + i + 1 }));
  const artefactTotal = Number(artefactBody.total ?? artefactBody.pairs.length);
  const total = clean + artefactTotal;
  const what = body.group === 'signal' ? `signal${total === 1 ? '' : 's'} (flagged pairs, those sharing most of their reports folded into one row)` : `flagged pair${total === 1 ? '' : 's'}`;
  const filter = products.length ? ` of ${products.map((p) => `“${p}”`).join(', ')}` : '';
  const parts = [`${total} ${what}${filter} in the window ending ${body.quarter ?? '—'}${body.analysis ? ` (analysis “${body.analysis}”)` : ''}, in rank order.`];
  const offset = Number(body.offset ?? 0);
  if (clean > body.pairs.length) {
    parts.push(body.pairs.length
      ? `Ranks ${offset + 1}–${offset + body.pairs.length} of the ${clean} without an artefact caution are shown; the next pages on request.`
      : `Past the last of the ${clean} pairs without an artefact caution.`);
  }
  parts.push(`${artefactTotal} with an artefact caution ${artefactTotal === 1 ? 'is' : 'are'} listed under “Possible artefacts” below${artefactTotal > artefacts.length ? ` (the first ${artefacts.length})` : ''}.`);
  if (typeof body.note === 'string' && body.note) parts.push(body.note);
  $('triage-summary').textContent = parts.join(' ');
  $('triage-caveat').textContent = typeof body.hypothesis === 'string' ? body.hypothesis : '';
  $('triage-caveat').hidden = !body.hypothesis;
  fillHead($('triage-table'));
  fillHead($('artefacts-table'));
  const context = `Analysis “${from.analysis || '—'}”, window ending ${from.window || '—'}: a pair opens in them. ${nWindow(from.window)}`;
  setTableContext($('triage-table'), context);
  setTableContext($('artefacts-table'), context);
  renderPager(page, Math.max(1, Math.ceil(clean / TRIAGE_ASKED)), ctx.onQueuePage);
  $('triage-table').hidden = queue.length === 0;
  $('triage-table').tBodies[0].replaceChildren(...queue.flatMap(({ pair, rank }) => pairRows(pair, rank, rowCtx)));
  $('artefacts-section').hidden = artefacts.length === 0;
  $('artefacts-table').tBodies[0].replaceChildren(...artefacts.flatMap(({ pair, rank }) => pairRows(pair, rank, rowCtx)));
  return true;
}

/** Pairs asked of /triage per product when the queue is filtered (the most a request gives). */
const PER_PRODUCT = 500;

/**
 * The queue filtered to `products` (vaccine names, types or VAX_TYPE codes, each as /triage's
 * `vaccine` matches it): one /triage answer per product (`caution` as given), merged without
 * repeats in the API's order (score, then rank), and one page of it cut out, shaped as one
 * /triage answer (`total`, `offset`, `pairs`, the first answer's window, analysis and table).
 */
export async function filteredQueue(products, caution, page, path) {
  const limit = caution === 'only' ? ARTEFACTS_ASKED : TRIAGE_ASKED;
  const answers = await Promise.all(products.map((vaccine) => getTriage({ vaccine, caution, limit: PER_PRODUCT }, path)));
  const failed = answers.find((a) => !a.ok || !a.body || !Array.isArray(a.body.pairs));
  if (failed) return failed;
  const seen = new Set();
  const merged = [];
  for (const answer of answers) {
    for (const pair of answer.body.pairs) {
      const key = `${pair.vaccine}\u0000${pair.event}`;
      if (!seen.has(key)) { seen.add(key); merged.push(pair); }
    }
  }
  merged.sort((a, b) => Number(b.score) - Number(a.score));
  const offset = (page - 1) * limit;
  const first = answers[0].body;
  return { ...answers[0], body: { ...first, total: merged.length, offset, limit, pairs: merged.slice(offset, offset + limit) } };
}

/** The queue's pager: page `page` of `pages`, the buttons calling `onPage` (hidden with one page). */
function renderPager(page, pages, onPage) {
  const $ = (id) => document.getElementById(id);
  $('triage-pager').hidden = pages <= 1 && page <= 1;
  $('triage-page-info').textContent = `Page ${page} of ${pages} (${TRIAGE_ASKED} pairs a page)`;
  $('triage-prev').disabled = page <= 1 || !onPage;
  $('triage-next').disabled = page >= pages || !onPage;
  $('triage-prev').onclick = () => onPage(page - 1);
  $('triage-next').onclick = () => onPage(page + 1);
}
