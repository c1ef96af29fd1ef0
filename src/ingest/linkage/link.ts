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
 *    reports (default 100; larger ones are skipped), made block by block and never all held
 *    (streamPairs: compared as they come; only the pairs whose pattern may be linked are kept
 *    for the second pass), so the memory grows with the reports, the largest block and the
 *    pairs past the case-identity rule, not with the candidate pairs (105 million at the full
 *    download's size; under 1% of them pass that rule on the embedded default and the 10% sample);
 * 3. compare.ts: per candidate pair and field, an agreement level (missing weighs 0);
 * 4. estimate.ts, em.ts: the Fellegi-Sunter u probabilities from random pairs, the m
 *    probabilities by EM over the counts of the candidate pairs' patterns (first pass; Fellegi and
 *    Sunter 1969; Winkler 1988), the weight of a pair being the sum of log2(m/u) of its levels, adjusted by the
 *    frequency of the values it agrees on (frequency.ts: a common vaccination date, vaccine set,
 *    lot or event weighs less); a pair that does not identify one case (compare.ts
 *    identifiesCase: no agreement on age, events, narrative or SPLTTYPE, or disagreement on both
 *    age and sex) weighs -Infinity, and so does a pair with evidence of different patients
 *    (patient-evidence.ts differentPatients: a sender's series of case numbers, group narratives,
 *    siblings, other vials or vaccines, onsets apart, stated ages, pronouns, template narratives);
 *    the pairs are weighed in a second pass, and only those whose link weight (below) reaches the
 *    **lower bound**, the threshold, are kept: step 5 reads no pair below it, and the clustering
 *    weighs any other pair it needs on demand;
 * 5. a pair is linked when its weight reaches `threshold` (default DEFAULT_THRESHOLD) and lies
 *    within `margin` bits of the best pair of each of its reports (DEFAULT_MARGIN); an exact
 *    duplicate (same dates, vaccines and events; age, sex and state equal or missing: compare.ts
 *    isExactDuplicate) without evidence of different patients is linked whatever its weight,
 *    first, and its two reports keep no looser link;
 * 6. cluster.ts: clusters by complete linkage (every two members match), a representative each.
 */
import { Growable } from '../vaers/report-details.js';
import { blocking, candidatePairs, MAX_BLOCK, type BlockingFigures } from './blocking.js';
import { clusterLinks, REPRESENTATIVE_RULE, type WeightedPair } from './cluster.js';
import { agreedFields, COMPARED_FIELDS, comparePair, identifiesCase, isExactDuplicate, levelsOf, RADIX } from './compare.js';
import { estimate, type Estimates } from './estimate.js';
import { linkageFeatures, type LinkageColumns, type LinkageFeatures } from './features.js';
import type { LinkageTextReader } from './linkage-text.js';
import { frequencyAdjustment, valueShares } from './frequency.js';
import { differentPatients, patientEvidence, type PatientEvidence } from './patient-evidence.js';
import { PINNED_WEIGHT, pinnedPerson, THIN_WEIGHT, thinLink } from './link-support.js';
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
  /**
   * linkReports: the lower bound, in bits, of the link weight of the pairs it holds (default and
   * at most the threshold: no step after the weights reads a pair below the threshold, so a
   * lower bound only holds more pairs, with the same result; -Infinity holds every candidate pair).
   */
  lowerBound?: number;
  /**
   * Let the linkage drop the text columns of `details` (`narrative` and `otherMeds` set to null)
   * once it has read them into the reports' comparison values and patient evidence, so that the
   * text is freed while the pairs are compared: for a caller holding its own copy (the build's
   * linkage thread, linkage-worker.ts). Default false.
   */
  releaseText?: boolean;
  /** Pairs held between the two passes at most (default MAX_HELD_PAIRS; streamPairs). */
  maxHeld?: number;
  /**
   * The text's values and patient evidence read already, a chunk at a time (linkage-text.ts; the
   * build's linkage thread): the text columns of `details` are then not read. Used once (the
   * linkage adds its template shares to the evidence).
   */
  text?: LinkageTextReader;
}

/**
 * The most candidate pairs the linkage holds between its two passes (12 bytes each: 192 MB):
 * when more may be linked (streamPairs mayLink; under 1% of the candidate pairs of the embedded
 * default and the 10% sample, 60,219 of 24.5 million there), the second pass makes the pairs
 * again and compares them a second time instead (the same pairs in the same order: the same
 * result, at one more comparison a pair), so the memory stays bounded whatever the rules let through.
 */
