/**
 * Reading the official VAERS files into report-level records (docs/design.md "Data flow":
 * ingest -> report id, received quarter, vaccine names (+VAX_TYPE code), event terms).
 *
 * Per group (a year, or the NonDomestic files) the reader streams DATA, then VAX, then SYMPTOMS,
 * joins them by `VAERS_ID`, and keeps only finished reports; per-group join state is dropped
 * before the next group, so memory is the kept reports plus one year's pending rows.
 * Files: see `sources.ts`; CSV format and encoding: see `csv.ts`. The kept reports' own values
 * (state, dates, outcomes, every VAX row's fields, each term's version: the case series' data) ride along in
 * `details` (report-details.ts; the cells of each file: rows.ts).
 */
import type { QuarterIndex } from '../../domain/quarter.js';
import { readCsv, requireColumns } from './csv.js';
import { SKIP, SkipTally } from './skips.js';
import { memberProgress, openMember, scanFolder, SourceHashes, type SourceFile, type VaersFolder, type VaersMember, type VaersProgress } from './sources.js';
import { dateQuarter, parseVaersDate, parseVaersId, type DateNumber } from './values.js';
import { FollowUpVersions, parseVersion, VERSION_COLUMN, type FollowUpCounts } from './versions.js';
import { noteVersions } from './versions-scan.js';
import { reportFieldColumns, reportFields, type ReportFieldColumns, type ReportFields } from './report-fields.js';
import type { ReportText } from './report-text.js';
import { Interner, ReportDetailsBuilder, reportValues, type ReportDetails } from './report-details.js';
import {
  dataDetailColumns, dataDetails, symptomsRow, symptomsRowColumns, vaxRow, vaxRowColumns,
  type DataDetailColumns, type DataDetails, type SymptomsRowColumns, type VaxRowColumns,
} from './rows.js';

/**
 * One report kept for counting. `quarter` is the quarter of its `RECVDATE` (src/domain/quarter.ts
 * index); `vaccines` and `events` are distinct, ascending indexes into `VaersData.vaccines` and
 * `VaersData.events`, each with at least one element. Its own values (sex, age, outcomes, ...)
 * are in `VaersData.details` at the same index, where the analyses' rules read them.
 */
export interface VaersReport {
  id: number;
  quarter: QuarterIndex;
  vaccines: number[];
  events: number[];
}

/** Why rows or reports were left out: the reason (worded with its unit), how many, up to 5 examples. */
export interface SkipReason {
  reason: string;
  count: number;
  examples: string[];
}

export type { SourceFile, VaersProgress } from './sources.js';

/**
 * Everything the build needs from the VAERS files.
 * - `reports`: reports with a parseable RECVDATE, >= 1 vaccine and >= 1 event, in reading order
 *   (years ascending, NonDomestic last; within a year, DATA order).
 * - `vaccines`, `events`: interned trimmed `VAX_NAME` values and MedDRA terms; only those named by
 *   at least one kept report, in order of first appearance.
 * - `vaxTypeCodes`: vaccine index -> `VAX_TYPE` codes seen on VAX rows with that name.
 * - `reportsRead`: DATA records read (header excluded, duplicates included). Each lands in
 *   exactly one of: `reports`, or one of the report/DATA-row reasons in `skipped` (see skips.ts).
 * - `skipped`: reasons in a fixed order (skips.ts `SKIP`); VAX/SYMPTOMS orphan rows are counted in rows.
 * - `sources`: files on disk that were read, in name order.
 * - `details`: the kept reports' own values for the report tables (report-details.ts), index i
 *   being `reports[i]`; independent of `reports` (the build lets those go after counting).
 */
export interface VaersData {
  reports: VaersReport[];
  vaccines: string[];
  events: string[];
  vaxTypeCodes: Map<number, Set<string>>;
  reportsRead: number;
  skipped: SkipReason[];
  sources: SourceFile[];
  details: ReportDetails;
  /** Follow-up versions (versions.ts): reports whose latest version is a follow-up, rows of earlier versions dropped. */
  versions: FollowUpCounts;
}

/**
 * Options of `readVaers`. `includeNondomestic` reads `NonDomesticVAERS*` files too (default off);
 * `narratives` keeps each kept report's narrative columns (SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX, ALLERGIES) in `details` (default off).
 */
