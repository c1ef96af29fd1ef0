/**
 * `format=series` (spec 2.3): the quarterly rows of one pair, from the records the catalog
 * loaded once (series-store.ts: memory or one positioned file read; no SQL per request). When
 * several pairs match, the one with the highest peak EB05 (`eb05`, nulls last, ties by vaccine
 * then event). When none matches, the Series object has
 * `n_pairs_matched` 0 and an empty `quarters` list (spec 7: an unknown vaccine or event is a
 * 200 with an empty list).
 */
import { HYPOTHESIS } from '../spec/caveats.js';
import { formatQuarter } from '../spec/quarter.js';
import type { QuarterlyRow } from '../store/schema.js';
import { NULL_INT, recordViews } from '../store/series-store.js';
import type { Catalog } from './catalog.js';
import type { RenderContext, Rendered } from './render-context.js';

/** Spec 2.3 quarter object (`ic025` only when the store has that column). */
export interface SeriesQuarter {
  quarter: string;
  n: number | null;
  eb05: number | null;
  eb50: number | null;
  eb95: number | null;
  prr: number | null;
  ror: number | null;
  ic: number | null;
  ic025?: number | null;
  n_methods_flagged: number | null;
  is_signal_any: boolean;
}

/** Maps a stored quarterly row to the spec 2.3 quarter object. */
export function seriesQuarter(row: QuarterlyRow, hasIc025: boolean): SeriesQuarter {
  const q: SeriesQuarter = {
    quarter: row.quarter, n: row.n, eb05: row.eb05, eb50: row.eb50, eb95: row.eb95, prr: row.prr, ror: row.ror, ic: row.ic,
  } as SeriesQuarter;
  if (hasIc025) q.ic025 = row.ic025;
  q.n_methods_flagged = row.n_methods_flagged;
  q.is_signal_any = row.is_signal_any;
  return q;
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/**
 * The spec 2.3 quarter objects of pair `id`, quarters ascending, from the catalog's series
 * records (one read; the same values as the store's rows through `seriesQuarter`).
 */
export function pairSeries(catalog: Catalog, id: number): SeriesQuarter[] {
  const count = catalog.seriesTo[id] - catalog.seriesFrom[id];
  const out: SeriesQuarter[] = [];
  if (count <= 0) return out;
  const { u16, i8, u8, i32, f64 } = recordViews(catalog.series.read(catalog.seriesFrom[id], count));
  for (let r = 0; r < count; r++) {
    const n = i32[r * 16 + 1];
    const d = r * 8 + 1;
    const q = {
      quarter: formatQuarter(u16[r * 32]), n: n === NULL_INT ? null : n, eb05: orNull(f64[d]), eb50: orNull(f64[d + 1]),
      eb95: orNull(f64[d + 2]), prr: orNull(f64[d + 3]), ror: orNull(f64[d + 4]), ic: orNull(f64[d + 5]),
    } as SeriesQuarter;
    if (catalog.hasIc025) q.ic025 = orNull(f64[d + 6]);
    const nmf = i8[r * 64 + 2];
    q.n_methods_flagged = nmf < 0 ? null : nmf;
    q.is_signal_any = u8[r * 64 + 3] === 1;
    out.push(q);
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
