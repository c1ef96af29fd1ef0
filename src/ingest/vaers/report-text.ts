/**
 * The kept reports' free text (the narrative columns of src/domain/report-columns.ts:
 * SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX, ALLERGIES) held by DuckDB
 * during a build instead of the V8 heap (issue 41; docs/architecture.md "Scale"): the reader
 * appends each kept report's text to a scratch DuckDB file beside the store's temporary file
 * (table REPORT_TEXT_TABLE, keyed by the report's index in `VaersData.reports`), and the build's
 * consumers read it back in bounded chunks (`textChunks`): the linkage thread's text, the triage
 * evidence, and the store's `reports` table (write.ts joins the file's table in SQL).
 *
 * The file is the build's own: created empty (an older one is removed), closed before the store
 * is written (write.ts attaches it read-only), removed on success and on failure (`remove`) and,
 * by the CLI build, when it is interrupted (src/commands/build.ts removeBuildTemporaries); a
 * process killed outright leaves it (docs/operations.md "A build's disk and temporary files").
 */
import { rm } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { NARRATIVE_REPORT_COLUMNS } from '../../domain/report-columns.js';
import type { NarrativeField, TextColumns } from './text-chunks.js';

// The DuckDB-free helpers live in text-chunks.ts (worker threads import them without loading DuckDB's addon).
export { hasText, textChunks, TEXT_CHUNK_REPORTS, type NarrativeField, type TextColumns, type TextHolder } from './text-chunks.js';
import { rowAppender, type AppendColumns, type RowAppender } from '../store/appender.js';

/** The scratch file's table of report text: `report_index` (INTEGER, the report's index in the read) and one VARCHAR per narrative column (its store name). */
export const REPORT_TEXT_TABLE = 'report_text';
/** The key column of REPORT_TEXT_TABLE. */
export const REPORT_INDEX = 'report_index';

const COLUMNS: AppendColumns = [[REPORT_INDEX, 'INTEGER'], ...NARRATIVE_REPORT_COLUMNS.map((c) => [c.store, 'VARCHAR'] as const)];

/** A kept report's text, one value (null: empty cell) per narrative field. */
export type ReportTextValues = { [F in NarrativeField]: string | null };

/** DuckDB's memory cap for the scratch file while it is written (it spills to `<path>.tmp` beyond it), and once it is only read. */
const MEMORY_LIMIT = '256MB';
const READ_MEMORY_LIMIT = '64MB';

/** The files DuckDB makes for a database file `path` (itself, its WAL, its spill folder). */
export async function removeDuckDbFiles(path: string): Promise<void> {
  for (const file of [path, `${path}.wal`, `${path}.tmp`]) await rm(file, { force: true, recursive: true });
}

/**
 * The scratch DuckDB file of a build's report text. Index `i` of the text is the `i`-th report
 * added, which the reader keeps in the order of `VaersData.reports` (report-details.ts).
 */
export class ReportText {
  private appender: RowAppender<object> | null;
  private count = 0;
  /** The row being appended (the appender copies its values). */
  private readonly row: Record<string, string | number | null> = {};

  private constructor(readonly path: string, private instance: DuckDBInstance | null, private connection: DuckDBConnection | null, appender: RowAppender<object>) {
    this.appender = appender;
  }

  /**
   * Creates an empty scratch file at `path` (removing an older one) ready to take text.
   * @throws DuckDB's error when the file cannot be created (nothing is left behind).
   */
  static async create(path: string): Promise<ReportText> {
    await removeDuckDbFiles(path);
    let instance: DuckDBInstance | null = null;
    try {
      instance = await DuckDBInstance.create(path, { memory_limit: MEMORY_LIMIT, threads: '1' });
      const connection = await instance.connect();
      await connection.run(`CREATE TABLE ${REPORT_TEXT_TABLE} (${COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})`);
      return new ReportText(path, instance, connection, await rowAppender(connection, REPORT_TEXT_TABLE, COLUMNS));
    } catch (error) {
      instance?.closeSync();
      await removeDuckDbFiles(path);
      throw error;
    }
  }

