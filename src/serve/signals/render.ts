/**
 * One renderer per format (spec 4.1 success responses), in a registry keyed by the format
 * enum (`FORMATS`, also the 400 answer's `allowed` list). Every renderer has one signature
 * (render-context.ts): it gets the request's catalog, params, match and page and returns a
 * content type and body.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { PAIR_FIELDS, type Pair } from './pair.js';
import { csvCell } from '../../domain/csv-cell.js';
import { escapeMarkdown } from '../query/markdown.js';
import type { Catalog } from './catalog.js';
import type { Format, SignalsParams } from './parameters.js';
import type { RenderContext, Rendered, Renderer } from './render-context.js';
import { renderSeries } from './series.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON array of the page's pairs, from the texts serialised at load (catalog.pairJson). */
function pagePairsJson(ctx: RenderContext): string {
  return `[${ctx.page.map((id) => ctx.catalog.pairJson[id]).join(',')}]`;
}

/** Splices a pre-serialised `pairs` array into an object body. */
function objectWithPairs(head: Record<string, unknown>, ctx: RenderContext): string {
  const text = JSON.stringify(head);
  return `${text.slice(0, -1)},"pairs":${pagePairsJson(ctx)}}`;
}

/**
 * CSV line of one pair (spec 2.1 columns). Not cached per pair: the rendered answers are (the
 * answer LRU), and a per-pair cache grew with every pair ever asked for (about 250 bytes each,
 * 650,000 pairs over the default store's analyses: RSS kept rising under the 10-minute soak, bench/soak.ts).
 */
function csvLine(catalog: Catalog, id: number): string {
  const pair = catalog.pairs[id];
  return PAIR_FIELDS.map((f) => csvCell(pair[f])).join(',');
}

function renderCsv(ctx: RenderContext): Rendered {
  const lines = [PAIR_FIELDS.join(',')];
  for (const id of ctx.page) lines.push(csvLine(ctx.catalog, id));
  return { contentType: 'text/csv; charset=utf-8; header=present', body: `${lines.join('\r\n')}\r\n` };
}

function profileQuery(params: SignalsParams): string {
  if (params.vaccine !== undefined && params.event !== undefined) return `${params.vaccine} x ${params.event}`;
  return params.vaccine ?? params.event ?? params.q ?? '';
}

function renderProfile(ctx: RenderContext): Rendered {
  const head = {
    query: profileQuery(ctx.params),
    kind: ctx.match.kind,
    reports_through: ctx.catalog.reportsThrough,
    n_pairs: ctx.match.ids.length,
    returned: ctx.page.length,
    hypothesis: HYPOTHESIS,
  };
  return { contentType: JSON_TYPE, body: objectWithPairs(head, ctx) };
}

function renderClass(ctx: RenderContext): Rendered {
  const head = {
    vax_type: ctx.match.classTypes,
    vaccines: ctx.match.classVaccines,
    event: ctx.params.event ?? null,
    reports_through: ctx.catalog.reportsThrough,
    n_pairs: ctx.match.ids.length,
    hypothesis: HYPOTHESIS,
  };
  return { contentType: JSON_TYPE, body: objectWithPairs(head, ctx) };
}

/** Markdown table cell: pipes escaped, line breaks flattened. */
function mdCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

const BRIEF_COLUMNS: ReadonlyArray<keyof Pair> = ['vaccine', 'event', 'n', 'eb05', 'ewma_eb05', 'n_methods_max', 'quarters_flagged', 'first_quarter', 'latest_quarter', 'emerging', 'background_note'];

/**
 * Spec 4.1 brief: Markdown with the hypothesis, the filters applied, the rows the filters left
 * out, the rows the page left out, and the n / n_unique note. Wording (docs/api.md "API: /signals"):
 * - `Query:` the query filters that select the pairs (vaccine/drug, event, q; at least one is
 *   always present);
 * - `Filters:` the thresholds applied after the aggregate, `min_eb05 >= X`, `min_n >= Y`, or
 *   `Filters: none` when no threshold was given;
 * - "left out by the filters": pairs matched by the query but removed by the thresholds.
 */
function renderBrief(ctx: RenderContext): Rendered {
  const { params, match, page } = ctx;
  const total = match.ids.length;
  // The query is the client's text: escaped as the /pipeline brief escapes a registry's (no raw HTML, no link).
  const query = (['vaccine', 'event', 'q'] as const).filter((k) => params[k] !== undefined).map((k) => `${k}=${escapeMarkdown(String(params[k]))}`);
  const filters: string[] = [];
  if (params.min_eb05 !== undefined) filters.push(`min_eb05 >= ${params.min_eb05}`);
  if (params.min_n !== undefined) filters.push(`min_n >= ${params.min_n}`);
  const first = page.length === 0 ? 0 : params.offset + 1;
  const lines = [
    '# Vaccine adverse-event reporting signals',
    '',
    `> ${HYPOTHESIS}`,
    '',
    `- Query: ${query.join(', ')}`,
    `- Filters: ${filters.length === 0 ? 'none (no min_eb05 or min_n threshold)' : filters.join(', ')}`,
    `- Pairs matched by the query: ${match.matchedBeforeFilters}; left out by the filters: ${match.matchedBeforeFilters - total}; remaining: ${total}`,
    `- This page: rows ${first} to ${params.offset + page.length} of ${total} (sort ${params.sort} ${params.order}, limit ${params.limit}, offset ${params.offset}); left out by this page: ${total - page.length}`,
    `- Reports through: ${ctx.catalog.reportsThrough ?? 'none'}`,
    '',
  ];
  if (page.length > 0) {
    lines.push(`| ${BRIEF_COLUMNS.join(' | ')} |`, `|${BRIEF_COLUMNS.map(() => '---').join('|')}|`);
    for (const id of page) {
      const pair = ctx.catalog.pairs[id];
      lines.push(`| ${BRIEF_COLUMNS.map((c) => mdCell(pair[c])).join(' | ')} |`);
    }
  } else {
    lines.push('No pairs on this page.');
  }
  lines.push(
    '',
    'Note: `n` is the sum of quarterly counts over overlapping 4-quarter windows, so it is not a count of unique reports; `n_unique` (distinct report ids) is not in the extract.',
    '`eb05` is the peak quarterly EB05 among quarters flagged by at least 2 methods.',
    '',
  );
  return { contentType: 'text/plain; charset=utf-8', body: lines.join('\n') };
}

/** The registry: keys are exactly the spec 4.1 format enum. */
export const RENDERERS: Record<Format, Renderer> = {
  json: (ctx) => ({ contentType: JSON_TYPE, body: pagePairsJson(ctx) }),
  csv: renderCsv,
  series: renderSeries,
  profile: renderProfile,
  brief: renderBrief,
  class: renderClass,
};
