// Tables of pair rows (spec 2.1) and of series quarters (spec 2.3). Data strings are written with
// textContent only, never as HTML.

/** Formats a nullable number: integers as they are, others with 3 significant decimals. */
export function formatNumber(value, digits = 3) {
  if (value === null || value === undefined || !Number.isFinite(Number(value))) return '—';
  const n = Number(value);
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

/** Creates an element with text content and optional attributes. */
export function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(key, value === true ? '' : String(value));
  }
  return node;
}

/**
 * Columns of the pair table. `sort` names the /signals sort key the column sorts by (spec 4.1:
 * eb05, n, latest); the others are not sortable by the API.
 */
export const PAIR_COLUMNS = [
  { key: 'vaccine', label: 'Vaccine', title: 'The product (VAERS VAX_NAME)' },
  { key: 'vax_type', label: 'Vaccine type', title: 'VAERS VAX_TYPE of the product' },
  { key: 'event', label: 'Event', title: 'The MedDRA term' },
  { key: 'n', label: 'n (sum)', num: true, sort: 'n', title: 'Sum of the quarterly observed counts over the flagged windows (they overlap: not a count of reports)' },
  { key: 'eb05', label: 'Peak EB05', num: true, sort: 'eb05', title: 'Peak quarterly EB05 among the quarters flagged by at least 2 methods (not the EB05 of one window, which the queue shows)' },
  { key: 'quarters_flagged', label: 'Quarters flagged', num: true, title: 'Quarters whose window at least 2 methods flag' },
  { key: 'first_quarter', label: 'First quarter', title: 'First quarter flagged' },
  { key: 'latest_quarter', label: 'Latest quarter', sort: 'latest', title: 'Latest quarter flagged' },
  { key: 'emerging', label: 'Emerging', title: 'First flagged within the last four quarters of the data' },
  { key: 'cautions', label: 'Cautions (window)', title: 'The cautions GET /triage gives the pair in the latest window (those of events folded under it marked “folded”); a dash: not in that window\'s queue' },
];

function cellText(row, column) {
  const value = row[column.key];
  if (column.key === 'emerging') return value ? 'yes' : 'no';
  if (column.num) return formatNumber(value);
  return value ?? '—';
}

/**
 * Renders the header row of the pair table.
 * @param {HTMLTableSectionElement} thead
 * @param {{sort?: string, order?: 'asc'|'desc', onSort?: (key: string) => void}} options
 *   with `onSort`, sortable columns get a button and `aria-sort`
 */
export function renderPairHead(thead, options) {
  const tr = el('tr');
  for (const column of PAIR_COLUMNS) {
    const th = el('th', null, { scope: 'col', class: column.num ? 'num' : null, title: column.title });
    if (column.sort && options.onSort) {
      const active = options.sort === column.sort;
      th.setAttribute('aria-sort', active ? (options.order === 'asc' ? 'ascending' : 'descending') : 'none');
      const next = active && options.order === 'desc' ? 'ascending' : 'descending';
      const button = el('button', column.label, {
        type: 'button', class: 'sort', 'data-sort': column.sort,
        'aria-label': `${column.label}: sort ${next}`,
      });
      button.addEventListener('click', () => options.onSort(column.sort));
      th.append(button);
    } else {
      th.textContent = column.label;
    }
    tr.append(th);
  }
  thead.replaceChildren(tr);
}

/**
 * Renders pair rows. With `pairLink`, the vaccine and the event of each row are links to the
 * pair's view; with `typeLink`, the vaccine type is a link to the type's pairs.
 * @param {HTMLTableSectionElement} tbody
 * @param {object[]} rows Pair objects (spec 2.1)
 * @param {{selected?: {vaccine: string, event: string}|null,
 *   pairLink?: (row: object, text: string, attrs: object) => HTMLAnchorElement,
 *   typeLink?: (row: object) => HTMLAnchorElement}} options
 */
