/**
 * The `/cases` resource (the case series): from a query to the reports behind it. Transport-
 * free: `answer(rawQuery, analysis)` returns status, headers and body; src/http sends it.
 *
 * Selection: the names are matched exactly as /signals (src/serve/query/names.ts) over every report's
 * names (not only flagged pairs). With vaccine and event: the reports naming a matched vaccine
 * AND a matched event; with one of them: the reports naming a match; with q: the reports naming
 * a vaccine or an event that q matches. With `text` (src/serve/narratives/query.ts), only the reports
 * whose narratives match it (`text` alone: every such report). Then `from`..`to` (quarters of RECVDATE) and, for
 * `/analyses/NAME/cases`, the analysis's subset rule (src/domain/analysis-rules.ts). The listing is newest
 * RECVDATE first, then VAERS_ID descending (the store's order). With `duplicates=collapse`, each
 * suspected-duplicate cluster then counts once (src/serve/cases/duplicates.ts).
 *
 * An analysis whose items are VAERS VAX_TYPE codes (`types`, `SUBSET@types`) matches `vaccine`
 * and `q` against the codes and their long names, and the case series of a code is every report
 * with a VAX row of that code (src/serve/cases/index.ts `TypeIndex`); its `vaccines` are the matched
 * codes, and the breakdowns read the products of those codes' rows.
 */
import { subsetMask, type AnalysisDefinition } from '../../domain/analysis-rules.js';
import type { EventGroupSet } from '../../domain/event-groups.js';
import { groupTermCounts, groupVocabulary, termsOfItems, type GroupTermCount, type GroupVocabulary } from './groups.js';
import { ownBytes, SizedLru, type CacheStats } from '../query/lru.js';
import { matchNames } from '../query/names.js';
import { quarterOutside } from '../query/quarter-range.js';
import { errorBody, type ErrorBody, type ParamError } from '../query/error-object.js';
import { Unavailable } from '../query/unavailable.js';
import { formatQuarter } from '../../domain/quarter.js';
import { filter } from '../narratives/postings.js';
import { TEXT_USAGE } from '../narratives/query.js';
import { searchesEnded, searchOffThread } from '../narratives/search-pool.js';
import { breakdownSteps, type Breakdowns } from './breakdowns.js';
import { collapseSteps } from './duplicates.js';
import { indexReports, type ReportIndex } from './index.js';
import { readIndexedReports } from './narratives.js';
import { CASES_USAGE, parseCasesQuery, type CasesParams } from './params.js';
import { CASES_RENDERERS, type CaseSeries } from './render.js';
import { reportAnswer, type ReportAnswer } from './report-view.js';
import { runAll, runSliced, type Steps } from './slices.js';
import { reportDayCounts } from './timing.js';
import { ordinalById } from '../query/search.js';

/** Why `text` cannot be served: the store keeps no narratives. */
export const NO_NARRATIVES = 'this store keeps no narratives, so text cannot be searched: rebuild it with "reporting-signals build --vaers DIR --narratives --out FILE"';

/** Cache lifetime of 200 answers. */
export const CASES_CACHE_CONTROL = 'public, max-age=60';
/** Bound of the answer cache: total body bytes. */
export const CASES_CACHE_BYTES = 8 << 20;
/** Bound of the case-series cache (the reports and breakdowns of a query, whatever its page): bytes, about. */
export const CASES_SERIES_BYTES = 16 << 20;
/** Default time budget of the text search of one answer, in milliseconds (the server gives each request's own deadline). */
export const CASES_BUDGET_MS = 10_000;

/**
 * Why an analysis of a store has no case series: this program does not know its subset rule (a
 * store built by another version), so its reports cannot be restricted and are not served.
 */
export function unknownRule(name: string): string {
  return `analysis "${name.slice(0, 100)}" of this store has a subset rule this program does not know (a store built by another version?): its case series cannot be served`;
}

/** One answer of GET /cases: a 200 carries its headers (lower-case names) and the normalised query with the analysis (`key`). */
export type CasesAnswer =
  | { status: 200; body: Buffer; headers: Record<string, string>; key: string }
  | { status: 400; body: ErrorBody };

/** The reports a query selects (ascending report indexes), the matched names (null: not asked) and the onset comparison's other group (null: none). */
export interface Selection {
  reports: Int32Array;
  vaccines: string[] | null;
  events: string[] | null;
  others: Int32Array | null;
}

