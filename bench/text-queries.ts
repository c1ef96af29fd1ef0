/**
 * What the text-search benchmarks share (bench/narratives.ts on the index alone, bench/reports.ts
 * on the served resource): the text queries timed, and the latency line they print.
 */

/** Text queries of every kind: words, prefixes, phrases, exclusions, common and rare. */
export const QUERIES = [
  'attorney', 'intussusception', 'intussus*', '"mercury poisoning"', '"guillain barre"', 'legal -court',
  '"bell\'s palsy"', 'seizure* fever -"febrile seizure"', 'fever', 'fever*', 'none', 'vax -fever',
  '"the patient"', '"pt was"', 'the and of', '"injection site" -redness', '"high fever" rash', 'a* fev*', 'autism -mercury', 'anaphyla*',
];

/** Latency figures of a list of times (ms): nearest-rank median, 99th percentile and maximum, as printed. */
export function latency(times: readonly number[]): string {
  const sorted = Float64Array.from(times).sort();
  const rank = (p: number): string => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)].toFixed(2);
  return `p50 ${rank(0.5)} ms, p99 ${rank(0.99)} ms, max ${rank(1)} ms`;
}