  /** Appends the text of the next kept report (index: the number added before it). */
  add(values: ReportTextValues): void {
    const row = this.row;
    row[REPORT_INDEX] = this.count++;
    for (const c of NARRATIVE_REPORT_COLUMNS) row[c.store] = values[c.field];
    this.appender!.append(row);
  }

  /** The number of reports added. */
  get reports(): number {
    return this.count;
  }

  /**
   * Ends the writing (the last rows appended, the file checkpointed) and opens the file again
   * read-only with a smaller memory cap (READ_MEMORY_LIMIT: the pages cached while writing go);
   * the text can then be read (`read`, textChunks).
   */
  async finishWriting(): Promise<void> {
    if (this.appender === null) return;
    const appender = this.appender;
    this.appender = null;
    appender.finish();
    await this.connection!.run('CHECKPOINT');
    this.close();
    await this.openReadOnly();
  }

  /**
   * Fills the empty file from elsewhere instead of `add`: closes it, lets `fill` write REPORT_TEXT_TABLE
   * (the DuckDB read attaches the file and inserts every kept report's text in SQL: duckdb-details.ts
   * insertReportText; it returns the rows written), then opens it read-only as `finishWriting` does.
   * @throws Error when text was added already; `fill`'s error (the file stays closed).
   */
  async fill(fill: (path: string) => Promise<number>): Promise<void> {
    if (this.appender === null || this.count > 0) throw new Error(`report text ${this.path}: fill after add or finishWriting`);
    this.close();
    this.count = await fill(this.path);
    await this.openReadOnly();
  }

  private async openReadOnly(): Promise<void> {
    this.instance = await DuckDBInstance.create(this.path, { access_mode: 'READ_ONLY', memory_limit: READ_MEMORY_LIMIT, threads: '1' });
    this.connection = await this.instance.connect();
  }

  /**
   * The text of reports `from` .. `to - 1` (after finishWriting), per field of `fields`, each an
   * array of `to - from` values in report order. The rows are streamed chunk by chunk in the
   * table's insertion order (which is report order: `add` numbers them), never sorted or
   * materialised by DuckDB, so the read stays within READ_MEMORY_LIMIT whatever the text's length.
   * @throws Error when the file is closed, or when a row is not the next report expected (the file
   *   is not this build's, in order).
   */
  async read<F extends NarrativeField>(fields: readonly F[], from: number, to: number): Promise<TextColumns<F>> {
    if (this.connection === null) throw new Error(`report text ${this.path}: read after close`);
    const stores = fields.map((f) => NARRATIVE_REPORT_COLUMNS.find((c) => c.field === f)!.store);
    const result = await this.connection.stream(
      `SELECT ${REPORT_INDEX}, ${stores.join(', ')} FROM ${REPORT_TEXT_TABLE} WHERE ${REPORT_INDEX} >= $1 AND ${REPORT_INDEX} < $2`, [from, to]);
    const columns: Array<Array<string | null>> = fields.map(() => []);
    let expected = from;
    for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const index = chunk.getColumnVector(0);
      const vectors = fields.map((_, k) => chunk!.getColumnVector(k + 1));
      for (let r = 0; r < chunk.rowCount; r++) {
        const got = index.getItem(r);
        if (got !== expected) throw new Error(`report text ${this.path}: row ${String(got)} where report ${expected} was expected (the file is not in report order)`);
        expected++;
        for (let k = 0; k < fields.length; k++) columns[k]!.push(vectors[k]!.getItem(r) as string | null);
      }
    }
    if (expected !== to) throw new Error(`report text ${this.path}: reports ${expected} .. ${to - 1} are missing`);
    return Object.fromEntries(fields.map((f, k) => [f, columns[k]!])) as TextColumns<F>;
  }

  /** Closes the file (the store's writer then attaches it read-only); idempotent. */
  close(): void {
    this.appender?.close();
    this.appender = null;
    this.connection?.closeSync();
    this.instance?.closeSync();
    this.connection = null;
    this.instance = null;
  }

  /** Closes and removes the file (and DuckDB's WAL and spill folder). */
  async remove(): Promise<void> {
    this.close();
    await removeDuckDbFiles(this.path);
  }
}