export const MAX_HELD_PAIRS = 16_000_000;

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
 * -Infinity when the pattern does not identify one case (compare.ts identifiesCase), for different
 * patients (differentPatients, counted per reason in `vetoes`), for a thin link (link-support.ts)
 * under THIN_WEIGHT (round 7; counted as `thin` from DEFAULT_THRESHOLD), or for a link under
 * PINNED_WEIGHT that does not pin the person (round 8; counted as `unpinned` from DEFAULT_THRESHOLD).
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
    const weight = entry.weight + frequencyAdjustment(f, shares, model.u, a, b, entry.levels);
    const unsupported = weight < THIN_WEIGHT && thinLink(f, a, b) ? 'thin' : weight < PINNED_WEIGHT && !pinnedPerson(f, a, b) ? 'unpinned' : '';
    if (unsupported === '') return weight;
    if (weight >= DEFAULT_THRESHOLD) vetoes?.set(unsupported, (vetoes.get(unsupported) ?? 0) + 1);
    return -Infinity;
  };
}

/** The digit of the narrative in a comparison pattern (compare.ts COMPARED_FIELDS). */
const NARRATIVE = COMPARED_FIELDS.findIndex((c) => c.name === 'narrative');

/** What the passes over the candidate pairs leave besides the pairs (streamPairs). */
export interface PairPasses {
  features: LinkageFeatures;
  /** What each narrative says of its patient (patient-evidence.ts), with the template shares. */
  evidence: PatientEvidence;
  /** Candidate pairs past the case-identity rule vetoed as different patients, per reason (LinkageSummary.different_patients). */
  vetoes: Record<string, number>;
  model: Estimates;
  /** The weight of two reports compared at a pattern (pairWeigher). */
  weightOf: (a: number, b: number, pattern: number) => number;
  /** The link weight of two reports compared at a pattern (linkWeight). */
  linkWeightOf: (a: number, b: number, pattern: number) => number;
  blocks: BlockingFigures[];
  /** Candidate pairs (LinkageSummary.candidate_pairs). */
  candidatePairs: number;
  /** Candidate pairs whose pattern may be linked (mayLink), weighed by the second pass (streamPairs). */
  heldPairs: number;
  /** Whether the second pass made the pairs again (more than LinkageOptions.maxHeld passed), rather than reading them held. */
  regenerated: boolean;
}

/**
 * Whether a pair compared at `pattern` may be linked or vetoed, whatever its two reports: its
 * pattern identifies one case (compare.ts identifiesCase) or is an exact duplicate's
 * (isExactDuplicate). Any other pattern weighs -Infinity (pairWeigher) and so does its link
 * weight (linkWeight): such a pair is never linked, counted as vetoed, nor read by the clustering.
 */
function mayLink(pattern: number): boolean {
  return identifiesCase(pattern) || isExactDuplicate(pattern);
}

/**
 * Steps 1 to 4 of the module header in two passes:
 * 1. the candidate pairs, made block by block by the blocking (blocking.ts candidatePairs) and
 *    compared (compare.ts comparePair) as they come, leave the count of each comparison pattern,
 *    which is all the EM reads (estimate.ts fits pattern frequencies), and per report the
 *    candidate reports with a near-identical narrative (PatientEvidence.templateShare, which
 *    differentPatients reads); a pair is held (12 bytes) only when its pattern may be linked
 *    (mayLink: 0.6% of the embedded default's 10 million candidate pairs), or every pair when
 *    `lowerBound` is -Infinity, at most `options.maxHeld` of them (MAX_HELD_PAIRS);
 * 2. the held pairs (or, past that cap, the pairs made and compared again, those that may be
 *    linked), in the order the blocking made them, are weighed with the fitted model;
 *    `visit(a, b, pattern, weight, linkWeight)` gets each pair whose link weight (linkWeight:
 *    +Infinity for an exact duplicate) reaches `lowerBound`.
 * The result is the one a linkage holding every pair would give: the pattern counts, the template
 * shares and the veto counts are sums over the pairs, a weight depends on the two reports and the
 * fitted model only, and a pair that may not be linked weighs -Infinity. Memory: the features, the
 * blocking's keys, the pattern counts (a few thousand patterns) and the held pairs (at most
 * MAX_HELD_PAIRS), plus what `visit` keeps;
 * nothing for the other candidate pairs.
 */
