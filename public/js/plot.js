// Plots of quarterly series (spec 2.3) with uPlot: x is a quarter index (year * 4 + q - 1),
// y the empirical Bayes quantiles. Shared furniture: reference lines at 1 and 2, the COVID-era
// band 2021Q1-2022Q4 shaded, axis labels and a legend.
import uPlot from '../vendor/uplot/uPlot.esm.js';

/** First and last quarter index of the COVID-19 era (spec 2.1: 2021Q1 to 2022Q4). */
export const COVID_ERA_FIRST = 2021 * 4;
export const COVID_ERA_LAST = 2022 * 4 + 3;

const QUARTER_RE = /^(\d{4})Q([1-4])$/;

/** `2004Q3` -> index, or null. */
export function parseQuarter(text) {
  const m = QUARTER_RE.exec(String(text));
  return m ? Number(m[1]) * 4 + Number(m[2]) - 1 : null;
}

/** Index -> `2004Q3`. */
export function formatQuarter(index) {
  const year = Math.floor(index / 4);
  return `${year}Q${index - year * 4 + 1}`;
}

const COLORS = {
  band: 'rgba(31, 95, 168, 0.16)',
  eb05: '#1f5fa8',
  eb95: '#7aa7e0',
  eb50: '#0b2e59',
  ewma: '#d9821e',
  flagged: '#c83a3a',
  bound: '#e07b00',
  ref1: '#6b7785',
  ref2: '#9b4dca',
  covid: 'rgba(224, 184, 74, 0.22)',
};
const PRODUCT_COLORS = ['#1f5fa8', '#c83a3a', '#2e8b57', '#d9821e', '#9b4dca', '#00838f', '#8d6e63', '#5c6bc0', '#ad1457', '#558b2f'];

const plots = new Map();

function sizeOf(container) {
  return { width: Math.max(320, container.clientWidth || 800), height: 360 };
}

window.addEventListener('resize', () => {
  for (const [container, plot] of plots) plot.setSize(sizeOf(container));
});

/** Removes the plot drawn in `container`, if any. */
export function clearPlot(container) {
  const previous = plots.get(container);
  if (previous) previous.destroy();
  plots.delete(container);
  container.replaceChildren();
}

/** Shades the COVID-era quarters (drawn under the grid and the series). */
function drawCovidBand(u) {
  const { left, top, width, height } = u.bbox;
  const x0 = Math.max(left, u.valToPos(COVID_ERA_FIRST - 0.5, 'x', true));
  const x1 = Math.min(left + width, u.valToPos(COVID_ERA_LAST + 0.5, 'x', true));
  if (!(x1 > x0)) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = COLORS.covid;
  ctx.fillRect(x0, top, x1 - x0, height);
  ctx.fillStyle = '#8a6d1a';
  ctx.font = `${Math.round(11 * window.devicePixelRatio)}px system-ui, sans-serif`;
  ctx.fillText('COVID-19 era', x0 + 4 * window.devicePixelRatio, top + 14 * window.devicePixelRatio);
  ctx.restore();
}

function referenceSeries(value, color) {
  return { label: `Reference ${value}`, stroke: color, width: 1, dash: [6, 4], points: { show: false }, value: () => String(value) };
}

const fmt = (digits) => (_u, v) => (v === null || v === undefined ? '—' : Number(v).toFixed(digits));

/** Values from this size up are plotted on a log scale (so that 1 and 2 stay readable). */
const LOG_FROM = 10;

/** True when the largest finite value of the columns reaches LOG_FROM. */
function wantsLog(columns) {
  let max = 0;
  for (const values of columns) for (const v of values) if (v !== null && v > max) max = v;
  return max >= LOG_FROM;
}

/** On a log scale a value <= 0 cannot be placed: it becomes a gap. */
function forScale(values, log) {
  return log ? values.map((v) => (v !== null && v > 0 ? v : null)) : values;
}

/** Options shared by both plots; `log` selects a log10 y scale. */
function baseOptions(container, series, title, log) {
  return {
    ...sizeOf(container),
    title,
    series,
    scales: {
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: log
        ? { distr: 3, log: 10 }
        : { range: (_u, _min, max) => [0, Math.max(Number.isFinite(max) ? max : 0, 2.2) * 1.08] },
    },
    axes: [
      {
        label: 'Quarter (end of the 4-quarter window)',
        labelSize: 26,
        space: 70,
        incrs: [1, 2, 4, 8, 12, 20, 40, 80],
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatQuarter(v) : '')),
      },
      { label: log ? 'EB (empirical Bayes, log scale)' : 'EB (empirical Bayes)', labelSize: 30 },
    ],
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    hooks: { drawClear: [drawCovidBand] },
  };
}

