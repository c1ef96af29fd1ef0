/**
 * The store's report tables from the reader's report columns (src/ingest/vaers/report-details.ts): the
 * kept reports, their VAX rows and their events, each batch of rows produced as the writer reads it. Every
 * `reports` and `report_vaccines` column comes from the one table of report columns
 * (src/domain/report-columns.ts), turned into its store value by its encoding.
 */
import { formatQuarter } from '../../domain/quarter.js';
import { OUTCOME } from '../../domain/report-rules.js';
import { NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type StoredReportColumn } from '../../domain/report-columns.js';
import type { ColumnBatch, ColumnValues } from '../store/appender.js';
import type { ReportTablesInput } from '../store/write.js';
import type { ReportDetails } from '../vaers/report-details.js';
import { isoDate } from '../vaers/values.js';
import { REPORT_INDEX, REPORT_TEXT_TABLE } from '../vaers/report-text.js';

/** The store's report order: newest RECVDATE first, then VAERS_ID descending (indexes into `details`). */
function storeOrder(d: ReportDetails): Uint32Array {
  const order = new Uint32Array(d.count);
  for (let i = 0; i < d.count; i++) order[i] = i;
  return order.sort((a, b) => d.received[b] - d.received[a] || d.id[b] - d.id[a]);
}

/** The string of string number `k` of `d` (details.strings), null for a blank (a negative number). */
function stringAt(d: ReportDetails, k: number): string | null {
  return k < 0 ? null : d.strings[k];
}

/** Reports per batch of columns (one DuckDB data chunk of `reports`; the VAX rows and events of as many reports). */
const BATCH_REPORTS = 2048;

/**
 * The store values of column `c` of the reports `slice` (indexes into `d`, in store order), as the
 * appender takes them (src/domain/report-columns.ts `ReportEncoding`; appender.ts ColumnValues):
 * one array per column and batch, no object per row.
 */
function storeColumn(d: ReportDetails, c: StoredReportColumn, slice: Uint32Array, quarters: Map<number, string>): ColumnValues {
  const values = (value: (i: number) => unknown): ColumnValues => ({ kind: 'values', values: Array.from(slice, value) });
  switch (c.encoding) {
    case 'id':
      return values((i) => d.id[i]);
    case 'date': {
      const days = d[c.field];
      return values((i) => (days[i] === 0 ? null : isoDate(days[i])));
    }
    case 'quarter':
      return values((i) => {
        const q = d.quarter[i];
        let text = quarters.get(q);
        if (text === undefined) quarters.set(q, (text = formatQuarter(q)));
        return text;
      });
    case 'number': {
      const numbers = d[c.field];
      // A NaN (unknown) is stored as null, as every non-finite number (appender.ts).
      return { kind: 'numbers', values: Float64Array.from(slice, (i) => numbers[i]), at: 0, stride: 1 };
    }
    case 'code': {
      const codes = d[c.field];
      return values((i) => c.codes[codes[i]]);
    }
    case 'text': {
      const keys = d[c.field];
      return values((i) => stringAt(d, keys[i]));
    }
    case 'outcome': {
      const bit = OUTCOME[c.outcome];
      return values((i) => ((d.outcomesKnown[i] & bit) === 0 ? null : (d.outcomes[i] & bit) !== 0));
    }
    case 'narrative': {
      const texts = d[c.field];
      return texts ? values((i) => texts[i] ?? null) : { kind: 'constant', value: null };
    }
  }
}

/**
 * The report tables of the kept reports, in store order (src/domain/store-schema.ts), as batches
 * of columns (appender.ts ColumnBatch, each table's columns in order) produced as the writer reads
 * them; `onDone` after the last batch. When `d.text` holds the narratives (the build's scratch
 * file, report-text.ts; closed by then), each `reports` batch carries the reports' index
 * (REPORT_INDEX, its last column) and `text` names the file, whose text the writer joins in SQL.
 * With `releaseText` (whose last use of the narrative columns this is), each report's narrative
 * columns held in `d` are set to null once its batch is taken, so that the V8 heap lets the text
 * go while DuckDB takes it.
 */
export function reportTables(d: ReportDetails, onDone: () => void, releaseText = false): ReportTablesInput {
  const order = storeOrder(d);
  const slices = function* (): Generator<Uint32Array> {
    for (let from = 0; from < order.length; from += BATCH_REPORTS) yield order.subarray(from, Math.min(order.length, from + BATCH_REPORTS));
  };
  const narratives = releaseText
    ? NARRATIVE_REPORT_COLUMNS.map((c) => d[c.field] as Array<string | null> | null).filter((column): column is Array<string | null> => column !== null) : [];
  const quarters = new Map<number, string>();
  function* reports(): Generator<ColumnBatch> {
    for (const slice of slices()) {
      const columns = STORED_REPORT_COLUMNS.map((c) => storeColumn(d, c, slice, quarters));
      if (d.text) columns.push({ kind: 'numbers', values: slice, at: 0, stride: 1 });
      yield { rows: slice.length, columns };
      for (const column of narratives) for (const i of slice) column[i] = null;
    }
  }
  /** The rows of `runs` (`start`: report i's rows are start[i] .. start[i + 1] - 1) of each report of each slice: its id and `value(c, k)` of each column c of row k. */
  function* runsOf(runs: Int32Array, width: number, value: (c: number, k: number) => string | null): Generator<ColumnBatch> {
    for (const slice of slices()) {
      const ids: number[] = [];
      const columns: Array<Array<string | null>> = Array.from({ length: width }, () => []);
      for (const i of slice) {
        for (let k = runs[i]; k < runs[i + 1]; k++) {
          ids.push(d.id[i]);
          for (let c = 0; c < width; c++) columns[c].push(value(c, k));
        }
      }
      yield { rows: ids.length, columns: [{ kind: 'values', values: ids }, ...columns.map((values): ColumnValues => ({ kind: 'values', values }))] };
    }
  }
  const v = d.vaccines;
  const vaccineFields = VACCINE_COLUMNS.map((c) => v[c.field]);
  function* events(): Generator<ColumnBatch> {
    yield* runsOf(d.events.start, 2, (c, k) => (c === 0 ? d.strings[d.events.term[k]] : stringAt(d, d.events.version[k])));
    onDone();
  }
  return {
    reports: { batches: reports() }, vaccines: { batches: runsOf(v.start, vaccineFields.length, (c, k) => stringAt(d, vaccineFields[c][k])) }, events: { batches: events() },
    ...(d.text ? { text: { file: d.text.path, table: REPORT_TEXT_TABLE, key: REPORT_INDEX, columns: NARRATIVE_REPORT_COLUMNS.map((c) => c.store) } } : {}),
  };
}
