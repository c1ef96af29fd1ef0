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
  const figure = chartFigure(chart);
  const numeric = chart.items.filter((item) => Number.isFinite(item.value));
  if (!numeric.length) {
    figure.append(el('p', 'No reports to count.', { class: 'note' }));
    return figure;
  }
  const max = Math.max(...numeric.map((item) => item.value));
  const body = el('tbody');
  for (const item of chart.items) {
    const tr = el('tr', null, { 'data-value': String(item.value) });
    const th = el('th', null, { scope: 'row' });
    if (item.link) th.append(item.link);
    else th.textContent = item.label;
    const td = el('td', null, { class: 'bar-cell' });
    td.append(...barLine(item.value, max, 'bar', Number.isFinite(item.value) ? String(item.value) : '—'));
    tr.append(th, td);
    body.append(tr);
  }
  figure.append(barTable([chart.category, chart.unit], body), barScale('0', String(max)));
  return figure;
}

/**
 * Renders a chart of two groups side by side per category (e.g. onset days of a pair against the
 * same event after other vaccines): each bar is the group's share of its own total, so groups of
 * different sizes compare; the text gives the count and the share.
 * @param {object} chart  as barChart (key, title, category, note), and:
 * @param {string[]} chart.categories  category labels, in order
 * @param {Array<{label: string, values: number[], className: string}>} chart.groups  counts per category of each group
 * @returns {HTMLElement} the figure
 */
export function pairedBarChart(chart) {
  const figure = chartFigure({ ...chart, partition: true });
  const totals = chart.groups.map((g) => g.values.reduce((sum, v) => sum + v, 0));
  const shares = chart.groups.map((g, k) => g.values.map((v) => (totals[k] > 0 ? v / totals[k] : 0)));
  const max = Math.max(0, ...shares.flat());
  if (!(max > 0)) {
    figure.append(el('p', 'No reports to count.', { class: 'note' }));
    return figure;
  }
  const body = el('tbody');
  chart.categories.forEach((label, i) => {
    const tr = el('tr', null, { 'data-values': chart.groups.map((g) => String(g.values[i])).join(',') });
    tr.append(el('th', label, { scope: 'row' }));
    const td = el('td', null, { class: 'bar-cell paired' });
    chart.groups.forEach((g, k) => {
      const line = el('span', null, { class: 'bar-line', 'data-group': g.className });
      line.append(el('span', g.label, { class: 'bar-group' }), ...barLine(shares[k][i], max, `bar ${g.className}`, `${g.values[i]} (${Math.round(100 * shares[k][i])}%)`));
      td.append(line);
    });
    tr.append(td);
    body.append(tr);
  });
  const unit = chart.groups.map((g, k) => `${g.label}: ${totals[k]} reports`).join('; ');
  figure.append(barTable([chart.category, `Share of each group's reports (${unit})`], body), barScale('0%', `${Math.round(100 * max)}%`));
  return figure;
}

/** A chart's figure with its caption (title and note). */
function chartFigure(chart) {
  const figure = el('figure', null, { class: 'bars', 'data-chart': chart.key, 'data-partition': chart.partition ? 'true' : 'false' });
  const caption = el('figcaption');
  caption.append(el('strong', chart.title));
  if (chart.note) caption.append(el('span', ` ${chart.note}`, { class: 'bars-note' }));
  figure.append(caption);
  return figure;
}

/** A bar's track scaled to `max` and its value text. */
function barLine(value, max, className, text) {
  const bar = el('span', null, { class: className, 'aria-hidden': 'true' });
  bar.style.width = `${max > 0 && Number.isFinite(value) ? (100 * value) / max : 0}%`;
  const track = el('span', null, { class: 'bar-track' });
  track.append(bar);
  return [track, el('span', text, { class: 'bar-value' })];
}

/** The chart's table: a head row (category, value axis) and the body. */
function barTable([category, unit], body) {
  const table = el('table', null, { class: 'bar-table' });
  const head = el('tr');
  head.append(el('th', category, { scope: 'col', class: 'bar-category' }), el('th', unit, { scope: 'col', class: 'bar-axis' }));
  table.append(el('thead'));
  table.tHead.append(head);
  table.append(body);
  return table;
}

/** The value axis under the bars: `low` at the start of the track, `high` at its end. */
function barScale(low, high) {
  const axis = el('div', null, { class: 'bar-scale', 'aria-hidden': 'true' });
  const ticks = el('div', null, { class: 'bar-ticks' });
  ticks.append(el('span', low), el('span', high));
  axis.append(ticks);
  return axis;
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