export interface ReadVaersOptions {
  includeNondomestic?: boolean;
  narratives?: boolean;
  /**
   * With `narratives`: the scratch DuckDB file that takes the narrative columns, report by report
   * as they are kept (report-text.ts; `details.text`), instead of arrays on the V8 heap (the build).
   * The caller finishes, closes and removes it.
   */
  text?: ReportText;
  onProgress?: (event: VaersProgress) => void;
}

/** Join state of one DATA row until its VAX and SYMPTOMS rows have been read. */
class Pending {
  vaccines: number[] | null = null;
  events: number[] | null = null;
  /** VAX rows as string numbers (report-details.ts VAX_ROW_WIDTH per row). */
  vaxRows: number[] = [];
  /** Distinct events as [term, version] string numbers, in file order. */
  eventRows: number[] = [];
  constructor(
    readonly line: number,
    readonly received: DateNumber,
    readonly quarter: QuarterIndex,
    readonly fields: ReportFields,
    readonly details: DataDetails,
    readonly outcomesKnown: number,
  ) {}
}

/**
 * Join state of one group: the pending reports by VAERS_ID, and the ids whose DATA row was
 * skipped for its RECVDATE (their VAX and SYMPTOMS rows are not orphans).
 */
interface GroupJoin {
  pending: Map<number, Pending>;
  dateSkipped: Set<number>;
}

function addDistinct(list: number[] | null, value: number): number[] {
  if (!list) return [value];
  if (!list.includes(value)) list.push(value);
  return list;
}

/** State of one `readVaers` call across groups. */
class VaersReader {
  readonly reports: VaersReport[] = [];
  readonly vaccines = new Interner();
  readonly events = new Interner();
  readonly vaxTypeCodes = new Map<number, Set<string>>();
  readonly tally = new SkipTally();
  readonly seenIds = new Set<number>();
  readonly details: ReportDetailsBuilder;
  reportsRead = 0;
  private fileIndex = 0;
  /** Index of the group being read (reading order), for the follow-up versions' DATA rows. */
  private group = 0;

  constructor(
    private readonly folder: VaersFolder,
    private readonly hashes: SourceHashes,
    private readonly options: ReadVaersOptions,
    readonly versions: FollowUpVersions,
  ) {
    this.details = new ReportDetailsBuilder(options.narratives ?? false, options.narratives ? options.text ?? null : null);
  }

  /**
   * Reads one group (a year, or the NonDomestic files): DATA first, then VAX and SYMPTOMS side
   * by side, joined by VAERS_ID; keeps its finished reports and drops the group's join state.
   */
  async readGroup(members: Record<'DATA' | 'VAX' | 'SYMPTOMS', VaersMember>, group: number): Promise<void> {
    this.group = group;
    const join: GroupJoin = { pending: new Map(), dateSkipped: new Set() };
    await this.readData(members.DATA, join);
    // VAX and SYMPTOMS touch disjoint state (vaccines vs events), so they stream side by side.
    await settleBoth(this.readVax(members.VAX, join), this.readSymptoms(members.SYMPTOMS, join));
    this.keepFinished(members.DATA, join);
  }

  /** DATA rows: counts each record, skips bad or duplicate ids and bad RECVDATEs, opens a pending report per kept row. */
  private async readData(data: VaersMember, join: GroupJoin): Promise<void> {
    let idCol = 0;
    let dateCol = 0;
    let fieldCols: ReportFieldColumns = { sex: -1, age: -1, cageYr: -1, cageMo: -1, outcomes: [] };
    let detailCols: DataDetailColumns | null = null;
    const narratives = this.options.narratives ?? false;
    await this.stream(data, {
      onHeader: (columns, line) => {
        [idCol, dateCol] = requireColumns(columns, ['VAERS_ID', 'RECVDATE'], data.where, line);
        fieldCols = reportFieldColumns(columns);
        detailCols = dataDetailColumns(columns);
      },
      onRecord: (fields, line) => {
        this.reportsRead++;
        const id = this.id(fields[idCol], data, line);
        if (id === null) return;
        if (this.versions.dataIsEarlier(id, this.group)) {
          this.tally.add(SKIP.EARLIER_VERSION_DATA, () => `VAERS_ID ${id} (${data.label} line ${line})`);
          return;
        }
        if (this.seenIds.has(id)) {
          this.tally.add(SKIP.DUPLICATE_ID, () => `VAERS_ID ${id} (${data.label} line ${line})`);
          return;
        }
        this.seenIds.add(id);
        const received = parseVaersDate(fields[dateCol]);
        if (received === null) {
          join.dateSkipped.add(id);
          this.tally.add(SKIP.BAD_RECVDATE, () => `VAERS_ID ${id} (${data.label} line ${line}): RECVDATE '${fields[dateCol]}'`);
          return;
        }
        const quarter = dateQuarter(received);
        const at = detailCols as DataDetailColumns;
        join.pending.set(id, new Pending(line, received, quarter, reportFields(fields, fieldCols, Math.floor(quarter / 4)),
          dataDetails(fields, at, narratives), at.outcomesKnown));
      },
    });
  }

