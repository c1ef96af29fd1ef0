/**
 * The answers of GET /interactions, GET /interactions/series and GET /masking (docs/interactions.md),
 * transport-free: each takes parsed parameters and what the store holds (read by
 * src/serve/store/interactions.ts, the reports in memory of src/serve/cases) and returns the status
 * and JSON body. Every answer carries the caveat (src/domain/interactions.ts INTERACTION_CAVEAT).
 */
import { errorBody, type ErrorBody } from '../query/error-object.js';
import { HYPOTHESIS } from '../query/caveats.js';
import { INTERACTION_CAVEAT, MIN_CO_REPORTS, MIN_TRIPLE_REPORTS, type InteractionRow } from '../../domain/interactions.js';
import type { Hyperparameters } from '../../domain/mgps-prior.js';
import { parseQuarter, formatQuarter, WINDOW_QUARTERS } from '../../domain/quarter.js';
import { quarterOutside } from '../query/quarter-range.js';
import type { InteractionSignals } from '../store/interactions.js';
import type { ReportIndex } from '../cases/index.js';
import { rowKey, windowTripleEvidence, type TripleEvidence } from './cautions.js';
import { countMasking, pairStatistics, rankMaskers, unmasked, type Masker, type PairStatisticsOf } from './masking.js';
import { INTERACTIONS_USAGE, MASKING_USAGE, SERIES_USAGE, type InteractionsParams, type MaskingParams, type SeriesParams } from './params.js';

/** A status with its JSON body. */
export type InteractionsAnswer = { status: 200; body: object; total?: number } | { status: 400; body: ErrorBody };

/** What a stored row serves: every column but the analysis and window (the answer names them once). */
function served(row: InteractionRow): Omit<InteractionRow, 'analysis' | 'quarter'> {
  const { analysis: _analysis, quarter: _quarter, ...rest } = row;
  return rest;
}

/** The bound the build used, as every answer states it. */
const BOUNDS = { min_co_reports: MIN_CO_REPORTS, min_triple_reports: MIN_TRIPLE_REPORTS } as const;

/** A 400 unless `name` is one of `names` (null: not checked). */
function unknownName(kind: string, name: string | undefined, has: ((name: string) => boolean) | null, usage: string): InteractionsAnswer | null {
  if (name === undefined || has === null || has(name)) return null;
  return { status: 400, body: errorBody(`no ${kind} named "${name.slice(0, 100)}" in this store (names are exact: ${kind === 'vaccine' ? 'GET /vaccines lists them' : 'as /signals spells them'})`, { usage }) };
}

/** Name checks of a store's reports (null: the store has no report tables, names are not checked). */
export interface NameCheck { vaccine: ((name: string) => boolean) | null; event: ((name: string) => boolean) | null }

/** The name checks of a report index (null: none). */
export function namesOf(index: ReportIndex | null): NameCheck {
  return index === null ? { vaccine: null, event: null } : { vaccine: (n) => index.vaccineIdOf.has(n), event: (n) => index.eventIdOf.has(n) };
}

/** The cautions of each window's signals, per report index (one per store generation) and window. */
const evidenceCache = new WeakMap<ReportIndex, Map<string, Map<string, TripleEvidence>>>();

/** The cautions and Omega within age groups of a window's signals (cautions.ts), kept per report index and window. */
function evidenceOf(index: ReportIndex, quarter: string, rows: readonly InteractionRow[]): Map<string, TripleEvidence> {
  let byQuarter = evidenceCache.get(index);
  if (!byQuarter) evidenceCache.set(index, (byQuarter = new Map()));
  let evidence = byQuarter.get(quarter);
  if (!evidence) {
    const to = parseQuarter(quarter)!;
    byQuarter.set(quarter, (evidence = windowTripleEvidence(rows, index, to - WINDOW_QUARTERS + 1, to)));
  }
  return evidence;
}

/**
 * GET /interactions: a window's signals (Omega025 > 0), ranked, filtered and paged; with the
 * reports held (`index`), each carries its cautions and Omega within age groups (cautions.ts) and
 * the rows with a caution rank after the others (each part in Omega025 order).
 */
export function interactionsAnswer(analysis: string, params: InteractionsParams, signals: InteractionSignals, names: NameCheck, index: ReportIndex | null = null): InteractionsAnswer {
  const outside = params.quarter === null ? null : quarterOutside('quarter', params.quarter, signals.range, 'the windows with stored interactions', INTERACTIONS_USAGE);
  if (outside) return { status: 400, body: errorBody(outside.error, outside) };
  const bad = unknownName('vaccine', params.vaccine, names.vaccine, INTERACTIONS_USAGE) ?? unknownName('event', params.event, names.event, INTERACTIONS_USAGE);
  if (bad) return bad;
  const quarter = params.quarter ?? signals.range?.last ?? null;
  const all = (quarter === null ? [] : signals.byQuarter.get(quarter) ?? [])
    .filter((r) => (params.vaccine === undefined || r.vaccine1 === params.vaccine || r.vaccine2 === params.vaccine) && (params.event === undefined || r.event === params.event));
  const evidence = index === null || quarter === null ? null : evidenceOf(index, quarter, signals.byQuarter.get(quarter) ?? []);
  const cautioned = (r: InteractionRow): boolean => (evidence?.get(rowKey(r))?.cautions.length ?? 0) > 0;
  const ranked = evidence === null ? all : [...all.filter((r) => !cautioned(r)), ...all.filter(cautioned)];
  const page = ranked.slice(params.offset, params.offset + params.limit)
    .map((r) => ({ ...served(r), ...(evidence ? evidence.get(rowKey(r)) ?? { cautions: [], omega_age: null } : {}) }));
  return {
    status: 200, total: all.length,
    body: { analysis, quarter, total: all.length, limit: params.limit, offset: params.offset, ...BOUNDS, hypothesis: HYPOTHESIS, caveat: INTERACTION_CAVEAT, interactions: page },
  };
}

