// Horizontal bar charts as HTML: a table (category, count) whose count cells carry a bar
// scaled to the largest count. Readable by screen readers as the table it is; every label and
// count comes from an API answer (written as text); nothing is drawn for a category the API
// did not send.
import { el } from './table.js';

/**
 * @typedef {object} BarItem
 * @property {string} label   category as the API names it (or its readable label)
 * @property {number} value   count from the API
 * @property {HTMLElement} [link] optional element shown instead of the label (e.g. a link)
 */

/**
 * Renders one bar chart into a new `<figure>`.
 * @param {object} chart
 * @param {string} chart.key       breakdown key (data-chart attribute), e.g. `age_group`
 * @param {string} chart.title     chart title, e.g. `Age group`
 * @param {string} chart.category  category axis title, e.g. `Age group (CDC WONDER)`
 * @param {string} chart.unit      value axis title with unit, e.g. `Reports (count)`
 * @param {BarItem[]} chart.items
 * @param {boolean} chart.partition  true when every report falls in exactly one bar
 * @param {string} [chart.note]    a sentence under the chart
 * @returns {HTMLElement} the figure
 */
export function barChart(chart) {
  const figure = el('figure', null, { class: 'bars', 'data-chart': chart.key, 'data-partition': chart.partition ? 'true' : 'false' });
  const caption = el('figcaption');
  caption.append(el('strong', chart.title));
  if (chart.note) caption.append(el('span', ` ${chart.note}`, { class: 'bars-note' }));
  figure.append(caption);
  const numeric = chart.items.filter((item) => Number.isFinite(item.value));
  if (!numeric.length) {
    figure.append(el('p', 'No reports to count.', { class: 'note' }));
    return figure;
  }
  const max = Math.max(...numeric.map((item) => item.value));
  const table = el('table', null, { class: 'bar-table' });
  const head = el('tr');
  head.append(el('th', chart.category, { scope: 'col', class: 'bar-category' }), el('th', chart.unit, { scope: 'col', class: 'bar-axis' }));
  table.append(el('thead'));
  table.tHead.append(head);
  const body = el('tbody');
  for (const item of chart.items) {
    const tr = el('tr', null, { 'data-value': String(item.value) });
    const th = el('th', null, { scope: 'row' });
    if (item.link) th.append(item.link);
    else th.textContent = item.label;
    const td = el('td', null, { class: 'bar-cell' });
    const bar = el('span', null, { class: 'bar', 'aria-hidden': 'true' });
    bar.style.width = `${max > 0 ? (100 * item.value) / max : 0}%`;
    const track = el('span', null, { class: 'bar-track' });
    track.append(bar);
    td.append(track, el('span', Number.isFinite(item.value) ? String(item.value) : '—', { class: 'bar-value' }));
    tr.append(th, td);
    body.append(tr);
  }
  table.append(body);
  figure.append(table);
  // the value axis under the bars: 0 at the start of the track, the largest count at its end
  const axis = el('div', null, { class: 'bar-scale', 'aria-hidden': 'true' });
  const ticks = el('div', null, { class: 'bar-ticks' });
  ticks.append(el('span', '0'), el('span', String(max)));
  axis.append(ticks);
  figure.append(axis);
  return figure;
}

/**
 * Items of a count object (`{key: count}`) in the order of `keys` (when given) or as sent,
 * with readable labels from `labels`; keys the API did not send are left out.
 * @param {Record<string, number>|null|undefined} counts
 * @param {{keys?: string[], labels?: Record<string, string>, sort?: (a: string, b: string) => number}} [options]
 * @returns {BarItem[]}
 */
export function countItems(counts, options = {}) {
  if (!counts || typeof counts !== 'object') return [];
  let keys = Object.keys(counts);
  if (options.keys) keys = [...options.keys.filter((k) => k in counts), ...keys.filter((k) => !options.keys.includes(k))];
  else if (options.sort) keys = keys.sort(options.sort);
  return keys.map((key) => ({ label: options.labels?.[key] ?? key, value: Number(counts[key]) }));
}
