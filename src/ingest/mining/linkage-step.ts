/**
 * The build's duplicate-report linkage step (docs/design.md "Signal quality": suspected duplicates,
 * after vigiMatch, Noren 2007): after the reports are read, the linkage (src/ingest/linkage/link.ts
 * `linkReports`) finds the reports judged to be one case; this step records each report's
 * cluster in the report columns (`cluster`: the VAERS_ID of its cluster's representative, NaN in
 * no cluster; src/domain/report-columns.ts) and turns the links into `report_links` rows (by
 * VAERS_ID). The analyses' `@dedup` modifier then keeps only representatives
 * (src/domain/analysis-rules.ts).
 *
 * Never fails the build: a linkage that throws is reported as a warning and the build goes on
 * without links (every `cluster` null, no `report_links` rows, `summary` null).
 */
import { linkReports } from '../linkage/link.js';
import type { LinkageSummary } from '../../domain/store-schema.js';
import type { LinkageResult } from '../linkage/types.js';
import type { ReportLinkRow } from '../../domain/store-schema.js';
import type { ReportDetails } from '../vaers/report-details.js';
import type { Progress } from './progress.js';

/** What the linkage step leaves for the store. */
export interface LinkageOutcome {
  /** The linkage's figures, or null when it failed. */
  summary: LinkageSummary | null;
  /** Its links by VAERS_ID (`vaers_id` the report read first), each once. */
  links: ReportLinkRow[];
  /** Why the linkage failed (its error's message), or null. */
  warning: string | null;
}

/**
 * Sets `details.cluster` from a linkage result: for a report of a cluster of two or more, its
 * representative's VAERS_ID (the representative's own id for itself); NaN for the others.
 */
export function setClusters(details: ReportDetails, result: Pick<LinkageResult, 'representative'>): void {
  const { representative } = result;
  const members = new Int32Array(details.count);
  for (let i = 0; i < details.count; i++) members[representative[i]]++;
  for (let i = 0; i < details.count; i++) {
    const rep = representative[i];
    details.cluster[i] = rep !== i || members[i] > 1 ? details.id[rep] : NaN;
  }
}

/**
 * Runs the linkage over the kept reports (progress phase `link`), sets their clusters and gives
 * the links by VAERS_ID. A thrown error, or a result whose `representative` does not cover every
 * report, is caught: `warn` gets one line, clusters stay NaN, and the outcome has no links.
 */
export function linkDuplicates(details: ReportDetails, progress: Progress, warn: (line: string) => void): LinkageOutcome {
  progress.start('link', details.count, 'reports');
  try {
    const result = linkReports(details);
    if (result.representative.length !== details.count) throw new Error(`representative has ${result.representative.length} entries for ${details.count} reports`);
    setClusters(details, result);
    const links = result.links.map((l): ReportLinkRow => ({ vaers_id: details.id[l.a], linked_vaers_id: details.id[l.b], weight: l.weight, agreed: [...l.agreed] }));
    progress.update(details.count);
    return { summary: result.summary, links, warning: null };
  } catch (error) {
    details.cluster.fill(NaN);
    const warning = `duplicate-report linkage failed, the build goes on without links: ${(error as Error).message ?? String(error)}`;
    warn(`build: warning: ${warning}\n`);
    return { summary: null, links: [], warning };
  } finally {
    progress.end();
  }
}
