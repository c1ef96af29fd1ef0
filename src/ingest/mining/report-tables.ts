/**
 * The store's report tables from the reader's report columns (src/ingest/vaers/report-details.ts): the
 * kept reports, their VAX rows and their events, each row produced as the writer reads it. Every
 * `reports` and `report_vaccines` column comes from the one table of report columns
 * (src/domain/report-columns.ts), turned into its store value by its encoding.
 */
import { formatQuarter } from '../../domain/quarter.js';
import { OUTCOME } from '../../domain/report-rules.js';
import { NARRATIVE_REPORT_COLUMNS, STORED_REPORT_COLUMNS, VACCINE_COLUMNS, type StoredReportColumn } from '../../domain/report-columns.js';
import type { ReportEventRow, ReportRow, ReportTables, ReportVaccineRow } from '../../domain/store-schema.js';
import type { ReportDetails } from '../vaers/report-details.js';
import { isoDate } from '../vaers/values.js';
import { REPORT_INDEX, REPORT_TEXT_TABLE } from '../vaers/report-text.js';

/** The store's report order: newest RECVDATE first, then VAERS_ID descending (indexes into `details`). */
function storeOrder(d: ReportDetails): Uint32Array {
  const order = new Uint32Array(d.count);
  for (let i = 0; i < d.count; i++) order[i] = i;
  return order.sort((a, b) => d.received[b] - d.received[a] || d.id[b] - d.id[a]);
}

/** The store value of column `c` of report `i` (src/domain/report-columns.ts `ReportEncoding`). */
function storeValue(d: ReportDetails, c: StoredReportColumn, i: number): string | number | boolean | null {
  switch (c.encoding) {
    case 'id':
      return d.id[i];
    case 'date': {
      const day = d[c.field][i];
      return day === 0 ? null : isoDate(day);
    }
    case 'quarter':
      return formatQuarter(d.quarter[i]);
    case 'number': {
      const x = d[c.field][i];
      return Number.isNaN(x) ? null : x;
    }
    case 'code':
      return c.codes[d[c.field][i]];
    case 'text': {
      const k = d[c.field][i];
      return k < 0 ? null : d.strings[k];
    }
    case 'outcome': {
      const bit = OUTCOME[c.outcome];
      return (d.outcomesKnown[i] & bit) === 0 ? null : (d.outcomes[i] & bit) !== 0;
    }
    case 'narrative':
      return d[c.field]?.[i] ?? null;
  }
}

/**
 * The report tables of the kept reports, in store order (src/domain/store-schema.ts), produced as
 * the writer reads them; `onDone` after the last row. When `d.text` holds the narratives (the
 * build's scratch file, report-text.ts; closed by then), each `reports` row carries its report
 * index (REPORT_INDEX) instead and `text` names the file, whose text the writer joins in SQL.
 * With `releaseText` (whose last use of the narrative columns this is), each report's narrative
 * columns held in `d` are set to null once its row is taken, so that the V8 heap lets the text
 * go while DuckDB takes it.
 */
export function reportTables(d: ReportDetails, onDone: () => void, releaseText = false): ReportTables {
  const order = storeOrder(d);
  const text = (k: number): string | null => (k < 0 ? null : d.strings[k]);
  const narratives = releaseText
    ? NARRATIVE_REPORT_COLUMNS.map((c) => d[c.field] as Array<string | null> | null).filter((column): column is Array<string | null> => column !== null) : [];
  function* reports(): Generator<ReportRow> {
    for (const i of order) {
      const row = Object.fromEntries(STORED_REPORT_COLUMNS.map((c) => [c.store, storeValue(d, c, i)]));
      if (d.text) row[REPORT_INDEX] = i;
      yield row as ReportRow;
      for (const column of narratives) column[i] = null;
    }
  }
  function* vaccines(): Generator<ReportVaccineRow> {
    const v = d.vaccines;
    for (const i of order) {
      for (let k = v.start[i]; k < v.start[i + 1]; k++) {
        yield { vaers_id: d.id[i], ...Object.fromEntries(VACCINE_COLUMNS.map((c) => [c.store, text(v[c.field][k])])) } as ReportVaccineRow;
      }
    }
  }
  function* events(): Generator<ReportEventRow> {
    const e = d.events;
    for (const i of order) for (let k = e.start[i]; k < e.start[i + 1]; k++) yield { vaers_id: d.id[i], term: d.strings[e.term[k]], version: text(e.version[k]) };
    onDone();
  }
  return { reports: reports(), vaccines: vaccines(), events: events(), ...(d.text ? { text: { file: d.text.path, table: REPORT_TEXT_TABLE, key: REPORT_INDEX, columns: NARRATIVE_REPORT_COLUMNS.map((c) => c.store) } } : {}) };
}
