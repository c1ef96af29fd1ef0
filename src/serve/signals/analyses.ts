/**
 * The analyses of a store as served (`GET /analyses`, `/analyses/NAME/signals`): `GET /signals` answers the default
 * analysis, `GET /analyses/NAME/signals` any analysis with the whole /signals contract, and
 * `GET /analyses` lists them. Transport-free: src/http/signals-route.ts sends the answers.
 *
 * Loading: the default analysis is loaded first (the first answer does not wait for the
 * others); the other analyses load one after the other in the background, and a request for
 * one of them waits for its load. A store without analysis metadata (an import, or a store
 * written before analyses existed) has one analysis, `all`.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { HYPER_NAMES, type HyperName } from '../../domain/mgps-prior.js';
import type { StoredWindowRow } from '../store/metadata.js';
import { eventGroupsListing, eventGroupsOfMeta, type EventGroupsListing } from '../store/event-groups.js';
import type { AnalysisMeta, LinkageSummary, StoreMeta } from '../../domain/store-schema.js';
import { signalsCaches, SignalsService, type SignalsServiceOptions } from './service.js';
import { LINKAGE_MEASURED } from './linkage-measured.js';

/** One entry of `GET /analyses`. */
export interface AnalysisListing extends Omit<AnalysisMeta, 'event_groups'> {
  /** Path of the analysis's /signals resource. */
  signals: string;
  /** An analysis of event groups: its grouping file's groups, items and terms (src/serve/store/event-groups.ts). */
  event_groups?: EventGroupsListing;
}

/** One fitted window of an analysis as `GET /analyses/NAME` serves it. */
export type WindowListing = { quarter: string } & { [K in HyperName]: number | null } & {
  neg_log_lik: number | null;
  converged: boolean;
  /** The hyperparameters on a bound of openEBGM's box (alpha, beta in [1e-5, 20]; p in (0, 1)); empty when none. */
  at_bound: string[];
  n_pairs: number | null;
  n_reports: number | null;
};

/**
 * The body of `GET /analyses/NAME`: the analysis's `GET /analyses` entry plus `fits`, its fitted
 * windows (per window the MGPS prior, DuMouchel 1999, and the parameters on a bound: such a
 * fit shrinks EB05 for its own reasons), and the caveat; null when `listing` has no such analysis.
 */
export function analysisDetail(listing: ReturnType<AnalysesService['listing']>, name: string, windows: readonly StoredWindowRow[]): (AnalysisListing & { fits: WindowListing[]; hypothesis: string }) | null {
  const entry = listing.analyses.find((a) => a.name === name);
  if (!entry) return null;
  return {
    ...entry,
    fits: windows.map((w) => ({
      quarter: w.quarter, ...(Object.fromEntries(HYPER_NAMES.map((name) => [name, w[name]])) as { [K in HyperName]: number | null }), neg_log_lik: w.neg_log_lik,
      converged: w.converged, at_bound: w.at_bound === '' ? [] : w.at_bound.split(',').map((b) => b.trim()), n_pairs: w.n_pairs, n_reports: w.n_reports,
    })),
    hypothesis: listing.hypothesis,
  };
}

/** The analysis of a store that carries no analysis metadata: every report, crude E. */
export function implicitAnalysis(meta: StoreMeta): AnalysisMeta {
  return {
    name: 'all', title: 'All reports, crude', default: true, deduplicated: false, subset: null, items: 'vaccine', stratified_by: [], strata: null,
    description: meta.origin === 'import'
      ? 'The imported quarterly table, served as it was computed.'
      : 'Every report; E = n_vaccine * n_event / N from the whole window (the specification\'s computation).',
    reports: null, pairs: null, rows: null, windows: null, reports_through: meta.reports_through,
    fits_at_bound: null, fits_not_converged: null, windows_skipped: [], partial_windows: [],
  };
}

/** The analyses a store's metadata lists (the default first), or the implicit `all`. */
export function storeAnalyses(meta: StoreMeta): AnalysisMeta[] {
  const listed = meta.analyses ?? [];
  if (listed.length === 0) return [implicitAnalysis(meta)];
  return [...listed].sort((a, b) => Number(b.default) - Number(a.default));
}

