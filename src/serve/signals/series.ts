/**
 * `format=series` (spec 2.3): the quarterly rows of one pair, from the records the catalog
 * loaded once (series-store.ts: memory or one positioned file read; no SQL per request). When
 * several pairs match, the one with the highest peak EB05 (`eb05`, nulls last, ties by vaccine
 * then event). When none matches, the Series object has
 * `n_pairs_matched` 0 and an empty `quarters` list (spec 7: an unknown vaccine or event is a
 * 200 with an empty list).
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { QUARTER_OBJECT_COLUMNS, type QuarterObject, type QuarterlyRow } from '../../domain/columns.js';
import { readField, recordViews, SERIES_FIELDS, type SeriesField } from '../store/series-store.js';
import type { Catalog } from './catalog.js';
import type { RenderContext, Rendered } from './render-context.js';

/**
 * Spec 2.3 quarter object (`ic025` only when the store has that column): the `quarterObject`
 * columns of src/domain/columns.ts, in table order.
 */
export type SeriesQuarter = QuarterObject;

/** The quarter-object fields a store serves: all, or all but the optional ones (`ic025`) when it lacks them. */
const QUARTER_FIELDS = {
  withIc025: QUARTER_OBJECT_COLUMNS.map((c) => c.name),
  withoutIc025: QUARTER_OBJECT_COLUMNS.filter((c) => !('optional' in c)).map((c) => c.name),
};

/** Maps a stored quarterly row to the spec 2.3 quarter object. */
export function seriesQuarter(row: QuarterlyRow, hasIc025: boolean): SeriesQuarter {
  const q: Record<string, unknown> = {};
  for (const name of hasIc025 ? QUARTER_FIELDS.withIc025 : QUARTER_FIELDS.withoutIc025) q[name] = row[name];
  return q as SeriesQuarter;
}

/** The series-record field of each served quarter-object field (every one is in the record), in quarter-object order. */
const RECORD_FIELDS = {
  withIc025: QUARTER_FIELDS.withIc025.map(recordField),
  withoutIc025: QUARTER_FIELDS.withoutIc025.map(recordField),
};

function recordField(name: string): SeriesField {
  const field = SERIES_FIELDS.find((f) => f.name === name);
  if (!field) throw new Error(`series record: the quarter-object field ${name} has no record offset`);
  return field;
}

/**
 * The spec 2.3 quarter objects of pair `id`, quarters ascending, from the catalog's series
 * records (one read; the same values as the store's rows through `seriesQuarter`).
 */
export function pairSeries(catalog: Catalog, id: number): SeriesQuarter[] {
  const count = catalog.seriesTo[id] - catalog.seriesFrom[id];
  const out: SeriesQuarter[] = [];
  if (count <= 0) return out;
  const views = recordViews(catalog.series.read(catalog.seriesFrom[id], count));
  const fields = catalog.hasIc025 ? RECORD_FIELDS.withIc025 : RECORD_FIELDS.withoutIc025;
  for (let r = 0; r < count; r++) {
    const q: Record<string, unknown> = {};
    for (const field of fields) q[field.name] = readField(views, field, r);
    out.push(q as SeriesQuarter);
  }
  return out;
}

const NOTE =
  'Quarterly statistics of the 4-quarter window ending at each quarter, every quarter of the pair (including quarters below the flagged floor). eb50 is the quarterly posterior median, not an EBGM; n overlaps between windows.';

/** The query of a request as `vaccine="X", event="Y"` (and q, min_eb05, min_n when given), for the no-match note. */
function noMatchQuery(params: RenderContext['params']): string {
  const parts = (['vaccine', 'event', 'q', 'min_eb05', 'min_n'] as const).filter((k) => params[k] !== undefined);
  return parts.map((k) => `${k}=${JSON.stringify(params[k])}`).join(', ');
}

/** Renders the Series object of the best-matching pair. */
export function renderSeries(ctx: RenderContext): Rendered {
  const { catalog, match, params } = ctx;
  const rank = catalog.ranks.get('eb05:desc')!;
  let best = -1;
  for (const id of match.ids) if (best < 0 || rank[id] < rank[best]) best = id;
  const pair = best >= 0 ? catalog.pairs[best] : null;
  // No match: the names stay empty strings (the schema requires strings; the query is no
  // vaccine name) and the note echoes the query.
  const vaccine = pair?.vaccine ?? '';
  const body = {
    vaccine,
    drug: vaccine,
    vax_type: pair?.vax_type ?? '',
    event: pair?.event ?? '',
    reports_through: catalog.reportsThrough,
    hypothesis: HYPOTHESIS,
    n_pairs_matched: match.ids.length,
    note: pair
      ? `${NOTE} Shown: the pair with the highest peak EB05 of ${match.ids.length} matched.`
      : `No pair matched the query (${noMatchQuery(params)}): vaccine, drug, vax_type and event are empty strings and quarters is empty.`,
    quarters: pair ? pairSeries(catalog, best) : [],
  };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