export function streamPairs(details: LinkageColumns, options: LinkageOptions, lowerBound: number,
  visit: (a: number, b: number, pattern: number, weight: number, linkWeight: number) => void): PairPasses {
  if (options.text && options.text.count !== details.count) throw new Error(`linkage: the text read is of ${options.text.count} reports, the columns of ${details.count}`);
  const f = linkageFeatures(details, options.text?.values);
  const evidence = options.text?.evidence ?? patientEvidence(details.narrative, f.count, details);
  if (options.releaseText) {
    details.narrative = null;
    details.otherMeds = null;
    details.history = null;
    details.priorVax = null;
  }
  // Template shares: per report, the candidate reports with a near-identical narrative (the top narrative level).
  const narrativeDigit = RADIX.slice(0, NARRATIVE).reduce((x, r) => x * r, 1);
  const nearIdentical = RADIX[NARRATIVE] - 1;
  const patterns = new Map<number, number>();
  const holds = new Map<number, boolean>();
  const passes = (p: number): boolean => {
    let hold = holds.get(p);
    if (hold === undefined) holds.set(p, (hold = lowerBound === -Infinity || mayLink(p)));
    return hold;
  };
  const maxHeld = options.maxHeld ?? MAX_HELD_PAIRS;
  const int32 = (n: number): Int32Array => new Int32Array(n);
  // The held pairs (a, b, pattern); null once more than maxHeld pass: the second pass then makes the pairs again.
  let held: Array<Growable<Int32Array>> | null = [new Growable(int32), new Growable(int32), new Growable(int32)];
  let candidates = 0;
  let passing = 0;
  const blocks = blocking(f, options.maxBlock ?? MAX_BLOCK);
  const figures = candidatePairs(blocks, (a, b) => {
    const p = comparePair(f, a, b);
    patterns.set(p, (patterns.get(p) ?? 0) + 1);
    candidates++;
    if (Math.floor(p / narrativeDigit) % RADIX[NARRATIVE] === nearIdentical) {
      evidence.templateShare[a]++;
      evidence.templateShare[b]++;
    }
    if (!passes(p)) return;
    passing++;
    if (held === null) return;
    if (held[0].length >= maxHeld) {
      held = null;
      return;
    }
    held[0].push(a);
    held[1].push(b);
    held[2].push(p);
  });
  const model = estimate(f, patterns);
  const vetoes = new Map<string, number>();
  const counting = pairWeigher(f, model, evidence, vetoes);
  const exact = linkWeight(f, evidence);
  const weigh = (a: number, b: number, p: number): void => {
    const weight = counting(a, b, p);
    const link = exact(a, b, p, weight);
    if (link >= lowerBound) visit(a, b, p, weight, link);
  };
  const regenerated = held === null;
  if (held !== null) {
    const [a, b, pattern] = held.map((g) => g.done());
    held = null;
    for (let i = 0; i < pattern.length; i++) weigh(a[i], b[i], pattern[i]);
  } else {
    // The same pairs in the same order, compared again: those that pass are weighed.
    candidatePairs(blocks, (a, b) => {
      const p = comparePair(f, a, b);
      if (passes(p)) weigh(a, b, p);
    });
  }
  const weightOf = pairWeigher(f, model, evidence);
  const linkWeightOf = linkWeight(f, evidence);
  return {
    features: f, evidence, vetoes: Object.fromEntries([...vetoes].sort()), model, weightOf,
    linkWeightOf: (x, y, p) => linkWeightOf(x, y, p, weightOf(x, y, p)), blocks: figures, candidatePairs: candidates, heldPairs: passing, regenerated,
  };
}

/** Every candidate pair scored: the features, the pairs (a < b) with their patterns and weights, the fitted model and the blocking figures. */
export interface ScoredPairs extends PairPasses {
  a: Int32Array;
  b: Int32Array;
  pattern: Int32Array;
  weight: Float64Array;
}

/**
 * Steps 1 to 4 of the module header, every candidate pair of `details` held with its weight (for
 * the benchmarks and diagnostics that look at pairs below the threshold: 20 bytes a pair, 10
 * million pairs for the embedded default's reports; linkReports holds only the pairs it links).
 */
