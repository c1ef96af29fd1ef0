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
import { dataCellSql, dataTextCells, groupCell, isFreeText, textCell } from './duckdb-cells.js';
import { RAW_TABLES, type VaersHeaders } from './duckdb-load.js';
import { column, columnsOf, jsTrim } from './duckdb-join.js';
import { ReportDetailsBuilder, reportValues, type Interner, type ReportDetails, type ReportValues } from './report-details.js';
import { REPORT_INDEX, REPORT_TEXT_TABLE } from './report-text.js';
import { reportFieldColumns, reportFields } from './report-fields.js';
import { CELL_COLUMNS, dataDetailColumns, dataDetails, type DataDetails } from './rows.js';
import { vectorNumbers } from '../../domain/vector-numbers.js';
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
  const vaxCells = VACCINE_COLUMNS.slice(1).map((c) => textCell(vaxRaw, headers.VAX, c.source));
  const terms = symptomsRaw.map((c) => /^SYMPTOM(\d+)$/.exec(c.trim().toUpperCase())?.[1]).filter((n) => n !== undefined).sort((a, b) => Number(a) - Number(b));
  const versions = `nullif([${terms.map((n) => groupCell(symptomsRaw, headers.SYMPTOMS, [`SYMPTOMVERSION${n}`], 't')).join(', ') || "''"}][j.k], '')`;
  // Every free-text value of the kept rows once, numbered (detailStrings): the queries below return each text cell as its
  // number (a join), and each distinct value crosses into JavaScript once, not once per row (decoding the strings row by
  // row was a third of this step's CPU; a cast to an ENUM of the values took 10 times the join's time).
  const strings = await detailStrings(connection, builder.strings, [
    `SELECT unnest([${dataTextCells(dataRaw, headers.DATA).join(', ')}]) FROM report_index r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq`,
    `SELECT unnest([${vaxCells.join(', ')}]) FROM joined_vax j JOIN report_index r ON r.seq = j.report JOIN ${RAW_TABLES.VAX} t ON t.rowid = j.seq`,
    `SELECT ${versions} FROM joined_events j JOIN report_index r ON r.seq = j.report JOIN ${RAW_TABLES.SYMPTOMS} t ON t.rowid = j.seq`,
  ]);
  /**
   * The select list `select` (SQL items, a trailing ` AS name` dropped) over `from` (as `y.cK`, K its index), the items
   * whose index is in `texts` as their numbers in DETAIL_STRINGS (-1: null), ordered by `order` (over `y.cK`).
   */
  const numbered = (select: readonly string[], texts: ReadonlySet<number>, from: string, order: string): string => `
    SELECT ${select.map((_, k) => (texts.has(k) ? `coalesce(d${k}.code, -1)` : `y.c${k}`)).join(', ')}
    FROM (SELECT ${select.map((item, k) => `${item.replace(/ AS \w+$/, '')} AS c${k}`).join(', ')} ${from}) y
    ${[...texts].map((k) => `LEFT JOIN ${DETAIL_STRINGS} d${k} ON d${k}.s = y.c${k}`).join(' ')}
    ORDER BY ${order}`;
  const cells = dataCellSql(dataRaw, headers.DATA);
  const within = (from: number, to: number): string => `r.i >= ${from} AND r.i < ${to}`;
  // The trimmed cells materialized once: inlined, each was trimmed again wherever the values read it (2005-2006 files: the
  // DATA query 1.68 s of CPU inlined, 0.65 s materialized and with the cheaper jsTrim; 2026-11-29, load ~35).
  // Every column a number (vectorNumbers reads its vector whole), the text as numbers; an odd row's cells as strings.
  const dataSelect = ['i', 'id::DOUBLE', 'grp::INTEGER', 'line::INTEGER', 'received::INTEGER', ...cells.select];
  const dataTexts = new Set(CELL_COLUMNS.flatMap((c, k) => (isFreeText(c) ? [dataSelect.length - CELL_COLUMNS.length + k] : [])));
  const dataSql = (from: number, to: number): string => `
    WITH x AS MATERIALIZED (
      SELECT r.i, r.id, r.received, t.grp, t.line, ${cells.cells.join(', ')}
      FROM report_index r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq WHERE ${within(from, to)})
    ${numbered(dataSelect, dataTexts, 'FROM x', 'y.c0')}`;
  const vaxSql = (from: number, to: number): string => numbered(['r.i', 'n.number::INTEGER', 'j.seq', ...vaxCells], new Set(vaxCells.map((_, k) => 3 + k)),
    `FROM joined_vax j JOIN report_index r ON r.seq = j.report JOIN vaccine_numbers n USING (name) JOIN ${RAW_TABLES.VAX} t ON t.rowid = j.seq WHERE ${within(from, to)}`,
    'y.c0, y.c2');
  const eventsSql = (from: number, to: number): string => numbered(['r.i', 'n.number::INTEGER', 'j.seq', 'j.k', versions], new Set([4]),
    `FROM joined_events j JOIN report_index r ON r.seq = j.report JOIN event_numbers n USING (term) JOIN ${RAW_TABLES.SYMPTOMS} t ON t.rowid = j.seq WHERE ${within(from, to)}`,
    'y.c0, y.c2, y.c3');
  const at = cells.layout.groups.map((c, g) => ({ fields: reportFieldColumns(c), details: dataDetailColumns(c), label: folder.groups[g].members.DATA.label }));
  const seen = new Int32Array(names.events.length).fill(-1);
  for (let from = 0; from < count; from += batchReports) {
    const to = Math.min(count, from + batchReports);
    const vax = Array.from({ length: to - from }, (): number[] => []);
    const events = Array.from({ length: to - from }, (): number[] => []);
    for await (const chunk of chunks(connection, eventsSql(from, to))) {
      const rows = chunk.rowCount;
      // Columns: report, event number, seq and k (ORDER BY only: not read), the version.
      const [reports, numbers, versionsOf] = [0, 1, 4].map((k) => vectorNumbers(chunk.getColumnVector(k), rows));
      for (let r = 0; r < rows; r++) {
        const i = reports[r];
        const event = numbers[r];
        if (seen[event] === i) continue;
        seen[event] = i;
        builder.pushEventNumbers(events[i - from], names.events[event], event, strings.number(versionsOf[r]));
      }
    }
    const row: number[] = new Array<number>(VACCINE_COLUMNS.length - 1);
    for await (const chunk of chunks(connection, vaxSql(from, to))) {
      const rows = chunk.rowCount;
      // Columns: report, vaccine number, seq (ORDER BY only: not read), then the cells.
      const [reports, vaccines] = [0, 1].map((k) => vectorNumbers(chunk.getColumnVector(k), rows));
      const cellsOf = vaxCells.map((_, k) => vectorNumbers(chunk.getColumnVector(3 + k), rows));
      for (let r = 0; r < rows; r++) {
        const vaccine = vaccines[r];
        for (let k = 0; k < cellsOf.length; k++) row[k] = strings.number(cellsOf[k][r]);
        builder.pushVaxNumbers(vax[reports[r] - from], names.vaccines[vaccine], vaccine, row);
      }
    }
    for await (const chunk of chunks(connection, dataSql(from, to))) {
      const rows = chunk.rowCount;
      const [reports, ids, grps, lines, received, odd] = [0, 1, 2, 3, 4, 5].map((k) => vectorNumbers(chunk.getColumnVector(k), rows));
      const oddCells = chunk.getColumnVector(6);
      const [sex, age, ageSource, outcomes, ...values] = Array.from({ length: chunk.columnCount - 7 }, (_, k) => vectorNumbers(chunk.getColumnVector(7 + k), rows));
      for (let r = 0; r < rows; r++) {
        const i = reports[r];
        const id = ids[r];
        const date = received[r];
        const quarter = dateQuarter(date);
        const a = at[grps[r]];
        let report: ReportValues;
        let bad: DataDetails['bad'] = null;
        if (odd[r] === 1) {
          // A cell in no plain form: the streaming reader's functions read the row's cells.
          const fields = ((oddCells.getItem(r) as { items: Array<string | null> }).items).map((c) => c ?? '');
          const details = dataDetails(fields, a.details, false);
          bad = details.bad;
          report = reportValues(id, date, quarter, reportFields(fields, a.fields, Math.floor(quarter / 4)), details, a.details.outcomesKnown);
        } else {
          const details = { bad: null } as Record<string, unknown>;
          for (let k = 0; k < CELL_COLUMNS.length; k++) {
            const c = CELL_COLUMNS[k];
            const value = values[k][r];
            details[c.field] = c.encoding === 'date' ? (value === 0 ? null : value)
              : c.encoding === 'number' ? (Number.isNaN(value) ? null : value)
                : 'codes' in c ? (value < 0 ? null : c.codes[value]) : strings.value(value);
          }
          for (const n of NARRATIVE_REPORT_COLUMNS) details[n.field] = null;
          const years = age[r];
          const known = Number.isNaN(years) ? null : years;
          const source = ageSource[r];
          report = reportValues(id, date, quarter, {
            sex: SEX_CODES[sex[r]], age: known, ageSource: source < 0 ? null : AGE_SOURCES[source], ageGroup: ageGroupOf(known),
            year: Math.floor(quarter / 4), outcomes: outcomes[r],
          }, details as unknown as DataDetails, a.details.outcomesKnown);
        }
        builder.add(report, bad, vax[i - from], events[i - from], { file: a.label, line: lines[r] });
      }
    }
  }
  return builder.finish();
}

