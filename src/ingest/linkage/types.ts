/**
 * Duplicate-report linkage: the shapes shared by the linkage (src/ingest/linkage/link.ts, which finds
 * the links) and its users (the build, which stores them; the server, which shows them and can
 * count each cluster once).
 *
 * Reports are named by their row index in the build's report columns (`ReportDetails`,
 * src/ingest/vaers/report-details.ts: index i is the i-th kept report), never by VAERS_ID, so the
 * arrays below are as long as the report columns.
 */
import type { LinkageSummary } from '../../domain/store-schema.js';

/** One link between two reports judged to be the same case (Fellegi-Sunter match weight above the threshold). */
export interface ReportLink {
  /** Row index of the first report (a < b). */
  a: number;
  /** Row index of the second report. */
  b: number;
  /**
   * Fellegi-Sunter match weight in bits: sum over compared fields of log2(m/u) of the pair's
   * level, plus the frequency adjustment of the values agreed on (frequency.ts: a common value
   * weighs less).
   */
  weight: number;
  /** Names of the fields that agreed (e.g. `age`, `sex`, `state`, `vax_date`, `onset_date`, `vaccines`, `lots`, `events`, `splttype`, `narrative`). */
  agreed: string[];
}

/** What the linkage found over every report. */
export interface LinkageResult {
  /** The links kept after clustering (links cut to break chains are not listed). */
  links: ReportLink[];
  /**
   * Per report row: the row index of its cluster's representative (the report that stands for
   * the cluster when each cluster is counted once); a report in no cluster is its own
   * representative. Length: the number of reports.
   */
  representative: Int32Array;
  summary: LinkageSummary;
  /**
   * Candidate pairs the linkage held: those whose link weight reached its lower bound (link.ts
   * LinkageOptions.lowerBound, the threshold by default), out of `summary.candidate_pairs`. Not
   * stored: a figure of the linkage's memory (bench/linkage-size.ts).
   */
  keptPairs?: number;
  /** Candidate pairs held between the linkage's two passes (link.ts streamPairs: those whose pattern may be linked). Not stored. */
  heldPairs?: number;
}