export function scorePairs(details: LinkageColumns, options: LinkageOptions = {}): ScoredPairs {
  // Typed arrays that grow by doubling: the candidate pairs run to millions.
  const int32 = (n: number): Int32Array => new Int32Array(n);
  const a = new Growable(int32);
  const b = new Growable(int32);
  const pattern = new Growable(int32);
  const weight = new Growable((n) => new Float64Array(n));
  const passes = streamPairs(details, options, -Infinity, (x, y, p, w) => {
    a.push(x);
    b.push(y);
    pattern.push(p);
    weight.push(w);
  });
  return { ...passes, a: a.done(), b: b.done(), pattern: pattern.done(), weight: weight.done() };
}

/**
 * The weight of a pair as the links see it (its **link weight**): +Infinity for an exact
 * duplicate (compare.ts isExactDuplicate) without evidence of different patients (even a thin link,
 * link-support.ts: round 7), so that it is linked first and its reports keep no looser link (the
 * margin rule), else its weight (pairWeigher, given as `weight`).
 */
function linkWeight(f: LinkageFeatures, evidence: PatientEvidence): (a: number, b: number, pattern: number, weight: number) => number {
  const exact = new Map<number, boolean>();
  return (a, b, pattern, weight) => {
    let e = exact.get(pattern);
    if (e === undefined) exact.set(pattern, (e = isExactDuplicate(pattern)));
    return e && differentPatients(f, evidence, a, b) === '' ? Infinity : weight;
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
  const lowerBound = Math.min(threshold, options.lowerBound ?? threshold);
  // The pairs whose link weight reaches the lower bound (step 4): typed arrays that grow by doubling.
  const int32 = (n: number): Int32Array => new Int32Array(n);
  const float64 = (n: number): Float64Array => new Float64Array(n);
  const [keptA, keptB, keptPattern] = [new Growable(int32), new Growable(int32), new Growable(int32)];
  const [keptWeight, keptLink] = [new Growable(float64), new Growable(float64)];
  const passes = streamPairs(details, options, lowerBound, (a, b, p, w, link) => {
    keptA.push(a);
    keptB.push(b);
    keptPattern.push(p);
    keptWeight.push(w);
    keptLink.push(link);
  });
  const [a, b, pattern, weight, link] = [keptA.done(), keptB.done(), keptPattern.done(), keptWeight.done(), keptLink.done()];
  const f = passes.features;
  const candidates: WeightedPair[] = [];
  const candidatePairIndex: number[] = [];
  for (const i of strongPairs(f.count, a, b, link, threshold, options.margin ?? DEFAULT_MARGIN)) {
    candidates.push({ a: a[i], b: b[i], weight: link[i] });
    candidatePairIndex.push(i);
  }
  const score = (x: number, y: number): number => passes.linkWeightOf(x, y, comparePair(f, x, y));
  const rank = (x: number, y: number): number =>
    f.completeness[y] - f.completeness[x] || details.received[x] - details.received[y] || details.id[x] - details.id[y];
  const clusters = clusterLinks(f.count, candidates, threshold, score, rank);
  // The links carry the Fellegi-Sunter weight itself (an exact duplicate's may be below the threshold).
  const links: ReportLink[] = clusters.kept.map((i) => {
    const pair = candidatePairIndex[i];
    return { a: a[pair], b: b[pair], weight: weight[pair], agreed: agreedFields(pattern[pair]) };
  });
  let reportsFolded = 0;
  for (let i = 0; i < f.count; i++) if (clusters.representative[i] !== i) reportsFolded++;
  let unlinkable = 0;
  for (let i = 0; i < f.count; i++) if (!f.identifiable[i]) unlinkable++;
  const summary: LinkageSummaryDetails = {
    reports: f.count, unlinkable, candidate_pairs: passes.candidatePairs, links: links.length, clusters: clusters.clusters,
    reports_folded: reportsFolded, threshold, fields: fieldsOf(passes.model), representative_rule: REPRESENTATIVE_RULE,
    seconds: (performance.now() - started) / 1000, different_patients: passes.vetoes, blocks: passes.blocks, em: passes.model.sessions,
  };
  return { links, representative: clusters.representative, summary, keptPairs: a.length, heldPairs: passes.heldPairs };
}
