/**
 * One evaluation run: a reference set against the analyses of a store through a
 * quarter. Reads the store's vaccine table (names, types, VAX_TYPE codes) and expands each
 * reference `vaccine` with the /signals matching (src/serve/query/names.ts `exactVaccines`), reads the
 * quarterly rows of the reference pairs per analysis (src/serve/store/evaluation.ts), recomputes from
 * the report tables the windows of the pairs the store did not keep (recompute.ts), evaluates
 * every method per window (evaluate.ts), and compares the triage queue with plain orderings of
 * every window (ranking.ts, over the windows `/triage` reads: src/serve/store/triage-rows.ts). A
 * concept's terms are read in the term analysis, its event-group item in the analysis's `@groups`
 * twin (`groups` for `stratified`: {@link groupsTwin}), recomputed there as well when not kept. In an
 * analysis whose items are VAX_TYPE codes (`types`, `SUBSET@types`) a reference vaccine stands for
 * a code when it is one (or its long name), else for the codes of the products it expands to.
 */
import { ANALYSIS_ALIASES, analysisRule, parseStrata } from '../../domain/analysis-rules.js';
import { eventGroupItems, parseEventGroups } from '../../domain/event-groups.js';
import { parseQuarter, parseQuarterInput } from '../../domain/quarter.js';
import { UserError } from '../../domain/user-error.js';
import { exactVaccines, vaccineIndex, vaxTypeIndex } from '../query/names.js';
import { FLAG_COLUMNS, readFlagRows, readStoreVocabulary, type FlagColumn, type FlagRow } from '../store/evaluation.js';
import { readReportData } from '../store/reports.js';
import { readTriageWindows, triageWindowOf } from '../store/triage-rows.js';
import { eventGroupsOfMeta, itemsOfTerms } from '../store/event-groups.js';
import { narrowGroups } from '../triage/group.js';
import { evaluatePairs, rowsByPair, summarise, type MethodSummary, type PairResult } from './evaluate.js';
import { compareRankings, type RankingResult } from './ranking.js';
import { recomputeRows, tallyAnalysis } from './recompute.js';
import type { ReferenceSet } from './reference.js';

/** What to evaluate. */
export interface EvaluationRequest {
  /** Store file (DuckDB or Parquet form). */
  store: string;
  reference: ReferenceSet;
  /** Analyses to evaluate (default: every analysis of the store, the default first). */
  analyses?: readonly string[];
  /** Last quarter `YYYYQn` (default: the store's reports_through). */
  through?: string;
  /** Analyses whose triage queue is compared with plain orderings (default: the first analysis evaluated); each must be evaluated. */
  rankings?: readonly string[];
}

/** The result of a run: per pair and method, per method, the ranking comparison, and the notes that qualify them. */
export interface Evaluation {
  store: string;
  reference: string;
  through: string;
  analyses: string[];
  /** The analyses whose triage queue was compared with plain orderings. */
  rankings: string[];
  /** Reference concepts by class (valid rows). */
  positives: number;
  negatives: number;
  artefacts: number;
  refuted: number;
  administration: number;
  /** Vaccine x term pairs the concepts name (a concept of k terms counts k). */
  terms: number;
  /** Positives with an `emerged` quarter. */
  dated: number;
  pairs: PairResult[];
  methods: MethodSummary[];
  ranking: RankingResult;
  /** Sentences a reader needs: skipped rows, columns the store lacks, what could not be recomputed. */
  notes: string[];
}

/** The fitted priors keyed by quarter index instead of `YYYYQn` (a key that is not a quarter dropped). */
function byQuarterIndex<T>(priors: ReadonlyMap<string, T>): Map<number, T> {
  return new Map([...priors].flatMap(([quarter, theta]) => {
    const index = parseQuarter(quarter);
    return index === null ? [] : [[index, theta] as const];
  }));
}

/** The canonical name of an analysis (an alias such as `groups` resolved). */
const canonical = (name: string): string => ANALYSIS_ALIASES.get(name) ?? name;

/**
 * The store's analysis of event groups that mirrors term analysis `analysis` (`X@groups` for `X`;
 * `groups` = `stratified@groups` for `stratified`), or undefined.
 */
export function groupsTwin(analysis: string, analyses: ReadonlyArray<{ name: string; items?: string | null }>): string | undefined {
  return analyses.find((a) => a.items === 'event_group' && canonical(a.name) === `${canonical(analysis)}@groups`)?.name;
}

/**
 * Runs the evaluation.
 * @throws UserError on an unknown analysis, a bad `through`, or an empty store; Error naming the
 *   file when the store cannot be read.
 */