/**
 * Every quarter from the first to the last of `items` (so that lines break across quarters
 * with no row instead of joining them), with the item of each quarter or null.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} quarterOf
 * @returns {{xs: number[], at: Array<T|null>}}
 */
function consecutive(items, quarterOf) {
  const byIndex = new Map();
  for (const item of items) {
    const index = parseQuarter(quarterOf(item));
    if (index !== null && !byIndex.has(index)) byIndex.set(index, item);
  }
  if (!byIndex.size) return { xs: [], at: [] };
  const first = Math.min(...byIndex.keys());
  const last = Math.max(...byIndex.keys());
  const xs = [];
  const at = [];
  for (let x = first; x <= last; x++) {
    xs.push(x);
    at.push(byIndex.get(x) ?? null);
  }
  return { xs, at };
}

/**
 * Draws the quarterly series of one pair: EB05-EB95 band, EB50 line, EWMA of EB05 when the
 * quarters carry `ewma_eb05`, quarters with n_methods_flagged >= 2 marked, reference lines at
 * 1 and 2, COVID-era band.
 * @param {HTMLElement} container
 * @param {{vaccine: string, event: string, quarters: object[], boundQuarters?: Set<string>}} body spec 2.3 Series object,
 *   plus the quarters whose window's prior fit sits on a bound of openEBGM's box (hollow orange rings on EB05)
 * The y scale is log10 when a value reaches 10 (linear from 0 otherwise).
 * @returns {{hasEwma: boolean, flagged: number, bound: number, covidInRange: boolean, log: boolean}} what was drawn
 */
export function drawSeriesPlot(container, body) {
  clearPlot(container);
  const { xs, at } = consecutive(body.quarters, (q) => q.quarter);
  const quarters = at.filter((q) => q !== null);
  const num = (v) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));
  const col = (pick) => at.map((q) => (q === null ? null : pick(q)));
  const hasEwma = quarters.some((q) => num(q.ewma_eb05) !== null);
  const flaggedYs = col((q) => (q.n_methods_flagged >= 2 ? num(q.eb05) : null));
  const series = [
    { label: 'Quarter', value: (_u, v) => (v === null || v === undefined ? '—' : formatQuarter(v)) },
    { label: 'EB05', stroke: COLORS.eb05, width: 1.5, points: { show: false }, value: fmt(3) },
    { label: 'EB95', stroke: COLORS.eb95, width: 1, points: { show: false }, value: fmt(3) },
    { label: 'EB50 (quarterly median)', stroke: COLORS.eb50, width: 2, value: fmt(3) },
  ];
  const columns = [col((q) => num(q.eb05)), col((q) => num(q.eb95)), col((q) => num(q.eb50))];
  if (hasEwma) {
    series.push({ label: 'EWMA of EB05', stroke: COLORS.ewma, width: 2, dash: [2, 3], value: fmt(3) });
    columns.push(col((q) => num(q.ewma_eb05)));
  }
  const log = wantsLog(columns);
  const data = [xs, ...columns.map((values) => forScale(values, log))];
  series.push({
    label: 'Flagged by ≥ 2 methods (EB05)', stroke: COLORS.flagged, fill: COLORS.flagged, width: 0,
    paths: () => null, points: { show: true, size: 9, stroke: COLORS.flagged, fill: COLORS.flagged }, value: fmt(3),
  });
  data.push(forScale(flaggedYs, log));
  const bound = body.boundQuarters ?? new Set();
  const boundYs = col((q) => (bound.has(q.quarter) ? num(q.eb05) : null));
  series.push({
    label: 'Fit on a bound (EB05)', stroke: COLORS.bound, width: 0,
    paths: () => null, points: { show: true, size: 13, width: 2, stroke: COLORS.bound, fill: 'rgba(0, 0, 0, 0)' }, value: fmt(3),
  });
  data.push(forScale(boundYs, log));
  series.push(referenceSeries(1, COLORS.ref1), referenceSeries(2, COLORS.ref2));
  data.push(xs.map(() => 1), xs.map(() => 2));
  const options = baseOptions(container, series, `${body.vaccine} — ${body.event}`, log);
  options.bands = [{ series: [2, 1], fill: COLORS.band }];
  plots.set(container, new uPlot(options, data, container));
  const covidInRange = xs.length > 0 && xs[0] <= COVID_ERA_LAST && xs[xs.length - 1] >= COVID_ERA_FIRST;
  return { hasEwma, flagged: flaggedYs.filter((v) => v !== null).length, bound: boundYs.filter((v) => v !== null).length, covidInRange, log };
}