/** The table of the read's database numbering the free-text values of the kept rows (`s`, `code` from 0; detailStrings). */
const DETAIL_STRINGS = 'detail_strings';

/**
 * The numbers of DETAIL_STRINGS as string numbers of an Interner (each value interned at its
 * first use, so the builder's strings hold only the values used).
 */
class DetailStrings {
  private readonly numbers: Int32Array;

  constructor(private readonly values: string[], private readonly interner: Interner) {
    this.numbers = new Int32Array(values.length).fill(-1);
  }

  /** The string number of code `code` (-1: null). */
  number(code: number): number {
    if (code < 0) return -1;
    let n = this.numbers[code];
    if (n < 0) {
      n = this.numbers[code] = this.interner.of(this.values[code]);
      // The interner's string from now on: one copy of each value used (Interner.of copies a long one).
      this.values[code] = this.interner.values[n];
    }
    return n;
  }

  /** The value of code `code` (null for -1), the interner's own string (so that interning it again finds it). */
  value(code: number): string | null {
    return code < 0 ? null : this.interner.values[this.number(code)];
  }
}

/**
 * Makes DETAIL_STRINGS in `connection` from the distinct values the queries `sources` return (one
 * VARCHAR column each; NULL ignored), and reads them in code order.
 */
async function detailStrings(connection: DuckDBConnection, interner: Interner, sources: readonly string[]): Promise<DetailStrings> {
  await connection.run(`CREATE OR REPLACE TABLE ${DETAIL_STRINGS} AS
    SELECT s, (row_number() OVER () - 1)::INTEGER AS code
    FROM (SELECT DISTINCT s FROM (${sources.map((sql) => `SELECT * FROM (${sql}) AS v(s)`).join(' UNION ALL ')}) WHERE s IS NOT NULL)`);
  const values: string[] = [];
  for await (const chunk of chunks(connection, `SELECT s FROM ${DETAIL_STRINGS} ORDER BY code`)) {
    const vector = chunk.getColumnVector(0);
    for (let r = 0, rows = chunk.rowCount; r < rows; r++) values.push(vector.getItem(r) as string);
  }
  return new DetailStrings(values, interner);
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