/** The case series of a query before paging (what every page, limit and format of it shares), with its size in bytes for the cache. */
interface Computed {
  ok: true;
  selected: Selection;
  /** Reports folded by `duplicates=collapse`. */
  folded: number;
  /** Distinct cases of the series: its reports with each suspected-duplicate cluster once. */
  cases: number;
  breakdowns: Breakdowns;
  /** In an analysis of event groups: per term of the matched groups, the reports carrying it (else null). */
  groupTerms: GroupTermCount[] | null;
  bytes: number;
}

/** A computation under way, shared by the requests waiting for it. */
interface Flight {
  promise: Promise<Computed | { ok: false; error: ErrorBody }>;
  controller: AbortController;
  waiting: number;
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** The case series of one store. */
export class CasesService {
  /** Answer-cache lookups of every CasesService of the process (200 answers only). */
  static readonly stats: CacheStats = { hits: 0, misses: 0 };
  private readonly answers = new SizedLru<CasesAnswer>(CASES_CACHE_BYTES);
  private readonly series = new SizedLru<Computed>(CASES_SERIES_BYTES);
  private readonly flights = new Map<string, Flight>();
  private readonly subsets = new Map<string, Uint8Array>();

  /** Report indexes sorted by VAERS_ID (for a store without narratives; built on first use). */
  private byId: Int32Array | null = null;

  /** The group vocabularies of the analyses of event groups, by analysis name (built on first use). */
  private readonly groupVocabularies = new Map<string, GroupVocabulary>();

  private constructor(readonly index: ReportIndex, private readonly reportsThrough: string | null, private readonly eventGroups: ReadonlyMap<string, EventGroupSet>) {}

  /** The event groups of an analysis whose events are groups (its grouping file, from the store's metadata), or null. */
  private groupsOf(analysis: AnalysisDefinition | null): GroupVocabulary | null {
    if (analysis?.items !== 'event_group') return null;
    let groups = this.groupVocabularies.get(analysis.name);
    const set = this.eventGroups.get(analysis.name);
    if (!groups && set) this.groupVocabularies.set(analysis.name, (groups = groupVocabulary(this.index.vocabulary, set)));
    return groups ?? null;
  }

