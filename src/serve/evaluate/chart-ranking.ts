/**
 * The ranking chart (ranking.svg), one standalone SVG of the ranking comparison (ranking.ts) of
 * the first analysis ranked:
 * - left, per dated positive: one mark per ordering at the quarters from `emerged` to the first
 *   window where the pair enters the top 20 (left of 0: before it was known), a note when it never does;
 * - right, per window: the share of the top 20 holding an artefact pair or a pair with an artefact
 *   caution, one line per ordering.
 * Orderings are told apart by colour (legend under the plots). Every mark is an element with
 * `class="first-top"` and every line `class="artefact-share"`, each with `data-ordering`.
 */
import esc from 'escape-html';
import { HYPOTHESIS } from '../query/caveats.js';
import { parseQuarter } from '../../domain/quarter.js';
import { ORDERINGS, TOP, type Ordering, type RankingResult } from './ranking.js';
import { ORDERING_NAMES } from './render-ranking.js';

const COLOURS: Readonly<Record<Ordering, string>> = { triage: '#c8553d', eb05: '#1b6ca8', prr: '#2a9d5b', ic025: '#8e5ea2' };
const FONT = 'font-family="system-ui, sans-serif"';


const n2 = (x: number): string => (Math.round(x * 100) / 100).toString();

/** Renders the ranking chart; an empty comparison gives a chart that says so. */
export function renderRankingChart(ranking: RankingResult, title: string): string {
  const analysis = ranking.summary[0]?.analysis ?? null;
  const positives = ranking.positives.filter((p) => p.analysis === analysis);
  const windows = ranking.windows.filter((w) => w.analysis === analysis);
  const ids = [...new Set(positives.map((p) => p.id))];
  const rowHeight = 30;
  const left = { x: 230, top: 70, width: 330 };
  const right = { x: 640, top: 70, width: 460, height: 300 };
  const plotBottom = Math.max(left.top + Math.max(1, ids.length) * rowHeight + 50, right.top + right.height + 50);
  const height = plotBottom + 70;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="1140" height="${height}" viewBox="0 0 1140 ${height}" role="img" aria-label="${esc(title)}">`,
    `<rect width="1140" height="${height}" fill="#fff"/>`,
    `<text x="20" y="28" ${FONT} font-size="17" font-weight="700">${esc(title)}${analysis === null ? '' : ` (analysis ${esc(analysis)})`}</text>`,
  ];
  // Left: quarters from emerged to the first top-20 window.
  const times = positives.filter((p) => p.quarters_to_top20 !== null).map((p) => p.quarters_to_top20!);
  const lo = Math.min(-4, ...times), hi = Math.max(8, ...times);
  const tx = (v: number): number => left.x + ((v - lo) / (hi - lo)) * left.width;
  const bottom = left.top + Math.max(1, ids.length) * rowHeight;
  out.push(`<text x="20" y="${left.top - 14}" ${FONT} font-size="14" font-weight="600">Quarters from emerged to the first window in the top ${TOP}</text>`);
  out.push(`<line x1="${n2(tx(0))}" y1="${left.top}" x2="${n2(tx(0))}" y2="${bottom}" stroke="#999" stroke-dasharray="4 4"/>`);
  const step = Math.max(1, Math.ceil((hi - lo) / 8));
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) out.push(`<text x="${n2(tx(t))}" y="${bottom + 16}" ${FONT} font-size="11" text-anchor="middle">${t}</text>`);
  out.push(`<text x="${n2(tx(0))}" y="${bottom + 32}" ${FONT} font-size="11" text-anchor="middle">0 = emerged (negative: before it was known)</text>`);
  if (ids.length === 0) out.push(`<text x="${left.x}" y="${left.top + 20}" ${FONT} font-size="12" fill="#666">No dated positive.</text>`);
  ids.forEach((id, row) => {
    const y = left.top + row * rowHeight + rowHeight / 2;
    out.push(`<text x="${left.x - 8}" y="${y + 4}" ${FONT} font-size="12" text-anchor="end">${esc(id)}</text>`);
    const never = ORDERINGS.filter((o) => positives.find((p) => p.id === id && p.ordering === o)?.quarters_to_top20 === null);
    if (never.length > 0) out.push(`<text x="${left.x + left.width + 6}" y="${y + 4}" ${FONT} font-size="10" fill="#666">never: ${esc(never.map((o) => ORDERING_NAMES[o]).join(', '))}</text>`);
    ORDERINGS.forEach((ordering, k) => {
      const p = positives.find((q) => q.id === id && q.ordering === ordering);
      if (!p || p.quarters_to_top20 === null) return;
      out.push(`<g class="first-top" data-ordering="${ordering}"><circle cx="${n2(tx(p.quarters_to_top20))}" cy="${n2(y - 6 + k * 4)}" r="4" fill="${COLOURS[ordering]}"/><title>${esc(`${id}, ${ORDERING_NAMES[ordering]}: top ${TOP} from ${p.first_top20}, ${p.quarters_to_top20} quarters from ${p.emerged}`)}</title></g>`);
    });
  });
  // Right: artefact share of the top 20 per window.
  const quarters = [...new Set(windows.map((w) => w.quarter))].sort();
  const first = parseQuarter(quarters[0] ?? '') ?? 0, last = parseQuarter(quarters[quarters.length - 1] ?? '') ?? 1;
  const qx = (q: string): number => right.x + (((parseQuarter(q) ?? first) - first) / Math.max(1, last - first)) * right.width;
  const sy = (v: number): number => right.top + (1 - v) * right.height;
  out.push(`<text x="${right.x}" y="${right.top - 14}" ${FONT} font-size="14" font-weight="600">Top ${TOP}: share of artefact pairs or artefact cautions</text>`);
  out.push(`<rect x="${right.x}" y="${right.top}" width="${right.width}" height="${right.height}" fill="none" stroke="#999"/>`);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) out.push(`<text x="${right.x - 6}" y="${n2(sy(t) + 4)}" ${FONT} font-size="11" text-anchor="end">${t}</text>`);
  for (const q of quarters.filter((q) => q.endsWith('Q1') && Number(q.slice(0, 4)) % 2 === 0)) {
    out.push(`<text x="${n2(qx(q))}" y="${right.top + right.height + 16}" ${FONT} font-size="11" text-anchor="middle">${q.slice(0, 4)}</text>`);
  }
  for (const ordering of ORDERINGS) {
    const points = windows.filter((w) => w.ordering === ordering && w.top > 0).map((w) => {
      const flagged = Math.max(w.artefacts, w.cautioned); // a pair may be both: the larger count is a lower bound of the union
      return `${n2(qx(w.quarter))},${n2(sy(flagged / w.top))}`;
    });
    out.push(`<polyline class="artefact-share" data-ordering="${ordering}" points="${points.join(' ')}" fill="none" stroke="${COLOURS[ordering]}" stroke-width="1.5"/>`);
  }
  out.push(`<text x="${right.x}" y="${right.top + right.height + 34}" ${FONT} font-size="11" fill="#666">Per window: the larger of the artefact pairs and the cautioned pairs in the top ${TOP} (top20.csv has both).</text>`);
  ORDERINGS.forEach((ordering, i) => {
    const x = 20 + i * 200;
    out.push(`<rect x="${x}" y="${plotBottom + 6}" width="12" height="12" fill="${COLOURS[ordering]}"/><text x="${x + 18}" y="${plotBottom + 16}" ${FONT} font-size="12">${esc(ORDERING_NAMES[ordering])}</text>`);
  });
  out.push(`<text x="20" y="${height - 14}" ${FONT} font-size="11" fill="#444">${esc(HYPOTHESIS)}</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
