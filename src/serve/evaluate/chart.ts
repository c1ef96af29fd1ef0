/**
 * The evaluation chart, one standalone SVG readable without the tables:
 * - left, ROC space: per analysis and method one mark at (1 - specificity, sensitivity) with its
 *   Wilson 95% intervals as whiskers (a small reference set gives wide ones), the chance diagonal;
 * - right, time to signal: per positive with `emerged`, one mark per analysis and method at the
 *   quarters from `emerged` to the first flagged window (left of 0: flagged before it was known).
 * Methods are told apart by shape, analyses by colour (legend under the plots); each method's
 * marks are offset by a few pixels so that methods with equal values stay visible. Every mark is an
 * element with `class="mark"` (ROC) or `class="tts"` and `data-analysis`, `data-method`.
 */
import esc from 'escape-html';
import { HYPOTHESIS } from '../query/caveats.js';
import type { MethodSummary, PairResult } from './evaluate.js';
import { METHODS, type MethodKey } from './methods.js';
import { methodName } from './render.js';

const COLOURS = ['#1b6ca8', '#c8553d', '#2a9d5b', '#8e5ea2', '#d4a017', '#555555', '#e377c2', '#17becf', '#7f7f00'];
const FONT = 'font-family="system-ui, sans-serif"';


function n2(x: number): string {
  return (Math.round(x * 100) / 100).toString();
}

/** The shape of a method's mark centred at (x, y), radius r, with the given attributes. */
function shape(method: MethodKey, x: number, y: number, r: number, attributes: string): string {
  switch (method) {
    case 'gps': return `<circle cx="${n2(x)}" cy="${n2(y)}" r="${r}" ${attributes}/>`;
    case 'prr': return `<rect x="${n2(x - r)}" y="${n2(y - r)}" width="${2 * r}" height="${2 * r}" ${attributes}/>`;
    case 'ror': return `<path d="M${n2(x)},${n2(y - r * 1.2)}L${n2(x + r * 1.1)},${n2(y + r * 0.8)}L${n2(x - r * 1.1)},${n2(y + r * 0.8)}Z" ${attributes}/>`;
    case 'ic': return `<path d="M${n2(x)},${n2(y - r * 1.3)}L${n2(x + r * 1.3)},${n2(y)}L${n2(x)},${n2(y + r * 1.3)}L${n2(x - r * 1.3)},${n2(y)}Z" ${attributes}/>`;
    case 'floor': return `<path d="M${n2(x - r)},${n2(y - r)}L${n2(x + r)},${n2(y + r)}M${n2(x - r)},${n2(y + r)}L${n2(x + r)},${n2(y - r)}" stroke-width="2.5" ${attributes.replace(/fill="([^"]*)"/, 'stroke="$1" fill="none"')}/>`;
  }
}

/** Horizontal offset in pixels of a method's marks (-6 to 6), so that methods with equal values do not hide each other. */
function methodOffset(method: MethodKey): number {
  return (METHODS.findIndex((m) => m.key === method) - 2) * 3;
}