export function renderPairRows(tbody, rows, options = {}) {
  const trs = rows.map((row) => {
    const tr = el('tr');
    const isSelected = options.selected && options.selected.vaccine === row.vaccine && options.selected.event === row.event;
    if (isSelected) tr.setAttribute('aria-current', 'true');
    for (const column of PAIR_COLUMNS) {
      const attrs = { class: column.num ? 'num' : null };
      if (column.key === 'vaccine') attrs.scope = 'row';
      const cell = el(column.key === 'vaccine' ? 'th' : 'td', null, attrs);
      const linked = (column.key === 'vaccine' || column.key === 'event') && options.pairLink && typeof row[column.key] === 'string';
      if (linked) {
        cell.append(options.pairLink(row, row[column.key], { class: `pair-link ${column.key}-link`, title: `Open the pair ${row.vaccine} × ${row.event}` }));
      } else if (column.key === 'vax_type' && options.typeLink && typeof row.vax_type === 'string') {
        cell.append(options.typeLink(row));
      } else if (column.key === 'cautions') {
        cell.className = 'labels cautions';
        cell.dataset.pending = 'true';
        cell.textContent = '…';
      } else if (column.key === 'emerging' && row.emerging) {
        cell.append(el('span', 'yes', { class: 'badge' }));
      } else {
        cell.textContent = cellText(row, column);
      }
      tr.append(cell);
    }
    return tr;
  });
  tbody.replaceChildren(...trs);
}

/**
 * Fills the Cautions column of rendered pair rows from the queue's rows of the same analysis
 * (`queue`: Map "vaccine\u0000event" -> {cautions: [{code, text, folded}], window}), with
 * `renderCautions(list)` making the cell's labels; a pair not in the queue gets a dash.
 * @param {HTMLTableSectionElement} tbody
 * @param {object[]} rows
 * @param {Map<string, object>|null} queue  null: the queue could not be read (the cells say so)
 * @param {(list: object[]) => HTMLElement} renderCautions
 */
export function fillPairCautions(tbody, rows, queue, renderCautions) {
  const index = PAIR_COLUMNS.findIndex((c) => c.key === 'cautions');
  rows.forEach((row, i) => {
    const cell = tbody.rows[i] && tbody.rows[i].cells[index];
    if (!cell) return;
    delete cell.dataset.pending;
    const found = queue ? queue.get(`${row.vaccine}\u0000${row.event}`) : undefined;
    if (!queue) cell.textContent = 'not available';
    else if (!found) cell.textContent = '—';
    else cell.replaceChildren(...renderCautions(found.cautions).childNodes);
  });
}

const QUARTER_COLUMNS = [
  ['quarter', 'Quarter'], ['n', 'n'], ['eb05', 'EB05'], ['eb50', 'EB50'], ['eb95', 'EB95'],
  ['ewma_eb05', 'EWMA EB05'], ['prr', 'PRR'], ['ror', 'ROR'], ['ic', 'IC'], ['ic025', 'IC025'],
  ['n_methods_flagged', 'Methods flagged'], ['is_signal_any', 'Signal (any method)'],
];

/**
 * Renders the quarters of a series as a table (the plot's accessible twin). Optional columns
 * (`ewma_eb05`, `ic025`) appear only when the quarters carry them.
 * @param {HTMLTableElement} table
 * @param {object[]} quarters spec 2.3 quarter objects
 * @param {string} [current] a quarter whose row is marked (`aria-current`, the triage window the pair was opened from)
 */
export function renderSeriesTable(table, quarters, current = '') {
  const columns = QUARTER_COLUMNS.filter(([key]) => quarters.some((q) => key in q));
  const head = el('tr');
  for (const [key, label] of columns) head.append(el('th', label, { scope: 'col', class: key === 'quarter' || key === 'is_signal_any' ? null : 'num' }));
  table.tHead.replaceChildren(head);
  const rows = quarters.map((q) => {
    const tr = el('tr', null, { 'aria-current': current && q.quarter === current ? 'true' : null });
    for (const [key] of columns) {
      let text;
      if (key === 'quarter') text = q.quarter;
      else if (key === 'is_signal_any') text = q.is_signal_any ? 'yes' : 'no';
      else text = formatNumber(q[key]);
      tr.append(el(key === 'quarter' ? 'th' : 'td', text, key === 'quarter' ? { scope: 'row' } : { class: key === 'is_signal_any' ? null : 'num' }));
    }
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}