export async function runEvaluation(request: EvaluationRequest): Promise<Evaluation> {
  const { meta, vaccines } = await readStoreVocabulary(request.store);
  // An analysis of event groups is not evaluated: the reference pairs name preferred terms, its events are groups (docs/event-groups.md).
  const storeAnalyses = meta.analyses?.filter((a) => a.items !== 'event_group').map((a) => a.name) ?? ['all'];
  const analyses = [...(request.analyses ?? storeAnalyses)];
  const grouped = analyses.filter((a) => meta.analyses?.find((m) => m.name === a)?.items === 'event_group');
  if (grouped.length > 0) throw new UserError(`--analyses: ${grouped.map((a) => `"${a}"`).join(', ')} counts event groups, and the reference pairs name preferred terms: it cannot be evaluated`);
  const unknown = analyses.filter((a) => !storeAnalyses.includes(a));
  if (unknown.length > 0) throw new UserError(`--analyses: ${unknown.map((a) => `"${a}"`).join(', ')} not in the store ${request.store} (it has ${storeAnalyses.join(', ')})`);
  const rankings = request.rankings ?? analyses.slice(0, 1);
  const outside = rankings.filter((a) => !analyses.includes(a));
  if (outside.length > 0) throw new UserError(`--rankings: ${outside.map((a) => `"${a}"`).join(', ')} not among the analyses evaluated (${analyses.join(', ')})`);
  const through = request.through ?? meta.reports_through;
  if (through === null) throw new UserError(`the store ${request.store} is empty (no reports_through)`);
  const throughIndex = parseQuarterInput(through);
  if (throughIndex === null) throw new UserError(`--through must be a quarter YYYYQn such as 2006Q4 (got "${through}")`);

  const vocabulary = vaccineIndex(vaccines.map((v) => v.vax_name), new Map(vaccines.map((v) => [v.vax_name, v.vax_type])),
    new Map(vaccines.map((v) => [v.vax_name, v.vax_type_codes])));
  const pairs = request.reference.pairs;
  const products = new Map(pairs.map((p) => [p.id, exactVaccines(vocabulary, p.vaccine).sort()]));
  const codesOf = new Map(vaccines.map((v) => [v.vax_name, v.vax_type_codes]));
  const typeVocabulary = vaxTypeIndex(vaccines.flatMap((v) => v.vax_type_codes));
  const codes = new Map(pairs.map((p) => {
    const exact = exactVaccines(typeVocabulary, p.vaccine);
    return [p.id, (exact.length > 0 ? exact : [...new Set(products.get(p.id)!.flatMap((name) => codesOf.get(name) ?? []))]).sort()];
  }));
  const metaOf = (analysis: string): NonNullable<typeof meta.analyses>[number] | undefined => meta.analyses?.find((a) => a.name === analysis);
  const itemsOf = (analysis: string): ReadonlyMap<string, readonly string[]> => (metaOf(analysis)?.items === 'vax_type_code' ? codes : products);
  const allEvents = [...new Set(pairs.flatMap((p) => p.terms))];
  const askedGroups = [...new Set(pairs.flatMap((p) => (p.group === null ? [] : [p.group])))];
  const data = await readReportData(request.store);
  const notes = request.reference.problems.map((p) => `${request.reference.file}:${p.line}: skipped: ${p.message}`);
  for (const p of pairs) if (products.get(p.id)!.length === 0) notes.push(`${p.id}: vaccine "${p.vaccine}" names no vaccine of the store (not reported)`);
  if (!data) notes.push('The store has no report tables: a pair the store did not keep cannot be recomputed and counts as not reported.');
  const vaxTypeOf = new Map(vaccines.map((v) => [v.vax_name, v.vax_type]));
  // The store's event groups, as /triage reads them (its special-interest credit).
  const groupsOfTerm = itemsOfTerms(eventGroupsOfMeta(meta));

  const results: PairResult[] = [];
  const ranking: RankingResult = { positives: [], windows: [], summary: [] };
  for (const analysis of analyses) {
    const items = itemsOf(analysis);
    const itemList = [...new Set([...items.values()].flat())];
    const { rows, present, priors } = await readFlagRows(request.store, analysis, itemList, allEvents);
    const missing = new Set<FlagColumn>(FLAG_COLUMNS.filter((c) => !present[c]));
    if (missing.size > 0) notes.push(`${analysis}: the store keeps no ${[...missing].join(', ')}; the flags reading them are recovered from n_methods_flagged where it decides them, else undetermined.`);
    const definition = analysisRule(analysis);
    if (data && !definition) notes.push(`${analysis}: this program does not know the analysis's rule, so the pairs the store did not keep cannot be recomputed (not reported).`);
    const priorByQuarter = byQuarterIndex(priors);
    const strata = metaOf(analysis)?.strata;
    const tallies = data && definition ? tallyAnalysis(data, definition, definition.stratified ? parseStrata(strata ?? undefined) : null, itemList, allEvents, throughIndex) : null;
    const recompute = (item: string, event: string): ReturnType<typeof recomputeRows> | null => (tallies ? recomputeRows(tallies, item, event, priorByQuarter) : null);
    const groupRows = await twinRows(request.store, meta.analyses ?? [], analysis, askedGroups, itemList, throughIndex, data && definition ? data : null, notes);
    results.push(...evaluatePairs({ analysis, through: throughIndex, pairs, products: items, rows, missing, recompute, groupRows }));
    if (!rankings.includes(analysis)) continue;
    const quarters = [...priors.keys()].filter((q) => (parseQuarter(q) ?? Infinity) <= throughIndex).sort();
    const windows = [];
    const all = await readTriageWindows(request.store, analysis);
    for (const quarter of quarters) windows.push(triageWindowOf(all, quarter));
    const compared = compareRankings({
      analysis, pairs, items, vaxTypeOf: (item) => vaxTypeOf.get(item) ?? item, specialGroups: (event) => narrowGroups(groupsOfTerm, event),
      windows: windows.map((w, i) => ({ quarter: w.quarter ?? quarters[i], rows: w.rows, at_bound: w.at_bound })),
    });
    ranking.positives.push(...compared.positives);
    ranking.windows.push(...compared.windows);
    ranking.summary.push(...compared.summary);
  }
  const count = (cls: string): number => pairs.filter((p) => p.class === cls).length;
  return {
    store: request.store, reference: request.reference.file, through: through.toUpperCase(), analyses, rankings: [...rankings],
    positives: count('positive'), negatives: count('negative'), artefacts: count('artefact'), refuted: count('refuted'), administration: count('administration'),
    terms: pairs.reduce((k, p) => k + p.terms.length, 0),
    dated: pairs.filter((p) => p.class === 'positive' && p.emergedIndex !== null).length,
    pairs: results, methods: summarise(results), ranking, notes,
  };
}

