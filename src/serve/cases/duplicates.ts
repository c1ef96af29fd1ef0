/**
 * Suspected duplicates in a case series (`/cases?duplicates=collapse`): each suspected-duplicate
 * cluster of the build's linkage (src/ingest/mining/linkage-step.ts; report column `cluster`,
 * src/domain/report-columns.ts) counts once. The report standing for a cluster is its
 * representative when the series holds it, else the cluster's first report of the series (its
 * newest, in listing order); reports in no cluster stand for themselves.
 */
import type { RuleColumns } from '../../domain/report-rules.js';
import { runAll, type Steps } from './slices.js';

/** Reports read between two yields of {@link collapseSteps}. */
const STEP = 4096;

/** What `duplicates` asks: `keep` every report (the default) or `collapse` each cluster to one. */
export const DUPLICATES_CHOICES = ['keep', 'collapse'] as const;
/** One `duplicates` choice. */
export type DuplicatesChoice = (typeof DUPLICATES_CHOICES)[number];

/**
 * The reports of a series (ascending report indexes) with each cluster counted once (see the
 * module comment), ascending, and how many reports were folded away.
 */
export function collapseClusters(data: Pick<RuleColumns, 'id' | 'cluster'>, reports: Int32Array): { reports: Int32Array; folded: number } {
  return runAll(collapseSteps(data, reports));
}

/** {@link collapseClusters} in steps (src/serve/cases/slices.ts). */
export function* collapseSteps(data: Pick<RuleColumns, 'id' | 'cluster'>, reports: Int32Array): Steps<{ reports: Int32Array; folded: number }> {
  const representativeHere = new Set<number>();
  for (const r of reports) if (data.cluster[r] === data.id[r]) representativeHere.add(data.id[r]);
  yield;
  const seen = new Set<number>();
  const kept: number[] = [];
  for (let i = 0; i < reports.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const r = reports[i];
    const cluster = data.cluster[r];
    if (Number.isNaN(cluster)) kept.push(r);
    else if (representativeHere.has(cluster)) {
      if (cluster === data.id[r]) kept.push(r);
    } else if (!seen.has(cluster)) {
      seen.add(cluster);
      kept.push(r);
    }
  }
  return { reports: kept.length === reports.length ? reports : Int32Array.from(kept), folded: reports.length - kept.length };
}