/**
 * Draws the EB05 series of several products side by side (class view), one line each.
 * @param {HTMLElement} container
 * @param {Array<{vaccine: string, quarters: object[]}>} products
 * @param {string} title
 * @returns {{log: boolean}} whether the y scale is log10 (a value reaches 10)
 */
export function drawClassPlot(container, products, title) {
  clearPlot(container);
  const { xs } = consecutive(products.flatMap((p) => p.quarters), (q) => q.quarter);
  const series = [{ label: 'Quarter', value: (_u, v) => (v === null || v === undefined ? '—' : formatQuarter(v)) }];
  const columns = products.map((p, i) => {
    const byQuarter = new Map(p.quarters.map((q) => [parseQuarter(q.quarter), q.eb05 ?? null]));
    series.push({ label: `${p.vaccine} EB05`, stroke: PRODUCT_COLORS[i % PRODUCT_COLORS.length], width: 2, value: fmt(3) });
    return xs.map((x) => byQuarter.get(x) ?? null);
  });
  const log = wantsLog(columns);
  const data = [xs, ...columns.map((values) => forScale(values, log))];
  series.push(referenceSeries(1, COLORS.ref1), referenceSeries(2, COLORS.ref2));
  data.push(xs.map(() => 1), xs.map(() => 2));
  plots.set(container, new uPlot(baseOptions(container, series, title, log), data, container));
  return { log };
}

/** Colours of the analyses in the compare plot, in listing order. */
const ANALYSIS_COLORS = ['#1f5fa8', '#d9821e', '#2e8b57', '#c83a3a', '#9b4dca', '#00838f', '#8d6e63', '#ad1457', '#558b2f', '#5c6bc0'];

/** `#rrggbb` with an alpha, as rgba(). */
function translucent(hex, alpha) {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * Draws one pair's quarterly EB05 in several analyses on one plot, one line per analysis; the
 * EB05-EB95 band of one of them (`options.band`) when it is among them.
 * @param {HTMLElement} container
 * @param {Array<{name: string, quarters: object[]}>} analyses the analyses that serve the pair
 * @param {{band: string, title: string}} options
 * @returns {{lines: number, band: boolean, log: boolean}} what was drawn
 */
export function drawComparePlot(container, analyses, options) {
  clearPlot(container);
  const { xs } = consecutive(analyses.flatMap((a) => a.quarters), (q) => q.quarter);
  const num = (v) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));
  const series = [{ label: 'Quarter', value: (_u, v) => (v === null || v === undefined ? '—' : formatQuarter(v)) }];
  const columns = [];
  const column = (quarters, key) => {
    const byQuarter = new Map(quarters.map((q) => [parseQuarter(q.quarter), num(q[key])]));
    return xs.map((x) => byQuarter.get(x) ?? null);
  };
  analyses.forEach((a, i) => {
    const color = ANALYSIS_COLORS[i % ANALYSIS_COLORS.length];
    series.push({ label: `${a.name} EB05`, stroke: color, width: a.name === options.band ? 2.5 : 1.75, value: fmt(3) });
    columns.push(column(a.quarters, 'eb05'));
  });
  const banded = analyses.findIndex((a) => a.name === options.band);
  if (banded >= 0) {
    const color = ANALYSIS_COLORS[banded % ANALYSIS_COLORS.length];
    series.push({ label: `${options.band} EB95 (band: EB05 to EB95)`, stroke: color, width: 0.75, dash: [2, 2], points: { show: false }, value: fmt(3) });
    columns.push(column(analyses[banded].quarters, 'eb95'));
  }
  const log = wantsLog(columns);
  const data = [xs, ...columns.map((values) => forScale(values, log))];
  series.push(referenceSeries(1, COLORS.ref1), referenceSeries(2, COLORS.ref2));
  data.push(xs.map(() => 1), xs.map(() => 2));
  const opts = baseOptions(container, series, options.title, log);
  opts.axes[1].label = log ? 'EB05 (empirical Bayes, log scale)' : 'EB05 (empirical Bayes)';
  if (banded >= 0) opts.bands = [{ series: [analyses.length + 1, banded + 1], fill: translucent(ANALYSIS_COLORS[banded % ANALYSIS_COLORS.length], 0.14) }];
  plots.set(container, new uPlot(opts, data, container));
  return { lines: analyses.length, band: banded >= 0, log };
}
