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
import { ownBytes, SizedLru, type CacheStats } from '../query/lru.js';
import { matchNames } from '../query/names.js';
import { quarterOutside } from '../query/quarter-range.js';
import { errorBody, type ErrorBody, type ParamError } from '../../domain/error-object.js';
import { formatQuarter } from '../../domain/quarter.js';
import { filter } from '../narratives/postings.js';
import { TEXT_USAGE } from '../narratives/query.js';
import { readReportData } from '../store/reports.js';
import { breakdowns } from './breakdowns.js';
import { collapseClusters } from './duplicates.js';
import { indexReports, type ReportIndex } from './index.js';
import { CASES_USAGE, parseCasesQuery, type CasesParams } from './params.js';
import { CASES_RENDERERS, type CaseSeries } from './render.js';
import { reportAnswer, type ReportAnswer } from './report-view.js';

/** Why `text` cannot be served: the store keeps no narratives. */
export const NO_NARRATIVES = 'this store keeps no narratives, so text cannot be searched: rebuild it with "reporting-signals build --vaers DIR --narratives --out FILE"';

/** Cache lifetime of 200 answers. */
export const CASES_CACHE_CONTROL = 'public, max-age=60';
/** Bound of the answer cache: total body bytes. */
export const CASES_CACHE_BYTES = 8 << 20;

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

/** The case series of one store. */
export class CasesService {
  /** Answer-cache lookups of every CasesService of the process (200 answers only). */
  static readonly stats: CacheStats = { hits: 0, misses: 0 };
  private readonly answers = new SizedLru<CasesAnswer>(CASES_CACHE_BYTES);
  private readonly subsets = new Map<string, Uint8Array>();

  /** Report indexes sorted by VAERS_ID (for a store without narratives; built on first use). */
  private byId: Int32Array | null = null;

  private constructor(readonly index: ReportIndex, private readonly reportsThrough: string | null) {}

  /** The report index of a VAERS_ID, or -1 when the store has no such report. O(log n). */
  ordinalOf(id: number): number {
    if (this.index.narratives) return this.index.narratives.ordinalOf(id);
    const ids = this.index.data.id;
    this.byId ??= Int32Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b]);
    let lo = 0;
    let hi = this.byId.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[this.byId[mid]] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.byId.length && ids[this.byId[lo]] === id ? this.byId[lo] : -1;
  }

  /** Answers GET /reports/{idText} (src/serve/cases/report-view.ts); `analyses` are the store's analysis names. */
  report(idText: string, search: string, wantsHtml: boolean, analyses: readonly string[]): ReportAnswer {
    return reportAnswer(this.index, (id) => this.ordinalOf(id), idText, search, wantsHtml, analyses, this.reportsThrough);
  }

  /**
   * Reads the report tables of the store once; `reportsThrough` is the store's (its metadata, read by the caller).
   * @returns the service, or null when the store has no report tables (an import, an older store).
   * @throws Error naming the file when the store cannot be read.
   */
  static async open(storePath: string, reportsThrough: string | null): Promise<CasesService | null> {
    const data = await readReportData(storePath);
    return data ? new CasesService(indexReports(data), reportsThrough) : null;
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
   * under the same quarters, analysis and text (else null).
   */
  select(params: CasesParams, analysis: AnalysisDefinition | null): { ok: true } & Selection | { ok: false; error: ErrorBody } {
    const { data, narratives } = this.index;
    if (params.text && !narratives) return { ok: false, error: errorBody(NO_NARRATIVES, { usage: TEXT_USAGE }) };
    const mask = analysis ? this.subset(analysis) : null;
    const from = params.from ?? -Infinity;
    const to = params.to ?? Infinity;
    const keep = (r: number): boolean => data.quarter[r] >= from && data.quarter[r] <= to && (!mask || mask[r] === 1);
    if (params.vaccine === undefined && params.event === undefined && params.q === undefined) {
      // Text alone: its reports, then the quarters and the analysis's subset.
      return { ok: true, reports: filter(narratives!.search(params.text!), keep), vaccines: null, events: null, others: null };
    }
    const byType = analysis?.items === 'vax_type_code';
    const names = matchNames(byType ? this.index.types.vocabulary : this.index.vocabulary, params, CASES_USAGE);
    if (!names.ok) return { ok: false, error: errorBody(names.error.error, names.error) };
    const mark = new Uint8Array(data.count);
    const markAll = (lists: Map<string, Int32Array>, keys: readonly string[], bit: number): void => {
      for (const key of keys) for (const r of lists.get(key) ?? []) mark[r] |= bit;
    };
    markAll(byType ? this.index.types.reportsByCode : this.index.reportsByVaccine, names.vaccines ?? [], 1);
    markAll(this.index.reportsByEvent, names.events ?? [], 2);
    const want = names.union || names.vaccines === null || names.events === null ? 3 : 0;
    const out: number[] = [];
    // With a vaccine and an event: the event's reports naming no matched vaccine (the onset comparison's other group).
    const rest: number[] | null = want === 0 ? [] : null;
    for (let r = 0; r < data.count; r++) {
      const m = mark[r];
      if (m === 0 || !keep(r)) continue;
      if (m === 2 && rest) rest.push(r);
      if (want === 0 && m !== 3) continue;
      out.push(r);
    }
    const byText = (list: Int32Array): Int32Array => (params.text ? narratives!.search(params.text, list) : list);
    return { ok: true, reports: byText(Int32Array.from(out)), vaccines: names.vaccines, events: names.events, others: rest && byText(Int32Array.from(rest)) };
  }

  /** Answers one request given its raw query string (without `?`); never throws for bad input. */
  answer(search: string, analysis: AnalysisDefinition | null = null): CasesAnswer {
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
    const selected = this.select(params, analysis);
    if (!selected.ok) return { status: 400, body: selected.error };
    CasesService.stats.misses++;
    const collapsed = params.duplicates === 'collapse' ? collapseClusters(this.index.data, selected.reports) : { reports: selected.reports, folded: 0 };
    const series = this.caseSeries(params, analysis, { ...selected, reports: collapsed.reports }, collapsed.folded);
    const rendered = CASES_RENDERERS[params.format](series, this.index);
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

  private caseSeries(params: CasesParams, analysis: AnalysisDefinition | null, selected: Selection, folded: number): CaseSeries {
    const { data } = this.index;
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
      from: params.from !== undefined ? formatQuarter(params.from) : first === null ? null : formatQuarter(first),
      to: params.to !== undefined ? formatQuarter(params.to) : last === null ? null : formatQuarter(last),
      reports_through: this.reportsThrough,
      n_reports: selected.reports.length,
      duplicates: params.duplicates,
      reports_folded: folded,
      breakdowns: breakdowns(this.index, selected.reports, analysis?.items === 'vax_type_code' && selected.vaccines
        ? [...new Set(selected.vaccines.flatMap((code) => this.index.types.productsOf.get(code) ?? []))] : selected.vaccines, selected.events, selected.others),
      limit: params.limit,
      offset: params.offset,
      page,
    };
  }
}