  /** VAX rows: adds the vaccine (trimmed VAX_NAME) and the row's fields to its pending report and notes its VAX_TYPE code. */
  private readVax(vax: VaersMember, join: GroupJoin): Promise<void> {
    let at: VaxRowColumns;
    let versionAt = -1;
    return this.stream(vax, {
      onHeader: (columns, line) => {
        at = vaxRowColumns(columns, vax.where, line);
        versionAt = columns.get(VERSION_COLUMN) ?? -1;
      },
      onRecord: (fields, line) => {
        const row = vaxRow(fields, at);
        if (this.earlierVersion(row.id, versionAt < 0 ? 1 : parseVersion(fields[versionAt]), vax, line)) return;
        const report = this.joined(row.id, fields[at.id], vax, line, join, SKIP.VAX_ORPHAN);
        if (!report || row.name === '') return;
        const vaccine = this.vaccines.of(row.name);
        report.vaccines = addDistinct(report.vaccines, vaccine);
        this.details.pushVaxRow(report.vaxRows, row, vaccine);
        if (row.type !== null) {
          let codes = this.vaxTypeCodes.get(vaccine);
          if (!codes) this.vaxTypeCodes.set(vaccine, (codes = new Set()));
          codes.add(row.type);
        }
      },
    });
  }

  /** SYMPTOMS rows: adds every non-empty SYMPTOMn term (with its SYMPTOMVERSIONn, first seen) to its pending report. */
  private readSymptoms(symptoms: VaersMember, join: GroupJoin): Promise<void> {
    let at: SymptomsRowColumns;
    let versionAt = -1;
    return this.stream(symptoms, {
      onHeader: (columns, line) => {
        at = symptomsRowColumns(columns, symptoms.where, line);
        versionAt = columns.get(VERSION_COLUMN) ?? -1;
      },
      onRecord: (fields, line) => {
        const row = symptomsRow(fields, at);
        if (this.earlierVersion(row.id, versionAt < 0 ? 1 : parseVersion(fields[versionAt]), symptoms, line)) return;
        const report = this.joined(row.id, fields[at.id], symptoms, line, join, SKIP.SYMPTOMS_ORPHAN);
        if (!report) return;
        for (const { term, version } of row.terms) {
          const event = this.events.of(term);
          const before = report.events?.length ?? 0;
          report.events = addDistinct(report.events, event);
          if (report.events.length > before) this.details.pushEventRow(report.eventRows, term, version, event);
        }
      },
    });
  }

  /** Keeps the group's pending reports that name a vaccine and an event; counts the others as skipped. */
  private keepFinished(data: VaersMember, join: GroupJoin): void {
    // slice(): exact-size copies; the growing arrays carry spare capacity (~17 slots after one push).
    const byNumber = (a: number, b: number): number => a - b;
    for (const [id, p] of join.pending) {
      if (!p.vaccines) this.tally.add(SKIP.NO_VACCINE, () => `VAERS_ID ${id} (${data.label} line ${p.line})`);
      else if (!p.events) this.tally.add(SKIP.NO_EVENT, () => `VAERS_ID ${id} (${data.label} line ${p.line})`);
      else {
        this.reports.push({ id, quarter: p.quarter, vaccines: p.vaccines.sort(byNumber).slice(), events: p.events.sort(byNumber).slice() });
        const values = reportValues(id, p.received, p.quarter, p.fields, p.details, p.outcomesKnown);
        this.details.add(values, p.details.bad, p.vaxRows, p.eventRows, { file: data.label, line: p.line });
      }
    }
  }

  /** Whether a VAX/SYMPTOMS row is of an earlier version than its report's latest (versions.ts); counts it when so. */
  private earlierVersion(id: number | null, version: number, member: VaersMember, line: number): boolean {
    const kind = member.kind === 'VAX' ? 'VAX' : 'SYMPTOMS';
    if (id === null || !this.versions.isEarlier(id, version, kind)) return false;
    const reason = kind === 'VAX' ? SKIP.VAX_EARLIER_VERSION : SKIP.SYMPTOMS_EARLIER_VERSION;
    this.tally.add(reason, () => `VAERS_ID ${id} (${member.label} line ${line}): ORDER ${version} of ${this.versions.latestOf(id)}`);
    return true;
  }

