/**
 * Follow-up versions of a report (the `ORDER` column of the current VAERSVAX and VAERSSYMPTOMS
 * files, docs/operations.md "Follow-up versions").
 *
 * Since the 2025 release a VAX or SYMPTOMS row carries the version of its report it belongs to
 * (`ORDER`: 1 for the first report, 2, 3, ... for each follow-up), and one VAERS_ID may hold the
 * rows of several versions. A report is its latest version: the highest `ORDER` found on any VAX
 * or SYMPTOMS row of its VAERS_ID, across all files read. Rows of earlier versions are dropped
 * (counted, never read into the report). A row of a file without an `ORDER` column, or with a
 * blank one, is version 1; a cell that is not a positive integer is read as version 1 too.
 *
 * The latest versions are found by a first pass over the VAX and SYMPTOMS files that have an
 * `ORDER` column (a file without one is left after its header). It keeps only the ids whose
 * latest version is above 1 (about 1% of the 2025 file's ids), so memory does not grow with the
 * reports of files without follow-ups.
 */

/** The column that numbers a report's versions. */
export const VERSION_COLUMN = 'ORDER';

/** The version a cell of `ORDER` gives: a positive integer, else 1 (blank, absent or unreadable). */
export function parseVersion(cell: string | undefined): number {
  if (cell === undefined) return 1;
  const text = cell.trim();
  if (!/^\d{1,9}$/.test(text)) return 1;
  const n = Number(text);
  return n >= 1 ? n : 1;
}

/** What the build summary says of follow-up versions (counted by the reader). */
export interface FollowUpCounts {
  /** VAERS_IDs whose latest version is a follow-up (ORDER >= 2). */
  followUpReports: number;
  /** VAERS_IDs with rows of two or more versions in the files read (the earlier ones dropped). */
  reportsWithSeveralVersions: number;
  /** VAX rows dropped: rows of an earlier version than their report's latest. */
  vaxRowsDropped: number;
  /** SYMPTOMS rows dropped: rows of an earlier version than their report's latest. */
  symptomsRowsDropped: number;
  /** DATA rows dropped because the report's latest version is in a later year's files (its DATA row read there). */
  dataRowsDropped: number;
}

/**
 * The latest version of every report with a follow-up, and the tally of dropped rows.
 * `note` (first pass) records a row's version; `isEarlier` (second pass) says whether a row is
 * of an earlier version than its report's latest, and counts it.
 */
export class FollowUpVersions {
  /** id -> latest version, for ids whose latest version is >= 2. */
  private readonly latest = new Map<number, number>();
  /** id -> the group (index in reading order) of the first file holding its latest version. */
  private readonly groupOfLatest = new Map<number, number>();
  /** id -> bit mask of the versions (1..31) seen on its rows, for ids in `latest`. */
  private readonly seen = new Map<number, number>();
  private readonly dropped = { VAX: 0, SYMPTOMS: 0, DATA: 0 };

  /** First pass: the row of `id` is of `version`, in group `group` (reading order). */
  note(id: number, version: number, group: number): void {
    if (version < 2) return;
    const before = this.latest.get(id) ?? 1;
    if (version > before) {
      this.latest.set(id, version);
      this.groupOfLatest.set(id, group);
    }
    this.mark(id, version);
  }

  /** The latest version of `id` (1 when no row of it has a higher ORDER). */
  latestOf(id: number): number {
    return this.latest.get(id) ?? 1;
  }

  /**
   * Second pass: whether a VAX or SYMPTOMS row of `id` at `version` is of an earlier version
   * than the report's latest (then it is counted as dropped and must not be read).
   */
  isEarlier(id: number, version: number, kind: 'VAX' | 'SYMPTOMS'): boolean {
    const latest = this.latest.get(id);
    if (latest === undefined || version >= latest) return false;
    this.mark(id, version);
    this.dropped[kind]++;
    return true;
  }

  /**
   * Second pass: whether the DATA row of `id`, read in group `group`, belongs to an earlier
   * version whose follow-up (with its own DATA row) sits in a later group; counted when so.
   */
  dataIsEarlier(id: number, group: number): boolean {
    const at = this.groupOfLatest.get(id);
    if (at === undefined || at <= group) return false;
    this.dropped.DATA++;
    return true;
  }

  /** The counts for the build summary (after the second pass). */
  counts(): FollowUpCounts {
    let several = 0;
    for (const mask of this.seen.values()) if ((mask & (mask - 1)) !== 0) several++;
    return {
      followUpReports: this.latest.size, reportsWithSeveralVersions: several,
      vaxRowsDropped: this.dropped.VAX, symptomsRowsDropped: this.dropped.SYMPTOMS, dataRowsDropped: this.dropped.DATA,
    };
  }

  private mark(id: number, version: number): void {
    this.seen.set(id, (this.seen.get(id) ?? 0) | (1 << (Math.min(version, 31) - 1)));
  }
}
