/**
 * The two caveat sentences of the specification. Every answer of a resource carries its caveat:
 * `/signals` (and every VAERS resource) as the header `X-REPORTS-Hypothesis` or a `hypothesis`
 * field (spec 1, 2.5); `/pipeline` as its `caveat` field (spec 1, 4.2).
 */

/** Spec 1: the voluntary-reporting sentence every VAERS answer carries. */
export const HYPOTHESIS =
  'Reports are voluntary; counts are reporting counts, not incidence. Disproportionate reporting is a hypothesis, not evidence of causation.';

/** Spec 1 / 4.2: the pipeline's caveat. */
export const REGISTRY_CAVEAT = 'These are registry facts, not efficacy or safety conclusions.';