  /** The report index of a VAERS_ID, or -1 when the store has no such report. O(log n). */
  ordinalOf(id: number): number {
    if (this.index.narratives) return this.index.narratives.ordinalOf(id);
    const ids = this.index.data.id;
    this.byId ??= Int32Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b]);
    return ordinalById(ids, this.byId, id);
  }

  /** Answers GET /reports/{idText} (src/serve/cases/report-view.ts); `analyses` are the store's analysis names. */
  report(idText: string, search: string, wantsHtml: boolean, analyses: readonly string[]): ReportAnswer {
    return reportAnswer(this.index, (id) => this.ordinalOf(id), idText, search, wantsHtml, analyses, this.reportsThrough);
  }

  /**
   * Reads the report tables of the store once (the narrative index from its file beside the store
   * when it is this store's: src/serve/cases/narratives.ts readIndexedReports); `reportsThrough` is the store's (its metadata, read by the caller), and
   * `eventGroups` the grouping files of its analyses of event groups, by analysis name (src/serve/store/event-groups.ts).
   * @returns the service, or null when the store has no report tables (an import, an older store).
   * @throws Error naming the file when the store cannot be read.
   */
  static async open(storePath: string, reportsThrough: string | null, eventGroups: ReadonlyMap<string, EventGroupSet> = new Map()): Promise<CasesService | null> {
    const read = await readIndexedReports(storePath);
    if (!read) return null;
    // The day counts every case series reads, computed at load rather than by the first query.
    reportDayCounts(read.data);
    return new CasesService(indexReports(read.data, read.narratives), reportsThrough, eventGroups);
  }

  /**
   * Stops serving: closes the narrative index's file (NarrativeIndex.close) once the text searches
   * running on it have ended. Called when the generation serving the store closes (no request
   * holds it any more); after, a text search or a narrative read of this service fails.
   */
  async close(): Promise<void> {
    const narratives = this.index.narratives;
    if (!narratives) return;
    await searchesEnded(narratives);
    narratives.close();
  }

  /** Reports kept by an analysis's subset rule (1) or not (0), computed once per analysis. */
  private subset(analysis: AnalysisDefinition): Uint8Array {
    let mask = this.subsets.get(analysis.name);
    if (!mask) {
      mask = subsetMask(analysis, this.index.data);
      this.subsets.set(analysis.name, mask);
    }
    return mask;
  }

  /**
   * The reports of a query, ascending (the listing's order), and the matched names; with a vaccine
   * and an event (not q), also `others`: the reports naming a matched event and no matched vaccine,
   * under the same quarters, analysis and text (else null). The text is searched in this thread
   * (callers without an event loop to protect: the evaluate command, tests); {@link answer}
   * searches in the worker pool.
   */
  select(params: CasesParams, analysis: AnalysisDefinition | null): { ok: true } & Selection | { ok: false; error: ErrorBody } {
    const names = runAll(this.selectSteps(params, analysis));
    if (!names.ok) return names;
    return { ok: true, ...names.split(params.text ? this.index.narratives!.search(params.text, names.within ?? undefined) : names.within!) };
  }

  /**
   * The selection by names, quarters and analysis, in steps: the reports to search the text
   * within (`within`, ascending; null: every report, for a text alone; without text, the
   * candidates themselves) and how to split the reports found into the Selection. The text is
   * searched once, even with a vaccine and an event (within the union of both groups). A text
   * whose prefixes expand too far (NarrativeIndex.tooBroad) is a 400 here, before any search.
   */
  private *selectSteps(params: CasesParams, analysis: AnalysisDefinition | null): Steps<{ ok: true; within: Int32Array | null; split: (found: Int32Array) => Selection } | { ok: false; error: ErrorBody }> {
    const { data, narratives } = this.index;
    if (params.text && !narratives) return { ok: false, error: errorBody(NO_NARRATIVES, { usage: TEXT_USAGE }) };
    const broad = params.text ? narratives!.tooBroad(params.text) : null;
    if (broad !== null) return { ok: false, error: errorBody(broad, { usage: TEXT_USAGE }) };
    const mask = analysis ? this.subset(analysis) : null;
    const from = params.from ?? -Infinity;
    const to = params.to ?? Infinity;
    const keep = (r: number): boolean => data.quarter[r] >= from && data.quarter[r] <= to && (!mask || mask[r] === 1);
    if (params.vaccine === undefined && params.event === undefined && params.q === undefined) {
      // Text alone: its reports, then the quarters and the analysis's subset.
      return { ok: true, within: null, split: (found: Int32Array) => ({ reports: filter(found, keep), vaccines: null, events: null, others: null }) };
    }
    const byType = analysis?.items === 'vax_type_code';
    // In an analysis of event groups, `event` names a group item and selects the reports carrying any of its terms.
    const groups = this.groupsOf(analysis);
    const names = matchNames(byType ? this.index.types.vocabulary : groups ? groups.vocabulary : this.index.vocabulary, params, CASES_USAGE);
    if (!names.ok) return { ok: false, error: errorBody(names.error.error, names.error) };
    // With a vaccine and an event: the event's reports naming no matched vaccine (the onset
    // comparison's other group) are candidates too; `mark` tells the two groups apart.
    const pair = !names.union && names.vaccines !== null && names.events !== null;
    // The candidates come from the names' own report lists (each ascending), not from a scan of
    // every report: a pair's are its event's reports (both names, 3, or the event alone, 2; not
    // the vaccine alone, 1), otherwise every listed report.
    const listsOf = (lists: Map<string, Int32Array>, keys: readonly string[]): Int32Array[] => keys.flatMap((key) => lists.get(key) ?? []);
    const vaccineLists = listsOf(byType ? this.index.types.reportsByCode : this.index.reportsByVaccine, names.vaccines ?? []);
    const eventLists = listsOf(this.index.reportsByEvent, groups ? termsOfItems(groups, names.events ?? []) : names.events ?? []);
    const scan = pair ? eventLists : [...vaccineLists, ...eventLists];
    let total = 0;
    for (const list of scan) total += list.length;
    // Lists too long to sort in one slice of the event loop: every report scanned, as marked, with yields.
    const scanAll = scan.length > 1 && total > data.count / 8;
    // Which names each report carries (1 vaccine, 2 event): needed to split a pair's reports, or to scan them all.
    const mark = pair || scanAll ? new Uint8Array(data.count) : null;
    if (mark) {
      for (const list of vaccineLists) for (const r of list) mark[r] |= 1;
      for (const list of eventLists) for (const r of list) mark[r] |= 2;
    }
    yield;
    const candidates: number[] = [];
    if (scanAll) {
      const bits = pair ? 2 : 3;
      for (let r = 0; r < data.count; r++) {
        if (r % 16384 === 16383) yield;
        if ((mark![r] & bits) !== 0 && keep(r)) candidates.push(r);
      }
    } else {
      const listed = scan.length === 1 ? scan[0] : ascendingUnion(scan);
      for (let i = 0; i < listed.length; i++) {
        if (i % 16384 === 16383) yield;
        const r = listed[i];
        if (keep(r)) candidates.push(r);
      }
    }
    const split = (found: Int32Array): Selection => {
      if (!pair) return { reports: found, vaccines: names.vaccines, events: names.events, others: null };
      const reports: number[] = [];
      const others: number[] = [];
      for (const r of found) (mark![r] === 3 ? reports : others).push(r);
      return { reports: Int32Array.from(reports), vaccines: names.vaccines, events: names.events, others: Int32Array.from(others) };
    };
    return { ok: true, within: Int32Array.from(candidates), split };
  }

  /**
   * Answers one request given its raw query string (without `?`); never throws for bad input.
   * The text is searched in the worker pool (src/serve/narratives/search-pool.ts) and the rest runs in
   * slices of the event loop (src/serve/cases/slices.ts). The case series of a query (its reports and
   * breakdowns, whatever the page and format) is computed once and cached, so another `offset`,
   * `limit` or `format` only renders a page; identical queries computed at the same time share one
   * computation (stopped when every request waiting for it has left).
   * @param options.signal aborts the work (the request's deadline passed or its client left)
   * @param options.deadline epoch milliseconds after which a text search stops (default: CASES_BUDGET_MS from now)
   * @throws the signal's reason when it aborts; Unavailable `busy` or `deadline` when the work was refused or stopped.
   */
  async answer(search: string, analysis: AnalysisDefinition | null = null, options: { signal?: AbortSignal; deadline?: number } = {}): Promise<CasesAnswer> {
    const parsed = parseCasesQuery(search);
    if (!parsed.ok) return { status: 400, body: errorBody(parsed.error.error, parsed.error) };
    const key = `${analysis?.name ?? ''}\u0000${parsed.key}`;
    const cached = this.answers.get(key);
    if (cached) {
      CasesService.stats.hits++;
      return cached;
    }
    const { params } = parsed;
    const outside = this.outsideQuarters(params);
    if (outside) return { status: 400, body: errorBody(outside.error, outside) };
    const { signal } = options;
    const computed = await this.computed(params, analysis, options.deadline ?? Date.now() + CASES_BUDGET_MS, signal);
    if (!computed.ok) return { status: 400, body: computed.error };
    CasesService.stats.misses++;
    const series = this.caseSeries(params, analysis, computed);
    const rendered = await runSliced(CASES_RENDERERS[params.format](series, this.index), signal);
    const body = ownBytes(rendered.body);
    const answer: CasesAnswer = {
      status: 200,
      key,
      body,
      headers: {
        'content-type': rendered.contentType,
        'x-total-count': String(series.n_reports),
        'x-limit': String(params.limit),
        'x-offset': String(params.offset),
        'x-reports-through': this.reportsThrough ?? 'none',
        'cache-control': CASES_CACHE_CONTROL,
      },
    };
    this.answers.set(key, answer, body.length + 256);
    return answer;
  }

  /** The 400 Error fields when `from` or `to` lies outside the quarters of the store's reports (src/serve/query/quarter-range.ts), else null. */
  private outsideQuarters(params: CasesParams): ParamError | null {
    const { data } = this.index;
    const range = data.count > 0 ? { first: formatQuarter(data.quarter[data.count - 1]), last: formatQuarter(data.quarter[0]) } : null;
    for (const [name, value] of [['from', params.from], ['to', params.to]] as const) {
      const outside = value === undefined ? null : quarterOutside(name, formatQuarter(value).padStart(6, '0'), range, 'the reports of this store', CASES_USAGE);
      if (outside) return outside;
    }
    return null;
  }

  /** The case series of a query before paging: from the cache, from a computation under way, or computed now. */
  private async computed(params: CasesParams, analysis: AnalysisDefinition | null, deadline: number, signal?: AbortSignal): Promise<Computed | { ok: false; error: ErrorBody }> {
    const key = JSON.stringify([analysis?.name ?? '', params.vaccine, params.event, params.q, params.from, params.to, params.textKey, params.duplicates]);
    const hit = this.series.get(key);
    if (hit) return hit;
    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const promise = this.compute(params, analysis, deadline, controller.signal).then((result) => {
        if (result.ok) this.series.set(key, result, result.bytes);
        return result;
      });
      const started: Flight = { promise, controller, waiting: 0 };
      const leave = (): void => {
        if (this.flights.get(key) === started) this.flights.delete(key);
      };
      promise.then(leave, leave);
      flight = started;
      this.flights.set(key, flight);
    }
    const shared = flight;
    shared.waiting++;
    try {
      return await abortable(shared.promise, signal);
    } finally {
      if (--shared.waiting === 0 && this.flights.get(key) === shared) {
        // Every request waiting for it has left (or it is done): stop it, and let the next request start afresh.
        this.flights.delete(key);
        shared.controller.abort(signal?.reason ?? new Unavailable('cancelled', 'no request waits for this case series'));
      }
    }
  }

  /** Computes the case series of a query (selection, text search off the thread, duplicates, breakdowns). */
  private async compute(params: CasesParams, analysis: AnalysisDefinition | null, deadline: number, signal: AbortSignal): Promise<Computed | { ok: false; error: ErrorBody }> {
    const names = await runSliced(this.selectSteps(params, analysis), signal);
    if (!names.ok) return names;
    const found = params.text ? await searchOffThread(this.index.narratives!, params.text, names.within, deadline, signal) : names.within!;
    const selected = names.split(found);
    // Collapsed whatever `duplicates` asks: the distinct cases stand beside n_reports.
    const distinct = await runSliced(collapseSteps(this.index.data, selected.reports), signal);
    const collapsed = params.duplicates === 'collapse' ? distinct : { reports: selected.reports, folded: 0 };
    const reports = collapsed.reports;
    const vaccines = analysis?.items === 'vax_type_code' && selected.vaccines
      ? [...new Set(selected.vaccines.flatMap((code) => this.index.types.productsOf.get(code) ?? []))] : selected.vaccines;
    const groups = this.groupsOf(analysis);
    const events = groups && selected.events ? termsOfItems(groups, selected.events) : selected.events;
    const counts = await runSliced(breakdownSteps(this.index, reports, vaccines, events, selected.others), signal);
    const groupTerms = groups ? groupTermCounts(groups, selected.events ?? [], reports, this.index.data.count, this.index.reportsByEvent) : null;
    const bytes = 4 * (reports.length + (selected.others?.length ?? 0)) + JSON.stringify(counts).length + JSON.stringify(groupTerms).length + 1024;
    return { ok: true, selected: { ...selected, reports }, folded: collapsed.folded, cases: distinct.reports.length, breakdowns: counts, groupTerms, bytes };
  }

  private caseSeries(params: CasesParams, analysis: AnalysisDefinition | null, computed: Computed): CaseSeries {
    const { data } = this.index;
    const { selected, folded } = computed;
    const page = selected.reports.subarray(params.offset, params.offset + params.limit);
    const first = data.count > 0 ? data.quarter[data.count - 1] : null;
    const last = data.count > 0 ? data.quarter[0] : null;
    return {
      query: { vaccine: params.vaccine ?? null, event: params.event ?? null, q: params.q ?? null, ...(params.textKey === undefined ? {} : { text: params.textKey }),
        from: params.from === undefined ? null : formatQuarter(params.from), to: params.to === undefined ? null : formatQuarter(params.to) },
      text: params.text ?? null,
      analysis: analysis?.name ?? null,
      vaccines: selected.vaccines ?? [],
      events: selected.events ?? [],
      ...(computed.groupTerms ? { group_terms: computed.groupTerms } : {}),
      from: params.from !== undefined ? formatQuarter(params.from) : first === null ? null : formatQuarter(first),
      to: params.to !== undefined ? formatQuarter(params.to) : last === null ? null : formatQuarter(last),
      reports_through: this.reportsThrough,
      n_reports: selected.reports.length,
      n_cases: computed.cases,
      duplicates: params.duplicates,
      reports_folded: folded,
      breakdowns: computed.breakdowns,
      limit: params.limit,
      offset: params.offset,
      page,
    };
  }
}

/** The distinct report indexes of ascending lists, ascending (a concatenation sorted, repeats dropped). */
function ascendingUnion(lists: readonly Int32Array[]): Int32Array {
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Int32Array(total);
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.subarray(0, n);
}
