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
 *    reports (default 100; larger ones are skipped);
 * 3. compare.ts: per candidate pair and field, an agreement level (missing weighs 0);
 * 4. estimate.ts, em.ts: the Fellegi-Sunter u probabilities from random pairs, the m
 *    probabilities by EM over the candidate pairs' patterns (Fellegi and Sunter 1969; Winkler
 *    1988), the weight of a pair being the sum of log2(m/u) of its levels, adjusted by the
 *    frequency of the values it agrees on (frequency.ts: a common vaccination date, vaccine set,
 *    lot or event weighs less); a pair that does not identify one case (compare.ts
 *    identifiesCase: no agreement on age, events, narrative or SPLTTYPE, or disagreement on both
 *    age and sex) weighs -Infinity, and so does a pair with evidence of different patients
 *    (patient-evidence.ts differentPatients: a sender's series of case numbers, group narratives,
 *    siblings, other vials or vaccines, onsets apart, stated ages, pronouns, template narratives);
 * 5. a pair is linked when its weight reaches `threshold` (default DEFAULT_THRESHOLD) and lies
 *    within `margin` bits of the best pair of each of its reports (DEFAULT_MARGIN); an exact
 *    duplicate (same dates, vaccines and events; age, sex and state equal or missing: compare.ts
 *    isExactDuplicate) without evidence of different patients is linked whatever its weight,
 *    first, and its two reports keep no looser link;
 * 6. cluster.ts: clusters by complete linkage (every two members match), a representative each.
 */
import { Growable } from '../vaers/report-details.js';
import { candidatePairs, MAX_BLOCK, type BlockingFigures } from './blocking.js';
import { clusterLinks, REPRESENTATIVE_RULE, type WeightedPair } from './cluster.js';
import { agreedFields, COMPARED_FIELDS, comparePair, identifiesCase, isExactDuplicate, levelsOf, RADIX } from './compare.js';
import { estimate, type Estimates } from './estimate.js';
import { linkageFeatures, type LinkageColumns, type LinkageFeatures } from './features.js';
import { frequencyAdjustment, valueShares } from './frequency.js';
import { differentPatients, patientEvidence, type PatientEvidence } from './patient-evidence.js';
import type { LinkageSummary } from '../../domain/store-schema.js';
import type { LinkageResult, ReportLink } from './types.js';

/**
 * The default match-weight threshold, in bits (log2 of the likelihood ratio of the match and
 * non-match models): 23, i.e. a pair at least 2^23 (about 8 million) times likelier under the
 * match model. Chosen (issue 43, third round, declared post hoc) on all 615 labelled pairs of
 * test/fixtures/linkage/labelled-43.csv with the rules of patient-evidence.ts: no same-case pair
 * linked there weighs below 24.1 bits, while different-patient pairs weigh 21.8 and 22.2 (it was
 * 21, chosen on issue 32's tuning part). The weights overstate the evidence of fields that agree
 * together (same day, same vaccines and lots: one campaign; the model assumes independent
 * fields), hence a threshold far above the posterior-odds break-even. Measured on a fresh set
 * drawn after the rules were frozen (docs/duplicates.md, "The labelled set").
 */
export const DEFAULT_THRESHOLD = 23;

/**
 * The default margin, in bits: a pair above the threshold is linked only when its weight is
 * within 8 bits (a likelihood ratio of 256) of the best-scoring pair of each of its two reports.
 * A relaxed form of the one-to-one constraint of record linkage (Jaro 1989, "Advances in record
 * linkage methodology as applied to matching the 1985 census of Tampa, Florida", JASA
 * 84:414-420): a report's own duplicate outscores the other reports of its cohort (same day, same
 * vaccines and lots), while a case reported three times still links all three.
 */
export const DEFAULT_MARGIN = 8;

/**
 * The pairs (indexes into `weight`) that reach `threshold` and lie within `margin` bits of the
 * best pair of each of their reports (DEFAULT_MARGIN).
 */
export function strongPairs(count: number, a: Int32Array, b: Int32Array, weight: Float64Array, threshold: number, margin: number): number[] {
  const best = new Float64Array(count).fill(-Infinity);
  for (let i = 0; i < weight.length; i++) {
    if (weight[i] < threshold) continue;
    if (weight[i] > best[a[i]]) best[a[i]] = weight[i];
    if (weight[i] > best[b[i]]) best[b[i]] = weight[i];
  }
  const kept: number[] = [];
  for (let i = 0; i < weight.length; i++) {
    if (weight[i] >= threshold && weight[i] >= best[a[i]] - margin && weight[i] >= best[b[i]] - margin) kept.push(i);
  }
  return kept;
}

