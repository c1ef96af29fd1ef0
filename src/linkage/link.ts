/**
 * Duplicate-report linkage over the build's report columns, after UMC's vigiMatch (Noren, Orre,
 * Bate and Edwards 2007, hit-miss model; Tregunno, Fink, Fernandez-Fernandez, Lazaro-Bengoa and
 * Noren 2014, "Performance of probabilistic method to detect duplicate individual case safety
 * reports", Drug Safety 37:249-258): one case reported twice (provider and manufacturer, parent
 * and physician) inflates n and can make a signal.
 *
 * Steps:
 * 1. features.ts: each report's comparison values, normalised; reports with no identifying field
 *    are `unlinkable` and never linked;
 * 2. blocking.ts: candidate pairs from several kinds of block, each block capped at `maxBlock`
 *    reports (default 500; larger ones are skipped);
 * 3. compare.ts: per candidate pair and field, an agreement level (missing weighs 0);
 * 4. em.ts: the Fellegi-Sunter m and u probabilities estimated by EM over the candidate pairs'
 *    patterns (Fellegi and Sunter 1969; Winkler 1988), the weight of a pair being the sum of
 *    log2(m/u) of its levels;
 * 5. a pair is linked when its weight reaches `threshold` (default DEFAULT_THRESHOLD);
 * 6. cluster.ts: clusters by complete linkage (every two members match), a representative each.
 */
import { candidatePairs, MAX_BLOCK, type BlockingFigures } from './blocking.js';
import { clusterLinks, REPRESENTATIVE_RULE, type WeightedPair } from './cluster.js';
import { agreedFields, COMPARED_FIELDS, comparePair, levelsOf, RADIX } from './compare.js';
import { fitMatchModel, type MatchModel } from './em.js';
import { linkageFeatures, type LinkageColumns } from './features.js';
import type { LinkageResult, LinkageSummary, ReportLink } from './types.js';

/**
 * The default match-weight threshold, in bits (log2 of the likelihood ratio): a pair must be
 * 2^16 (65,536) times likelier under the match model than under the non-match model. With about
 * 10^6-10^7 candidate pairs and some 10^3 true duplicate pairs among them (prior odds about
 * 2^-12), such a pair has posterior odds of a match of at least 2^4 = 16. Measured by
 * bench/linkage.ts (perturbed copies mixed into the real 1990-2006 reports).
 */
export const DEFAULT_THRESHOLD = 16;

/** Options of linkReports. */
export interface LinkOptions {
  /** Match-weight threshold in bits (default DEFAULT_THRESHOLD). */
  threshold?: number;
  /** Cap on the reports of one block (default 500; blocking.ts). */
  maxBlock?: number;
}

/** LinkageSummary with the figures of the blocking and of the EM fit. */
export interface LinkageSummaryDetails extends LinkageSummary {
  blocks?: BlockingFigures[];
  em?: { p: number; iterations: number; converged: boolean };
}

/** The weight table of `model`, pattern -> weight, memoised. */
function weigher(model: MatchModel): (pattern: number) => number {
  const cache = new Map<number, number>();
  return (pattern) => {
    let w = cache.get(pattern);
    if (w === undefined) {
      w = levelsOf(pattern).reduce((s, l, k) => s + model.weights[k][l], 0);
      cache.set(pattern, w);
    }
    return w;
  };
}

/** The m and u of each agreement level, as LinkageSummary.fields lists them. */
function fieldsOf(model: MatchModel): LinkageSummary['fields'] {
  return COMPARED_FIELDS.flatMap((f, k) => f.levels.map((level, l) => ({
    field: l === 0 ? `${f.name}:disagree` : l === f.levels.length - 1 ? f.name : `${f.name}:${level}`, m: model.m[k][l + 1], u: model.u[k][l + 1],
  })));
}

/**
 * Finds the reports of `details` that are the same case (see the module header). `details` is the
 * build's ReportDetails (src/vaers/report-details.ts), or only the columns the linkage reads
 * (LinkageColumns). Index i of the result is report row i. Never throws on the data: reports lacking every identifying field are
 * counted as `unlinkable` and stay their own representative.
 */
export function linkReports(details: LinkageColumns, options: LinkOptions = {}): LinkageResult {
  const started = performance.now();
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const f = linkageFeatures(details);
  const pairA: number[] = [];
  const pairB: number[] = [];
  const pairPattern: number[] = [];
  const patternCounts = new Map<number, number>();
  const blocks = candidatePairs(f, (a, b) => {
    const pattern = comparePair(f, a, b);
    pairA.push(a);
    pairB.push(b);
    pairPattern.push(pattern);
    patternCounts.set(pattern, (patternCounts.get(pattern) ?? 0) + 1);
  }, options.maxBlock ?? MAX_BLOCK);
  const patterns = [...patternCounts.keys()];
  const model = fitMatchModel(patterns.map(levelsOf), patterns.map((p) => patternCounts.get(p)!), RADIX);
  const weight = weigher(model);
  const candidates: WeightedPair[] = [];
  const candidatePatterns: number[] = [];
  for (let i = 0; i < pairA.length; i++) {
    const w = weight(pairPattern[i]);
    if (w < threshold) continue;
    candidates.push({ a: pairA[i], b: pairB[i], weight: w });
    candidatePatterns.push(pairPattern[i]);
  }
  const score = (a: number, b: number): number => weight(comparePair(f, a, b));
  const rank = (a: number, b: number): number =>
    f.completeness[b] - f.completeness[a] || details.received[a] - details.received[b] || details.id[a] - details.id[b];
  const clusters = clusterLinks(f.count, candidates, threshold, score, rank);
  const links: ReportLink[] = clusters.kept.map((i) => ({ ...candidates[i], agreed: agreedFields(candidatePatterns[i]) }));
  let reportsFolded = 0;
  for (let i = 0; i < f.count; i++) if (clusters.representative[i] !== i) reportsFolded++;
  let unlinkable = 0;
  for (let i = 0; i < f.count; i++) if (!f.identifiable[i]) unlinkable++;
  const summary: LinkageSummaryDetails = {
    reports: f.count, unlinkable, candidate_pairs: pairA.length, links: links.length, clusters: clusters.clusters,
    reports_folded: reportsFolded, threshold, fields: fieldsOf(model), representative_rule: REPRESENTATIVE_RULE,
    seconds: (performance.now() - started) / 1000, blocks, em: { p: model.p, iterations: model.iterations, converged: model.converged },
  };
  return { links, representative: clusters.representative, summary };
}
