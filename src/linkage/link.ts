/**
 * THROWAWAY stand-in for the duplicate-report linkage (the real one, Fellegi-Sunter with EM,
 * blocking and clusters, replaces this file at merge; the shapes are src/linkage/types.ts).
 * Links reports that agree exactly on age, sex, state, VAX_DATE, ONSET_DATE, the vaccine set and
 * the event set (a report lacking all of age, state, VAX_DATE and ONSET_DATE is unlinkable): each
 * group of two or more is a cluster whose representative is its lowest row index; every member
 * is linked to the representative with weight = the number of agreeing fields (7).
 */
import type { ReportDetails } from '../vaers/report-details.js';
import type { LinkageResult, ReportLink } from './types.js';

/** Options of {@link linkReports} (none used by this stand-in). */
export type LinkageOptions = Record<string, unknown>;

const FIELDS = ['age', 'sex', 'state', 'vax_date', 'onset_date', 'vaccines', 'events'];

/** The sorted string numbers of a run (`start[i] .. start[i + 1] - 1`) of `values`, as text. */
function runKey(start: Int32Array, values: Int32Array, i: number): string {
  return Array.from(values.subarray(start[i], start[i + 1])).sort((a, b) => a - b).join(',');
}

/**
 * Links the reports of `details` that agree exactly on every compared field (see the module comment).
 * @returns the links (representative -> member, a < b), each report's representative row and the summary.
 */
export function linkReports(details: ReportDetails, _options: LinkageOptions = {}): LinkageResult {
  const started = performance.now();
  const n = details.count;
  const representative = new Int32Array(n);
  const groups = new Map<string, number>();
  const links: ReportLink[] = [];
  let unlinkable = 0;
  const clusters = new Set<number>();
  for (let i = 0; i < n; i++) {
    representative[i] = i;
    const age = details.age[i];
    if (Number.isNaN(age) && details.state[i] < 0 && details.vaxDate[i] === 0 && details.onsetDate[i] === 0) {
      unlinkable++;
      continue;
    }
    const key = [age, details.sex[i], details.state[i], details.vaxDate[i], details.onsetDate[i],
      runKey(details.vaccines.start, details.vaccines.name, i), runKey(details.events.start, details.events.term, i)].join('|');
    const first = groups.get(key);
    if (first === undefined) groups.set(key, i);
    else {
      representative[i] = first;
      clusters.add(first);
      links.push({ a: first, b: i, weight: FIELDS.length, agreed: [...FIELDS] });
    }
  }
  return {
    links, representative,
    summary: {
      reports: n, unlinkable, candidate_pairs: links.length, links: links.length, clusters: clusters.size, reports_folded: links.length,
      threshold: FIELDS.length, fields: FIELDS.map((field) => ({ field, m: 1, u: 0 })),
      representative_rule: 'the report read first (lowest row index) of its cluster', seconds: Math.round(performance.now() - started) / 1000,
    },
  };
}
