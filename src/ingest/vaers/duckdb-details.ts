/**
 * The kept reports' own values (report-details.ts ReportDetails) from the tables duckdb-join.ts and
 * duckdb-reports.ts derive (issue 41, "DuckDB does the relational work"), and their narratives
 * copied inside DuckDB into the build's scratch text file (report-text.ts) without crossing the V8 heap.
 *
 * DuckDB reads the cells: each kept report's DATA row comes as typed values (duckdb-cells.ts: dates
 * as `yyyymmdd`, numbers, codes as indexes, the age and outcome bits, free text trimmed), a row with
 * a cell in no plain form as its cells, read by the streaming reader's functions (report-fields.ts
 * reportFields, rows.ts dataDetails: they name its unreadable cells by file and line); its VAX rows
 * of the latest version with a VAX_NAME (duckdb-reports.ts `joined_vax`) as the vaccine's number and
 * the other cells trimmed (NULL when blank), in file order; its terms (`joined_events`) as the
 * event's number with its SYMPTOMVERSIONn, in file order, the first of each term kept. The same
 * ReportDetailsBuilder as read.ts. The string numbers (`strings`) follow this order of reading; the
 * values they resolve to are readVaers's (whose own numbering depends on how its VAX and SYMPTOMS
 * streams interleave).
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { NARRATIVE_REPORT_COLUMNS, VACCINE_COLUMNS } from '../../domain/report-columns.js';
import { AGE_SOURCES, ageGroupOf, SEX_CODES } from '../../domain/report-rules.js';
import { dataCellSql, groupCell } from './duckdb-cells.js';
import { RAW_TABLES, type VaersHeaders } from './duckdb-load.js';
import { column, columnsOf, jsTrim } from './duckdb-join.js';
import { ReportDetailsBuilder, reportValues, type ReportDetails, type ReportValues } from './report-details.js';
import { REPORT_INDEX, REPORT_TEXT_TABLE } from './report-text.js';
import { reportFieldColumns, reportFields } from './report-fields.js';
import { CELL_COLUMNS, dataDetailColumns, dataDetails, type DataDetails, type VaxRowValues } from './rows.js';
import type { VaersFolder } from './sources.js';
import { dateQuarter } from './values.js';

/** The names the report lists numbered (duckdb-reports.ts vaersReportLists: `vaccines`, `events`). */
export interface ListNames {
  vaccines: readonly string[];
  events: readonly string[];
}

/**
 * The kept reports' values (after joinVaersTables and vaersReportLists, whose `joined_vax`,
 * `joined_events`, `vaccine_numbers` and `event_numbers` it reads, with their `names`; `headers` from
 * loadVaersTables), index i being the i-th report of vaers_reports by `seq` (the order of
 * vaersReportLists's reports). The narrative fields are null (they stay in DuckDB: insertReportText).
 * Three queries per batch of `batchReports` reports (DETAILS_BATCH): the batch's events, its VAX
 * rows, then its DATA rows.
 */
