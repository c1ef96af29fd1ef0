/**
 * The evaluation's outputs: the Markdown tables of standard output (the methods, then the
 * ranking comparison of render-ranking.ts), `pairs.json` and `methods.json`, and the same two as
 * CSV (RFC 4180, CRLF, header row; src/domain/csv-cell.ts `csvCell`). Proportions print as
 * `estimate [lower, upper]` (Wilson 95%), three decimals.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import type { Proportion } from '../../stats/wilson.js';
import type { MethodSummary, PairResult } from './evaluate.js';
import { METHODS } from './methods.js';
import { csvDocument as csv, rankingMarkdown } from './render-ranking.js';
import type { Evaluation } from './run.js';

/** The columns of pairs.csv, in order (the fields of pairs.json; `products` joined by `; `, `terms` by `|`). */
export const PAIR_COLUMNS = [
  'id', 'analysis', 'method', 'vaccine', 'event', 'terms', 'group', 'class', 'flagged', 'first_flagged', 'time_to_signal', 'not_reported', 'status', 'emerged',
  'windows', 'windows_flagged', 'windows_undetermined', 'recomputed', 'products',
] as const satisfies ReadonlyArray<keyof PairResult>;

/** The proportions of a method summary. */
const RATES = ['sensitivity', 'specificity', 'ppv', 'window_sensitivity', 'window_specificity', 'artefacts_flagged', 'refuted_flagged', 'administration_flagged'] as const;

/** The columns of methods.csv, in order: counts, each rate with its interval, the time to signal. */
export const METHOD_COLUMNS = [
  'analysis', 'method', 'tp', 'fp', 'fn', 'tn', 'undetermined_positive', 'undetermined_negative', 'not_reported_positive', 'not_reported_negative',
  ...RATES.flatMap((r) => [r, `${r}_lower`, `${r}_upper`]), 'median_time_to_signal', 'n_time_to_signal',
] as const;

/** Name of a method key (METHODS). */
export function methodName(key: string): string {
  return METHODS.find((m) => m.key === key)?.name ?? key;
}

function fixed(x: number | null): string {
  return x === null ? '-' : x.toFixed(3);
}

/** `0.800 [0.490, 0.943]`, or `-` when undefined. */
export function formatProportion(p: Proportion): string {
  return p.estimate === null ? '-' : `${fixed(p.estimate)} [${fixed(p.lower)}, ${fixed(p.upper)}]`;
}

/** The Markdown report: what was evaluated, one table row per analysis and method, the ranking comparison, the notes. */
export function renderMarkdown(evaluation: Evaluation): string {
  const undetermined = evaluation.methods.some((m) => m.undetermined_positive + m.undetermined_negative > 0);
  const lines = [
    `# Evaluation of ${evaluation.reference}`,
    '',
    `Store \`${evaluation.store}\`, windows through ${evaluation.through}; reference concepts: ${evaluation.positives} positive (${evaluation.dated} dated), ${evaluation.negatives} negative, ${evaluation.refuted} refuted, ${evaluation.administration} administration and ${evaluation.artefacts} artefact (${evaluation.terms} vaccine x term pairs).`,
    'Every method judged in every window of every concept (a pair the store did not keep recomputed from the report tables); a concept is flagged in a window when any of its terms, or its event-group item, is. Per concept: flagged in some window;',
    'sensitivity = TP/(TP+FN), specificity = TN/(TN+FP), PPV = TP/(TP+FP). Per window: the share of the positives\' reported windows flagged, of the',
    'negatives\' not flagged. Artefacts, refuted and administration flagged: those concepts flagged in some window, scored apart. Each with its Wilson 95% interval. Time to signal:',
    'quarters from `emerged` to the first flagged window (negative: before it was known).',
    '',
    '| analysis | method | TP | FP | FN | TN | not reported +/- | sensitivity [95% CI] | specificity [95% CI] | PPV [95% CI] | window sensitivity [95% CI] | window specificity [95% CI] | artefacts flagged [95% CI] | refuted flagged [95% CI] | administration flagged [95% CI] | median time to signal (n) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...evaluation.methods.map((m) => `| ${[
      m.analysis, methodName(m.method), m.tp, m.fp, m.fn, m.tn, `${m.not_reported_positive}/${m.not_reported_negative}`,
      ...RATES.map((r) => formatProportion(m[r])), m.median_time_to_signal === null ? '-' : `${m.median_time_to_signal} (${m.n_time_to_signal})`,
    ].join(' | ')} |`),
    '',
    'Methods: ' + METHODS.map((m) => `${m.name}: ${m.rule}`).join('; ') + '.',
    ...(undetermined ? ['', 'Undetermined pairs (a store without prr_chisq or ror_lci) are left out of the rates: methods.csv counts them.'] : []),
    '',
    ...rankingMarkdown(evaluation.ranking),
    ...evaluation.notes.map((n) => `- ${n}`),
    '',
    `> ${HYPOTHESIS}`,
    '',
  ];
  return lines.join('\n');
}

/** pairs.csv. */
export function pairsCsv(pairs: readonly PairResult[]): string {
  return csv(PAIR_COLUMNS, pairs.map((p) => PAIR_COLUMNS.map((c) => (c === 'products' ? p.products.join('; ') : c === 'terms' ? p.terms.join('|') : p[c]))));
}

/** One methods.csv row of a summary, in METHOD_COLUMNS order. */
function methodRow(m: MethodSummary): unknown[] {
  return [
    m.analysis, m.method, m.tp, m.fp, m.fn, m.tn, m.undetermined_positive, m.undetermined_negative, m.not_reported_positive, m.not_reported_negative,
    ...RATES.flatMap((r) => [m[r].estimate, m[r].lower, m[r].upper]), m.median_time_to_signal, m.n_time_to_signal,
  ];
}

/** methods.csv. */
export function methodsCsv(methods: readonly MethodSummary[]): string {
  return csv(METHOD_COLUMNS, methods.map(methodRow));
}

/** pairs.json: the array of pair results. */
export function pairsJson(pairs: readonly PairResult[]): string {
  return `${JSON.stringify(pairs, null, 2)}\n`;
}

/** methods.json: what was evaluated, the notes and the per-method summaries. */
export function methodsJson(evaluation: Evaluation): string {
  const { store, reference, through, analyses, positives, negatives, artefacts, refuted, administration, terms, dated, notes, methods } = evaluation;
  return `${JSON.stringify({ store, reference, through, analyses, positives, negatives, artefacts, refuted, administration, terms, dated, methods: METHODS, notes, hypothesis: HYPOTHESIS, summaries: methods }, null, 2)}\n`;
}
