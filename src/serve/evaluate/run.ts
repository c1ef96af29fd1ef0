/**
 * One evaluation run: a reference set against the analyses of a store through a
 * quarter. Reads the store's vaccine table (names, types, VAX_TYPE codes) and expands each
 * reference `vaccine` with the /signals matching (src/serve/query/names.ts `exactVaccines`), reads the
 * quarterly rows of the reference pairs per analysis (src/serve/store/evaluation.ts), asks the report
 * tables whether a pair the store does not keep was reported at all (src/serve/cases: the /cases
 * selection of the analysis's reports), and evaluates (evaluate.ts). In an analysis whose items
 * are VAX_TYPE codes (`types`, `SUBSET@types`) a reference vaccine stands for a code when it is
 * one (or its long name), else for the codes of the products it expands to.
 */
import { analysisRule } from '../../domain/analysis-rules.js';
import { CasesService } from '../cases/service.js';
import { parseQuarter, parseQuarterInput, type QuarterIndex } from '../../domain/quarter.js';
import { UserError } from '../../domain/user-error.js';
import { WINDOW_QUARTERS } from '../../domain/quarter.js';
import { exactVaccines, vaccineIndex, vaxTypeIndex } from '../query/names.js';
import { FLAG_COLUMNS, readFlagRows, readStoreVocabulary, type FlagColumn } from '../store/evaluation.js';
import { evaluatePairs, summarise, type MethodSummary, type PairResult } from './evaluate.js';
import { FUTURE_METHODS } from './methods.js';
import type { ReferenceSet } from './reference.js';

/**
 * Reports per window, given each report's quarter index: the window of quarter w covers
 * w - WINDOW_QUARTERS + 1 .. w (src/domain/quarter.ts); windows after `through` and windows without
 * a report are left out.
 */
export function windowCounts(quarters: Iterable<number>, through: QuarterIndex): Map<QuarterIndex, number> {
  const counts = new Map<QuarterIndex, number>();
  for (const q of quarters) {
    for (let w = q; w < q + WINDOW_QUARTERS && w <= through; w++) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

/** What to evaluate. */
export interface EvaluationRequest {
  /** Store file (DuckDB or Parquet form). */
  store: string;
  reference: ReferenceSet;
  /** Analyses to evaluate (default: every analysis of the store, the default first). */
  analyses?: readonly string[];
  /** Last quarter `YYYYQn` (default: the store's reports_through). */
  through?: string;
}

/** The result of a run: per pair and method, per method, and the notes that qualify them. */
export interface Evaluation {
  store: string;
  reference: string;
  through: string;
  analyses: string[];
  /** Reference pairs by class (valid rows). */
  positives: number;
  negatives: number;
  pairs: PairResult[];
  methods: MethodSummary[];
  /** Sentences a reader needs: skipped rows, columns the store lacks, future-work methods. */
  notes: string[];
}

/**
 * Runs the evaluation.
 * @throws UserError on an unknown analysis, a bad `through`, or an empty store; Error naming the
 *   file when the store cannot be read.
 */
export async function runEvaluation(request: EvaluationRequest): Promise<Evaluation> {
  const { meta, vaccines } = await readStoreVocabulary(request.store);
  const storeAnalyses = meta.analyses?.map((a) => a.name) ?? ['all'];
  const analyses = [...(request.analyses ?? storeAnalyses)];
  const unknown = analyses.filter((a) => !storeAnalyses.includes(a));
  if (unknown.length > 0) throw new UserError(`--analyses: ${unknown.map((a) => `"${a}"`).join(', ')} not in the store ${request.store} (it has ${storeAnalyses.join(', ')})`);
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
  const itemsOf = (analysis: string): ReadonlyMap<string, readonly string[]> =>
    (meta.analyses?.find((a) => a.name === analysis)?.items === 'vax_type_code' ? codes : products);
  const allEvents = [...new Set(pairs.map((p) => p.event))];
  const cases = await CasesService.open(request.store, meta.reports_through);
  const notes = request.reference.problems.map((p) => `${request.reference.file}:${p.line}: skipped: ${p.message}`);
  for (const p of pairs) if (products.get(p.id)!.length === 0) notes.push(`${p.id}: vaccine "${p.vaccine}" names no vaccine of the store (not reported)`);
  if (!cases) notes.push('The store has no report tables: a pair without a quarterly row counts as not reported (it may be reported below the store\'s floor).');

  const results: PairResult[] = [];
  for (const analysis of analyses) {
    const items = itemsOf(analysis);
    const { rows, present, priors } = await readFlagRows(request.store, analysis, [...new Set([...items.values()].flat())], allEvents);
    const missing = new Set<FlagColumn>(FLAG_COLUMNS.filter((c) => !present[c]));
    if (missing.size > 0) notes.push(`${analysis}: the store keeps no ${[...missing].join(', ')}; the flags reading them are recovered from n_methods_flagged where it decides them, else undetermined.`);
    const definition = analysisRule(analysis) ?? null;
    const windowReports = (product: string, event: string): Map<QuarterIndex, number> | null => {
      if (!cases || !definition) return null;
      if (!cases.index.reportsByEvent.has(event)) return new Map();
      const selected = cases.select({ vaccine: product, event, to: throughIndex, format: 'json', duplicates: 'keep', limit: 1, offset: 0 }, definition);
      return selected.ok ? windowCounts(Array.from(selected.reports, (r) => cases.index.data.quarter[r]), throughIndex) : new Map();
    };
    const priorByQuarter = new Map([...priors].flatMap(([quarter, theta]) => {
      const index = parseQuarter(quarter);
      return index === null ? [] : [[index, theta] as const];
    }));
    results.push(...evaluatePairs({ analysis, through: throughIndex, pairs, products: items, rows, missing, priors: priorByQuarter, windowReports }));
  }
  notes.push(...FUTURE_METHODS);
  return {
    store: request.store, reference: request.reference.file, through: through.toUpperCase(), analyses,
    positives: pairs.filter((p) => p.class === 'positive').length, negatives: pairs.filter((p) => p.class === 'negative').length,
    pairs: results, methods: summarise(results), notes,
  };
}