export async function vaersReportDetails(
  connection: DuckDBConnection, folder: VaersFolder, headers: VaersHeaders, names: ListNames, batchReports = DETAILS_BATCH,
): Promise<ReportDetails> {
  const builder = new ReportDetailsBuilder(false, null);
  const [dataRaw, vaxRaw, symptomsRaw] = await Promise.all((['DATA', 'VAX', 'SYMPTOMS'] as const).map((k) => columnsOf(connection, RAW_TABLES[k])));
  await connection.run(`CREATE OR REPLACE TABLE report_index AS
    SELECT (row_number() OVER (ORDER BY seq) - 1)::INTEGER AS i, seq, id, year(received) * 10000 + month(received) * 100 + day(received) AS received
    FROM vaers_reports`);
  const count = Number((await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM report_index')).getRows()[0][0]);
  const cells = dataCellSql(dataRaw, headers.DATA);
  const within = (from: number, to: number): string => `r.i >= ${from} AND r.i < ${to}`;
  // The trimmed cells materialized once: inlined, each was trimmed again wherever the values read it (2005-2006 files: the
  // DATA query 1.68 s of CPU inlined, 0.65 s materialized and with the cheaper jsTrim; 2026-11-29, load ~35).
  const dataSql = (from: number, to: number): string => `
    WITH x AS MATERIALIZED (
      SELECT r.i, r.id, r.received, t.grp, t.line, ${cells.cells.join(', ')}
      FROM report_index r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq WHERE ${within(from, to)})
    SELECT i, id::DOUBLE, grp, line, received::INTEGER, ${cells.select.join(', ')} FROM x ORDER BY i`;
  const vaxCells = VACCINE_COLUMNS.slice(1).map((c) => `nullif(${groupCell(vaxRaw, headers.VAX, [...c.source.current, ...c.source.older], 't')}, '')`);
  const vaxSql = (from: number, to: number): string => `
    SELECT r.i, n.number, ${vaxCells.join(', ')}
    FROM joined_vax j JOIN report_index r ON r.seq = j.report JOIN vaccine_numbers n USING (name) JOIN ${RAW_TABLES.VAX} t ON t.rowid = j.seq
    WHERE ${within(from, to)} ORDER BY r.i, j.seq`;
  const terms = symptomsRaw.map((c) => /^SYMPTOM(\d+)$/.exec(c.trim().toUpperCase())?.[1]).filter((n) => n !== undefined).sort((a, b) => Number(a) - Number(b));
  const versions = terms.map((n) => groupCell(symptomsRaw, headers.SYMPTOMS, [`SYMPTOMVERSION${n}`], 't'));
  const eventsSql = (from: number, to: number): string => `
    SELECT r.i, n.number, nullif([${versions.join(', ') || "''"}][j.k], '')
    FROM joined_events j JOIN report_index r ON r.seq = j.report JOIN event_numbers n USING (term) JOIN ${RAW_TABLES.SYMPTOMS} t ON t.rowid = j.seq
    WHERE ${within(from, to)} ORDER BY r.i, j.seq, j.k`;
  const at = cells.layout.groups.map((c, g) => ({ fields: reportFieldColumns(c), details: dataDetailColumns(c), label: folder.groups[g].members.DATA.label }));
  const vaxRow = Object.fromEntries(VACCINE_COLUMNS.map((c) => [c.field, null])) as unknown as Record<string, string | null>;
  const seen = new Int32Array(names.events.length).fill(-1);
  for (let from = 0; from < count; from += batchReports) {
    const to = Math.min(count, from + batchReports);
    const vax = Array.from({ length: to - from }, (): number[] => []);
    const events = Array.from({ length: to - from }, (): number[] => []);
    for await (const chunk of chunks(connection, eventsSql(from, to))) {
      const [reports, numbers, versionsOf] = [0, 1, 2].map((k) => chunk.getColumnVector(k));
      for (let r = 0; r < chunk.rowCount; r++) {
        const i = reports.getItem(r) as number;
        const event = numbers.getItem(r) as number;
        if (seen[event] === i) continue;
        seen[event] = i;
        builder.pushEventRow(events[i - from], names.events[event], versionsOf.getItem(r) as string | null, event);
      }
    }
    for await (const chunk of chunks(connection, vaxSql(from, to))) {
      const vectors = Array.from({ length: VACCINE_COLUMNS.length + 1 }, (_, k) => chunk.getColumnVector(k));
      for (let r = 0; r < chunk.rowCount; r++) {
        const vaccine = vectors[1].getItem(r) as number;
        vaxRow.name = names.vaccines[vaccine];
        for (let k = 1; k < VACCINE_COLUMNS.length; k++) vaxRow[VACCINE_COLUMNS[k].field] = vectors[k + 1].getItem(r) as string | null;
        builder.pushVaxRow(vax[(vectors[0].getItem(r) as number) - from], vaxRow as unknown as VaxRowValues, vaccine);
      }
    }
    for await (const chunk of chunks(connection, dataSql(from, to))) {
      const vectors = Array.from({ length: chunk.columnCount }, (_, k) => chunk.getColumnVector(k));
      const [reports, ids, grps, lines, received, odd, oddCells, sex, age, ageSource, outcomes] = vectors;
      const values = vectors.slice(11);
      for (let r = 0; r < chunk.rowCount; r++) {
        const i = reports.getItem(r) as number;
        const id = ids.getItem(r) as number;
        const date = received.getItem(r) as number;
        const quarter = dateQuarter(date);
        const group = grps.getItem(r) as number;
        const a = at[group];
        let report: ReportValues;
        let bad: DataDetails['bad'] = null;
        if (odd.getItem(r) as boolean) {
          // A cell in no plain form: the streaming reader's functions read the row's cells.
          const fields = ((oddCells.getItem(r) as { items: Array<string | null> }).items).map((c) => c ?? '');
          const details = dataDetails(fields, a.details, false);
          bad = details.bad;
          report = reportValues(id, date, quarter, reportFields(fields, a.fields, Math.floor(quarter / 4)), details, a.details.outcomesKnown);
        } else {
          const details = { bad: null } as Record<string, unknown>;
          CELL_COLUMNS.forEach((c, k) => {
            const value = values[k].getItem(r);
            details[c.field] = c.encoding === 'date' ? (value === 0 ? null : value)
              : c.encoding === 'number' ? (Number.isNaN(value) ? null : value)
                : 'codes' in c ? ((value as number) < 0 ? null : c.codes[value as number]) : value;
          });
          for (const n of NARRATIVE_REPORT_COLUMNS) details[n.field] = null;
          const years = age.getItem(r) as number;
          const known = Number.isNaN(years) ? null : years;
          const source = ageSource.getItem(r) as number;
          report = reportValues(id, date, quarter, {
            sex: SEX_CODES[sex.getItem(r) as number], age: known, ageSource: source < 0 ? null : AGE_SOURCES[source], ageGroup: ageGroupOf(known),
            year: Math.floor(quarter / 4), outcomes: outcomes.getItem(r) as number,
          }, details as unknown as DataDetails, a.details.outcomesKnown);
        }
        builder.add(report, bad, vax[i - from], events[i - from], { file: a.label, line: lines.getItem(r) as number });
      }
    }
  }
  return builder.finish();
}

/** Reports whose rows the details queries read at once (vaersReportDetails): the default data's 203,445 in one batch, the full download's 2.1 million in nine. */
export const DETAILS_BATCH = 250_000;

/** The chunks of the query `sql`, streamed. */
async function* chunks(connection: DuckDBConnection, sql: string): AsyncGenerator<DuckDBDataChunk> {
  const result = await connection.stream(sql);
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) yield chunk;
}

/**
 * Copies the kept reports' narratives (NARRATIVE_REPORT_COLUMNS, as written; null when blank as
 * JavaScript trims) into REPORT_TEXT_TABLE of the DuckDB file `textPath` (report-text.ts; attached
 * for the copy), keyed by the report's index in vaers_reports's `seq` order, in that order. Each
 * group's column is the one its header names first (current layout's name, else the older one:
 * rows.ts). Returns the rows copied.
 */
export async function insertReportText(connection: DuckDBConnection, headers: VaersHeaders, textPath: string): Promise<number> {
  const raw = await columnsOf(connection, RAW_TABLES.DATA);
  const values = NARRATIVE_REPORT_COLUMNS.map((c) => {
    const names = [...c.source.current, ...c.source.older];
    const cases = headers.DATA.map((header, g) => {
      const name = names.find((n) => header.has(n));
      const at = name === undefined ? null : column(raw, name);
      return at === null ? null : `WHEN ${g} THEN t.${at}`;
    }).filter((w) => w !== null);
    const cell = cases.length ? `CASE t.grp ${cases.join(' ')} END` : 'NULL::VARCHAR';
    return `CASE WHEN ${jsTrim(cell)} <> '' THEN ${cell} END AS ${c.store}`;
  });
  await connection.run(`ATTACH '${textPath.replaceAll("'", "''")}' AS report_text_file`);
  try {
    const inserted = await connection.runAndReadAll(`INSERT INTO report_text_file.${REPORT_TEXT_TABLE}
      SELECT (row_number() OVER (ORDER BY r.seq) - 1)::INTEGER AS ${REPORT_INDEX}, ${values.join(', ')}
      FROM vaers_reports r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq ORDER BY r.seq`);
    await connection.run('CHECKPOINT report_text_file');
    return Number(inserted.getRows()[0]?.[0] ?? 0);
  } finally {
    await connection.run('DETACH report_text_file');
  }
}