/** Options of linkReports. */
export interface LinkageOptions {
  /** Match-weight threshold in bits (default DEFAULT_THRESHOLD). */
  threshold?: number;
  /** Cap on the reports of one block (default MAX_BLOCK, 100; blocking.ts). */
  maxBlock?: number;
  /** A link is kept only within this many bits of the best link of each of its reports (default DEFAULT_MARGIN; Infinity: off). */
  margin?: number;
}

/** LinkageSummary with the figures of the blocking and of the EM fit. */
export interface LinkageSummaryDetails extends LinkageSummary {
  blocks?: BlockingFigures[];
  em?: Estimates['sessions'];
}

/** The weight table of `model`, pattern -> weight, memoised. */
function weigher(model: Estimates): (pattern: number) => number {
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
function fieldsOf(model: Estimates): LinkageSummary['fields'] {
  return COMPARED_FIELDS.flatMap((f, k) => f.levels.map((level, l) => ({
    field: l === 0 ? `${f.name}:disagree` : l === f.levels.length - 1 ? f.name : `${f.name}:${level}`, m: model.m[k][l + 1], u: model.u[k][l + 1],
  })));
}

/**
 * The weight of reports `a` and `b` compared at `pattern` (steps 4 of the module header): the
 * Fellegi-Sunter weight of the pattern plus the frequency adjustment of the values agreed on,
 * -Infinity when the pattern does not identify one case (compare.ts identifiesCase).
 */
function pairWeigher(f: LinkageFeatures, model: Estimates, evidence: PatientEvidence, vetoes?: Map<string, number>): (a: number, b: number, pattern: number) => number {
  const patternWeight = weigher(model);
  const shares = valueShares(f);
  const cache = new Map<number, { levels: number[]; weight: number }>();
  return (a, b, pattern) => {
    let entry = cache.get(pattern);
    if (entry === undefined) {
      entry = { levels: levelsOf(pattern), weight: identifiesCase(pattern) ? patternWeight(pattern) : -Infinity };
      cache.set(pattern, entry);
    }
    if (entry.weight === -Infinity) return -Infinity;
    const reason = differentPatients(f, evidence, a, b);
    if (reason !== '') {
      vetoes?.set(reason, (vetoes.get(reason) ?? 0) + 1);
      return -Infinity;
    }
    return entry.weight + frequencyAdjustment(f, shares, model.u, a, b, entry.levels);
  };
}

/** The digit of the narrative in a comparison pattern (compare.ts COMPARED_FIELDS). */
const NARRATIVE = COMPARED_FIELDS.findIndex((c) => c.name === 'narrative');

/** Every candidate pair scored: the features, the pairs (a < b) with their patterns and weights, the fitted model and the blocking figures. */
export interface ScoredPairs {
  features: LinkageFeatures;
  /** What each narrative says of its patient (patient-evidence.ts), with the template shares. */
  evidence: PatientEvidence;
  /** Candidate pairs past the case-identity rule vetoed as different patients, per reason (LinkageSummary.different_patients). */
  vetoes: Record<string, number>;
  a: Int32Array;
  b: Int32Array;
  pattern: Int32Array;
  weight: Float64Array;
  model: Estimates;
  /** The weight of two reports compared at a pattern (pairWeigher). */
  weightOf: (a: number, b: number, pattern: number) => number;
  blocks: BlockingFigures[];
}

/** Steps 1 to 4 of the module header: every candidate pair of `details` with its weight. */
export function scorePairs(details: LinkageColumns, options: LinkageOptions = {}): ScoredPairs {
  const f = linkageFeatures(details);
  // Typed arrays that grow by doubling: the candidate pairs run to millions.
  const int32 = (n: number): Int32Array => new Int32Array(n);
  const a = new Growable(int32);
  const b = new Growable(int32);
  const pattern = new Growable(int32);
  const patterns = new Map<number, number>();
  const blocks = candidatePairs(f, (x, y) => {
    const p = comparePair(f, x, y);
    a.push(x);
    b.push(y);
    pattern.push(p);
    patterns.set(p, (patterns.get(p) ?? 0) + 1);
  }, options.maxBlock ?? MAX_BLOCK);
  const model = estimate(f, patterns);
  const aArray = a.done();
  const bArray = b.done();
  const patternArray = pattern.done();
  const evidence = patientEvidence(details.narrative, f.count);
  // Template shares: per report, the candidate reports with a near-identical narrative (the top narrative level).
  const narrativeDigit = RADIX.slice(0, NARRATIVE).reduce((x, r) => x * r, 1);
  const nearIdentical = RADIX[NARRATIVE] - 1;
  for (let i = 0; i < patternArray.length; i++) {
    if (Math.floor(patternArray[i] / narrativeDigit) % RADIX[NARRATIVE] !== nearIdentical) continue;
    evidence.templateShare[aArray[i]]++;
    evidence.templateShare[bArray[i]]++;
  }
  const vetoes = new Map<string, number>();
  const counting = pairWeigher(f, model, evidence, vetoes);
  const weightOf = pairWeigher(f, model, evidence);
  const weight = new Float64Array(patternArray.length);
  // A loop, not Float64Array.from(typed, fn), which gathers the values in a JS array first: past
  // about 134 million candidate pairs (the full download) that array cannot grow (a fatal error).
  for (let i = 0; i < patternArray.length; i++) weight[i] = counting(aArray[i], bArray[i], patternArray[i]);
  return { features: f, evidence, vetoes: Object.fromEntries([...vetoes].sort()), a: aArray, b: bArray, pattern: patternArray, weight, model, weightOf, blocks };
}

/**
 * The weight of a pair as the links see it: +Infinity for an exact duplicate (compare.ts
 * isExactDuplicate), so that it is linked first and its reports keep no looser link (the margin
 * rule), else its weight (pairWeigher).
 */
function linkWeight(scored: Pick<ScoredPairs, 'weightOf' | 'features' | 'evidence'>): ScoredPairs['weightOf'] {
  const exact = new Map<number, boolean>();
  return (a, b, pattern) => {
    let e = exact.get(pattern);
    if (e === undefined) exact.set(pattern, (e = isExactDuplicate(pattern)));
    return e && differentPatients(scored.features, scored.evidence, a, b) === '' ? Infinity : scored.weightOf(a, b, pattern);
  };
}

/**
 * Finds the reports of `details` that are the same case (see the module header). `details` is the
 * build's ReportDetails (src/ingest/vaers/report-details.ts), or only the columns the linkage reads
 * (LinkageColumns). Index i of the result is report row i. Never throws on the data: reports
 * lacking every identifying field are counted as `unlinkable` and stay their own representative.
 */
export function linkReports(details: LinkageColumns, options: LinkageOptions = {}): LinkageResult {
  const started = performance.now();
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const scored = scorePairs(details, options);
  const f = scored.features;
  const weightOf = linkWeight(scored);
  const weight = new Float64Array(scored.pattern.length); // a loop, as scorePairs's weights
  for (let i = 0; i < weight.length; i++) weight[i] = weightOf(scored.a[i], scored.b[i], scored.pattern[i]);
  const candidates: WeightedPair[] = [];
  const candidatePairIndex: number[] = [];
  for (const i of strongPairs(f.count, scored.a, scored.b, weight, threshold, options.margin ?? DEFAULT_MARGIN)) {
    candidates.push({ a: scored.a[i], b: scored.b[i], weight: weight[i] });
    candidatePairIndex.push(i);
  }
  const score = (x: number, y: number): number => weightOf(x, y, comparePair(f, x, y));
  const rank = (x: number, y: number): number =>
    f.completeness[y] - f.completeness[x] || details.received[x] - details.received[y] || details.id[x] - details.id[y];
  const clusters = clusterLinks(f.count, candidates, threshold, score, rank);
  // The links carry the Fellegi-Sunter weight itself (an exact duplicate's may be below the threshold).
  const links: ReportLink[] = clusters.kept.map((i) => {
    const pair = candidatePairIndex[i];
    return { a: scored.a[pair], b: scored.b[pair], weight: scored.weight[pair], agreed: agreedFields(scored.pattern[pair]) };
  });
  let reportsFolded = 0;
  for (let i = 0; i < f.count; i++) if (clusters.representative[i] !== i) reportsFolded++;
  let unlinkable = 0;
  for (let i = 0; i < f.count; i++) if (!f.identifiable[i]) unlinkable++;
  const summary: LinkageSummaryDetails = {
    reports: f.count, unlinkable, candidate_pairs: scored.a.length, links: links.length, clusters: clusters.clusters,
    reports_folded: reportsFolded, threshold, fields: fieldsOf(scored.model), representative_rule: REPRESENTATIVE_RULE,
    seconds: (performance.now() - started) / 1000, different_patients: scored.vetoes, blocks: scored.blocks, em: scored.model.sessions,
  };
  return { links, representative: clusters.representative, summary };
}