  /** The pending report a VAX/SYMPTOMS row belongs to, or null (counted as orphan unless its DATA row was skipped). */
  private joined(id: number | null, cell: string, member: VaersMember, line: number, join: GroupJoin, orphan: string): Pending | null {
    if (id === null) {
      this.tally.add(SKIP.BAD_ID, () => `${member.label} line ${line}: VAERS_ID '${cell}'`);
      return null;
    }
    const report = join.pending.get(id);
    if (!report && !join.dateSkipped.has(id)) this.tally.add(orphan, () => `VAERS_ID ${id} (${member.label} line ${line})`);
    return report ?? null;
  }

  private id(cell: string, member: VaersMember, line: number): number | null {
    const id = parseVaersId(cell);
    if (id === null) this.tally.add(SKIP.BAD_ID, () => `${member.label} line ${line}: VAERS_ID '${cell}'`);
    return id;
  }

  private async stream(member: VaersMember, handlers: Parameters<typeof readCsv>[2]): Promise<void> {
    const progress = memberProgress(member, this.fileIndex++, this.folder.groups.length * 3, this.options.onProgress);
    await readCsv(await openMember(member, this.folder, progress.bytes, this.hashes.of(member)), member.where, handlers);
    progress.end();
  }

  /** Drops vaccines and events no kept report names; renumbers keeping order (so lists stay sorted). */
  compact(): { vaccines: string[]; events: string[]; vaxTypeCodes: Map<number, Set<string>> } {
    const vaccineMap = renumber(this.vaccines.values.length, this.reports, (r) => r.vaccines);
    const eventMap = renumber(this.events.values.length, this.reports, (r) => r.events);
    const vaxTypeCodes = new Map<number, Set<string>>();
    for (const [old, codes] of this.vaxTypeCodes) if (vaccineMap[old] >= 0) vaxTypeCodes.set(vaccineMap[old], codes);
    return {
      vaccines: this.vaccines.values.filter((_, i) => vaccineMap[i] >= 0),
      events: this.events.values.filter((_, i) => eventMap[i] >= 0),
      vaxTypeCodes,
    };
  }
}

/** Awaits both reads; if either fails, waits for the other to stop too, then throws the first error. */
async function settleBoth(a: Promise<void>, b: Promise<void>): Promise<void> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
}

/** Marks used indexes, builds old -> new (or -1), and rewrites each report's list in place. */
function renumber(size: number, reports: VaersReport[], list: (r: VaersReport) => number[]): Int32Array {
  const map = new Int32Array(size).fill(-1);
  for (const r of reports) for (const i of list(r)) map[i] = 0;
  let next = 0;
  for (let i = 0; i < size; i++) if (map[i] === 0) map[i] = next++;
  if (next !== size) {
    for (const r of reports) {
      const l = list(r);
      for (let k = 0; k < l.length; k++) l[k] = map[l[k]];
    }
  }
  return map;
}

/**
 * Reads the official VAERS files in `dir` (see sources.ts for the names recognised) into
 * report-level records. Streams every file; never holds a whole file in memory.
 * @throws UserError (message names the file, and the line where it applies): folder missing or
 *   without VAERS files; a year missing a kind; a header without VAERS_ID/RECVDATE (DATA),
 *   VAERS_ID/VAX_NAME (VAX) or VAERS_ID/SYMPTOM1 (SYMPTOMS); binary data, a corrupt gzip or zip,
 *   broken quoting or a wrong field count.
 */
export async function readVaers(dir: string, options: ReadVaersOptions = {}): Promise<VaersData> {
  const folder = await scanFolder(dir, options.includeNondomestic ?? false);
  const hashes = new SourceHashes(folder);
  try {
    const reader = new VaersReader(folder, hashes, options, await noteVersions(folder));
    for (const [group, { members }] of folder.groups.entries()) await reader.readGroup(members, group);
    const { vaccines, events, vaxTypeCodes } = reader.compact();
    const sources = await hashes.list();
    return {
      reports: reader.reports, vaccines, events, vaxTypeCodes, reportsRead: reader.reportsRead, skipped: reader.tally.list(), sources,
      details: reader.details.finish(), versions: reader.versions.counts(),
    };
  } catch (error) {
    hashes.cancel();
    throw error;
  } finally {
    folder.close();
  }
}