/**
 * The rows of (item, event-group item) in the `@groups` twin of `analysis` for the asked group
 * items: the stored rows, else recomputed from the report tables with the twin's priors and strata
 * (the term analysis's rule, the group item's terms counted once per report), or undefined when the
 * store has no twin. A group item the twin does not have is noted once.
 */
async function twinRows(store: string, analyses: ReadonlyArray<{ name: string; items?: string | null; strata?: string | null; event_groups?: { file: string; csv: string } }>,
  analysis: string, groups: readonly string[], itemList: readonly string[], through: number, data: Awaited<ReturnType<typeof readReportData>> | null,
  notes: string[]): Promise<((item: string, group: string) => { rows: readonly FlagRow[]; recomputed: boolean } | null) | undefined> {
  const twin = groupsTwin(analysis, analyses);
  const twinMeta = analyses.find((a) => a.name === twin);
  if (twin === undefined || groups.length === 0 || !twinMeta?.event_groups) return undefined;
  const items = new Map(eventGroupItems(parseEventGroups(twinMeta.event_groups.csv, twinMeta.event_groups.file)).map((i) => [i.name, i.terms.map((t) => t.term)]));
  const known = groups.filter((g) => items.has(g));
  for (const g of groups.filter((x) => !items.has(x))) {
    const note = `group "${g}": no such item in the event groups of ${twin} (the concepts naming it are scored on their terms alone)`;
    if (!notes.includes(note)) notes.push(note);
  }
  if (known.length === 0) return undefined;
  const { rows, priors } = await readFlagRows(store, twin, itemList, known);
  const stored = rowsByPair(rows);
  const base = analysisRule(analysis);
  const tallies = data && base ? tallyAnalysis(data, base, base.stratified ? parseStrata(twinMeta.strata ?? undefined) : null, itemList, known, through,
    new Map(known.map((g) => [g, items.get(g)!]))) : null;
  const priorByQuarter = byQuarterIndex(priors);
  return (item, group) => {
    if (!items.has(group)) return null;
    const kept = stored.get(`${item}\u0000${group}`);
    if (kept) return { rows: kept, recomputed: false };
    return tallies ? { rows: recomputeRows(tallies, item, group, priorByQuarter), recomputed: true } : null;
  };
}