/** Path of an analysis's /signals resource (the default one is also served at /signals). */
export function signalsPath(name: string): string {
  return `/analyses/${encodeURIComponent(name)}/signals`;
}

/** The loaded analyses of one store. */
export class AnalysesService {
  private readonly services = new Map<string, Promise<SignalsService>>();
  /** The analyses whose load has finished (loaded or failed), for readiness per analysis. */
  private readonly settled = new Set<string>();

  private constructor(
    readonly analyses: AnalysisMeta[],
    /** Whether the store has an `analysis` column to select by (a store with analysis metadata). */
    private readonly selectable: boolean,
    /** The build's duplicate-linkage figures (StoreMeta.linkage), null when it failed or the store predates it. */
    private readonly linkage: (Omit<LinkageSummary, 'seconds'> & { measured?: Readonly<Record<string, unknown>> }) | null = null,
  ) {}

  /**
   * Reads the store's metadata, starts loading every analysis (the default first, the rest
   * after it, one at a time) and resolves once the default analysis is loaded.
   * @throws Error naming the file when the store is missing or unreadable.
   */
  static async open(storePath: string, meta: StoreMeta, options: SignalsServiceOptions = {}): Promise<AnalysesService> {
    const analyses = storeAnalyses(meta);
    // The linkage's figures without its build time (`seconds`: in the build summary), so the answer
    // depends on the data and the code only, not on the machine's load during the build.
    // With the linkage's precision and recall measured on the labelled set (docs/duplicates.md, src/serve/signals/linkage-measured.ts).
    const linkage = meta.linkage ? (({ seconds: _seconds, ...figures }) => ({ ...figures, measured: LINKAGE_MEASURED }))(meta.linkage) : null;
    const service = new AnalysesService(analyses, (meta.analyses ?? []).length > 0, linkage);
    // One set of caches for every analysis (bounded once, whatever the number of analyses).
    const caches = signalsCaches(options.answerCacheBytes);
    let previous: Promise<unknown> = Promise.resolve();
    for (const analysis of analyses) {
      const loading = previous.then(() => SignalsService.open(storePath, { caches, ...options, analysis: service.selectable ? analysis.name : undefined }));
      loading.catch(() => undefined); // reported to the request that waits for it
      void loading.then(() => service.settled.add(analysis.name), () => service.settled.add(analysis.name));
      service.services.set(analysis.name, loading);
      previous = loading.catch(() => undefined);
    }
    await service.services.get(analyses[0].name);
    return service;
  }

  /** Name of the default analysis (served at /signals). */
  get defaultName(): string {
    return this.analyses[0].name;
  }

  /** Names of the analyses, the default first. */
  get names(): string[] {
    return this.analyses.map((a) => a.name);
  }

  /** The /signals service of analysis `name`, or null for an unknown name. Rejects when its load failed. */
  service(name: string): Promise<SignalsService> | null {
    return this.services.get(name) ?? null;
  }

  /** Names of the analyses whose load has finished (loaded, or failed: a request then gets the error), the default first. */
  get loadedNames(): string[] {
    return this.names.filter((name) => this.settled.has(name));
  }

  /** The body of `GET /analyses`. */
  listing(): { default: string; analyses: AnalysisListing[]; linkage: (Omit<LinkageSummary, 'seconds'> & { measured?: Readonly<Record<string, unknown>> }) | null; hypothesis: string } {
    // An analysis of event groups lists its groups (not the recorded file's text).
    const groups = eventGroupsOfMeta({ analyses: this.analyses });
    return {
      default: this.defaultName,
      analyses: this.analyses.map(({ event_groups: recorded, ...a }) => ({
        ...a, ...(recorded && groups.has(a.name) ? { event_groups: eventGroupsListing(recorded, groups.get(a.name)!) } : {}), signals: signalsPath(a.name),
      })),
      linkage: this.linkage,
      hypothesis: HYPOTHESIS,
    };
  }

  /** Releases every loaded analysis. */
  async close(): Promise<void> {
    for (const loading of this.services.values()) (await loading.catch(() => null))?.close();
  }
}