/** GET /interactions/series: the stored rows of one triple in every window from the first to the last stored window (null fields: not stored). */
export function seriesAnswer(analysis: string, params: SeriesParams, signals: InteractionSignals, rows: readonly InteractionRow[], names: NameCheck): InteractionsAnswer {
  const bad = unknownName('vaccine', params.vaccine1, names.vaccine, SERIES_USAGE) ?? unknownName('vaccine', params.vaccine2, names.vaccine, SERIES_USAGE)
    ?? unknownName('event', params.event, names.event, SERIES_USAGE);
  if (bad) return bad;
  const byQuarter = new Map(rows.map((r) => [r.quarter, r]));
  const series: object[] = [];
  if (signals.range !== null) {
    for (let q = parseQuarter(signals.range.first)!; q <= parseQuarter(signals.range.last)!; q++) {
      const row = byQuarter.get(formatQuarter(q));
      series.push(row ? { quarter: row.quarter, stored: true, signal: row.omega025 > 0, ...served(row) } : { quarter: formatQuarter(q), stored: false });
    }
  }
  return {
    status: 200,
    body: {
      analysis, vaccine1: params.vaccine1, vaccine2: params.vaccine2, event: params.event, ...BOUNDS, hypothesis: HYPOTHESIS, caveat: INTERACTION_CAVEAT,
      note: `A window is stored when the two vaccines share at least ${MIN_CO_REPORTS} reports and the event is on at least ${MIN_TRIPLE_REPORTS} of them (fewer is never a signal); stored false: below either bound.`,
      windows_stored: rows.length, series,
    },
  };
}

/** The fitted windows of the analysis the masking answers read: quarter -> prior. */
export type Priors = ReadonlyMap<string, Hyperparameters | null>;

/** GET /masking: the pair's PRR and EB05 in a window, its maskers ranked by masking ratio, and its statistics without one of them. */
export function maskingAnswer(analysis: string, params: MaskingParams, index: ReportIndex, keep: Uint8Array | null, priors: Priors): InteractionsAnswer {
  const quarters = [...priors.keys()].sort();
  const range = quarters.length ? { first: quarters[0], last: quarters[quarters.length - 1] } : null;
  const outside = params.quarter === null ? null : quarterOutside('quarter', params.quarter, range, `the fitted windows of analysis ${analysis}`, MASKING_USAGE);
  if (outside) return { status: 400, body: errorBody(outside.error, outside) };
  const names = namesOf(index);
  const bad = unknownName('vaccine', params.vaccine, names.vaccine, MASKING_USAGE) ?? unknownName('event', params.event, names.event, MASKING_USAGE)
    ?? unknownName('vaccine', params.without, names.vaccine, MASKING_USAGE);
  if (bad) return bad;
  const quarter = params.quarter ?? range?.last ?? null;
  if (quarter === null) return { status: 400, body: errorBody(`analysis ${analysis} has no fitted window`, { usage: MASKING_USAGE }) };
  const to = parseQuarter(quarter)!;
  const prior = priors.get(quarter) ?? null;
  const counts = countMasking(index, keep, to - WINDOW_QUARTERS + 1, to, index.vaccineIdOf.get(params.vaccine)!, index.eventIdOf.get(params.event)!);
  const maskers: Masker[] = rankMaskers(counts, index.vaccineNames);
  const withoutName = params.without ?? maskers[0]?.vaccine;
  const without: PairStatisticsOf | null = withoutName === undefined ? null : unmasked(counts, index.vaccineIdOf.get(withoutName)!, prior);
  return {
    status: 200,
    body: {
      analysis, quarter, vaccine: params.vaccine, event: params.event, ...pairStatistics(counts.pair, prior),
      hypothesis: HYPOTHESIS, caveat: INTERACTION_CAVEAT,
      note: 'masking_ratio = PRR of the pair on the reports not naming the masker / PRR on every report (Maignen et al. 2014); EB05 uses the window\'s fitted prior (not refitted) and the crude E of the reports counted.',
      maskers_total: maskers.length, maskers: maskers.slice(0, params.limit),
      unmasked: without === null ? null : { without: withoutName, ...without },
    },
  };
}
