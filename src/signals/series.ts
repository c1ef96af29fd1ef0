/**
 * `format=series` (spec 2.3): the quarterly rows of one pair, read from the store on demand
 * (the only per-request SQL). When several pairs match, the one with the highest peak EB05
 * (`eb05`, nulls last, ties by vaccine then event). When none matches, the Series object has
 * `n_pairs_matched` 0 and an empty `quarters` list (spec 7: an unknown vaccine or event is a
 * 200 with an empty list).
 */
import { HYPOTHESIS } from '../http/errors.js';
import type { QuarterlyRow } from '../store/schema.js';
import type { RenderContext, Rendered } from './render.js';

/** Spec 2.3 quarter object (`ic025` only when the store has that column). */
export interface SeriesQuarter {
  quarter: string;
  n: number;
  eb05: number | null;
  eb50: number | null;
  eb95: number | null;
  prr: number | null;
  ror: number | null;
  ic: number | null;
  ic025?: number | null;
  n_methods_flagged: number;
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

const NOTE =
  'Quarterly statistics of the 4-quarter window ending at each quarter, every quarter of the pair (including quarters below the flagged floor). eb50 is the quarterly posterior median, not an EBGM; n overlaps between windows.';

/** Renders the Series object of the best-matching pair. */
export async function renderSeries(ctx: RenderContext): Promise<Rendered> {
  const { catalog, match, params } = ctx;
  const rank = catalog.ranks.get('eb05:desc')!;
  let best = -1;
  for (const id of match.ids) if (best < 0 || rank[id] < rank[best]) best = id;
  const pair = best >= 0 ? catalog.pairs[best] : null;
  const rows = pair ? await ctx.store.series(pair.vaccine, pair.event) : [];
  const vaccine = pair?.vaccine ?? params.vaccine ?? params.q ?? '';
  const body = {
    vaccine,
    drug: vaccine,
    vax_type: pair?.vax_type ?? '',
    event: pair?.event ?? params.event ?? params.q ?? '',
    reports_through: catalog.reportsThrough,
    hypothesis: HYPOTHESIS,
    n_pairs_matched: match.ids.length,
    note: pair
      ? `${NOTE} Shown: the pair with the highest peak EB05 of ${match.ids.length} matched.`
      : 'No pair matched: quarters is empty.',
    quarters: rows.map((r) => seriesQuarter(r, catalog.hasIc025)),
  };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