/** The ROC panel at (left, top), `size` pixels square. */
function rocPanel(methods: readonly MethodSummary[], colourOf: (a: string) => string, left: number, top: number, size: number): string[] {
  const x = (v: number): number => left + v * size;
  const y = (v: number): number => top + (1 - v) * size;
  const out = [
    `<text x="${left}" y="${top - 14}" ${FONT} font-size="14" font-weight="600">Sensitivity against 1 - specificity (Wilson 95%)</text>`,
    `<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 4"/>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<text x="${n2(x(t))}" y="${top + size + 16}" ${FONT} font-size="11" text-anchor="middle">${t}</text>`);
    out.push(`<text x="${left - 6}" y="${n2(y(t) + 4)}" ${FONT} font-size="11" text-anchor="end">${t}</text>`);
  }
  out.push(`<text x="${left + size / 2}" y="${top + size + 34}" ${FONT} font-size="12" text-anchor="middle">1 - specificity (negatives flagged)</text>`);
  out.push(`<text transform="translate(${left - 34},${top + size / 2}) rotate(-90)" ${FONT} font-size="12" text-anchor="middle">sensitivity (positives flagged)</text>`);
  const skipped: string[] = [];
  for (const m of methods) {
    const { sensitivity: se, specificity: sp } = m;
    if (se.estimate === null || sp.estimate === null) {
      skipped.push(`${m.analysis} ${methodName(m.method)}`);
      continue;
    }
    const colour = colourOf(m.analysis);
    // Equal values stay visible: each method's mark is offset by a few pixels (METHOD_OFFSET).
    const cx = x(1 - sp.estimate) + methodOffset(m.method);
    const cy = y(se.estimate) - methodOffset(m.method);
    out.push(`<g stroke="${colour}" stroke-opacity="0.45"><line x1="${n2(x(1 - sp.upper!))}" y1="${n2(cy)}" x2="${n2(x(1 - sp.lower!))}" y2="${n2(cy)}"/><line x1="${n2(cx)}" y1="${n2(y(se.lower!))}" x2="${n2(cx)}" y2="${n2(y(se.upper!))}"/></g>`);
    out.push(titled(shape(m.method, cx, cy, 6, `fill="${colour}" fill-opacity="0.85"`), 'mark', m.analysis, m.method,
      `${m.analysis} ${methodName(m.method)}: sensitivity ${n2(se.estimate)} (${se.x}/${se.n}), specificity ${n2(sp.estimate)} (${sp.x}/${sp.n})`));
  }
  out.push(`<text x="${left}" y="${top + size + 52}" ${FONT} font-size="11" fill="#666">Rates over the determined pairs; undetermined and not-reported pairs are left out (methods.csv counts them).</text>`);
  if (skipped.length > 0) out.push(`<text x="${left}" y="${top + size + 68}" ${FONT} font-size="11" fill="#666">Not plotted (no determined positive or negative): ${esc(skipped.join(', '))}</text>`);
  return out;
}

/** Wraps a mark with a tooltip: `<g class=... data-...>SHAPE<title/></g>`. */
function titled(markup: string, cls: string, analysis: string, method: MethodKey, title: string): string {
  return `<g class="${cls}" data-analysis="${esc(analysis)}" data-method="${method}">${markup}<title>${esc(title)}</title></g>`;
}

