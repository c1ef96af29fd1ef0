/**
 * The narratives of a store's reports as the server holds them: the six searched fields
 * (src/serve/narratives/records.ts NARRATIVE_FIELDS: SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL,
 * OTHER_MEDS, PRIOR_VAX) go into one full-text index (src/serve/narratives/index.ts) built at load, in
 * the store's order, so an index ordinal is the case series' report index; their columns are
 * then dropped from ReportData, so each text is held once (by the index). Other narrative
 * columns (ALLERGIES) stay in ReportData. The index built is kept in a file beside the store
 * (src/serve/narratives/index-file.ts): a later load of the same store reads that file and does
 * not read the six columns at all (`readIndexedReports`). Either way the index served reads its
 * texts and postings from that file when asked (file-range.ts), so they are not in the process's
 * memory; only when the file cannot be written are they held in memory.
 */
import { NARRATIVE_FIELDS, NARRATIVE_REPORT_COLUMNS, sourceFieldsOf, type NarrativeReportColumn } from '../../domain/report-columns.js';
import { NarrativeIndex } from '../narratives/index.js';
import { indexFileOf, indexKey, loadIndexFile, saveAndReopen } from '../narratives/index-file.js';
import type { NarrativeRecord } from '../narratives/records.js';
import { readReportData, type ReportData } from '../store/reports.js';

/** Per narrative column field (ReportData property), its position in NARRATIVE_FIELDS, for the six indexed ones. */
const INDEXED = new Map(NARRATIVE_REPORT_COLUMNS.flatMap((c) => {
  const k = (NARRATIVE_FIELDS as readonly string[]).indexOf(sourceFieldsOf(c)[0]);
  return k >= 0 ? [[c.field, k] as const] : [];
}));

/** The narrative columns in NARRATIVE_FIELDS order. */
const INDEXED_COLUMNS: readonly NarrativeReportColumn[] = NARRATIVE_FIELDS.map((name) => NARRATIVE_REPORT_COLUMNS.find((c) => sourceFieldsOf(c)[0] === name)!);

/**
 * Builds the narrative index of the reports (ordinal r = report r) and drops the six indexed
 * columns from `data` (set to null); null, leaving `data` as it is, when the store keeps none of
 * them (built without `--narratives`).
 * @throws Error when an ordinal's VAERS_ID differs from the report's (never for a store read by src/serve/store/reports.ts).
 */
export function indexNarratives(data: ReportData): NarrativeIndex | null {
  const columns = INDEXED_COLUMNS.map((c) => data[c.field]);
  if (columns.every((column) => column === null)) return null;
  const records: NarrativeRecord[] = new Array<NarrativeRecord>(data.count);
  for (let r = 0; r < data.count; r++) records[r] = { id: data.id[r], fields: columns.map((column) => column?.[r] ?? null) };
  const index = NarrativeIndex.build(records);
  for (let r = 0; r < data.count; r++) if (index.idAt(r) !== data.id[r]) throw new Error(`narrative index: ordinal ${r} is VAERS_ID ${index.idAt(r)}, not ${data.id[r]}`);
  const held = data as unknown as Record<string, unknown>;
  for (const c of INDEXED_COLUMNS) held[c.field] = null;
  return index;
}

/** The store names of the six indexed columns (read as null when a stored index holds them). */
const INDEXED_STORE_COLUMNS: ReadonlySet<string> = new Set(INDEXED_COLUMNS.map((c) => c.store));

/** Whether `index` numbers exactly the reports of `data`, in order (ordinal r = report r). */
function indexes(index: NarrativeIndex, data: ReportData): boolean {
  if (index.size !== data.count) return false;
  for (let r = 0; r < data.count; r++) if (index.idAt(r) !== data.id[r]) return false;
  return true;
}

/** What {@link readIndexedReports} did, for tests and the bench: the index `loaded` from its file, `built` (and `saved` to it or not), or `none` (no narratives). */
export type IndexSource = { kind: 'loaded' } | { kind: 'built'; saved: boolean } | { kind: 'none' };

/**
 * The report tables of the store at `storePath` (readReportData) with their narrative index:
 * the index from its file beside the store when that file is this store's (index-file.ts key) and
 * numbers its reports, and then the six indexed columns are not read from the store; else read,
 * built (indexNarratives) and written to that file before it resolves (so a load never leaves a
 * temporary file behind it; a folder that cannot be written leaves no file: `source.saved` false,
 * and the index stays in memory). The index holds its file open: the caller closes it
 * (NarrativeIndex.close) when it stops serving it. Null when the store has no report tables.
 * @throws Error naming the file as readReportData does.
 */
export async function readIndexedReports(storePath: string): Promise<{ data: ReportData; narratives: NarrativeIndex | null; source: IndexSource } | null> {
  let key: string | null = null;
  try {
    key = indexKey(storePath);
  } catch {
    // No store file: readReportData says so.
  }
  const file = indexFileOf(storePath);
  const stored = key === null ? null : loadIndexFile(file, key);
  if (stored) {
    let data: ReportData | null;
    try {
      data = await readReportData(storePath, { skip: INDEXED_STORE_COLUMNS });
    } catch (error) {
      stored.close();
      throw error;
    }
    if (data && indexes(stored, data)) return { data, narratives: stored, source: { kind: 'loaded' } };
    stored.close();
    if (!data) return null;
  }
  const data = await readReportData(storePath);
  if (!data) return null;
  const built = indexNarratives(data);
  if (!built || key === null) return { data, narratives: built, source: { kind: 'none' } };
  const reopened = await saveAndReopen(file, key, built);
  return { data, narratives: reopened ?? built, source: { kind: 'built', saved: reopened !== null } };
}

/** The text of narrative column `c` of report `r` (null: blank, or not kept): from the index for the six indexed fields, else from `data`. */
export function narrativeText(data: ReportData, narratives: NarrativeIndex | null, c: NarrativeReportColumn, r: number): string | null {
  const k = INDEXED.get(c.field);
  if (k !== undefined) return narratives?.text(r, k) ?? null;
  return data[c.field]?.[r] ?? null;
}

/**
 * The narrative columns of report `r`, as {@link narrativeText} gives each: the six indexed fields
 * are read from the index together, once, on the first one asked (one read of the index file
 * instead of one per field: a page of the case series lists up to 500 reports).
 */
export function reportNarratives(data: ReportData, narratives: NarrativeIndex | null, r: number): (c: NarrativeReportColumn) => string | null {
  let fields: ReadonlyArray<string | null> | null = null;
  return (c) => {
    const k = INDEXED.get(c.field);
    if (k === undefined) return data[c.field]?.[r] ?? null;
    if (narratives === null) return null;
    fields ??= narratives.fields(r);
    return fields[k];
  };
}