/** Renders the chart of an evaluation's summaries and pair results. */
export function renderChart(methods: readonly MethodSummary[], pairs: readonly PairResult[], title: string): string {
  const analyses = [...new Set(methods.map((m) => m.analysis))];
  const colourOf = (a: string): string => COLOURS[analyses.indexOf(a) % COLOURS.length];
  const timed = pairs.filter((p) => p.time_to_signal !== null);
  const ids = [...new Set(pairs.filter((p) => p.class === 'positive' && p.emerged !== null).map((p) => p.id))];
  const lane = 9;
  const rowHeight = Math.max(28, analyses.length * lane + 10);
  const roc = { left: 70, top: 70, size: 380 };
  const tts = { left: 720, top: 70, width: 380 };
  const ttsHeight = Math.max(120, ids.length * rowHeight);
  const plotBottom = Math.max(roc.top + roc.size + 76, tts.top + ttsHeight + 50);
  const legendTop = plotBottom + 10;
  const methodRows = Math.ceil(METHODS.length / 2);
  const height = legendTop + 18 * methodRows + 12 + 18 * Math.ceil(analyses.length / 4) + 40;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="1140" height="${height}" viewBox="0 0 1140 ${height}" role="img" aria-label="${esc(title)}">`,
    `<rect width="1140" height="${height}" fill="#fff"/>`,
    `<text x="20" y="28" ${FONT} font-size="17" font-weight="700">${esc(title)}</text>`,
  ];
  out.push(...rocPanel(methods, colourOf, roc.left, roc.top, roc.size));
  // Time to signal.
  const times = timed.map((p) => p.time_to_signal!);
  const lo = Math.min(-4, ...times);
  const hi = Math.max(4, ...times);
  const tx = (v: number): number => tts.left + ((v - lo) / (hi - lo)) * tts.width;
  out.push(`<text x="${tts.left - 200}" y="${tts.top - 14}" ${FONT} font-size="14" font-weight="600">Time to signal per positive (quarters from emerged to first flag)</text>`);
  out.push(`<line x1="${n2(tx(0))}" y1="${tts.top}" x2="${n2(tx(0))}" y2="${tts.top + ttsHeight}" stroke="#999" stroke-dasharray="4 4"/>`);
  out.push(`<text x="${n2(tx(0))}" y="${tts.top + ttsHeight + 30}" ${FONT} font-size="11" text-anchor="middle">0 = emerged</text>`);
  const step = Math.max(1, Math.ceil((hi - lo) / 10));
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    out.push(`<text x="${n2(tx(t))}" y="${tts.top + ttsHeight + 16}" ${FONT} font-size="11" text-anchor="middle">${t}</text>`);
  }
  out.push(`<text x="${tts.left + tts.width / 2}" y="${tts.top + ttsHeight + 44}" ${FONT} font-size="12" text-anchor="middle">quarters (negative: flagged before it was known)</text>`);
  if (ids.length === 0) out.push(`<text x="${tts.left}" y="${tts.top + 20}" ${FONT} font-size="12" fill="#666">No positive with an emerged quarter.</text>`);
  ids.forEach((id, row) => {
    const top = tts.top + row * rowHeight;
    out.push(`<line x1="${tts.left}" y1="${top + rowHeight}" x2="${tts.left + tts.width}" y2="${top + rowHeight}" stroke="#eee"/>`);
    out.push(`<text x="${tts.left - 8}" y="${top + rowHeight / 2 + 4}" ${FONT} font-size="12" text-anchor="end">${esc(id)}</text>`);
    if (!timed.some((p) => p.id === id)) {
      const reported = pairs.some((p) => p.id === id && !p.not_reported);
      out.push(`<text x="${tts.left + 6}" y="${top + rowHeight / 2 + 4}" ${FONT} font-size="11" fill="#666">${reported ? 'not flagged (or undetermined) by any method' : 'not reported in these analyses'}</text>`);
    }
    analyses.forEach((analysis, k) => {
      const y = top + 8 + k * lane;
      for (const p of timed.filter((q) => q.id === id && q.analysis === analysis)) {
        const x = tx(p.time_to_signal!) + methodOffset(p.method);
        out.push(titled(shape(p.method, x, y, 3.5, `fill="${colourOf(analysis)}"`), 'tts', analysis, p.method,
          `${id}, ${analysis} ${methodName(p.method)}: first flagged ${p.first_flagged}, ${p.time_to_signal} quarters from ${p.emerged}`));
      }
    });
  });
  // Legend.
  METHODS.forEach((m, i) => {
    const x = 20 + (i % 2) * 540;
    const y = legendTop + Math.floor(i / 2) * 18;
    out.push(shape(m.key, x + 6, y + 6, 5, 'fill="#333"'));
    out.push(`<text x="${x + 16}" y="${y + 10}" ${FONT} font-size="12">${esc(`${m.name}: ${m.rule}`)}</text>`);
  });
  analyses.forEach((a, i) => {
    const x = 20 + (i % 4) * 270;
    const y = legendTop + 18 * methodRows + 18 + Math.floor(i / 4) * 18;
    out.push(`<rect x="${x}" y="${y - 9}" width="12" height="12" fill="${colourOf(a)}"/><text x="${x + 18}" y="${y + 1}" ${FONT} font-size="12">analysis ${esc(a)}</text>`);
  });
  out.push(`<text x="20" y="${height - 14}" ${FONT} font-size="11" fill="#444">${esc(HYPOTHESIS)}</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
